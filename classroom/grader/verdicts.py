"""Outside the sandbox: the reference's observations on the hidden cases, compared with what a submission exported.

The reference is the instructor's (``classroom/answers/lesson_NN.py``): a value exercise's ``expected``, for the
student's own numbers where the lesson gives each student theirs (``classroom.variants``), or a function's
``reference`` observed by the exercise's public probe on the hidden cases (``classroom/hidden/lesson_NN.py``, the
public cases where a lesson has none yet). Numbers match within the exercise's ``rtol``/``atol`` with the same
shape (and dtype, where the right answer has one); exact answers (strings, counts, shapes) match as
``classroom.judge.exact_form`` writes them. A part is right only if every observation matches; otherwise its
feedback says what is wrong in kind, as the lesson's check does, never the right value.

>>> from classroom.spec import value
>>> slope = value("slope", expected=6.0)
>>> judged(slope, slope.observed(6.0), [[6.0000001]])
(True, None)
>>> judged(slope, slope.observed(6.0), [[-6.0]])
(False, 'the sign is wrong')
>>> judged(slope, slope.observed(6.0), [{"error": "not answered yet"}])
(False, 'not answered yet')
"""

import functools
import importlib
import pathlib

import numpy as np

from classroom import judge, variants
from classroom.checks import lesson_of
from classroom.probes import MORE, ONE
from classroom.spec import _exact

HIDDEN = pathlib.Path(__file__).resolve().parent.parent / "hidden"
SALT = "minitape grader"  # the feedback's wording compares with a slot made here, never stored anywhere
MALFORMED = "the grader received no readable data for this answer (the harvest was changed, or ran out of room)"


@functools.cache
def specs(lesson):
    """The instructor's specs of a lesson's exercises, by id."""
    return importlib.import_module(f"classroom.answers.lesson_{lesson:02d}").EXERCISES


def hidden_text(lesson):
    """The text of a lesson's hidden test cases (empty where it has none yet): the harvest cell runs it."""
    path = HIDDEN / f"lesson_{lesson:02d}.py"
    return path.read_text() if path.exists() else ""


@functools.cache
def hidden_cases(lesson):
    """``HIDDEN_CASES`` of a lesson, built here from the same text the harvest cell runs."""
    namespace = {}
    exec(compile(hidden_text(lesson), f"classroom/hidden/lesson_{lesson:02d}.py", "exec"), namespace)
    return namespace.get("HIDDEN_CASES", {})


def reference(exercise_id, student):
    """What the probe observes of the right answer for ``student``, case by case: lists of Slots."""
    spec = specs(lesson_of(exercise_id))[exercise_id]
    if spec.reference is None:
        return spec.observed(spec.expected_for(variants.numbers(exercise_id, student)))
    observed = spec.observed(spec.reference, cases=hidden_cases(lesson_of(exercise_id)).get(exercise_id))
    failed = [(case, seen) for case, seen in enumerate(observed, 1) if isinstance(seen, Exception)]
    if failed:
        case, error = failed[0]
        raise ValueError(f"the reference of {exercise_id} fails on hidden case {case} ({type(error).__name__}: "
                         f"{error}): fix classroom/hidden/lesson_{lesson_of(exercise_id):02d}.py")
    return observed


def decoded(data):
    """A harvested observation as Python: arrays with their dtype and shape, tuples, lists, numbers, strings."""
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if not isinstance(data, dict):
        raise ValueError("not an encoded value")
    if set(data) == {"tuple"} or set(data) == {"list"}:
        items = [decoded(item) for item in next(iter(data.values()))]
        return tuple(items) if "tuple" in data else items
    if "array" in data:
        dtype = np.dtype(data["dtype"])
        if dtype.kind not in "biuf":
            raise ValueError("not an array of numbers")
        array = np.array(data["array"], dtype=dtype).reshape(data["shape"])
        return array[()] if data.get("of") == "scalar" else array
    if set(data) == {"other"} and isinstance(data["other"], str):
        return type(data["other"][:80], (), {})()  # an object of that type's name, for the feedback's wording
    raise ValueError("not an encoded value")


def difference(spec, slot, value):
    """None if ``value`` matches the reference's ``slot``, else what is wrong with it in kind."""
    right = slot.value
    if _exact(slot):
        if judge.exact_form(value)[0] == judge.exact_form(right)[0]:
            return None
        return judge.compare(value, judge.exact_slot(right, SALT, spec.options), SALT)
    got, problem = judge.as_numbers(value, spec.gradient)
    if problem:
        return problem
    want, _ = judge.as_numbers(right)
    if got.shape != want.shape or (judge.dtype_of(right) and judge.dtype_of(value)
                                   and judge.dtype_of(value) != judge.dtype_of(right)):
        return judge.compare(value, judge.numeric_slot(right, spec.rtol, spec.atol, SALT), SALT, spec.gradient)
    if np.allclose(got, want, rtol=spec.rtol, atol=spec.atol, equal_nan=True):
        return None
    return judge.compare(value, judge.numeric_slot(right, spec.rtol, spec.atol, SALT), SALT, spec.gradient) or \
        "it is close to the right value, but not within the exercise's tolerance"


def _error(seen):
    """The sentence of an observation that stopped (the student's text: one line, and short), else None."""
    if isinstance(seen, dict) and isinstance(seen.get("error"), str):
        return " ".join(seen["error"].split())[:300]
    return None


def judged(spec, want, got):
    """``(True, None)`` when every harvested observation ``got`` matches the reference's ``want``, else
    ``(False, what is wrong)``."""
    if not isinstance(got, list) or not got:
        return False, MALFORMED
    if _error(got[0]) and len(got) != len(want):
        return False, _error(got[0])  # the whole answer stopped: not answered, or wrong in kind
    if len(got) != len(want):
        return False, MALFORMED
    for number, (slots, seen) in enumerate(zip(want, got), 1):
        if _error(seen):
            return False, _error(seen)
        if not isinstance(seen, list) or len(seen) != len(slots):
            return False, MALFORMED
        for slot, data in zip(slots, seen):
            try:
                problem = difference(spec, slot, decoded(data))
            except (TypeError, ValueError, OverflowError, RecursionError):
                return False, MALFORMED
            if problem:
                says = slot.says if slot.says is not None else None if spec.answer == "value" else \
                    MORE if len(want) > 1 else ONE
                return False, problem if says is None else says.format(problem, case=number, cases=len(want))
    return True, None


def verdicts(parts, harvested, student):
    """``{exercise id: (right, feedback)}`` of the graded ``parts``, from the harvest's data, for ``student``."""
    found = harvested.get("parts") if isinstance(harvested, dict) else None
    found = found if isinstance(found, dict) else {}
    said = {}
    for exercise_id in parts:
        spec = specs(lesson_of(exercise_id))[exercise_id]
        said[exercise_id] = judged(spec, reference(exercise_id, student), found.get(exercise_id))
    return said
