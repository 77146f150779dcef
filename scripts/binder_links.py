"""Write the "launch on Binder" badge of README.md and of lesson 00 from pyproject.toml's repository address.

The address lives only in pyproject.toml ([project.urls] Repository); the book reads it from there too.
After changing it, run this script (tests/course/test_project.py fails until the badges match):

    python scripts/binder_links.py
"""

import pathlib
import re
import tomllib
import urllib.parse

import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRST_LESSON = "notebooks/00_welcome.ipynb"
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
BADGE_PATTERN = re.compile(r"^\[!\[Launch on Binder\]\(.*\)\]\(.*\)$", re.MULTILINE)


def repository_url():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"].rstrip("/")


def binder_url(repository, notebook=FIRST_LESSON):
    """The mybinder.org address that builds ``repository``'s default branch and opens ``notebook`` in JupyterLab.

    >>> binder_url("https://github.com/org/repo")
    'https://mybinder.org/v2/gh/org/repo/HEAD?urlpath=lab/tree/notebooks/00_welcome.ipynb'
    """
    github = re.fullmatch(r"https://github\.com/([^/]+)/([^/]+?)(\.git)?", repository)
    if github:
        spec = f"gh/{github[1]}/{github[2]}"
    else:
        spec = "git/" + urllib.parse.quote(repository, safe="")
    return f"https://mybinder.org/v2/{spec}/HEAD?urlpath=lab/tree/{notebook}"


def badge(repository):
    return f"[![Launch on Binder]({BADGE_IMAGE})]({binder_url(repository)})"


def with_badge(markdown, badge_line):
    """``markdown`` with its badge line replaced, or the badge added after its first heading."""
    if BADGE_PATTERN.search(markdown):
        return BADGE_PATTERN.sub(lambda match: badge_line, markdown, count=1)
    heading, _, rest = markdown.partition("\n")
    return f"{heading}\n\n{badge_line}\n{rest}"


def update_readme(badge_line):
    path = ROOT / "README.md"
    path.write_text(with_badge(path.read_text(encoding="utf-8"), badge_line), encoding="utf-8")


def update_first_lesson(badge_line):
    # Only the lesson's top Markdown cell changes.
    path = ROOT / FIRST_LESSON
    notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    top = notebook.cells[0]
    top.source = with_badge(top.source, badge_line)
    nbformat.write(notebook, path)


if __name__ == "__main__":
    line = badge(repository_url())
    update_readme(line)
    update_first_lesson(line)
    print(line)
