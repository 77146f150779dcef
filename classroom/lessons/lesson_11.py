"""Lesson 11's public tests, test cases and probes (build your own tape).

The learner's tape lives in the notebook: each check finds the Value, Tape and record an answer works with in the
namespace where the answer was defined (``classroom.probes.parts``), and runs the answer on them.
"""
import math

from classroom.probes import NotAnswered, Raised, Slot, Wrong, call, parts
from classroom.variants import variant


def _placeholder(x):
    return x is ...


# -- 11.1 ----------------------------------------------------------------------------------------------------------
def value_class(Value):
    """11.1a: Value(x).data is x as a Python float."""
    v = Value(2)
    if not hasattr(v, "data"):
        return "a Value has no attribute data: set self.data in __init__"
    if _placeholder(v.data):
        return ...
    if type(v.data) is not float:
        return (f"Value(2).data has type {type(v.data).__name__}; the exercise asks for a Python float, whatever "
                f"was given")
    if v.data != 2.0 or Value(-0.5).data != -0.5:
        return "Value(x).data does not hold the number x"
    return None


def as_value_works(as_value):
    """11.1b: as_value gives a Value back as it is, and wraps a number in a new Value."""
    (Value,) = parts(as_value, "Value")
    v = Value(2.0)
    try:
        same = as_value(v)
    except TypeError as error:
        return (f"given a Value, as_value raised TypeError ({error}): a Value must come back as it is, "
                f"not wrapped in another Value")
    made = call(as_value, 3)
    if _placeholder(same):
        raise NotAnswered
    if same is None:
        return "as_value returned None: is its return statement missing?"
    if same is not v:
        return "given a Value, as_value must return that same Value (not a copy), so the tape can follow it"
    if not isinstance(made, Value):
        return f"given the number 3, as_value returned a {type(made).__name__}, not a Value"
    if made.data != 3.0:
        return "given the number 3, as_value returned a Value that does not hold 3"
    return None


# -- 11.2 ----------------------------------------------------------------------------------------------------------
def record_works(record):
    """11.2: record returns the new Value and, inside a with Tape() block, appends (new Value, parents)."""
    Value, Tape = parts(record, "Value", "Tape")
    a, b = Value(2.0), Value(3.0)
    with Tape() as tape:
        inside = call(record, 6.0, [(a, 3.0), (b, 2.0)])
    try:
        outside = record(1.0, [(a, 1.0)])
    except AttributeError as error:
        return (f"called outside a with Tape() block, record raised AttributeError ({error}): with no active tape "
                f"(Tape.active is None) it must record nothing and still return the new Value")
    if not isinstance(inside, Value):
        return f"record returned a {type(inside).__name__}; it should return the new Value"
    if inside.data != 6.0:
        return "the Value that record returns does not hold the number it was given"
    if len(tape.records) == 0:
        return "inside a with Tape() block nothing was recorded: append to the active tape's records"
    if len(tape.records) > 1 or outside is None or len(tape.records[0]) != 2:
        return ("the tape should hold exactly one record per call, the pair (new Value, parents), and nothing "
                "for a call outside the with block")
    out, recorded_parents = tape.records[0]
    if out is not inside:
        return "the record's first item should be the very Value that record returns"
    if list(recorded_parents) != [(a, 3.0), (b, 2.0)]:
        return "the record's second item should be the parents list, exactly as record received it"
    if Tape.active is not None:
        return "the tape is still active after the with block: did you change Tape?"
    return None


# -- 11.3 and 11.5a: an op, run on the learner's Values under the learner's Tape -------------------------------------
MUL_CASES = [((2.0, 5.0), ()), ((-1.5, 4.0), ())]
DIV_CASES = [((3.0, 4.0), ()), ((-2.0, 0.5), ())]
POWER_CASES = [((2.0,), (3,)), ((-1.5,), (3,)), ((4.0,), (3,))]
LOG_CASES = [((2.0,), ()), ((0.5,), ())]
TRIG_CASES = [((5.0,), ()), ((-0.3,), ())]
TANH_CASES = [((0.3,), ()), ((-1.2,), ())]
INPUT_NAMES = ["a", "b"]


