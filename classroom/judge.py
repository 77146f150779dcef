"""Judging an answer from what is safe to hand to a student: its kind, and salted hashes of its rounded value.

The answers (``classroom/answers/``, in the instructor's copy only) are turned by ``classroom.safe_data`` into
``classroom/data/lesson_NN.json``, which holds no expected value. For each exercise it keeps the learner's name,
the hints, and, for everything the check looks at (a *slot*: the answer itself, or what a probe observed of it
on a public test case), the slot's kind (shape, dtype, or the type of an exact answer) and a hash of its value
rounded at the tolerance. ``verdict`` compares an answer with that data; ``classroom.checks`` prints it for the
learner. Grades never come from here: the trusted grader judges what a submission computed, outside the student's
Python (``classroom.grader``).

**Rounding.** A number x is mapped to u(x) = sign(x) log(1 + |x|/a), with a = atol/rtol: there the tolerance
``|x - w| <= atol + rtol |w|`` of ``np.allclose`` becomes an interval of width about 2 rtol around u(w), whatever
the size of w. The u axis is cut into cells of width 5 rtol by two grids, the second shifted by half a cell.
For each expected number the data names the grid in which it lies in the middle half of its cell, so every
answer within the tolerance rounds to the same cell (it moves u by at most 1.25 rtol, and the cell's edges are
at least 1.25 rtol away): a value near a rounding boundary never fails a right answer. An answer is accepted
only if all its numbers share the expected cells, that is within about four times the tolerance.

>>> slot = numeric_slot(6.0, rtol=1e-6, atol=1e-12, salt="demo")
>>> compare(6.0 * (1 + 1e-7), slot, "demo") is None, compare(-6.0, slot, "demo"), compare(60.0, slot, "demo")
(True, 'the sign is wrong', 'it is too large by a power of ten')
>>> sorted(slot)   # what is stored of the right value: its kind, its rounding grid and a hash, not the value
['atol', 'finite', 'grids', 'hash', 'rtol', 'shape']
"""

import hashlib
import math
import sys

import numpy as np

from classroom.probes import MORE, ONE, NotAnswered, Raised, ReturnedNone, Slot, Wrong, call_with, \
    class_is_placeholder, is_placeholder, parts

ITERATIONS = 1000  # of PBKDF2: about a millisecond per hash, so that trying every rounded value is slow
# A student's own numbers (classroom.variants) are hashed with scrypt, memory-hard and about 50 ms a hash here: the
# answer of a graded exercise is then slower to find by trying values than by doing the exercise (INSTRUCTORS.md).
SLOW = "scrypt"
SCRYPT = {"n": 2**13, "r": 8, "p": 1, "maxmem": 64 * 2**20}
WIDTH = 5  # a cell of the rounding grid is WIDTH * rtol wide on the u axis (see the module's docstring)

NONE_GRADIENT = ("a gradient is None when the tape recorded no path from the target to the source: the source was "
                 "not watched (use a Variable or tape.watch), or the value was computed outside the tape, through "
                 "NumPy, or with an integer dtype")

# Ratios of a wrong answer to the right one that come from a typical slip (a forgotten 2 in a power rule, a π in
# a period); any other ratio says nothing about the mistake.
TELLING_FACTORS = (2.0, 3.0, 4.0, 0.5, 1 / 3, 0.25, math.pi, 2 * math.pi, 1 / math.pi, 1 / (2 * math.pi))
POWERS_OF_TEN = (1, 2, 3, 4, 5, 6)


# --- hashing -----------------------------------------------------------------------------------------------------

def digest(salt, text, kdf=None):
    """The salted, slow hash of ``text`` (hex): PBKDF2, or scrypt for ``kdf="scrypt"`` (a student's own numbers)."""
    if kdf == SLOW:
        return hashlib.scrypt(text.encode(), salt=salt.encode(), **SCRYPT).hex()
    return hashlib.pbkdf2_hmac("sha256", text.encode(), salt.encode(), ITERATIONS).hex()


def salt_of(name, case, slot, extra="", student=None):
    """The salt of a slot: the learner's name, the test case and the slot, so that no two exercises share hashes,
    and the student's key for a student's own numbers, so that no two students do."""
    return f"minitape course|{name}|{case}|{slot}{extra}" + (f"|student {student}" if student else "")


def spread(x, rtol, atol):
    """u(x) = sign(x) log(1 + |x|/a), a = atol/rtol: the axis on which the tolerance has the same width everywhere."""
    a = atol / rtol
    size = abs(x) / a
    u = math.log1p(size) if math.isfinite(size) else math.log(abs(x)) - math.log(a)
    return math.copysign(u, x)


