"""Answers of lesson 11, build your own tape.

The reference tape is written out below, as a learner writes it in the lesson: its parts are this module's names,
so that a check finds them as it finds a learner's in the notebook. The lesson's later cells run on it while the
learner's tape is unfinished, in the full edition only (classroom.tapes).
"""
import math

from classroom.lessons.lesson_11 import DIV_CASES, LOG_CASES, MUL_CASES, POWER_CASES, SWEEP_CASES, TANH_CASES, \
    TRIG_CASES, as_value_works, op_probe, record_works, sweep_probe, value_class
from classroom.spec import function, judged_by, value


class Value:
    """A number that a Tape can record operations on."""

    def __init__(self, data):
        self.data = float(data)

    def __repr__(self):
        return f"Value({self.data!r})"

    def __add__(self, other): return add(self, other)
    def __radd__(self, other): return add(other, self)
    def __sub__(self, other): return add(self, neg(other))
    def __rsub__(self, other): return add(other, neg(self))
    def __mul__(self, other): return mul(self, other)
    def __rmul__(self, other): return mul(other, self)
    def __truediv__(self, other): return div(self, other)
    def __rtruediv__(self, other): return div(other, self)
    def __neg__(self): return neg(self)
    def __pow__(self, n): return power(self, n)


def as_value(x):
    return x if isinstance(x, Value) else Value(x)


class Tape:
    active = None

    def __enter__(self):
        self.records = []
        Tape.active = self
        return self

    def __exit__(self, *exc):
        Tape.active = None

    def gradient(self, target, sources):
        return reverse_sweep(self.records, target, sources)


def record(data, parents):
    out = Value(data)
    if Tape.active is not None:
        Tape.active.records.append((out, parents))
    return out


def add(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data + b.data, [(a, 1.0), (b, 1.0)])


def neg(a):
    a = as_value(a)
    return record(-a.data, [(a, -1.0)])


def mul(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data * b.data, [(a, b.data), (b, a.data)])


def div(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data / b.data, [(a, 1.0 / b.data), (b, -a.data / b.data ** 2)])


def power(a, n):
    a = as_value(a)
    return record(a.data ** n, [(a, n * a.data ** (n - 1))])


def exp(a):
    a = as_value(a)
    return record(math.exp(a.data), [(a, math.exp(a.data))])


def log(a):
    a = as_value(a)
    return record(math.log(a.data), [(a, 1.0 / a.data)])


def sin(a):
    a = as_value(a)
    return record(math.sin(a.data), [(a, math.cos(a.data))])


def cos(a):
    a = as_value(a)
    return record(math.cos(a.data), [(a, -math.sin(a.data))])


def tanh(a):
    a = as_value(a)
    t = math.tanh(a.data)
    return record(t, [(a, 1.0 - t * t)])


def reverse_sweep(records, target, sources):
    adjoint = {target: 1.0}
    for out, parents in reversed(records):
        g = adjoint.get(out, 0.0)
        for inp, partial in parents:
            adjoint[inp] = adjoint.get(inp, 0.0) + partial * g
    return [adjoint.get(s, 0.0) for s in sources]




# -- typical slips, recognised by what they observe ---------------------------------------------------------------
def swapped(op):
    """``op`` with the partials of its two inputs recorded the other way round."""
    def slip(a, b):
        out = op(a, b)
        (a_, pa), (b_, pb) = Tape.active.records[-1][1]
        Tape.active.records[-1] = (out, [(a_, pb), (b_, pa)])
        return out
    slip.__name__ = op.__name__
    return slip


def sweep_in_recording_order(records, target, sources):
    adjoint = {target: 1.0}
    for out, parents in records:
        for inp, partial in parents:
            adjoint[inp] = adjoint.get(inp, 0.0) + partial * adjoint.get(out, 0.0)
    return [adjoint.get(s, 0.0) for s in sources]


def sweep_that_assigns(records, target, sources):
    adjoint = {target: 1.0}
    for out, parents in reversed(records):
        for inp, partial in parents:
            adjoint[inp] = partial * adjoint.get(out, 0.0)
    return [adjoint.get(s, 0.0) for s in sources]


def g_gradient(x, y):
    sech2 = 1.0 - math.tanh(x * y) ** 2
    return [sech2 * y + 1.0 / y, sech2 * x - x / y ** 2]


SWAPPED = "the two partials are swapped: the partial recorded with a must be ∂out/∂a"
TAPE_SO_FAR = {"11.1a": "Value", "11.1b": "as_value", "11.2": "record"}
_OP_HINT = "Follow the worked examples add and neg: convert with as_value, then return record(number, parents)."