def op_probe(op, numbers, extra):
    """The number of the op's result and the partial it records for each input, on the learner's tape."""
    Value, Tape = parts(op, "Value", "Tape")
    name = op.__name__
    inputs = [Value(x) for x in numbers]
    with Tape() as tape:
        out = call(op, *inputs, *extra, what=f"{name}({', '.join(map(repr, numbers + extra))})")
    if not isinstance(out, Value):
        raise Wrong(f"{name} returned a {type(out).__name__}; it should return the Value that record makes")
    if not tape.records:
        raise Wrong(f"{name} recorded nothing on the tape: build its result with record(...)")
    last, recorded_parents = tape.records[-1]
    if last is not out:
        raise Wrong(f"the last record is not {name}'s result: {name} should return what record returns")
    if not any(inp is v for v in inputs for inp, _ in recorded_parents):
        raise Wrong(f"{name}'s record does not name its input Values: list (a, partial) with the Value a itself, "
                    f"not its number")
    for _, partial in recorded_parents:
        if not isinstance(partial, (int, float)) or isinstance(partial, bool):
            raise Wrong(f"{name} records a partial that is a {type(partial).__name__}, not a number: compute "
                        f"partials from the inputs' numbers (a.data), since the tape stores numbers")
    _mixes_numbers(op, name, Value, Tape, len(numbers), extra)
    partials = [float(sum(p for inp, p in recorded_parents if inp is v)) for v in inputs]
    return [Slot(float(out.data), "the result's number is wrong: {}")] + [
        Slot(p, f"the partial recorded for {who} is wrong: {{}}") for who, p in zip(INPUT_NAMES, partials)]


def _mixes_numbers(op, name, Value, Tape, count, extra):
    """Plain numbers must work too, as in 2 * x and 1 / x; run inside a tape, as the lesson's cells do."""
    numbers = (2.0, Value(5.0)) if count == 2 else (0.5,)
    what = f"{name}({', '.join(map(repr, numbers + extra))})"
    try:
        with Tape():
            mixed = op(*numbers, *extra)
    except AttributeError as error:
        if "has no attribute 'data'" in str(error):
            raise Wrong(f"{what} raised AttributeError ({error}): convert plain numbers with as_value") from None
        raise
    if not isinstance(mixed, Value):
        raise Wrong(f"{what} did not return a Value: convert plain numbers with as_value")


# -- 11.4: the sweep, on records built from plain tokens, independent of the learner's Values ---------------------
class Token:
    """A stand-in for a Value: hashable by identity, like the learner's Values."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def _sweep_cases():
    x1, x2, v1, v2, v3, v4, v5, v6 = (Token(n) for n in ["x1", "x2", "v1", "v2", "v3", "v4", "v5", "v6"])
    notebook_03 = ([(v1, [(x1, 0.5)]), (v2, [(x1, 5.0), (x2, 2.0)]), (v3, [(v1, 1.0), (v2, 1.0)]),
                    (v4, [(x2, math.cos(5.0))]), (v5, [(v4, -1.0)]), (v6, [(v3, 1.0), (v5, 1.0)])], v6, [x1, x2])
    x, c1, c2 = Token("x"), Token("x*x"), Token("x*x*x")
    cube = ([(c1, [(x, 3.0), (x, 3.0)]), (c2, [(c1, 3.0), (x, 9.0)])], c2, [x])
    y, e, s = Token("y"), Token("exp(x)"), Token("exp(x)+1")
    unconnected = ([(e, [(x, math.e)]), (s, [(e, 1.0)])], s, [x, y])
    return [("notebook 03's f", *notebook_03), ("x * x * x", *cube),
            ("a source the target does not depend on", *unconnected)]


SWEEP_CASES = _sweep_cases()


def sweep_probe(sweep, label, records, target, sources):
    """The adjoints sweep returns for records of tokens: one number per source."""
    try:
        got = call(sweep, list(records), target, list(sources), what=f"on {label} it")
    except Raised as raised:
        if isinstance(raised.error, KeyError):
            raise Wrong(f"on {label} it raised KeyError: a value that nothing has reached yet has no adjoint in "
                        f"the dictionary; start it from 0.0 (dict.get with a default)") from None
        raise
    if not isinstance(got, (list, tuple)) or len(got) != len(sources):
        raise Wrong(f"on {label} it should return a list with one adjoint per source, in the order of the sources")
    return Slot([float(g) for g in got], f"on {label} the adjoints it returns are wrong: {{}}")


# -- 11.6: the point where g(x, y) = tanh(x y) + x / y is differentiated ---------------------------------------------
def _point(rng):
    """x in [-2, 2] and y in ±[0.5, 3], on a grid of sixteenths: 65 × 82 points, none with y = 0."""
    return {"point": (float(rng.integers(-32, 33)) / 16, float(rng.choice([-1, 1]) * rng.integers(8, 49)) / 16)}


VARIANTS = {"11.6": variant(point=(0.4, -1.5), draw=_point)}
