"""Build the course's static HTML book in build/book/ from the lessons' stored outputs (make book).

The sources are staged in build/book-src/: book/index.md and a copy of every lesson in which each cell
tagged ``solution`` also carries MyST-NB's ``hide-cell`` tag, so reference solutions are folded behind
a toggle in the book while the notebooks themselves stay untouched; lesson 00's Binder badge, an image
from mybinder.org, is left out (every page of the book has its own launch button), and a link from a
lesson to a file outside notebooks/ (``../minitape/tape.py``) points at that file in the repository,
since the book holds only the lessons. Nothing is executed
and nothing is downloaded, when building or when reading. Sphinx warnings fail the build.

    python scripts/build_book.py     ->  build/book/index.html, build/book/05_reverse_mode.html, ...
"""

import pathlib
import re
import sys
import time

import nbformat
from sphinx.cmd.build import build_main

from binder_links import BADGE_PATTERN, repository_url

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "build" / "book-src"
OUTPUT = ROOT / "build" / "book"
DOCTREES = ROOT / "build" / "book-doctrees"


LINK_OUT_OF_NOTEBOOKS = re.compile(r"\]\(\.\./([^)\s]+)\)")


def book_copy(notebook_text, repository):
    """The lesson's JSON as the book shows it: ``solution`` cells tagged ``hide-cell``, no Binder badge, and
    links to the repository's other files pointing into ``repository``."""
    notebook = nbformat.reads(notebook_text, as_version=nbformat.NO_CONVERT)
    for cell in notebook.cells:
        tags = cell.metadata.get("tags", [])
        if "solution" in tags and "hide-cell" not in tags:
            cell.metadata["tags"] = tags + ["hide-cell"]
        if cell.cell_type == "markdown":
            markdown = BADGE_PATTERN.sub("", cell.source)
            cell.source = LINK_OUT_OF_NOTEBOOKS.sub(rf"]({repository}/blob/HEAD/\1)", markdown)
    return nbformat.writes(notebook) + "\n"


def write_if_changed(path, text):
    # An unchanged mtime lets Sphinx skip the lessons that did not change since the last build.
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def stage_sources():
    SOURCES.mkdir(parents=True, exist_ok=True)
    staged = {"index.md": (ROOT / "book" / "index.md").read_text(encoding="utf-8")}
    repository = repository_url()
    for lesson in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        staged[lesson.name] = book_copy(lesson.read_text(encoding="utf-8"), repository)
    for stale in SOURCES.iterdir():
        if stale.name not in staged:
            stale.unlink()
    for name, text in staged.items():
        write_if_changed(SOURCES / name, text)


def main():
    start = time.perf_counter()
    stage_sources()
    status = build_main(["-b", "html", "-q", "-W", "--keep-going", "-c", str(ROOT / "book"),
                         "-d", str(DOCTREES), str(SOURCES), str(OUTPUT)])
    if status == 0:
        print(f"book: {OUTPUT / 'index.html'} ({time.perf_counter() - start:.1f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