def op(name, reference, cases, hints, mistakes=()):
    return function(name, reference=reference, cases=cases, probe=op_probe, rtol=1e-12, atol=1e-15,
                    mistakes=mistakes, needs=TAPE_SO_FAR, hints=hints)


EXERCISES = {
    "11.1a": judged_by("Value", value_class, answer="class", hints=[
        "__init__ runs when you write Value(2): it stores the number on self.",
        "Convert the number with float(...) before storing it as self.data, so that Value(2).data is 2.0.",
    ]),
    "11.1b": judged_by("as_value", as_value_works, needs={"11.1a": "Value"}, hints=[
        "as_value must not wrap a Value twice: the tape follows Values by identity.",
        "Python's isinstance tells you whether x is already a Value; only a plain number needs a new one.",
    ]),
    "11.2": judged_by("record", record_works, needs={"11.1a": "Value"}, hints=[
        "Three steps: make the new Value, append to the active tape's records if there is one, return the Value.",
        "Tape.active says whether a tape is recording (it is None when none is); what to append to its records "
        "is the pair the docstring names.",
    ]),
    "11.3a": op("mul", mul, MUL_CASES, mistakes=[(swapped(mul), SWAPPED)], hints=[
        _OP_HINT, "For a product the partial with respect to a is b's number, and with respect to b is a's."]),
    "11.3b": op("div", div, DIV_CASES, mistakes=[(swapped(div), SWAPPED)], hints=[
        _OP_HINT, "The partial for a is 1 / b's number; the one for b is minus a's number over b's number squared."]),
    "11.3c": op("power", power, POWER_CASES, hints=[
        _OP_HINT, "n is a plain number, not an input: the record has one parent, a, with partial n a^(n-1)."]),
    "11.3d": op("log", log, LOG_CASES, hints=[
        "Follow exp: convert with as_value, compute math.log of the number, record it with its one partial.",
        "The derivative of ln a is 1 / a, evaluated at a's number."]),
    "11.3e": op("sin", sin, TRIG_CASES, hints=[
        "Follow exp: convert with as_value, compute math.sin of the number, record it with its one partial.",
        "The derivative of sin a is cos a, evaluated at a's number."]),
    "11.3f": op("cos", cos, TRIG_CASES, hints=[
        "Follow exp: convert with as_value, compute math.cos of the number, record it with its one partial.",
        "The derivative of cos a is minus sin a, evaluated at a's number."]),
    "11.4": function("reverse_sweep", reference=reverse_sweep, cases=SWEEP_CASES, probe=sweep_probe, rtol=1e-12,
                     atol=1e-15, mistakes=[
        (sweep_in_recording_order, "the adjoints are those of a walk in recording order: walk the records reversed"),
        (sweep_that_assigns, "a value used more than once gets only one of its contributions: adjoints must be "
                             "added (+=), not assigned")], hints=[
        "Each record hands its output's adjoint back to its inputs, times the partials it recorded; a value's "
        "adjoint is complete once every record that used it has done so. Which order of the records makes sure of "
        "that, and where is the adjoint of each value kept meanwhile?",
        "A dictionary from Values to adjoints, starting from the target's own (d target / d target), and one loop "
        "over the records in that order. A value nothing has reached yet counts as 0.0: a dictionary's get takes "
        "a default.",
    ]),
    "11.5": value("forward_result", expected=9.0, mistakes=[
        (27.0, "that is the right derivative, 3x², which the reversed walk gives; follow the forward walk record by "
               "record: which adjoints exist when each record is visited?"),
        (0.0, "something does reach x: the record of y is visited with y's adjoint, 1, already set")], hints=[
        "Walk the two records in order, keeping the dictionary of adjoints by hand: it starts as {y: 1}.",
        "When v1 = x·x is visited, v1 has no adjoint yet; when y = v1·x is visited, y's adjoint is 1. What reaches "
        "x, and through which partial?"]),
    "11.6a": op("tanh", tanh, TANH_CASES, hints=[
        "Follow exp: convert with as_value, compute math.tanh of the number, record it with its one partial. "
        "tanh a = sinh a / cosh a: differentiate it with the quotient rule.",
        "The derivative of tanh is 1 / cosh², which is also 1 minus the square of tanh itself."]),
    "11.6b": value("g_tape", expected=lambda n: g_gradient(*n.point), rtol=1e-9, gradient=True, hints=[
        "g_tape can only be as right as the ops g uses: if the check of 11.6a (or an earlier one) fails, fix that "
        "first.",
        "gradient_on (defined in the cell that compares tapes) records a function on the tape you give it and "
        "sweeps backwards: give it your tape (your_tape()), g and your point. It needs your reverse_sweep (11.4), "
        "mul and div (11.3) and tanh (11.6a).",
    ]),
}