def grid_of(x, rtol, atol):
    """The grid ("0" or "1") in which x lies in the middle half of its cell."""
    if not math.isfinite(x):
        return "0"
    position = spread(x, rtol, atol) / (WIDTH * rtol)
    return "0" if 0.25 <= position - math.floor(position) < 0.75 else "1"


def cell_of(x, rtol, atol, grid):
    """The cell of x in ``grid``, as text: its index on the u axis, or nan / inf / -inf."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return str(math.floor(spread(x, rtol, atol) / (WIDTH * rtol) + (0.5 if grid == "1" else 0.0)))


def rounded_text(numbers, shape, rtol, atol, grids):
    """What is hashed of an array: its shape and the cell of every number."""
    return f"{tuple(shape)}|" + ",".join(cell_of(x, rtol, atol, g) for x, g in zip(numbers, grids))


# --- what an answer is, in kind -------------------------------------------------------------------------------------

def article(noun):
    """``noun`` with "a" or "an" before it: "an int", "a list"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def described(value):
    """What a wrong kind of answer is, for a sentence: "a str", "the class GradientTape", "None"."""
    if value is None:
        return "None"
    if isinstance(value, type):
        return f"the class {value.__name__}"
    return article(type(value).__name__)


def none_problem(gradient, what="it is None"):
    """What to say of a None where a value is expected: about tapes only where the answer is a gradient."""
    return f"{what}. A{NONE_GRADIENT[1:]}" if gradient else f"{what}, not a number"


def plain(value):
    """A minitape tensor (also inside lists and tuples) as NumPy; anything else unchanged."""
    if type(value).__module__.startswith("minitape") and hasattr(value, "numpy"):
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


def as_numbers(value, gradient=False):
    """``(float array, None)`` for a number, list, array or tensor; ``(None, what is wrong)`` for anything else.

    >>> as_numbers([1, 2])[0]
    array([1., 2.])
    >>> as_numbers("6")
    (None, 'it is a str, not a number')
    """
    if value is None:
        return None, none_problem(gradient)
    if callable(value):
        return None, f"it is {described(value)}, not a number: did you forget to call it?"
    items = value if isinstance(value, (list, tuple)) else [value]
    for position, item in enumerate(items):
        if item is None:
            return None, none_problem(gradient, f"item {position} of the {type(value).__name__} is None")
        problem = sympy_problem(item)
        if problem:
            return None, problem
    try:
        array = np.asarray(plain(value))
    except ValueError:
        return None, f"it is a {type(value).__name__} whose rows have different lengths, not an array of numbers"
    if array.dtype == object:
        try:  # SymPy numbers and Python objects that know their float value
            array = array.astype(float)
        except (TypeError, ValueError):
            return None, f"it is {article(type(value).__name__)} that holds something other than numbers"
    if array.dtype.kind == "c":
        return None, f"it is {article(type(value).__name__)} of complex numbers, the exercise asks for real ones"
    if array.dtype.kind not in "iuf":
        return None, f"it is {article(type(value).__name__)}, not a number"
    return array.astype(np.float64), None


def dtype_of(value):
    """The dtype a learner chose, for an array or a tensor; None for numbers (NumPy's too) and lists."""
    if isinstance(value, np.ndarray):
        return str(value.dtype)
    if type(value).__module__.startswith("minitape") and hasattr(value, "dtype"):
        return str(np.dtype(getattr(value.dtype, "as_numpy_dtype", value.dtype)))
    return None


def exact_form(value):
    """``(text, kind)`` of an answer compared exactly: strings stripped, numbers 3 and 3.0 alike, lists as tuples.

    >>> exact_form(" reverse "), exact_form(3.0), exact_form([5, 3])
    (('str:reverse', 'str'), ('number:3', 'number'), ('tuple:(number:5, number:3)', 'tuple'))
    """
    if value is None:
        return "none", "none"
    if isinstance(value, str):
        return "str:" + value.strip(), "str"
    if isinstance(value, (bool, np.bool_)):
        return f"bool:{bool(value)}", "bool"
    if hasattr(value, "as_list"):  # a TensorShape
        value = tuple(value.as_list())
    if isinstance(value, (list, tuple)):
        return "tuple:(" + ", ".join(exact_form(item)[0] for item in value) + ")", "tuple"
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
        return (f"number:{int(number)}" if number.is_integer() else f"number:{number!r}"), "number"
    return f"other:{type(value).__name__}", "other"


# --- the data of a slot (what safe_data writes) ---------------------------------------------------------------------

