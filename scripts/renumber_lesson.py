"""Give a lesson a new number, everywhere the course names it: what a maintainer runs to insert a lesson.

    python scripts/renumber_lesson.py 11 12        # notebooks/11_x.ipynb becomes 12_x.ipynb
    python scripts/renumber_lesson.py 12_hard_parts 13   # name the notebook when two lessons share a number
    python scripts/renumber_lesson.py 11 12 --only notebooks/13_new.ipynb   # only rewrite mentions in these files

To insert a lesson at 10, renumber the lessons from the last one down (11 -> 12, then 10 -> 11), so that
every number is free when it is taken. For lesson OLD the script
- renames ``notebooks/OLD_name.ipynb`` and its exercise files ``classroom/answers/lesson_OLD.py``,
  ``classroom/lessons/lesson_OLD.py`` and ``classroom/data/lesson_OLD.json``;
- rewrites its exercise ids ``OLD.k`` -> ``NEW.k`` (and ``lesson_OLD`` -> ``lesson_NEW``) in headings, check and
  reference cells, their printed results, and those files' keys and messages (the data's hashes do not depend on
  the lesson's number, so it stays current);
- rewrites, in every notebook, README.md, INSTRUCTORS.md, book/ and tests/, the links and names of the
  notebook (``OLD_name.ipynb``, `` `OLD_name` ``, ``[OLD · Title](...)``), "lesson OLD" and the number lists
  after "lessons" ("lessons 05 and OLD"), a course table's row number, and "exercise OLD.k";
- lists the lines that still contain the number beside a word like "lesson", for a person to read.
A number without such a word ("the capstone, 10") is left alone: only a reader can tell what it means.
When no notebook has the number (a lesson still on another branch), only the mentions and links move.
When two notebooks share the number (two branches merged), the named one moves with its own cells and
the links to it; its exercise files and the prose are left for a person, since they may be the other's.
The notebooks' stored outputs keep their meaning (only ids in printed check results change); re-execute
the renamed lesson anyway (``make notebooks LESSONS=NEW``).
"""

import argparse
import pathlib
import re
import subprocess
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from classroom import editions  # noqa: E402  (the repository's own copy: after the path is set)

WORD = r"(?:[Ll]essons?|[Nn]otebooks?|[Cc]hapters?)"
NUMBER_LIST = r"\d{1,2}(?:(?:,\s*|\s+and\s+|\s+or\s+|\s+to\s+|\s*-\s*|\s*–\s*)\d{1,2}(?![\d.]\d))*"


def _number(new, text_number):
    """``new`` written like ``text_number`` was (two digits if it had a leading zero)."""
    return f"{new:02d}" if len(text_number) == 2 else str(new)


def _renumber_list(match_text, old, new):
    """The numbers in a list such as "05 and 10" with ``old`` replaced by ``new``."""
    return re.sub(r"\d{1,2}", lambda m: _number(new, m.group(0)) if int(m.group(0)) == old else m.group(0),
                  match_text)


def rewrite_mentions(text, old, new, old_stem, new_stem, names_only=False):
    """``text`` with every unambiguous mention of lesson ``old`` changed to lesson ``new``.

    Without ``old_stem`` (no notebook here, or ``--only``) every notebook name numbered ``old`` moves;
    ``names_only`` keeps to the notebook's name and links (another lesson still has number ``old``).
    """
    if old_stem:
        text = re.sub(rf"\b{re.escape(old_stem)}\b", new_stem, text)
    else:
        text = re.sub(rf"(?<![\w/]){old:02d}_(\w+\.ipynb|\w+`)", rf"{new:02d}_\1", text)
    text = re.sub(rf"\[{old:02d}(\s*·?\s*[A-Z][^\]]*\]\({re.escape(new_stem) if new_stem else f'{new:02d}_'})",
                  lambda m: f"[{new:02d}{m.group(1)}", text)
    if names_only:
        return text
    text = re.sub(rf"(\b{WORD}\s+)({NUMBER_LIST})",
                  lambda m: m.group(1) + _renumber_list(m.group(2), old, new), text)
    text = re.sub(rf"(?m)^(\|\s*){old:02d}(\s*\|)", rf"\g<1>{new:02d}\2", text)   # a course table's row number
    text = re.sub(rf"(\b[Ee]xercises?\s+){old}\.(\d+[a-z]?)\b", rf"\g<1>{new}.\2", text)
    return text


def rewrite_ids(text, old, new):
    """Exercise ids ``old.k`` -> ``new.k`` in a lesson's own cells and answers.

    Not a float literal such as 10.0 or a format such as ``{x:>10.4f}``; a literal like 10.5 is an id to this rule,
    so the review lists the renamed lesson's lines for a reader.
    """
    text = re.sub(rf"(?<![\w.:<>^=]){old}\.([1-9]\d?[a-h]?)(?![\w]|\.\d)", rf"{new}.\1", text)
    text = re.sub(rf"\blesson={old}\b", f"lesson={new}", text)   # your_parts_or_reference(..., lesson=11)
    text = re.sub(rf"\blesson_{old:02d}\b", f"lesson_{new:02d}", text)
    return re.sub(rf"^(#\s*){old:02d}(\s*·)", rf"\g<1>{new:02d}\2", text)   # the lesson's title


