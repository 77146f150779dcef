"""The lessons as exercise material: tidy them, and build the student edition and the nbgrader course.

The cells of an exercise carry tags: ``exercise`` (the learner's cell, with ``...``), ``check`` (one
``check("5.1", answer)`` call per line) and ``solution`` (``# Reference solution`` and one
``with reference_solution(...)`` block), after a heading ``### Exercise 5.1 (medium): ...``. A cell whose output
shows an exercise's answer (the run after a "predict, then run" check) is tagged ``reveal`` and comes after that
exercise's check; ``tidy`` refuses a lesson whose earlier cells show a value exercise's answer (``answers_shown``).

    python -m classroom.editions tidy notebooks/05_reverse_mode.ipynb      # check the structure, fold the solutions
    python -m classroom.editions student build/student notebooks/*.ipynb   # no solutions; classroom's public part
    python -m classroom.editions nbgrader build/nbgrader notebooks/*.ipynb # a course folder for nbgrader
    python -m classroom.editions nbgrader build/nbgrader notebooks/*.ipynb --students ada bob --roster class.txt

The student edition (``build/student/``) holds the lessons without their solution cells, with the outputs of the
exercise, check and reveal cells cleared (every other teaching output is kept), and beside them ``classroom/`` with
only its public part (``PUBLIC``): the checks, probes and hashed data, no answer. It stands alone: a README that says
how to install, open and check (``templates/student_README.md``), the license files, and minitape as a wheel in
``wheels/``; lesson 00 speaks of that folder, not of the repository's ``make`` commands or its Binder badge.

The nbgrader course holds, per lesson, ``source/<lesson>/<lesson>.ipynb`` (each reference body inside its learner
cell between nbgrader's solution markers, one graded cell per exercise part: its check, whose points the trusted
grader sets, ``classroom.grader``; the reveal cells without their outputs) and the same
public ``classroom/``, marked as a graded release's (``graded.json``), with each student's own data for the
exercises whose numbers are each student's own (``classroom.variants``): for the students named, listed in a roster
file (one id a line), and those in the course's gradebook (``gradebook.db``, nbgrader's ``nbgrader db student
add``).

Both editions are built from the lessons as committed: a lesson that differs from the repository's last commit (a
teacher's own answers typed into it), or whose learner cell lost its ``...``, is refused, by name.

>>> exercise_heading("### Exercise 5.3 (medium): which mode?")
('5.3', 2)
>>> [(call.exercise, call.answer) for call in check_calls('check("5.3a", mode_a)\\ncheck("5.3b", mode_b)')]
[('5.3a', 'mode_a'), ('5.3b', 'mode_b')]
>>> split_points(2, 3)
[0.67, 0.67, 0.66]
>>> cleared_roles({"metadata": {"tags": ["reveal", "hide-input"]}})
['reveal']
>>> sorted(printed_forms(0.12441))[:4]
['0.124', '0.1244', '0.12441', '0.124410']
"""

import argparse
import ast
import collections
import importlib
import json
import math
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import nbformat
import numpy as np

from classroom import safe_data, variants
from classroom.checks import lesson_data, lesson_of

CLASSROOM = pathlib.Path(__file__).resolve().parent
REPOSITORY = CLASSROOM.parent
# What students receive of this package: the checks, their probes and the hashed data, never the answers.
PUBLIC = ["__init__.py", "checks.py", "judge.py", "plots.py", "probes.py", "tapes.py", "variants.py", "widgets.py",
          "lessons", "data"]