def numeric_slot(value, rtol, atol, salt, kdf=None):
    """The data of a numeric slot whose right value is ``value``: kind, rounding grids and hash, never the value."""
    if not 1e-13 <= rtol <= 0.05 or not atol > 0:
        raise ValueError(f"rtol must be within 1e-13 and 0.05 and atol above 0, not rtol={rtol}, atol={atol}")
    array, problem = as_numbers(value)
    if problem:
        raise TypeError(f"a numeric answer must be numbers, but {problem}")
    numbers = array.ravel().tolist()
    grids = "".join(grid_of(x, rtol, atol) for x in numbers)
    slot = {"rtol": rtol, "atol": atol, "shape": list(array.shape), "finite": all(map(math.isfinite, numbers)),
            "grids": grids, "hash": digest(salt, rounded_text(numbers, array.shape, rtol, atol, grids), kdf)}
    if kdf:
        slot["kdf"] = kdf
    if dtype_of(value):
        slot["dtype"] = dtype_of(value)
    if len(numbers) > 1 and not kdf:
        ordered = sorted(numbers)
        ordered_grids = "".join(grid_of(x, rtol, atol) for x in ordered)
        slot["sorted"] = {"grids": ordered_grids,
                          "hash": digest(salt + "|sorted", rounded_text(ordered, (len(ordered),), rtol, atol,
                                                                        ordered_grids))}
    return slot


def exact_slot(value, salt, options=None, kdf=None):
    """The data of a slot compared exactly: the kind of the right value and its hash; ``options`` are public."""
    text, kind = exact_form(value)
    if kind == "other":
        raise TypeError(f"an exact answer is a string, a bool, a number or a tuple, not {type(value).__name__}")
    slot = {"kind": kind, "type": type(value).__name__, "hash": digest(salt, text, kdf)}
    if kdf:
        slot["kdf"] = kdf
    if options is not None:
        slot["options"] = list(options)
    return slot


# --- comparing ------------------------------------------------------------------------------------------------------

def compare(value, slot, salt, gradient=False):
    """None if ``value`` is right for ``slot``, else what is wrong in kind (never the right value)."""
    if value is ...:
        raise NotAnswered
    if "kind" in slot:
        return _compare_exact(value, slot, salt)
    array, problem = as_numbers(value, gradient)
    if problem:
        return problem
    shape = tuple(slot["shape"])
    if array.shape != shape:
        if array.ndim == 2 and array.T.shape == shape and _matches(array.T, slot, salt):
            return "it is the transpose of the right array: swap its two axes"
        return f"its shape is {array.shape}, the exercise asks for shape {shape}"
    if slot.get("dtype") and dtype_of(value) and dtype_of(value) != slot["dtype"]:
        return f"its dtype is {dtype_of(value)}, the exercise asks for {slot['dtype']}"
    if slot["finite"] and np.isnan(array).any():
        return ("it contains NaN where a number is expected: look for zero divided by zero, inf minus inf or the "
                "log of a negative number")
    if slot["finite"] and np.isinf(array).any():
        return "it contains an infinity where a finite number is expected"
    if _matches(array, slot, salt):
        return None
    return _kind_of_difference(array, slot, salt)


def _matches(array, slot, salt):
    numbers = array.ravel().tolist()
    text = rounded_text(numbers, array.shape, slot["rtol"], slot["atol"], slot["grids"])
    return digest(salt, text, slot.get("kdf")) == slot["hash"]


def _kind_of_difference(array, slot, salt):
    """What an answer that matches no hash is, if a slip explains it: a sign, a power of ten, a factor, an order.

    Not for a student's own numbers (a slow hash): trying some forty slips would make the check an oracle that says
    how far an answer is from the right one.
    """
    if slot.get("kdf"):
        return "the value is wrong"
    with np.errstate(all="ignore"):
        for factor, says in _SLIPS:
            if _matches(array / factor, slot, salt):
                return says
    if "sorted" in slot:
        ordered = np.sort(array.ravel())
        if _matches(ordered, {**slot, **slot["sorted"], "shape": list(ordered.shape)}, salt + "|sorted"):
            return "it holds the right numbers in another order"
    return "the value is wrong"


def _slips():
    slips = [(-1.0, "the sign is wrong")]
    for power in POWERS_OF_TEN:
        for exponent, size in ((power, "large"), (-power, "small")):
            slips.append((10.0 ** exponent, f"it is too {size} by a power of ten"))
            slips.append((-(10.0 ** exponent), f"the sign is wrong and it is too {size} by a power of ten"))
    for factor in TELLING_FACTORS:
        slips += [(factor, "it is off by a constant factor"),
                  (-factor, "the sign is wrong and it is off by a constant factor")]
    return slips


_SLIPS = _slips()


def _compare_exact(value, slot, salt):
    text, kind = exact_form(value)
    options = slot.get("options")
    if options is not None and text not in [exact_form(option)[0] for option in options]:
        return "answer one of: " + ", ".join(repr(option) for option in options)
    if digest(salt, text, slot.get("kdf")) == slot["hash"]:
        return None
    if kind != slot["kind"]:
        return f"it is {described(value)}, the exercise asks for {article(slot['type'])}"
    return "that is not the right answer"


