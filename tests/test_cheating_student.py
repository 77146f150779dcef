"""A student who tries to read the answers or game the grade: every known trick must fail.

Everything is built from a clean checkout (the repository's files, no build output, copied to a temporary folder):
the student edition (``make student``), the nbgrader course (``make nbgrader``) and the minitape wheel. The student's
Python has the wheel and the course's dependencies, not the repository: what a JupyterHub user has after
``pip install minitape`` and the student edition's folder.
"""

import csv
import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile

import nbformat
import numpy as np
import pytest

from classroom import editions, safe_data
from classroom.probes import NotAnswered, Raised, ReturnedNone, Wrong

pytest.importorskip("nbclient")
pytest.importorskip("nbgrader")

ROOT = pathlib.Path(__file__).resolve().parent.parent
LESSON = "05_reverse_mode"   # graded under nbgrader with a cheating submission
TAPE_LESSONS = ["11_build_your_own_tape", "13_your_tape_on_arrays"]   # whose later cells ran on a reference tape


def run(command, cwd, python=sys.executable, check=True, **environment):
    env = {**os.environ, "PATH": os.pathsep.join([str(pathlib.Path(python).parent), os.environ["PATH"]]),
           **environment}
    env.pop("PYTHONPATH", None)
    env.pop("NBGRADER_EXECUTION", None)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if check:
        assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A clean checkout with its student edition, nbgrader course and wheel built, and a student's Python."""
    top = tmp_path_factory.mktemp("cheating")
    checkout = top / "checkout"
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, checkout / name)
    lessons = sorted(str(p.relative_to(checkout)) for p in (checkout / "notebooks").glob("[0-9]*.ipynb"))
    run([sys.executable, "-m", "classroom.editions", "student", "build/student", *lessons], checkout)
    run([sys.executable, "-m", "classroom.editions", "nbgrader", "build/nbgrader", *lessons], checkout)
    run([sys.executable, "-m", "pip", "wheel", ".", "-w", str(top / "wheel"), "--no-deps", "-q"], checkout)
    wheel = next((top / "wheel").glob("minitape-*.whl"))
    # The student's Python: the minitape wheel, and this environment's packages (NumPy, Jupyter) through a plain
    # path entry, whose .pth files are not read, so that neither the repository nor its editable install is seen.
    student = top / "student-env"
    subprocess.run([sys.executable, "-m", "venv", str(student)], check=True)
    python = student / "bin" / "python"
    site = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], top,
               python=str(python)).stdout.strip()
    (pathlib.Path(site) / "course-dependencies.pth").write_text(
        run([sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], top).stdout)
    run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], top, python=str(python))
    found = {"checkout": checkout, "student": checkout / "build" / "student", "wheel": wheel, "python": str(python),
             "nbgrader": checkout / "build" / "nbgrader", "top": top}
    for lesson in [LESSON, *TAPE_LESSONS]:
        nbgrader(found, "generate_assignment", lesson)
    return found


def student_python(course, code, cwd=None):
    """Run ``code`` with the student's Python, in the student edition's folder."""
    return run([course["python"], "-c", textwrap.dedent(code)], cwd or course["student"], python=course["python"],
               check=False)


# --- the student's environment is the one a student has ------------------------------------------------------------

def test_the_students_python_has_the_wheel_and_not_the_repository(course):
    done = student_python(course, """
        import minitape, numpy
        print(minitape.__file__)
        try:
            import classroom
        except ModuleNotFoundError:
            print("no classroom")
    """, cwd=course["top"])
    assert done.returncode == 0, done.stderr
    assert "site-packages/minitape" in done.stdout and "no classroom" in done.stdout


# --- trick: the answers command, and decoding the answers files --------------------------------------------------

def test_there_is_no_answers_command_and_no_answers_file(course):
    for module in ("classroom.answers", "minitape.exercises.answers", "classroom.safe_data", "classroom.editions"):
        done = run([course["python"], "-m", module, "show", "05"], course["student"], python=course["python"],
                   check=False)
        assert done.returncode != 0 and "No module named" in done.stderr, (module, done.stdout)
    for import_line in ("import classroom.answers.lesson_05", "from minitape.exercises import answers",
                        "from classroom.answers.lesson_13 import REFERENCE_TAPE", "from classroom import passes",
                        "import classroom.spec", "import classroom.grading"):
        done = student_python(course, import_line)
        assert done.returncode != 0 and "Error" in done.stderr, import_line
    shipped = [course["student"], course["nbgrader"] / "source" / LESSON / "classroom"]
    for folder in shipped:
        names = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
        assert not [n for n in names if "answers" in n or n.endswith((".answers", "spec.py", "grading.py"))], names
    with zipfile.ZipFile(course["wheel"]) as wheel:
        names = wheel.namelist()
    assert names and all(name.startswith("minitape") for name in names), names   # the library and its metadata
    assert not [name for name in names if "exercises" in name or "classroom" in name or "answers" in name]