HEADING = re.compile(r"^#+\s*Exercise\s+(\d+\.\d+)\s*(?:\(([^)]*)\))?", re.MULTILINE)
WITH_REFERENCE = re.compile(r"""^with reference_solution\(\s*["']""")
PREDICT = re.compile(r"predict", re.IGNORECASE)  # in an exercise's heading: "Predict, then run", a formative one
POINTS = {"warm-up": 1, "easy": 1, "medium": 2, "stretch": 3, "hard": 3}
SOLUTION_FIRST_LINE = "# Reference solution"
# The roles whose stored outputs no student edition keeps: the learner's cell, its verdicts, and what shows an answer.
CLEARED = ("exercise", "check", "reveal")
NBGRADER_CONFIG = '''\
# nbgrader's configuration for the minitape course: `nbgrader generate_assignment 05_reverse_mode` in this folder.
from nbconvert.preprocessors import Preprocessor
from nbgrader.converters import GenerateAssignment

c = get_config()  # noqa: F821 (nbgrader defines it)
c.CourseDirectory.course_id = "minitape"
# The learner's cell keeps its `...` line; the reference code between the markers is removed without a stub.
c.ClearSolutions.code_stub = {"python": ""}
c.ClearSolutions.text_stub = ""
# The release keeps the lessons' teaching outputs (tapes, plots, tables), so that a lesson reads well before it is
# run: `make nbgrader` cleared the exercise and check cells already, and nbgrader's ClearOutput, which clears every
# output, is left out of generate_assignment.
c.GenerateAssignment.preprocessors = [step for step in GenerateAssignment.class_traits()["preprocessors"].default()
                                      if step.__name__ != "ClearOutput"]


# Points come from the trusted grader (make grade), never from the student's own kernel: nbgrader's autograde, which
# runs the graded cells there and scores each one that does not raise, would give every check full marks.
class UseTheTrustedGrader(Preprocessor):
    def __call__(self, nb, resources):
        raise RuntimeError("this course is graded by the trusted grader, not by nbgrader autograde: run make grade "
                           "(python -m classroom.grader build/nbgrader) in the repository, then nbgrader export")


c.Autograde.sanitize_preprocessors = [UseTheTrustedGrader]
'''

CheckCall = collections.namedtuple("CheckCall", "exercise answer")


def exercise_heading(source):
    """``(exercise id, points)`` of a markdown cell that states an exercise, else None."""
    match = HEADING.search(source)
    if not match:
        return None
    level = (match.group(2) or "").strip().lower()
    return match.group(1), POINTS.get(level, 1)


def check_calls(source):
    """The ``check("N.k", answer)`` calls of a check cell, in order: the exercise id and the answer's source."""
    calls = []
    for statement in ast.parse(source).body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "check" and len(call.args) == 2
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            raise ValueError(f"a check cell holds only check(\"N.k\", answer) lines, not {ast.unparse(statement)!r}")
        calls.append(CheckCall(call.args[0].value, ast.get_source_segment(source, call.args[1])))
    return calls


def tags(cell):
    """A cell's tags (``exercise``, ``check``, ``solution``, ...): a list, empty for an untagged cell."""
    return cell.get("metadata", {}).get("tags", [])


def cleared_roles(cell):
    """The tags of ``cell`` that make a student edition clear its outputs (``CLEARED``)."""
    return [t for t in tags(cell) if t in CLEARED]


def clear_outputs(cell):
    cell.outputs, cell.execution_count = [], None


def split_points(points, parts):
    """``points`` shared by ``parts`` graded cells, in hundredths, the first ones taking what does not divide."""
    share, rest = divmod(round(points * 100), parts)
    return [(share + (k < rest)) / 100 for k in range(parts)]


