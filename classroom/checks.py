"""``check``, ``passed`` and ``reference_solution``: what the lessons' check and solution cells call.

``check("0.1", answer_0_1)`` prints one line that says its verdict in words beside the symbol:
``⏳ 0.1: not answered yet`` while the answer is ``...``, ``✅ 0.1: correct.``, or ``❌ 0.1: not correct yet:``
with what is wrong in kind and a hint. It judges from ``classroom/data/``, which holds hashes and kinds, never
an expected value (``classroom.judge``). The hints come in steps: the k-th different wrong answer to an
exercise shows its k-th hint. A check is feedback for the learner, never a grade: grades come from the trusted
grader, which judges what a submission computed outside the student's Python (``classroom.grader``).

Where a lesson gives each student their own numbers (``classroom.variants``), the check judges the answer for
this student's numbers, from ``data/students/`` (written for a class by ``make nbgrader``), and says so when this
copy has no data for the student.
"""

import functools
import importlib
import json
import pathlib
import re
import sys
import textwrap

import numpy as np

from classroom import variants
from classroom.judge import plain, verdict

DATA = pathlib.Path(__file__).resolve().parent / "data"
WIDTH = 88  # a check's line is wrapped at words to this width, so that no notebook breaks it inside a word
STUCK = "Stuck? The full edition of the course has a reference solution in the collapsed cell below this check."
NOT_ANSWERED = "not answered yet: replace the ... with your answer."

# What a reference solution prints when it passes (reference_solution), and the ids it names on its second line,
# ``with reference_solution("5.1", "5.2"):``: under nbval every solution cell must print one for each id.
REFERENCE_PASSES = re.compile(r"^Reference solution of (\S+): it passes the check\.", re.MULTILINE)


def reference_ids(source):
    """The exercise ids a solution cell's ``with reference_solution(...)`` line names, in order."""
    return re.findall(r"""["'](\d+\.\d+[a-z]?)["']""", source.split("\n", 2)[1])


_attempts = {}  # exercise id -> (wrong attempts so far, fingerprint of the last wrong answer)
_said = {}  # exercise id -> the status of its last check: "correct", "unanswered" or "wrong"
_lent = {}  # learner's name -> object, from reference solutions that passed (see reference_solution)


def lesson_of(exercise_id):
    """The lesson number of an exercise id: "5.3a" -> 5."""
    match = re.fullmatch(r"(\d+)\.\d+[a-z]?", exercise_id) if isinstance(exercise_id, str) else None
    if not match:
        raise ValueError(f"{exercise_id!r} is not an exercise id: write it as lesson.number, e.g. '5.3' or '5.3a'")
    return int(match.group(1))


@functools.cache
def lesson_data(lesson):
    """The data of a lesson's exercises: exercise id -> what ``classroom.judge`` compares an answer with."""
    path = DATA / f"lesson_{int(lesson):02d}.json"
    if not path.exists():
        raise FileNotFoundError(f"lesson {lesson} has no exercise data {path.name}: write it with "
                                f"python -m classroom.safe_data {int(lesson):02d}")
    return json.loads(path.read_text())


@functools.cache
def student_data(lesson, student):
    """A student's own data for a lesson's exercises with numbers of their own ({} if this copy has none)."""
    path = DATA / "students" / f"lesson_{int(lesson):02d}" / f"{variants.student_key(student)}.json"
    return json.loads(path.read_text()) if path.exists() else {}


class Exercises(dict):
    """Every exercise's data, read lesson by lesson as the ids are asked for (a student's own where there is one)."""

    def __missing__(self, exercise_id):
        lesson = lesson_of(exercise_id)
        specs = lesson_data(lesson)
        if exercise_id not in specs:
            raise KeyError(f"exercise {exercise_id!r} is not in the data of lesson {lesson}; "
                           f"it has {', '.join(specs)}")
        data = specs[exercise_id]
        student = variants.student_id()
        if student is not None and variants.variant_of(exercise_id) is not None:
            data = student_data(lesson, student).get(exercise_id) or {
                "name": data["name"], "answer": data["answer"], "hints": data["hints"], "unchecked": student}
        self[exercise_id] = data
        return self[exercise_id]


EXERCISES = Exercises()


def resolve(reference):
    """The public object named ``"module:name"`` (a probe, the test cases, a test)."""
    module, name = reference.split(":")
    return getattr(importlib.import_module(module), name)


def assess(exercise_id, answer):
    """``(status, what is wrong)`` of ``answer``, with an answer no rule foresaw reported, never raised."""
    data = EXERCISES[exercise_id]
    if "unchecked" in data:  # a student's own numbers, and no data for them in this copy
        return ("unanswered", None) if answer is ... else ("unchecked", data["unchecked"])
    try:
        return verdict(exercise_id, EXERCISES, answer, resolve)
    except Exception as error:  # an answer no rule foresaw: say so, never break the learner's notebook
        return "wrong", f"the check could not judge this answer ({type(error).__name__}: {error})"


