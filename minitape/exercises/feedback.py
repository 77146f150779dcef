"""What is wrong with a numeric answer, said in kind and never with the expected value.

A learner who sees the expected value learns nothing from the exercise, so every sentence here names
the *kind* of mistake (a sign, a power of ten, a shape) and leaves the number to them:

>>> diagnose(-6.0, 6.0)
'the sign is wrong'
>>> diagnose(600.0, 6.0)
'it is too large by a power of ten'
>>> print(diagnose(6.0000001, 6.0))
None
"""

import math
import sys

import numpy as np

from ..tensor import Tensor

NONE_ANSWER = ("it is None. A gradient is None when the tape recorded no path from the target to the source: "
               "the source was not watched (use a Variable or tape.watch), or the value was computed outside "
               "the tape, through NumPy, or with an integer dtype")

# Ratios of a wrong scalar to the right one that come from a typical slip (a forgotten 2 in a power rule,
# a π in a period); any other ratio says nothing about the mistake.
TELLING_FACTORS = (2.0, 3.0, 4.0, 0.5, 1 / 3, 0.25, math.pi, 2 * math.pi, 1 / math.pi, 1 / (2 * math.pi))

# An answer within this relative error is "close": the method is right and a step or a precision is not.
CLOSE = 1e-2


def article(noun):
    """``noun`` with "a" or "an" before it: "an int", "a list"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def plain(value):
    """A minitape tensor (also inside lists and tuples) as NumPy; anything else unchanged."""
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def sympy_problem(value):
    """What is wrong with ``value`` if it is a SymPy expression that still has free symbols, else None."""
    sympy = sys.modules.get("sympy")  # an answer can only be a SymPy object once the learner imported SymPy
    if sympy is None or not isinstance(value, sympy.Basic) or not value.free_symbols:
        return None
    names = ", ".join(sorted(str(symbol) for symbol in value.free_symbols))
    return (f"it is a SymPy expression in {names}, not a number: substitute values with .subs(...) "
            f"and convert it with float(...)")


def as_numbers(value, allow_bool=False):
    """``(array, None)`` for a number, list, array or tensor; ``(None, what is wrong)`` for anything else."""
    if value is None:
        return None, NONE_ANSWER
    if callable(value):
        kind = f"the class {value.__name__}" if isinstance(value, type) else f"a {type(value).__name__}"
        return None, f"it is {kind}, not a number: did you forget to call it?"
    items = value if isinstance(value, (list, tuple)) else [value]
    for position, item in enumerate(items):
        if item is None:
            return None, f"item {position} of the {type(value).__name__} " + NONE_ANSWER[3:]
        problem = sympy_problem(item)
        if problem:
            return None, problem
    try:
        array = np.asarray(plain(value))
    except ValueError:
        return None, f"it is a {type(value).__name__} whose rows have different lengths, not an array of numbers"
    if array.dtype == object:
        try:  # SymPy numbers and Python objects that know their float value
            array = array.astype(complex if any(isinstance(v, complex) for v in array.flat) else float)
        except (TypeError, ValueError):
            return None, f"it is {article(type(value).__name__)} that holds something other than numbers"
    if array.dtype.kind not in ("biufc" if allow_bool else "iufc"):
        return None, f"it is {article(type(value).__name__)}, not a number"
    return array, None


def diagnose(answer, expected, rtol=1e-6, atol=1e-12):
    """None if ``answer`` equals ``expected`` within the tolerances, else what is wrong, in kind.

    >>> diagnose([1.0, 2.0], [[1.0, 2.0]])
    'its shape is (2,), the exercise asks for shape (1, 2)'
    >>> diagnose("6", 6.0)
    'it is a str, not a number'
    """
    want, wrong_spec = as_numbers(expected, allow_bool=True)
    if wrong_spec:
        raise TypeError(f"the expected value of a value exercise must be numbers, but {wrong_spec}")
    got, problem = as_numbers(answer, allow_bool=want.dtype.kind == "b")
    if problem:
        return problem
    if got.shape != want.shape:
        return f"its shape is {got.shape}, the exercise asks for shape {want.shape}"
    # Only arrays and tensors carry a dtype the learner chose; a Python number does not.
    if isinstance(expected, (Tensor, np.ndarray)) and isinstance(answer, (Tensor, np.ndarray)) \
            and got.dtype != want.dtype:
        return f"its dtype is {got.dtype}, the exercise asks for {want.dtype}"
    if np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        return None
    return _kind_of_difference(got, want, rtol, atol)


def _kind_of_difference(got, want, rtol, atol):
    wrong = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    count = np.count_nonzero(wrong)
    which = "" if count == got.size else f" ({count} of its {got.size} elements are wrong)"
    if np.isnan(got[wrong]).any():
        return ("it contains NaN where a number is expected: look for zero divided by zero, inf minus inf or "
                "the log of a negative number" + which)
    if np.isinf(got[wrong]).any():
        return "it contains an infinity where a finite number is expected" + which
    got, want = got[wrong], want[wrong]
    if np.allclose(-got, want, rtol=rtol, atol=atol):
        return "the sign is wrong" + which
    if np.all(want != 0) and np.all(got != 0) and np.isrealobj(got) and np.isrealobj(want):
        ratio = got / want
        if np.allclose(ratio, ratio[0], rtol=1e-6):
            size = abs(ratio[0])
            sign = "the sign is wrong and " if ratio[0] < 0 else ""
            exponent = math.log10(size)
            if round(exponent) != 0 and abs(exponent - round(exponent)) < 1e-6:  # 10**0 = 1 is no slip of a power
                return f"{sign}it is too {'large' if size > 1 else 'small'} by a power of ten" + which
            if got.size > 1 or any(math.isclose(size, factor, rel_tol=1e-6) for factor in TELLING_FACTORS):
                return f"{sign}it is off by a constant factor" + which
    relative = np.abs(got - want) / np.maximum(np.abs(want), atol)
    if np.all(relative < CLOSE):
        return "it is close (within a percent) but outside the tolerance: look for an approximation" + which
    if np.all(want != 0) and np.all(got != 0):
        orders = np.log10(np.abs(got) / np.abs(want))
        if np.all(orders >= 1):
            return "it is too large by an order of magnitude or more" + which
        if np.all(orders <= -1):
            return "it is too small by an order of magnitude or more" + which
    return "the value is wrong" + which