def tidy(nb):
    """Check a lesson's exercise structure and fold its solutions (in place; returns ``nb``).

    Every role cell comes after an exercise heading; a check cell checks only that exercise's parts; a reveal cell
    comes after its exercise's check, so that no answer shows before the learner has answered; a solution cell
    starts with ``# Reference solution``, is one ``with reference_solution`` block, stores no output and is
    collapsed. Grading metadata is no part of a lesson: ``make nbgrader`` writes it.
    """
    current, checked = None, False
    for index, cell in enumerate(nb.cells):
        cell.metadata.pop("nbgrader", None)
        heading = exercise_heading(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            current, checked = heading[0], False
            continue
        role = [t for t in tags(cell) if t in ("exercise", "check", "solution", "reveal")]
        if not role:
            continue
        if current is None:
            raise ValueError(f"cell {index} is tagged {role[0]} but no '### Exercise N.k' heading comes before it")
        if role[0] == "reveal" and not checked:
            raise ValueError(f"cell {index} is tagged reveal (its output shows the answer of exercise {current}) but "
                             f"comes before that exercise's check: move it after the check cell")
        checked = checked or role[0] == "check"
        if role[0] == "check":
            calls = check_calls(cell.source)
            if not calls:
                raise ValueError(f"cell {index} is tagged check but calls no check(\"N.k\", ...)")
            strangers = [c.exercise for c in calls if re.sub(r"[a-z]$", "", c.exercise) != current]
            if strangers:
                raise ValueError(f"cell {index} checks {', '.join(strangers)} under the heading of exercise {current}")
        if role[0] == "solution":
            if not cell.source.startswith(SOLUTION_FIRST_LINE):
                raise ValueError(f"cell {index} is tagged solution but does not start with {SOLUTION_FIRST_LINE!r}")
            reference_body(cell.source)  # raises if the cell is not one with-block
            cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
            clear_outputs(cell)
    return nb


# Exercises whose question shows the numbers of their answer, as it must: what the learner finds out is another thing.
STATED = {"13.1a": "whether naive_mul gives b's gradient the shape (3,) of b or the shape (4, 3) of X, which the "
                   "lesson shows before asking"}
SHOWN = ("text/plain", "text/markdown", "text/html", "text/latex")  # what a notebook shows of a stored output


def shown(cell):
    """What a cell shows before it is run: a markdown cell's text, or a code cell's stored outputs."""
    if cell.cell_type == "markdown":
        return cell.source
    texts = []
    for output in cell.get("outputs", []):
        texts.append(output.get("text", ""))
        texts += [str(output.get("data", {}).get(kind, "")) for kind in SHOWN]
        texts.append(output.get("evalue", ""))
    return "\n".join(texts)


def significant_digits(text):
    """How many significant digits a printed number has: "0.1244" has 4, "6.0" and "0.50" have 1."""
    return len(re.sub(r"[^0-9]", "", text.split("e")[0]).strip("0"))


def printed_forms(number):
    """The ways a lesson prints ``number`` (Python's repr, NumPy's, f-strings rounded to 1-12 digits) that are
    distinctive: three significant digits or more. A rounded answer shows it as well as an exact one, even where the
    check's tolerance would refuse it typed back."""
    number = float(number)
    if not math.isfinite(number):
        return set()
    forms = {repr(number), str(np.float64(number)), np.format_float_positional(number)}
    for digits in range(1, 13):
        forms |= {f"{number:.{digits}f}", f"{number:.{digits}g}", f"{number:.{digits}e}"}
    return {form for form in forms if significant_digits(form) >= 3}


def value_answers(lesson):
    """(exercise id, its right value at the lesson's own numbers) of a lesson's value exercises (the instructor's
    answers: a function exercise's answer is code, which no output prints)."""
    module = importlib.import_module(f"classroom.answers.lesson_{lesson:02d}")
    for exercise_id, spec in module.EXERCISES.items():
        if spec.reference is None and spec.expected is not None and spec.answer == "value":
            yield exercise_id, spec.expected_for(variants.numbers(exercise_id))


def looked_for(right):
    """(regular expression, whether markdown is searched too) for each way the answer ``right`` can be shown.

    A word or a yes/no is not looked for (the prose of any lesson holds them), nor a number of fewer than three
    significant digits (a small count, 0.5); a tuple of ints (a shape) and a whole array as NumPy prints it are looked
    for in outputs only, since a question may state a shape.
    """
    if isinstance(right, (str, bool, np.bool_)):
        return []
    if isinstance(right, tuple) and all(isinstance(n, (int, np.integer)) for n in right):
        return [(re.escape(str(tuple(int(n) for n in right))), False)]
    array = np.asarray(getattr(right, "numpy", lambda: right)(), dtype=np.float64)
    patterns = [(rf"(?<![\d.]){re.escape(form)}(?!\d)", True)
                for number in np.unique(array.ravel()) for form in printed_forms(number)]
    if array.size > 1:
        patterns += [(re.escape(text), False) for text in {str(array), repr(array), str(array.tolist())}]
    return patterns


def check_cell_of(nb, exercise_id):
    """The index of the check cell of ``exercise_id``, or None for an exercise the lesson only demonstrates (0.0)."""
    for index, cell in enumerate(nb.cells):
        if "check" in tags(cell) and any(call.exercise == exercise_id for call in check_calls(cell.source)):
            return index
    return None


def answers_shown(nb, lesson):
    """``(exercise id, cell index, what it shows)`` for every value exercise's answer that a cell before the
    exercise's check shows (``looked_for``), reveal cells after it aside."""
    found = []
    for exercise_id, right in value_answers(lesson):
        before = check_cell_of(nb, exercise_id)
        if before is None or exercise_id in STATED:
            continue
        for pattern, in_markdown in looked_for(right):
            for index, cell in enumerate(nb.cells[:before]):
                match = re.search(pattern, shown(cell)) if in_markdown or cell.cell_type == "code" else None
                if match:
                    found.append((exercise_id, index, match.group(0)))
    return found


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


# What lesson 00 says of the repository, and what the student edition says instead: each must be found once.
BADGE = re.compile(r"\[!\[Launch on Binder\]\([^)]*\)\]\([^)]*\)\n*")
FOR_STUDENTS = [
    (re.compile(r"start the course on your own machine \(or on Binder\) and run its tests"),
     "start the course on your own machine, or on your class's JupyterHub"),
    (re.compile(r"## Running the course\n[\s\S]*?(?=\*\*In JupyterLab\*\*)"),
     "## Running the course\n\nThe README.md in this folder says how to install the course (once) and open it: "
     "start JupyterLab in this folder, so that the lessons find the `classroom` folder their checks import. On "
     "your class's JupyterHub it is installed already.\n\n"),
    (re.compile(r"\* `make lab` opens the course, `make test` tests it[\s\S]*?(?=\n\* )"),
     "* `jupyter lab` in the course's folder opens it; its README.md says how to install it."),
    (re.compile(r"\* The course's `README.md` and `environment.yml`: the set-up commands above\."),
     "* This folder's `README.md`: how to install and open the course."),
]


def for_students(nb):
    """Lesson 00's words about the repository (``make lab``, Binder) replaced by the student edition's own; how often
    each replacement was made."""
    found = collections.Counter()
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        cell.source = BADGE.sub("", cell.source)
        for number, (pattern, replacement) in enumerate(FOR_STUDENTS):
            cell.source, count = pattern.subn(replacement, cell.source)
            found[number] += count
    return found


def student_edition(nb):
    """A copy without solution cells, with the outputs of exercise, check and reveal cells cleared, and lesson 00's
    words about the repository replaced."""
    nb = nbformat.from_dict(nb)
    nb.cells = [cell for cell in nb.cells if "solution" not in tags(cell)]
    if "Running the course" in "".join(cell.source for cell in nb.cells):
        found = for_students(nb)
        missing = [pattern.pattern for number, (pattern, _) in enumerate(FOR_STUDENTS) if not found[number]]
        if missing:
            raise ValueError(f"lesson 00 no longer says what the student edition replaces ({missing[0]!r}): "
                             f"update classroom.editions.FOR_STUDENTS")
    for cell in nb.cells:
        if cleared_roles(cell):
            clear_outputs(cell)
    return nb


def _grade(grade_id, grade, solution, points=None):
    meta = {"grade": grade, "solution": solution, "locked": not solution, "grade_id": grade_id, "schema_version": 3}
    if points is not None:
        meta["points"] = points
    return meta


def graded(exercise_id):
    """Whether a part is graded outside the student's Python: its data compares what the answer computes, and that is
    not one exact answer that every student shares (a choice, an order of accuracy), which a self-check would
    give away to anyone who tries the few possible answers."""
    if "expected" not in lesson_data(lesson_of(exercise_id))[exercise_id]:
        return False
    spec = importlib.import_module(f"classroom.answers.lesson_{lesson_of(exercise_id):02d}").EXERCISES[exercise_id]
    return not (spec.exact and spec.reference is None and not callable(spec.expected))


def nbgrader_source(nb):
    """A copy for nbgrader's source folder: solutions inside the learner cells, one graded cell per exercise part.

    Each graded cell is one part's ``check("5.3a", answer)``, the learner's feedback; the points come from the
    trusted grader (``classroom.grader``), which judges what the answer computes outside the student's Python. The
    exercise's points (1 easy, 2 medium, 3 stretch) are shared among its graded parts. A "predict, then run"
    exercise is formative (the reveal that follows the prediction is its point), and so is a part judged by a test
    that runs in the student's Python alone (how an answer computes, not what): their checks stay, ungraded.
    """
    nb = tidy(nbformat.from_dict(nb))
    cells, last_exercise, current, points, used = [], None, None, 1, collections.Counter()
    formative = False

    def unique(grade_id):
        used[grade_id] += 1
        return grade_id if used[grade_id] == 1 else f"{grade_id}-{used[grade_id]}"

    for cell in nb.cells:
        heading = exercise_heading(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            current, points = heading
            formative = any(PREDICT.search(line) for line in cell.source.splitlines() if HEADING.match(line))
            cell.metadata["nbgrader"] = _grade(unique(f"ex{current.replace('.', '_')}-prompt"), False, False)
        elif "solution" in tags(cell):
            if last_exercise is None:
                raise ValueError("a solution cell comes before any cell tagged exercise")
            last_exercise.source = (last_exercise.source.rstrip("\n") + "\n### BEGIN SOLUTION\n"
                                    + reference_body(cell.source) + "\n### END SOLUTION")
            continue
        elif "exercise" in tags(cell):
            last_exercise = cell
            clear_outputs(cell)
            cell.metadata["nbgrader"] = _grade(unique(f"ex{current.replace('.', '_')}-answer"), False, True)
        elif "check" in tags(cell) and not formative:
            calls = [call for call in check_calls(cell.source) if graded(call.exercise)]
            ungraded = [call for call in check_calls(cell.source) if not graded(call.exercise)]
            for call, share in zip(calls, split_points(points, len(calls)) if calls else []):
                part = nbformat.v4.new_code_cell(f'check("{call.exercise}", {call.answer})',
                                                 metadata={"tags": ["check"]})
                part.metadata["nbgrader"] = _grade(unique(f"ex{call.exercise.replace('.', '_')}-check"), True, False,
                                                   share)
                cells.append(part)
            if ungraded:
                lines = "\n".join(f'check("{call.exercise}", {call.answer})' for call in ungraded)
                cells.append(nbformat.v4.new_code_cell(lines, metadata={"tags": ["check"]}))
            continue
        elif "check" in tags(cell):  # a formative exercise's check: kept as it is, without its stored verdicts
            clear_outputs(cell)
        elif "reveal" in tags(cell):  # the run that shows an answer: the student runs it after answering
            clear_outputs(cell)
        cells.append(cell)
    nb.cells = cells
    return nb


def copy_public_package(out_dir):
    """``out_dir/classroom``: the public part of this package, which is all a student needs to run the checks."""
    target = pathlib.Path(out_dir) / "classroom"
    target.mkdir(parents=True, exist_ok=True)
    for name in PUBLIC:
        source = CLASSROOM / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        else:
            shutil.copy(source, target / name)


def refuse_uncommitted(paths):
    """Stop, naming them, on lessons that differ from the repository's last commit or whose learner cells were
    answered: an edition built from them would hand the students a teacher's own answers."""
    paths = [pathlib.Path(p).resolve() for p in paths]
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=REPOSITORY, capture_output=True)
    if inside.returncode == 0:
        changed = subprocess.run(["git", "status", "--porcelain", "--", *map(str, paths)], cwd=REPOSITORY,
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        if changed:
            names = ", ".join(line[3:] for line in changed)
            sys.exit(f"editions: {names} differ from the last commit (answers typed into a lesson would reach the "
                     f"students): commit them if they are the course, or restore them (git checkout -- FILE)")
    for path in paths:
        answered = [index for index, cell in enumerate(nbformat.read(path, as_version=4).cells)
                    if "exercise" in tags(cell) and "..." not in cell.source]
        if answered:
            sys.exit(f"editions: {path.name} has answered learner cells (cells {answered} hold no ...): restore "
                     f"them from the repository")


def lesson_title(nb):
    """A lesson's title, from its first heading: "Welcome: derivatives, computed by a program"."""
    heading = nb.cells[0].source.splitlines()[0]
    return re.sub(r"^#\s*\d+\s*·\s*", "", heading)


def build_wheel(out_dir):
    """minitape as a wheel in ``out_dir``; returns its file name."""
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPOSITORY), "--no-deps", "-q", "-w", str(out_dir)],
                   check=True)
    return max(out_dir.glob("minitape-*.whl"), key=lambda p: p.stat().st_mtime).name