def line(exercise_id, status, problem, hints=(), count=0):
    """The line a check prints: the verdict in words beside its symbol, and a hint after a wrong answer.

    >>> line("9.9", "wrong", "the sign is wrong", ["Power rule."], 1)
    '❌ 9.9: not correct yet: the sign is wrong. Hint: Power rule.'

    A long line is wrapped at words (``WIDTH``), its further lines indented.
    """
    if status == "correct":
        return f"✅ {exercise_id}: correct."
    if status == "unanswered":
        return f"⏳ {exercise_id}: {NOT_ANSWERED}"
    if status == "unchecked" and problem == "loose":
        said = (f"📝 {exercise_id}: answered. It is graded when you submit: at this exercise's tolerance a check of "
                f"your own numbers would let a program find the answer by trying values, so there is none.")
    elif status == "unchecked":
        said = (f"📝 {exercise_id}: answered. This copy has no self-check for your own numbers (student {problem}); "
                f"your answer is graded when you submit.")
    else:
        said = f"❌ {exercise_id}: not correct yet: {_sentence(problem)}"
        if hints and count:
            said += f" Hint: {_sentence(hints[min(count, len(hints)) - 1])}"
            if count > len(hints):
                said += f" {STUCK}"
    return textwrap.fill(said, WIDTH, subsequent_indent="   ", break_long_words=False, break_on_hyphens=False)


def check(exercise_id, answer):
    """Print whether ``answer`` is right for exercise ``exercise_id``: ⏳, ✅, or ❌ with what is wrong and a hint."""
    status, problem = assess(exercise_id, answer)
    _said[exercise_id] = status
    count = 0
    if status == "wrong":
        count, last = _attempts.get(exercise_id, (0, None))
        now = _fingerprint(answer)
        if now != last or count == 0:
            count += 1
        _attempts[exercise_id] = (count, now)
    print(line(exercise_id, status, problem, EXERCISES[exercise_id]["hints"], count))


def passed(*exercise_ids):
    """Whether the last check of each of these exercises said ✅ (it judges nothing itself: no answer is tried)."""
    return all(_said.get(exercise_id) == "correct" for exercise_id in exercise_ids)


def _sentence(text):
    """``text`` ending in a full stop, unless it already ends in one, a question or an exclamation mark."""
    return text if text.endswith((".", "?", "!")) else text + "."


def _fingerprint(answer):
    """Equal for answers that are the same; a re-run of an unchanged wrong answer must not advance the hints."""
    code = getattr(answer, "__code__", None)
    if code is not None:
        return ("function", code.co_code, repr(code.co_consts))
    try:
        array = np.asarray(plain(answer))
        if array.dtype != object:
            return ("array", array.dtype.str, array.shape, array.tobytes())
    except ValueError:
        pass
    return ("other", type(answer).__name__, repr(answer))


class reference_solution:  # lower case: a notebook uses it like a function, in a `with` statement
    """Run a reference solution, check it, and give the learner's names back.

    ``with reference_solution("5.1"):`` snapshots the caller's globals and lends it what earlier reference
    solutions defined (so that 11.2's reference builds on 11.1's, whatever the learner's 11.1 holds); on exit it
    checks the names the exercises ask for (an AssertionError if the reference fails its own check), then
    restores the globals exactly, so that Run All never replaces a learner's answer.
    """

    def __init__(self, *exercise_ids):
        self.exercise_ids = exercise_ids
        self.names = [EXERCISES[i]["name"] for i in exercise_ids]

    def __enter__(self):
        self.namespace = sys._getframe(1).f_globals  # the notebook's (or module's) global names
        self.saved = dict(self.namespace)
        self.namespace.update(_lent)
        return self

    def __exit__(self, kind, error, traceback):
        try:
            if kind is None:
                print("\n".join(self._verdict(i, name) for i, name in zip(self.exercise_ids, self.names)))
                _lent.update({name: self.namespace[name] for name in self.names})
        finally:
            self.namespace.clear()
            self.namespace.update(self.saved)
        return False

    def _verdict(self, exercise_id, name):
        if name not in self.namespace:
            raise AssertionError(f"the reference solution of {exercise_id} does not define {name}")
        status, problem = assess(exercise_id, self.namespace[name])
        if status != "correct":
            raise AssertionError(f"the reference solution of {exercise_id} fails its own check: "
                                 f"{'it leaves the ...' if status == 'unanswered' else problem}")
        return textwrap.fill(f"Reference solution of {exercise_id}: it passes the check. This line is about the "
                             f"reference, not your answer: your own check is the line above the solution, and "
                             f"your answer is unchanged.", WIDTH, subsequent_indent="   ")
