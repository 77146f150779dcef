"""Lesson notebooks as exercise material: nbgrader metadata, the student edition, the nbgrader course.

The cells of an exercise carry tags: ``exercise`` (the learner's cell, with ``...``), ``check`` (the
``check("5.1", ...)`` calls) and ``solution`` (``# Reference solution`` and a ``with reference_solution``
block). From these, ``tag`` sets nbgrader's cell metadata, ``student_edition`` drops the solutions and
``nbgrader_source`` moves each reference body into its learner cell between nbgrader's markers.

    python -m minitape.exercises.notebook tag notebooks/05_reverse_mode.ipynb
    python -m minitape.exercises.notebook clear-solutions notebooks/*.ipynb
    python -m minitape.exercises.notebook student build/student notebooks/05_reverse_mode.ipynb
    python -m minitape.exercises.notebook nbgrader build/nbgrader notebooks/00_welcome.ipynb

>>> exercise_heading("### Exercise 5.3 (medium): which mode?")
('5.3', 2)
>>> check_ids('check("5.3a", mode_a)\\ncheck("5.3b", mode_b)')
['5.3a', '5.3b']
"""

import pathlib
import re
import sys
import textwrap

import nbformat

HEADING = re.compile(r"^#+\s*Exercise\s+(\d+\.\d+)\s*(?:\(([^)]*)\))?", re.MULTILINE)
CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+[a-z]?)["']""")
WITH_REFERENCE = re.compile(r"""^with reference_solution\(\s*["']""")
POINTS = {"warm-up": 1, "easy": 1, "medium": 2, "stretch": 3, "hard": 3}
SOLUTION_FIRST_LINE = "# Reference solution"
NBGRADER_CONFIG = '''\
# nbgrader's configuration for the minitape course: `nbgrader generate_assignment 05_reverse_mode` in this folder.
c = get_config()  # noqa: F821 (nbgrader defines it)
c.CourseDirectory.course_id = "minitape"
# The learner's cell keeps its `...` line; the reference code between the markers is removed without a stub.
c.ClearSolutions.code_stub = {"python": ""}
c.ClearSolutions.text_stub = ""
'''


def exercise_heading(source):
    """``(exercise id, points)`` of a markdown cell that states an exercise, else None."""
    match = HEADING.search(source)
    if not match:
        return None
    level = (match.group(2) or "").strip().lower()
    return match.group(1), POINTS.get(level, 1)


def check_ids(source):
    """The exercise ids a check cell checks, in order."""
    return CHECK_CALL.findall(source)


def tags(cell):
    """A cell's tags (``exercise``, ``check``, ``solution``, ...): a list, empty for an untagged cell."""
    return cell.get("metadata", {}).get("tags", [])


def _grade(grade_id, grade, solution, points=None):
    meta = {"grade": grade, "solution": solution, "locked": not solution, "grade_id": grade_id, "schema_version": 3}
    if points is not None:
        meta["points"] = points
    return meta