def build_student(out_dir, paths, wheel=True):
    """The student edition of ``paths`` in ``out_dir``: the lessons, classroom's public part, a README, the licenses
    and (unless ``wheel`` is False) the minitape wheel."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    titles = []
    for path in map(pathlib.Path, paths):
        nb = nbformat.read(path, as_version=4)
        titles.append(f"- `{path.name}`: {lesson_title(nb)}")
        nbformat.write(student_edition(nb), out_dir / path.name)
    copy_public_package(out_dir)
    for name in ("LICENSE", "LICENSE-lessons"):
        shutil.copy(REPOSITORY / name, out_dir / name)
    if wheel:
        readme = (CLASSROOM / "templates" / "student_README.md").read_text()
        (out_dir / "README.md").write_text(readme.format(count=len(titles), wheel=build_wheel(out_dir / "wheels"),
                                                         lessons="\n".join(titles)))


def roster(out_dir, names=(), roster_file=None):
    """The students of a class: ``names``, the lines of ``roster_file``, and the students of the course's gradebook."""
    students = list(names)
    if roster_file is not None:
        students += [line.strip() for line in pathlib.Path(roster_file).read_text().splitlines() if line.strip()]
    gradebook = pathlib.Path(out_dir) / "gradebook.db"
    if gradebook.exists():
        from nbgrader.api import Gradebook  # the grading extra: only an instructor with a gradebook has it
        with Gradebook(f"sqlite:///{gradebook}") as book:
            students += [student.id for student in book.students]
    return list(dict.fromkeys(students))


