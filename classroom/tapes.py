"""Lessons that build something over several exercises (a tape, its ops, layers) run their later cells on it.

A later cell of lesson 11 shows the learner's own tape at work, once the exercises that build it pass their
checks. Until then it runs on the reference tape in the full edition; the student edition has no reference tape
(nothing in a student's namespace may answer an exercise), so there the cell waits, and says for what.

>>> import classroom.checks
>>> print(your_parts_or_reference(lambda: None, ["99.1"], lesson=99, parts=["Value"]))
(This cell runs once exercise 99.1 passes its check; not yet: 99.1.)
None
"""

import importlib
import re
from types import SimpleNamespace

from classroom.checks import passed


def your_parts_or_reference(yours, exercises, lesson, parts, what="tape"):
    """The parts a later cell runs on: ``yours()`` once ``exercises`` pass, else the lesson's reference, else None.

    The reference is made of the ``parts`` (names such as "Value", "mul") of the lesson's answers, which only the
    full edition has; the parts carry ``whose`` ("your tape", "the reference tape") for the cell's sentences. It
    prints which it is.
    """
    unfinished = [exercise for exercise in exercises if not passed(exercise)]
    if not unfinished:
        print(f"(This cell runs on your {what}.)")
        found = yours()
        found.whose = f"your {what}"
        return found
    numbers = list(dict.fromkeys(re.sub(r"[a-z]$", "", exercise) for exercise in exercises))
    span = f"exercises {numbers[0]} to {numbers[-1]} pass their checks" if len(numbers) > 1 else \
        f"exercise {numbers[0]} passes its check"
    missing = ", ".join(dict.fromkeys(re.sub(r"[a-z]$", "", exercise) for exercise in unfinished))
    answers = _answers(lesson)
    if answers is None:
        print(f"(This cell runs once {span}; not yet: {missing}.)")
        return None
    print(f"(This cell runs on the reference {what} until {span}; not yet: {missing}.)")
    return SimpleNamespace(**{part: getattr(answers, part) for part in parts}, whose=f"the reference {what}")


def _answers(lesson):
    name = f"classroom.answers.lesson_{lesson:02d}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if not name.startswith(error.name or "?"):
            raise
        return None  # the student edition: its copy of classroom has no answers