# --- trick: grepping the edition, the release and the wheel for an expected value or a reference ------------------

def expected_numbers():
    """Every number an exercise's check compares with (values, and what probes observe of the references),
    written with enough digits that finding its text in a file is no accident."""
    numbers = set()
    for lesson in safe_data.lessons():
        answers = __import__(f"classroom.answers.lesson_{lesson:02d}", fromlist=["EXERCISES"])
        for spec in answers.EXERCISES.values():
            if spec.expected is None and spec.reference is None:
                continue
            observed = spec.observed(spec.reference if spec.reference is not None else spec.expected)
            for slots in observed:
                for slot in slots if not isinstance(slots, (NotAnswered, Wrong, Raised, ReturnedNone)) else []:
                    try:
                        values = np.asarray(slot.value, dtype=float).ravel()
                    except (TypeError, ValueError):
                        continue
                    numbers.update(float(v) for v in values if math.isfinite(v) and v != round(v))
    return numbers


def number_forms(number):
    """The texts of ``number`` a file might hold: its repr and its roundings to 5 to 10 significant digits."""
    forms = {repr(number)} | {f"{number:.{digits}g}" for digits in range(5, 11)}
    return {form for form in forms if len(re.sub(r"[^0-9]", "", form.split("e")[0]).lstrip("0")) >= 5}


def shipped_texts(course):
    """The text of every file a student receives: the student edition, the releases, and the wheel."""
    folders = [course["student"], course["nbgrader"] / "release"]
    texts = {str(p): p.read_text(errors="replace") for folder in folders for p in folder.rglob("*") if p.is_file()}
    with zipfile.ZipFile(course["wheel"]) as wheel:
        texts.update({f"wheel:{name}": wheel.read(name).decode(errors="replace") for name in wheel.namelist()})
    return texts


def test_no_expected_value_is_in_any_file_a_student_receives(course):
    # The library's own examples print some numbers an exercise also meets (ln 2 = 0.693147...): those are the
    # library's, shown for their own sake; every other number of the answers must be nowhere.
    library = "\n".join(path.read_text() for path in (course["checkout"] / "minitape").rglob("*.py"))
    numbers = {n for n in expected_numbers() if not any(form in library for form in number_forms(n))}
    assert len(numbers) > 100   # the exercises' numbers, in arrays too
    texts = shipped_texts(course)
    # A notebook's lesson may show a number an exercise asks the learner to reproduce another way (its outputs are
    # the lesson's own); the classroom files, the release's code and the wheel must hold none.
    found = [(form, path) for path, text in texts.items() if not path.endswith(".ipynb")
             for number in numbers for form in number_forms(number) if form in text]
    assert not found, found[:10]
    notebook_code = {path: "\n".join(cell.source for cell in nbformat.reads(text, as_version=4).cells)
                     for path, text in texts.items() if path.endswith(".ipynb")}
    found = [(form, path) for path, text in notebook_code.items() for number in numbers
             for form in number_forms(number) if form in text]
    assert not found, found[:10]


def test_no_reference_is_named_in_any_file_a_student_receives(course):
    """The answers' own functions, classes and objects (implicit_fixed_point, DenseWithoutActivation, ...) are nowhere
    shipped: the names written like code (with an underscore, or in CamelCase) that no lesson shows."""
    full_lessons = "\n".join(cell.source for path in (ROOT / "notebooks").glob("[0-9]*.ipynb")
                             for cell in nbformat.read(path, as_version=4).cells
                             if "solution" not in editions.tags(cell))
    names = set()
    for path in (ROOT / "classroom" / "answers").glob("lesson_*.py"):
        defined = re.findall(r"^(?:def|class) (\w+)|^(\w+) = ", path.read_text(), re.MULTILINE)
        names.update(n for pair in defined for n in pair if re.search(r"\w_\w|[a-z][A-Z]", n) and n != "EXERCISES")
    references = {name for name in names if not re.search(rf"\b{name}\b", full_lessons)}
    assert {"implicit_fixed_point", "sweep_in_recording_order", "DenseWithoutActivation"} <= references
    texts = shipped_texts(course)
    found = [(name, path) for path, text in texts.items() for name in references if re.search(rf"\b{name}\b", text)]
    assert not found, found[:10]


# --- trick: a reference object in the student's namespace, and passed() as an oracle -----------------------------

