"""Each student's own numbers: a graded exercise's point, coefficients or sizes come from the student's id.

Two students then have different right answers, so a copied answer or a table of cracked answers shared by a class
scores nothing. A lesson's public module (``classroom/lessons/lesson_NN.py``) declares the numbers of its graded
value exercises, with their default and how to draw a student's own:

>>> VARIANTS = {"5.1": variant(point=(1.0, 2.0, 3.0),
...                            draw=lambda rng: {"point": tuple(float(v) for v in rng.integers(1, 9, size=3))})}
>>> VARIANTS["5.1"].numbers("5.1", student=None).point     # no student: the lesson's own numbers
(1.0, 2.0, 3.0)
>>> VARIANTS["5.1"].numbers("5.1", student="ada") == VARIANTS["5.1"].numbers("5.1", student="ada")
True

The learner's cell asks for them by name (``x1, x2, x3 = your_numbers("5.1").point``), and the answers
(``classroom/answers/``) compute the expected value from them. Where no student is named (the repository, the
book, the self-study student edition) every exercise keeps its default, so the lessons read as written. A student
is named by ``MINITAPE_STUDENT_ID`` (the trusted grader sets it to the id of the submission's folder), and in a
graded release (whose ``classroom/`` holds ``graded.json``) by the hub's user name or the account's.
"""

import getpass
import hashlib
import importlib
import os
import pathlib
import re
import types

import numpy as np

GRADED_MARKER = pathlib.Path(__file__).resolve().parent / "graded.json"  # only a graded release's classroom/ has it
DRAWS = 100  # a draw equal to the default is drawn again, at most this many times


class Numbers(types.SimpleNamespace):
    """An exercise's numbers, read as attributes (``numbers.point``)."""


class Variant:
    """An exercise's numbers: the ``default`` (a dict) and ``draw(rng)``, which draws a student's own."""

    def __init__(self, draw, default):
        self.draw, self.default = draw, default

    def numbers(self, exercise, student):
        """The numbers of ``exercise`` for ``student`` (a string), or the default for None."""
        if student is None:
            return Numbers(**self.default)
        rng = np.random.default_rng(seed(student, exercise))
        for _ in range(DRAWS):
            drawn = self.draw(rng)
            if set(drawn) != set(self.default):
                raise ValueError(f"the draw of exercise {exercise} gives {sorted(drawn)}, its default "
                                 f"{sorted(self.default)}: give both the same names")
            if not all(np.array_equal(drawn[key], self.default[key]) for key in drawn):
                return Numbers(**drawn)
        raise ValueError(f"the draw of exercise {exercise} gives its default {DRAWS} times: widen its ranges")


def variant(draw, **default):
    """Declare an exercise's numbers: their defaults by name, and ``draw(rng)`` returning a student's own."""
    return Variant(draw, default)


def seed(student, exercise):
    """The seed of a student's numbers for an exercise: the same on every machine, different for every pair."""
    digest = hashlib.sha256(f"minitape variant|{student}|{exercise}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def student_key(student):
    """The name of a student's data, which does not reveal the student's id to the others who receive it."""
    return hashlib.sha256(f"minitape student|{student}".encode()).hexdigest()[:24]


def graded_edition():
    """Whether this copy of ``classroom`` is a graded release's."""
    return GRADED_MARKER.exists()


def student_id():
    """The student whose numbers the exercises use, or None (the lessons' own numbers)."""
    named = os.environ.get("MINITAPE_STUDENT_ID")
    if named:
        return named
    if graded_edition():
        return os.environ.get("JUPYTERHUB_USER") or getpass.getuser()
    return None


def exercise_number(exercise_id):
    """The exercise an id belongs to: "5.2a" -> "5.2"."""
    return re.sub(r"[a-z]$", "", exercise_id)


def lesson_variants(lesson):
    """The ``VARIANTS`` of a lesson's public module, or {} if it declares none."""
    try:
        module = importlib.import_module(f"classroom.lessons.lesson_{int(lesson):02d}")
    except ModuleNotFoundError as error:
        if error.name != f"classroom.lessons.lesson_{int(lesson):02d}":
            raise
        return {}
    return getattr(module, "VARIANTS", {})


def variant_of(exercise_id):
    """The Variant of an exercise (of any of its parts), or None if its numbers are the same for everyone."""
    number = exercise_number(exercise_id)
    return lesson_variants(number.split(".")[0]).get(number)


def numbers(exercise_id, student=None):
    """The numbers of an exercise for ``student`` (None: the lesson's own); None if the exercise has none."""
    declared = variant_of(exercise_id)
    return None if declared is None else declared.numbers(exercise_number(exercise_id), student)


def _shown(value):
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ")
    return repr(value)


def your_numbers(exercise_id):
    """Print the numbers of an exercise for this student (or the lesson's own) and return them."""
    number = exercise_number(exercise_id)
    student = student_id()
    found = numbers(number, student)
    if found is None:
        raise KeyError(f"exercise {number} declares no numbers: its lesson's VARIANTS has no {number!r}")
    whose = "the numbers" if student is None else f"your numbers (student {student})"
    print(f"Exercise {number}, {whose}: " + ", ".join(f"{key} = {_shown(value)}" for key, value in vars(found).items()))
    return found