# --- the verdict ----------------------------------------------------------------------------------------------------

def verdict(exercise_id, exercises, answer, resolve):
    """``("correct" | "unanswered" | "wrong", what is wrong)`` of ``answer`` to ``exercise_id``.

    ``exercises`` maps exercise ids to their data (the exercise's, and those it builds on); ``resolve`` turns a
    public name such as ``"classroom.lessons.lesson_05:CASES"`` into the object (a probe, test cases, a test).
    """
    try:
        problem = _problem(exercise_id, exercises, answer, resolve)
    except NotAnswered:
        return "unanswered", None
    return ("correct", None) if problem is None else ("wrong", problem)


def _problem(exercise_id, exercises, answer, resolve):
    data = exercises[exercise_id]
    name, kind, gradient = data["name"], data["answer"], data.get("gradient", False)
    if answer is ...:
        raise NotAnswered
    if kind == "function":
        if not callable(answer) or isinstance(answer, type):
            return f"it is {described(answer)}, not a function: define it with def {name}(...)"
        if is_placeholder(answer):
            raise NotAnswered
    if kind == "class":
        if not isinstance(answer, type):
            return f"it is {described(answer)}, not a class: define it with class {name}: as in the stub"
        if class_is_placeholder(answer):
            raise NotAnswered
    for needed, part in data.get("needs", {}).items():
        _, problem = _run(_needs, (needed, part, exercises, answer, resolve), gradient)
        if problem:
            return problem
    if "expected" in data:
        cases = resolve(data["cases"]) if "cases" in data else [()]
        probe = resolve(data["probe"]) if "probe" in data else call_with if "cases" in data else Slot
        for number, case in enumerate(cases, 1):
            observed, problem = _run(probe, (answer, *case), gradient, number, len(cases))
            if problem:
                return problem
            problem = _compare_case(data, observed, number, len(cases))
            if problem:
                return problem
    if "test" in data:
        said, problem = _run(resolve(data["test"]), (answer,), gradient)
        if problem or said is None:
            return problem
        if said is ...:
            raise NotAnswered
        return said
    return None


def _needs(needed, part, exercises, answer, resolve):
    (found,) = parts(answer, part)
    if verdict(needed, exercises, found, resolve)[0] != "correct":
        raise Wrong(f"it builds on your {part}, which does not pass exercise {needed} yet: finish that first")


def _run(step, args, gradient, number=1, count=1):
    """``(step(*args), None)``, or ``(None, what the learner's code did wrong)`` when a probe or a test stopped."""
    try:
        return step(*args), None
    except Wrong as wrong:
        return None, str(wrong)
    except ReturnedNone:  # said alike in every part of an exercise, whichever case or test met it first
        return None, "it returned None: is its return statement missing?" + (
            f" If it returns a gradient: {NONE_GRADIENT}" if gradient else "")
    except Raised as raised:
        what = raised.what or "calling it" + (f" on test case {number}" if count > 1 else "")
        return None, f"{what} raised {type(raised.error).__name__}: {raised.error}"
    except NotAnswered:
        raise
    except Exception as error:  # the answer failed inside a probe or a test: say how, never break the notebook
        if "ellipsis" in str(error).lower():  # the learner's ... reached an operation
            raise NotAnswered from None
        return None, f"testing it raised {type(error).__name__}: {error}"


def _compare_case(data, observed, number, count):
    """What is wrong with one test case's observations, or None when every slot matches its hash."""
    slots = observed if isinstance(observed, list) else [observed]
    slots = [slot if isinstance(slot, Slot) else Slot(slot) for slot in slots]
    expected = data["expected"][number - 1]
    if len(slots) != len(expected):
        raise RuntimeError(f"the probe observed {len(slots)} values, the data has {len(expected)}: "
                           f"regenerate it (python -m classroom.safe_data)")
    name, gradient, student = data["name"], data.get("gradient", False), data.get("student")
    problems = [compare(slot.value, want, salt_of(name, number, j, student=student), gradient)
                for j, (slot, want) in enumerate(zip(slots, expected))]
    if all(problem is None for problem in problems):
        return None
    for m, mistake in enumerate(data.get("mistakes", [])):
        wrong = mistake["expected"][number - 1]
        if wrong is not None and all(compare(slot.value, want, salt_of(name, number, j, f"|mistake {m}", student),
                                             gradient) is None for j, (slot, want) in enumerate(zip(slots, wrong))):
            return mistake["says"]
    j, problem = next((j, p) for j, p in enumerate(problems) if p is not None)
    says = slots[j].says if slots[j].says is not None else (None if data["answer"] == "value" else
                                                            MORE if count > 1 else ONE)
    return problem if says is None else says.format(problem, case=number, cases=count)