def tag(nb):
    """Set nbgrader's metadata of every exercise cell of ``nb`` from its tags (in place; returns ``nb``)."""
    current, points, used = None, 1, set()

    def unique(grade_id):
        candidate, n = grade_id, 1
        while candidate in used:
            n += 1
            candidate = f"{grade_id}-{n}"
        used.add(candidate)
        return candidate

    for index, cell in enumerate(nb.cells):
        cell.metadata.pop("nbgrader", None)
        heading = exercise_heading(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            current, points = heading
            cell.metadata["nbgrader"] = _grade(unique(f"ex{current.replace('.', '_')}-prompt"), False, False)
            continue
        role = [t for t in tags(cell) if t in ("exercise", "check", "solution")]
        if not role:
            continue
        if current is None:
            raise ValueError(f"cell {index} is tagged {role[0]} but no '### Exercise N.k' heading comes before it")
        name = f"ex{current.replace('.', '_')}"
        if role[0] == "exercise":
            cell.metadata["nbgrader"] = _grade(unique(f"{name}-answer"), False, True)
        elif role[0] == "check":
            if not check_ids(cell.source):
                raise ValueError(f"cell {index} is tagged check but calls no check(\"N.k\", ...)")
            strangers = [i for i in check_ids(cell.source) if i.rstrip("abcdefghijklmnopqrstuvwxyz") != current]
            if strangers:
                raise ValueError(f"cell {index} checks {', '.join(strangers)} under the heading of exercise {current}")
            cell.metadata["nbgrader"] = _grade(unique(f"{name}-check"), True, False, points)
        else:
            if not cell.source.startswith(SOLUTION_FIRST_LINE):
                raise ValueError(f"cell {index} is tagged solution but does not start with {SOLUTION_FIRST_LINE!r}")
            reference_body(cell.source)  # raises if the cell is not one with-block
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
    return nb


def clear_solution_outputs(nb):
    """Solution cells store no outputs and no execution count (in place; returns ``nb``)."""
    for cell in nb.cells:
        if "solution" in tags(cell):
            cell.outputs, cell.execution_count = [], None
    return nb


def student_edition(nb):
    """A copy without solution cells, with the outputs of exercise and check cells cleared."""
    nb = nbformat.from_dict(nb)
    nb.cells = [cell for cell in nb.cells if "solution" not in tags(cell)]
    for cell in nb.cells:
        if "exercise" in tags(cell) or "check" in tags(cell):
            cell.outputs, cell.execution_count = [], None
    return nb


def reference_body(source):
    """The code inside the ``with reference_solution(...):`` block of a solution cell, dedented."""
    lines = source.splitlines()
    starts = [i for i, line in enumerate(lines) if WITH_REFERENCE.match(line)]
    if len(starts) != 1:
        raise ValueError("a solution cell holds exactly one `with reference_solution(\"N.k\"):` block, "
                         f"found {len(starts)}")
    body, after = [], []
    for line in lines[starts[0] + 1:]:
        (body if not after and (not line.strip() or line[:1].isspace()) else after).append(line)
    if any(line.strip() for line in after):
        raise ValueError("a solution cell must end with its `with reference_solution(...)` block; "
                         f"move {after[0].strip()!r} inside it")
    return textwrap.dedent("\n".join(body)).strip("\n")


def nbgrader_source(nb):
    """A copy for nbgrader's source folder: each reference body goes into the learner cell before it."""
    nb = nbformat.from_dict(nb)
    cells, last_exercise = [], None
    for cell in nb.cells:
        if "solution" in tags(cell):
            if last_exercise is None:
                raise ValueError("a solution cell comes before any cell tagged exercise")
            last_exercise.source = (last_exercise.source.rstrip("\n") + "\n### BEGIN SOLUTION\n"
                                    + reference_body(cell.source) + "\n### END SOLUTION")
            continue
        if "exercise" in tags(cell):
            last_exercise = cell
        cells.append(cell)
    nb.cells = cells
    return nb


def build_student(out_dir, paths):
    """The student edition of ``paths`` in ``out_dir`` (one notebook per lesson)."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in map(pathlib.Path, paths):
        nbformat.write(student_edition(nbformat.read(path, as_version=4)), out_dir / path.name)


def build_nbgrader(out_dir, paths):
    """An nbgrader course folder: ``nbgrader_config.py`` and ``source/<lesson>/<lesson>.ipynb``."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "nbgrader_config.py").write_text(NBGRADER_CONFIG)
    for path in map(pathlib.Path, paths):
        folder = out_dir / "source" / path.stem
        folder.mkdir(parents=True, exist_ok=True)
        try:
            source = nbgrader_source(nbformat.read(path, as_version=4))
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
        nbformat.write(source, folder / path.name)


def _rewrite(change, paths):
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.write(change(nb), path)


def main(argv):
    usage = ("usage: python -m minitape.exercises.notebook tag NOTEBOOK... | clear-solutions NOTEBOOK... | "
             "student OUT_DIR NOTEBOOK... | nbgrader OUT_DIR NOTEBOOK...")
    if len(argv) < 2:
        sys.exit(usage)
    command, rest = argv[0], argv[1:]
    if command == "tag":
        _rewrite(tag, rest)
    elif command == "clear-solutions":
        _rewrite(clear_solution_outputs, rest)
    elif command == "student" and len(rest) >= 2:
        build_student(rest[0], rest[1:])
    elif command == "nbgrader" and len(rest) >= 2:
        build_nbgrader(rest[0], rest[1:])
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv[1:])