def build_nbgrader(out_dir, paths, students=()):
    """An nbgrader course folder: ``nbgrader_config.py`` and ``source/<lesson>/`` (the notebook and classroom/),
    with each of ``students``' own data."""
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
        copy_public_package(folder)
        (folder / "classroom" / "graded.json").write_text(json.dumps({"edition": "graded release"}) + "\n")
        safe_data.write_student_data(folder / "classroom" / "data", [int(path.stem[:2])], students)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    tidy_command = commands.add_parser("tidy", help="check the exercise structure and fold the solution cells")
    tidy_command.add_argument("notebooks", nargs="+", type=pathlib.Path)
    for name, what in (("student", "the student edition"), ("nbgrader", "an nbgrader course folder")):
        command = commands.add_parser(name, help=f"write {what} into OUT_DIR")
        command.add_argument("out_dir", type=pathlib.Path)
        command.add_argument("notebooks", nargs="+", type=pathlib.Path)
        if name == "nbgrader":
            command.add_argument("--students", nargs="*", default=[], help="student ids to give their own numbers")
            command.add_argument("--roster", type=pathlib.Path, help="a file of student ids, one a line")
    args = parser.parse_args(argv)
    if args.command != "tidy":
        refuse_uncommitted(args.notebooks)
    if args.command == "tidy":
        for path in args.notebooks:
            nb = tidy(nbformat.read(path, as_version=4))
            nbformat.write(nb, path)
            early = answers_shown(nb, int(path.name[:2])) if path.name[:2].isdigit() else []
            if early:
                exercise_id, index, text = early[0]
                sys.exit(f"editions: {path.name}: cell {index} shows {text!r}, the answer of exercise {exercise_id}, "
                         f"before its check: give the exercise numbers of its own, or move the cell after the check "
                         f"and tag it reveal")
    elif args.command == "student":
        build_student(args.out_dir, args.notebooks)
    else:
        build_nbgrader(args.out_dir, args.notebooks, roster(args.out_dir, args.students, args.roster))


if __name__ == "__main__":
    main()
