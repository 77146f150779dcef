"""A student who tries to read the answers or game the grade: every known trick must fail.

Everything is built from a clean checkout (the repository's files, no build output, copied to a temporary folder):
the student edition (``make student``), the nbgrader course (``make nbgrader``) and the minitape wheel. The student's
Python has the wheel and the course's dependencies, not the repository: what a JupyterHub user has after
``pip install minitape`` and the student edition's folder. The grades come from the real route: submissions in
``submitted/<student>/<lesson>/``, graded once by ``python -m classroom.grader`` (``make grade``), and read back from
nbgrader's gradebook.
"""

import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap
import time
import zipfile

import nbformat
import numpy as np
import pytest

from classroom import editions, safe_data, variants
from classroom.grader import verdicts
from classroom.probes import NotAnswered, Raised, ReturnedNone, Wrong

pytest.importorskip("nbclient")
pytest.importorskip("nbgrader")

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSON = "05_reverse_mode"   # graded under nbgrader with a cheating submission
STUDENTS = ["ada", "bob"]   # the class: the graded release holds their own data
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
    run([sys.executable, "-m", "classroom.editions", "nbgrader", "build/nbgrader", *lessons, "--students",
         *STUDENTS], checkout)
    wheel = next((checkout / "build" / "student" / "wheels").glob("minitape-*.whl"))   # the edition's own
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
                        "import classroom.spec", "import classroom.grader", "import classroom.hidden.lesson_05"):
        done = student_python(course, import_line)
        assert done.returncode != 0 and "Error" in done.stderr, import_line
    shipped = [course["student"], course["nbgrader"] / "source" / LESSON / "classroom"]
    for folder in shipped:
        names = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
        assert not [n for n in names if "answers" in n or "hidden" in n or "grader" in n
                    or n.endswith((".answers", "spec.py"))], names
    with zipfile.ZipFile(course["wheel"]) as wheel:
        names = wheel.namelist()
    assert names and all(name.startswith("minitape") for name in names), names   # the library and its metadata
    assert not [name for name in names if "exercises" in name or "classroom" in name or "answers" in name]


# --- trick: grepping the edition, the release and the wheel for an expected value or a reference ------------------

def expected_numbers(student=None):
    """Every number an exercise's check compares with (values for ``student``'s own numbers, or the lessons' own
    for None, and what probes observe of the references), written with enough digits that finding its text in a
    file is no accident."""
    numbers = set()
    for lesson in safe_data.lessons():
        answers = __import__(f"classroom.answers.lesson_{lesson:02d}", fromlist=["EXERCISES"])
        for exercise_id, spec in answers.EXERCISES.items():
            if spec.expected is None and spec.reference is None:
                continue
            right = spec.reference if spec.reference is not None else spec.expected_for(
                variants.numbers(exercise_id, student))
            observed = spec.observed(right)
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
    # Lesson 15's record of what JAX printed is that lesson's output too, kept beside it so that Run All without JAX
    # still shows it.
    found = [(form, path) for path, text in texts.items() if not path.endswith((".ipynb", "lesson_15_jax.json"))
             for number in numbers for form in number_forms(number) if form in text]
    assert not found, found[:10]
    notebook_code = {path: "\n".join(cell.source for cell in nbformat.reads(text, as_version=4).cells)
                     for path, text in texts.items() if path.endswith(".ipynb")}
    found = [(form, path) for path, text in notebook_code.items() for number in numbers
             for form in number_forms(number) if form in text]
    assert not found, found[:10]