PROBE_THE_NAMESPACE = '''
import sys
from classroom import passed
from classroom.checks import EXERCISES, assess
print("modules:", sorted(name for name in sys.modules if name.startswith("classroom.answers")))
print("REFERENCE_TAPE:", "REFERENCE_TAPE" in globals())
tried, right = 0, []
for exercise in EXERCISES_HERE:
    name = EXERCISES[exercise]["name"]
    # everything of that name the notebook can reach: its globals, their attributes, every loaded module's
    holders = list(globals().values()) + list(sys.modules.values())
    candidates = [getattr(holder, name) for holder in holders if hasattr(holder, name)] + [globals().get(name)]
    for candidate in candidates:
        if candidate is None or candidate is globals().get(name):   # the learner's own stub is no borrowing
            continue
        tried += 1
        if assess(exercise, candidate)[0] == "correct":
            right.append(f"{exercise}: {candidate!r}")
print("tried:", tried, "right:", right)
tries = [answer for answer in range(20) if passed("6.4a")]   # passed() judges nothing: no oracle
print("passed as an oracle:", tries)
'''


@pytest.mark.parametrize("lesson", TAPE_LESSONS)
def test_nothing_in_the_student_namespace_answers_an_exercise(course, lesson):
    ids = safe_data_ids(lesson)
    script = f'''
import nbclient, nbformat
nb = nbformat.read("{lesson}.ipynb", as_version=4)
nb.cells.append(nbformat.v4.new_code_cell("EXERCISES_HERE = {ids!r}\\n" + {PROBE_THE_NAMESPACE!r}))
nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={{"metadata": {{"path": "."}}}}).execute()
print("".join(o.get("text", "") for o in nb.cells[-1].outputs))
print("waiting:", sum("This cell runs once" in "".join(o.get("text", "") for o in c.get("outputs", []))
                      for c in nb.cells))
'''
    done = student_python(course, script)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "modules: []" in done.stdout and "REFERENCE_TAPE: False" in done.stdout
    tried = re.search(r"tried: (\d+) right: (.*)", done.stdout)
    assert int(tried.group(1)) > 0 and tried.group(2) == "[]", done.stdout
    assert "passed as an oracle: []" in done.stdout
    assert int(re.search(r"waiting: (\d+)", done.stdout).group(1)) > 0   # the later cells wait for the learner's


def safe_data_ids(lesson):
    return list(json.loads((ROOT / "classroom" / "data" / f"lesson_{lesson[:2]}.json").read_text()))


# --- trick: rebinding check, and patching the checker in every loaded module, under nbgrader's autograder -------

CHEAT = '''
gradient_1 = ...
import sys
import types


def check(exercise_id, answer):   # the check cells' own name, rebound: every visible check says correct
    print(f"✅ {exercise_id}: correct.")


def always_right(*args, **kwargs):
    return ("correct", None)


for module in list(sys.modules.values()):   # the checker patched in every loaded module
    for attribute in ("check", "verdict", "judge", "compare", "passed", "digest"):
        if attribute in getattr(module, "__dict__", {}):
            try:
                setattr(module, attribute, check if attribute == "check" else always_right)
            except (AttributeError, TypeError):
                pass
fake = types.ModuleType("classroom")
fake.check, fake.verdict, fake.judge, fake.compare = check, always_right, always_right, always_right
for name in [name for name in sys.modules if name.split(".")[0] == "classroom"]:
    sys.modules[name] = fake   # and replaced in sys.modules
exec = compile = __import__ = lambda *args, **kwargs: None   # names a grader could look up in the notebook
'''


def nbgrader(course, *args):
    """``nbgrader ARGS`` in the course folder, with the course's environment activated (INSTRUCTORS.md)."""
    return run(["nbgrader", *args], course["nbgrader"])


def test_rebinding_check_and_patching_the_checker_scores_nothing(course):
    release = nbformat.read(course["nbgrader"] / "release" / LESSON / f"{LESSON}.ipynb", as_version=4)
    first = next(cell for cell in release.cells if "exercise" in editions.tags(cell))
    assert first.source.strip().startswith("gradient_1 = ...")
    first.source = CHEAT
    folder = course["nbgrader"] / "submitted" / "cheater" / LESSON
    folder.mkdir(parents=True)
    nbformat.write(release, folder / f"{LESSON}.ipynb")
    nbgrader(course, "autograde", LESSON)
    nbgrader(course, "export")
    with open(course["nbgrader"] / "grades.csv") as grades:
        row = next(row for row in csv.DictReader(grades) if row["student_id"] == "cheater")
    assert float(row["raw_score"]) == 0 and float(row["max_score"]) > 0
    graded = nbformat.read(course["nbgrader"] / "autograded" / "cheater" / LESSON / f"{LESSON}.ipynb", as_version=4)
    parts = [cell for cell in graded.cells if cell.metadata.get("nbgrader", {}).get("grade")]
    for cell in parts:
        said = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert said.startswith("✅"), said       # the rebound check fooled the visible line...
        assert errors and errors[0].ename == "AssertionError" and errors[0].evalue.endswith("not answered yet")