def _move(source, target):
    """``git mv`` inside a work tree (so history follows the file), a plain rename elsewhere."""
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", source.name], cwd=source.parent,
                             capture_output=True, check=False).returncode == 0
    if tracked:
        subprocess.run(["git", "mv", source.name, str(target.relative_to(source.parent))], cwd=source.parent,
                       check=True)
    else:
        source.rename(target)


def _text_files(root):
    files = sorted((root / "notebooks").glob("*.ipynb"))
    files += [root / name for name in ("README.md", "INSTRUCTORS.md") if (root / name).exists()]
    files += sorted((root / "book").glob("*.md")) + sorted((root / "tests").rglob("*.py"))
    return files


def _rewrite_notebook(path, transform, own=False):
    nb = nbformat.read(path, as_version=4)
    changed = False
    for cell in nb.cells:
        new_source = transform(cell.source)
        changed |= new_source != cell.source
        cell.source = new_source
        for output in cell.get("outputs", []) if own else []:
            if output.get("output_type") == "stream":
                text = re.sub(r"(?m)^([⏳✅❌] )(\d+\.\d+[a-z]?)", lambda m: m.group(1) + transform(m.group(2)),
                              output.text)
                changed |= text != output.text
                output.text = text
    if own:
        editions.tidy(nb)
        changed = True
    if changed:
        nbformat.write(nb, path)
    return changed


def find_notebook(root, lesson):
    """The notebook of ``lesson``: a number ("10") or a notebook name ("12_hard_parts"); None if there is none."""
    pattern = f"{lesson}.ipynb" if "_" in lesson else f"{int(lesson):02d}_*.ipynb"
    found = sorted((root / "notebooks").glob(pattern))
    if len(found) > 1:
        sys.exit(f"several notebooks have number {lesson}: {', '.join(p.name for p in found)}; "
                 f"name the one to renumber, e.g. {found[0].stem}")
    return found[0] if found else None


def renumber(root, lesson, new, only=None):
    """Renumber ``lesson`` (a number or a notebook name) to ``new`` under ``root``; returns the lines to review."""
    root = pathlib.Path(root)
    old = int(lesson.split("_")[0])
    source = None if only else find_notebook(root, lesson)
    old_stem = source.stem if source else None
    new_stem = f"{new:02d}{old_stem[2:]}" if source else None
    # Another notebook with the same number (two branches merged): its exercise files and the prose "lesson OLD"
    # may be the other's, so only this notebook's name, links and own cells move.
    shared = bool(source) and len(list((root / "notebooks").glob(f"{old:02d}_*.ipynb"))) > 1
    exercise_files = [(root / "classroom" / folder / f"lesson_{old:02d}{suffix}",
                       root / "classroom" / folder / f"lesson_{new:02d}{suffix}")
                      for folder, suffix in (("answers", ".py"), ("lessons", ".py"), ("data", ".json"))]
    if not only:
        taken = list((root / "notebooks").glob(f"{new:02d}_*.ipynb"))
        clash = [target for source_file, target in exercise_files if target.exists() and source_file.exists()]
        if taken or (clash and not shared):
            sys.exit(f"lesson {new:02d} exists ({', '.join(p.name for p in taken + clash)}): "
                     f"renumber it first (from the last lesson down)")

    def mentions(text, names_only=shared):
        return rewrite_mentions(text, old, new, old_stem, new_stem, names_only)

    target = source.with_name(f"{new_stem}.ipynb") if source else None
    if source:
        _move(source, target)
        _rewrite_notebook(target, lambda text: rewrite_ids(mentions(text, names_only=False), old, new), own=True)
        for source_file, target_file in exercise_files:
            if shared and source_file.exists():
                print(f"{source_file.name} is left alone (another notebook has number {old:02d}): "
                      f"store this lesson's as {target_file.name}")
            elif source_file.exists():
                text = rewrite_ids(mentions(source_file.read_text()), old, new)
                _move(source_file, target_file)
                target_file.write_text(text)
    if only:
        targets = [pathlib.Path(p) if pathlib.Path(p).is_absolute() else root / p for p in only]
    else:
        targets = [p for p in _text_files(root) if p != target]
    for path in targets:
        if path.suffix == ".ipynb":
            _rewrite_notebook(path, mentions)
        else:
            text = path.read_text()
            renumbered = mentions(text)
            if renumbered != text:
                path.write_text(renumbered)
    return review(root, targets + ([target] if target else []), old)


def review(root, paths, old):
    """Lines that still name number ``old`` beside a lesson word: ranges, prose, prerequisites to read by eye."""
    number = rf"(?<![\d.$]){old:02d}(?![\d.^]|\.\d)"
    suspicious = re.compile(rf"(?i)(lesson|notebook|course|prerequisite).*{number}|{number}.*(lesson|notebook)")
    lines = []
    for path in paths:
        text = path.read_text()
        for number, line in enumerate(text.splitlines(), start=1):
            if suspicious.search(line):
                lines.append(f"{path.resolve().relative_to(root.resolve())}:{number}: {line.strip()[:160]}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the lesson's number (10) or notebook name (12_hard_parts)")
    parser.add_argument("new", type=int, help="its new number")
    parser.add_argument("--only", nargs="+", metavar="FILE",
                        help="rewrite the mentions in these files only, renaming nothing")
    parser.add_argument("--root", default=ROOT, help="the repository (default: this script's)")
    args = parser.parse_args(argv)
    for line in renumber(args.root, args.old, args.new, args.only):
        print("check by eye:", line)


if __name__ == "__main__":
    main()