def test_no_student_s_own_answer_is_in_any_file_of_the_graded_release(course):
    """The class's own numbers: their answers are in no file at all, not even in a lesson's outputs."""
    for student in STUDENTS:
        numbers = expected_numbers(student) - expected_numbers()
        assert len(numbers) > 20, student   # the value exercises with each student's own numbers
        texts = {path: text for path, text in shipped_texts(course).items() if "/release/" in path}
        assert any("/students/" in path for path in texts)   # the release holds their (hashed) data
        found = [(form, path) for path, text in texts.items() for number in numbers
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


# --- the trusted grader: each attack, as a submission graded by the real route (python -m classroom.grader) --------

# A folder beside the notebook that shadows the library: it loads the real one and, under nbgrader's autograder,
# installs a hook that makes every hidden test pass.
SHADOW_PACKAGE = """
import importlib, os, sys
sys.path.remove(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.modules.pop("minitape")
sys.modules["minitape"] = importlib.import_module("minitape")
if os.environ.get("NBGRADER_EXECUTION") == "autograde":
    import builtins
    builtins.AssertionError = type("Never", (Exception,), {})
"""
WRITE_A_SHADOW = f"""\
import importlib, os, sys
os.makedirs("minitape", exist_ok=True)
with open("minitape/__init__.py", "w") as file:
    file.write({SHADOW_PACKAGE!r} + "\\nSHADOWED = True\\n")
for name in [name for name in sys.modules if name.split(".")[0] == "minitape"]:
    del sys.modules[name]
importlib.invalidate_caches()
import minitape
print("ATTACK minitape from", minitape.__file__, getattr(minitape, "SHADOWED", False))
"""
PROFILE_HOOK = """\
import sys, threading
def always_right(*args, **kwargs):
    return ("correct", None)
def hook(frame, event, arg):   # every judge-like function the stack meets is replaced, on every call
    if event == "call":
        for name in ("verdict", "_problem", "compare", "judged", "difference", "observations", "_run"):
            if name in frame.f_globals:
                frame.f_globals[name] = always_right
sys.setprofile(hook)
threading.setprofile(hook)
"""
FRAME_WALKER = """\
import sys
class Walker:   # an answer that climbs the stack of whoever looks at it and rewrites what it finds there
    def walk(self):
        frame = sys._getframe(1)
        while frame is not None:
            for scope in (frame.f_globals, frame.f_locals):
                for name in ("verdict", "_problem", "compare", "judged", "difference", "observations", "_run",
                             "encoded", "failed"):
                    if name in scope:
                        scope[name] = lambda *args, **kwargs: ("correct", None)
                for name in list(scope):
                    if name in ("problem", "problems", "seen", "right"):
                        scope[name] = None
            frame = frame.f_back
    def __call__(self, *args, **kwargs):
        self.walk()
        return args[0] if args else self
    def __array__(self, *args, **kwargs):
        self.walk()
        import numpy
        return numpy.zeros(3)
    def __getattr__(self, name):
        self.walk()
        return self
"""
REBIND = """\
import sys, types
import minitape.tensorflow.autodiff
class Counts(minitape.tensorflow.autodiff.OpCounter):   # a counter that records nothing: every method check passes
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.counts = {}
minitape.tensorflow.autodiff.OpCounter = Counts
minitape.tensorflow.autodiff.ForwardAccumulator.__enter__ = lambda self: self
def check(exercise_id, answer):
    print(f"✅ {exercise_id}: correct.")
fake = types.ModuleType("classroom")
fake.check = check
for name in [name for name in sys.modules if name.split(".")[0] == "classroom"]:
    sys.modules[name] = fake   # the grader's modules, as the harvest would import them, replaced
exec = compile = __import__ = lambda *args, **kwargs: None
"""
ENVIRONMENT = """\
import json, os
print("ATTACK environment", json.dumps(dict(os.environ)))
print("ATTACK cwd", os.getcwd(), sorted(os.listdir(".")))
if os.environ.get("NBGRADER_EXECUTION") == "autograde" or "environment" in os.getcwd():
    gradient_1 = [1.0, 2.0, 3.0]
"""
GRADEBOOK = """\
import os, sqlite3
tried = {os.path.abspath(os.path.join(*[".."] * up, "gradebook.db")) for up in range(1, 12)}   # up to /
for top in ("/", "/tmp", "/work", "/root", "/home", "/srv", "/submission"):
    for folder, folders, files in os.walk(top):
        if folder.count("/") > 5 or folder.startswith(("/usr", "/proc", "/dev")):
            folders.clear()
        tried.update(os.path.join(folder, name) for name in files if name.endswith(".db"))
found = []
for path in sorted(tried):
    try:
        with sqlite3.connect(f"file:{path}?mode=rw", uri=True) as db:
            db.execute("UPDATE grade SET manual_score = 13000")
        found.append(path)
    except Exception:
        pass
print("ATTACK gradebooks", found, len(tried))
"""
REVEALED = """\
ops_forward_a, ops_reverse_a, cheaper_a = 1000, 24, "reverse"   # typed from the reveal under the prediction
ops_forward_b, ops_reverse_b, cheaper_b = 30, 606, "forward"
"""

# student: (the cell put first, the cell put last) of the graded release of lesson 05
ATTACKS_05 = {"shadow_beside": (None, None), "shadow_written": (WRITE_A_SHADOW, None),
              "profile_hook": (PROFILE_HOOK, None), "rebinding": (REBIND, None), "environment": (ENVIRONMENT, None),
              "gradebook_writer": (GRADEBOOK, None), "revealed": (None, REVEALED)}
TAPE_LESSON = TAPE_LESSONS[1]   # lesson 13: functions and classes, observed on hidden cases


def nbgrader(course, *args):
    """``nbgrader ARGS`` in the course folder, with the course's environment activated (INSTRUCTORS.md)."""
    return run(["nbgrader", *args], course["nbgrader"])


def release(course, lesson):
    return nbformat.read(course["nbgrader"] / "release" / lesson / f"{lesson}.ipynb", as_version=4)


def source(course, lesson):
    return nbformat.read(course["nbgrader"] / "source" / lesson / f"{lesson}.ipynb", as_version=4)


def submit(course, student, lesson, nb, first=None, last=None):
    """``nb`` as ``student``'s submission, with a cell ``first`` before all others and ``last`` after them."""
    nb = nbformat.from_dict(nb)
    if first:
        nb.cells.insert(0, nbformat.v4.new_code_cell(first))
    if last:
        nb.cells.append(nbformat.v4.new_code_cell(last))
    folder = course["nbgrader"] / "submitted" / student / lesson
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{lesson}.ipynb")
    return folder


def typed(values):
    """A cell that types these answers as literal numbers (``name = value`` lines)."""
    return "\n".join(f"{name} = {np.asarray(value).tolist()!r}" for name, value in values.items())


def grades(course):
    """``{(student, assignment): {grade id: score}}`` and every manual score, from the gradebook."""
    from nbgrader.api import Gradebook
    found, manual = {}, []
    with Gradebook(f"sqlite:///{course['nbgrader'] / 'gradebook.db'}") as book:
        for assignment in book.assignments:
            for submission in assignment.submissions:
                for notebook in submission.notebooks:
                    found[submission.student.id, assignment.name] = {g.name: g.score for g in notebook.grades}
                    manual += [g.manual_score for g in notebook.grades]
    return found, manual


@pytest.fixture(scope="module")
def graded(course):
    """Every submission below, graded once by ``python -m classroom.grader`` (what ``make grade`` runs)."""
    from classroom.answers import lesson_05
    blank = release(course, LESSON)
    for student, (first, last) in ATTACKS_05.items():
        folder = submit(course, student, LESSON, blank, first, last)
        if student == "shadow_beside":   # the submission's folder holds the shadow beside the notebook
            (folder / "minitape").mkdir()
            (folder / "minitape" / "__init__.py").write_text(SHADOW_PACKAGE)
    submit(course, "reference", LESSON, source(course, LESSON))
    right = {spec.name: spec.expected_for(variants.numbers(exercise_id, "partly_right"))   # the student's own numbers
             for exercise_id, spec in lesson_05.EXERCISES.items() if exercise_id in ("5.1", "5.2a", "5.2b", "5.2c")}
    right["w0_bar"] *= 10   # 5.1, 5.2a and 5.2b right; 5.2c too large by a power of ten
    submit(course, "partly_right", LESSON, blank, last=typed(right))
    submit(course, "reference", TAPE_LESSON, source(course, TAPE_LESSON))
    submit(course, "frame_walker", TAPE_LESSON, release(course, TAPE_LESSON),
           last=FRAME_WALKER + "\n".join(f"{name} = Walker()" for name in (
               "shape_b", "mul", "matmul", "reduce_sum", "reduce_mean", "sigmoid_cross_entropy", "Dense", "MLP")))
    started = time.monotonic()
    done = run([sys.executable, "-m", "classroom.grader", "build/nbgrader", "--jobs", "2"], course["checkout"],
               check=False)
    seconds = time.monotonic() - started
    scores, manual = grades(course)
    points = {lesson: {cell.metadata.nbgrader["grade_id"]: cell.metadata.nbgrader["points"]
                       for cell in source(course, lesson).cells if cell.metadata.get("nbgrader", {}).get("grade")}
              for lesson in (LESSON, TAPE_LESSON)}
    print(f"\n{done.stdout}graded {len(scores)} submissions in {seconds:.0f} s, two at a time")
    return {"done": done, "scores": scores, "manual": manual, "points": points}


def autograded(course, student, lesson):
    """``student``'s graded notebook as the teacher reads it in autograded/, and the text of all its outputs."""
    nb = nbformat.read(course["nbgrader"] / "autograded" / student / lesson / f"{lesson}.ipynb", as_version=4)
    return nb, "\n".join(o.get("text", "") for cell in nb.cells for o in cell.get("outputs", []))


def test_the_reference_scores_full_marks_and_a_partial_answer_its_parts(graded):
    # The controls run cleanly (no problem said after their seconds); an attack may end its own kernel (the profile
    # hook, on a busy machine), which the grader names, and then exits 1, scoring it nothing as the others.
    done, clean = graded["done"], re.compile(r"\S+\s+\S+\s+[\d.]+/\d+\s+\d+\s*")   # student, lesson, score, seconds
    lines = [line for line in done.stdout.splitlines()[1:] if line.strip()]
    controls = [line for line in lines if line.startswith(("reference ", "partly_right "))]
    assert len(controls) == 3 and all(clean.fullmatch(line) for line in controls), done.stdout + done.stderr
    problems = [line for line in lines if not clean.fullmatch(line)]
    assert done.returncode == (1 if problems else 0), done.stdout + done.stderr
    for lesson in (LESSON, TAPE_LESSON):
        assert graded["scores"]["reference", lesson] == pytest.approx(graded["points"][lesson])
        assert sum(graded["points"][lesson].values()) >= 7
    partly = graded["scores"]["partly_right", LESSON]
    assert partly == pytest.approx({grade_id: points if grade_id in ("ex5_1-check", "ex5_2a-check", "ex5_2b-check")
                                    else 0.0 for grade_id, points in graded["points"][LESSON].items()})


@pytest.mark.parametrize("student", [*ATTACKS_05, "frame_walker"])
def test_every_attack_scores_nothing(course, graded, student):
    lesson = TAPE_LESSON if student == "frame_walker" else LESSON
    scores = graded["scores"][student, lesson]
    assert scores.keys() == graded["points"][lesson].keys() and sum(scores.values()) == 0, scores
    nb, _ = autograded(course, student, lesson)
    first, last = ATTACKS_05.get(student, (None, FRAME_WALKER))
    attack = nb.cells[1] if first else nb.cells[-1] if last else None   # cells[0]: the grader's summary
    assert attack is None or (attack.source in (first, last) or attack.source.startswith(FRAME_WALKER))
    assert attack is None or not [o for o in attack.outputs if o.output_type == "error"], attack.outputs   # it ran


def test_the_sandbox_shows_neither_the_library_source_nor_the_students_folder(course, graded):
    _, said = autograded(course, "shadow_written", LESSON)
    assert re.search(r"ATTACK minitape from /\S+/minitape/__init__.py False", said), said[:2000]
    assert "/submission/minitape" not in said
    _, said = autograded(course, "environment", LESSON)
    environment = json.loads(re.search(r"ATTACK environment (\{.*\})", said).group(1))
    assert "NBGRADER_EXECUTION" not in environment and environment["MINITAPE_STUDENT_ID"] == "environment"
    assert re.search(r"ATTACK cwd /submission \['05_reverse_mode.ipynb'\]", said)


def test_no_submission_reaches_the_gradebook(course, graded):
    _, said = autograded(course, "gradebook_writer", LESSON)
    found = re.search(r"ATTACK gradebooks (\[.*\]) (\d+)", said)
    assert found.group(1) == "[]" and int(found.group(2)) >= 1   # it tried, and opened none
    assert graded["manual"] and all(score is None for score in graded["manual"])


def test_predict_then_run_carries_no_points_and_the_feedback_shows_no_answer(course, graded):
    assert not [grade_id for grade_id in graded["points"][LESSON] if grade_id.startswith("ex5_3")]
    nb, said = autograded(course, "partly_right", LESSON)
    assert "❌ 5.2c: 0 of 0.66 points: it is too large by a power of ten" in nb.cells[0].source
    from classroom.answers import lesson_05
    right = lesson_05.EXERCISES["5.2c"].expected_for(variants.numbers("5.2c", "partly_right"))
    assert f"{right:.6g}" not in said + nb.cells[0].source


def test_a_submission_that_is_not_the_graded_release_is_named(course, graded):
    edition = nbformat.read(course["student"] / f"{LESSON}.ipynb", as_version=4)
    submit(course, "wrong_edition", LESSON, edition)
    done = run([sys.executable, "-m", "classroom.grader", "build/nbgrader", "--student", "wrong_edition"],
               course["checkout"], check=False)
    assert done.returncode == 1
    assert re.search(r"wrong_edition\s+05_reverse_mode\s+0/7\s+\d+\s+this is the student edition of lesson 05, "
                     r"not the graded release", done.stdout), done.stdout
    nb, _ = autograded(course, "wrong_edition", LESSON)
    assert "not the graded release: ask the student to fetch the release" in nb.cells[0].source


def own_numbers_lesson():
    """The first lesson whose graded value exercises give each student their own numbers, and those exercises."""
    for lesson in safe_data.lessons():
        ids = [exercise_id for exercise_id, spec in verdicts.specs(lesson).items() if spec.reference is None
               and variants.variant_of(exercise_id) is not None and editions.graded(exercise_id)]
        if ids:
            return lesson, ids
    return None, []


def test_one_students_values_score_nothing_for_another(course):
    lesson, ids = own_numbers_lesson()
    if lesson is None:
        pytest.skip("no lesson gives each student their own numbers yet (VARIANTS in classroom/lessons/)")
    name = next(path.stem for path in (course["checkout"] / "notebooks").glob(f"{lesson:02d}_*.ipynb"))
    nbgrader(course, "generate_assignment", name)
    specs = verdicts.specs(lesson)
    adas = {specs[i].name: specs[i].expected_for(variants.numbers(i, "ada")) for i in ids}
    for student in ("ada", "bob"):   # bob hands in ada's numbers, typed into his notebook
        submit(course, student, name, release(course, name), last=typed(adas))
    run([sys.executable, "-m", "classroom.grader", "build/nbgrader", "--assignment", name, "--jobs", "2"],
        course["checkout"])
    scores, _ = grades(course)
    for exercise_id in ids:
        grade_id = f"ex{exercise_id.replace('.', '_')}-check"
        assert scores["ada", name][grade_id] > 0 and scores["bob", name][grade_id] == 0, (exercise_id, scores)
