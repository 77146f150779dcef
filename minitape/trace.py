"""Evaluation traces: a recorded computation read back as ``v_i = op(v_j, ...)``.

The AD literature explains autodiff with three tables for one small function
(Griewank & Walther, *Evaluating Derivatives*, 2008; Baydin et al.,
*Automatic differentiation in machine learning: a survey*, 2018, Tables 2-3):

* the **forward primal trace**: every value, in the order it was computed;
* the **forward tangent trace**: every value's tangent for one input
  direction, ``v̇i = Σ ∂vi/∂vj v̇j`` over the inputs ``vj`` of its op;
* the **reverse adjoint trace**: every value's adjoint, in the order the
  backward pass computes it, ``v̄j = Σ v̄i ∂vi/∂vj`` over the ops ``vi`` using ``vj``.

The names are those of the tables: the n inputs are ``v-(n-1) ... v0`` (in
the order the tape watched them), op results ``v1, v2, ...`` (in recording
order), constants the tape does not watch ``c1, c2, ...``. Pictures
(:mod:`minitape.viz`) use the same names, but call a Variable by its own name.

>>> import minitape as mt
>>> def f(x1, x2):  # ln(x1) + x1 x2 - sin(x2), in the order of the literature's table
...     v1, v2, v3 = mt.math.log(x1), x1 * x2, mt.sin(x2)
...     return v1 + v2 - v3
>>> t = evaluation_trace(f, x1=2.0, x2=5.0)
>>> t.primal
forward primal trace
v-1 = x1       = 2
v0  = x2       = 5
v1  = log(v-1) = 0.693
v2  = v-1 × v0 = 10
v3  = sin(v0)  = -0.959
v4  = v1 + v2  = 10.693
v5  = v4 − v3  = 11.652
y   = v5       = 11.652
>>> t.adjoint.rows[-2:]
[('x̄1', 'v̄-1', '', '5.5'), ('x̄2', 'v̄0', '', '1.716')]
"""

import bisect
import dataclasses
import html
import itertools
import unicodedata

import numpy as np

from . import recording
from .dtypes import float64
from .engine import Record
from .forward import ForwardAccumulator
from .tape import GradientTape
from .tensor import Tensor, Variable

SMALL = 6  # arrays with at most this many elements are shown in full

SPENT = ("this non-persistent tape has already answered a gradient() call and released its records, so there "
         "is nothing left to show. Draw or trace it before calling tape.gradient(...), or record with "
         "mt.GradientTape(persistent=True).")


# -- reading a tape ------------------------------------------------------------------------------
@dataclasses.dataclass(eq=False)
class Value:
    """A value on the tape: ``symbol`` names it in tables (``v-1``, ``v3``, ``c1``), ``name`` in pictures.

    ``kind`` is ``"variable"``, ``"watched"`` (a watched tensor), ``"constant"``
    (not watched) or ``"result"`` (of an op); ``tensor`` is ``None`` if
    nobody kept the value. ``index`` is its place in recording order.
    """

    id: int
    index: int
    symbol: str
    name: str
    kind: str
    tensor: object


@dataclasses.dataclass(eq=False)
class Op:
    """A recorded operation: ``record`` is the tape's :class:`~minitape.engine.Record`, ``index`` its place
    in recording order."""

    index: int
    record: Record

    @property
    def name(self):
        return self.record.op.name

    @property
    def inputs(self):  # the ids of its input values
        return self.record.inputs

    @property
    def output(self):  # the id of its result
        return self.record.output


class Reading:
    """A tape read back: ``nodes`` (Values and Ops, in recording order), ``values`` (id -> Value), ``ops``."""

    def __init__(self):
        self.nodes, self.values, self.ops = [], {}, []

    def _add_value(self, id, symbol, kind, tensor, watched=None):
        # A Variable is called by its own name ("x" for "x:0"), unless it kept the default one.
        named = isinstance(watched, Variable) and not watched.name.startswith("Variable:")
        name = watched.name.rsplit(":", 1)[0] if named else symbol
        value = Value(id, len(self.nodes), symbol, name, kind, tensor)
        self.values[id] = value
        self.nodes.append(value)

    def _add_op(self, record):
        op = Op(len(self.nodes), record)
        self.ops.append(op)
        self.nodes.append(op)


def read_tape(tape, accumulator=None, kept=None):
    """Name every value and op of ``tape``, in recording order.

    ``accumulator`` (a ForwardAccumulator active while the tape recorded)
    hides the ops that computed its tangents; ``kept`` maps ids to tensors
    the caller kept alive.

    >>> import minitape as mt
    >>> x = mt.Variable(3.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = x * 2.0
    >>> [(v.symbol, v.name, v.kind) for v in read_tape(tape).values.values()]
    [('v0', 'x', 'variable'), ('c1', 'c1', 'constant'), ('v1', 'v1', 'result')]
    """
    if tape.spent:
        raise RuntimeError(SPENT)
    records = tape.records
    if accumulator is not None:
        records = _without_tangent_arithmetic(records, accumulator)
    tensors = _known_tensors(tape, records, kept or {})
    outputs = {r.output for r in records}
    watched = tape.watched
    leaves = [i for i in watched if i not in outputs]  # a watched result stays a result
    reading = Reading()
    for k, i in enumerate(leaves):
        kind = "variable" if isinstance(watched[i], Variable) else "watched"
        reading._add_value(i, f"v{k + 1 - len(leaves)}", kind, tensors.get(i), watched[i])
    constants = 0
    for record in records:
        for i in record.inputs:
            if i not in reading.values:
                constants += 1
                reading._add_value(i, f"c{constants}", "constant", tensors.get(i))
        reading._add_op(record)
        reading._add_value(record.output, f"v{len(reading.ops)}", "result", tensors.get(record.output))
    return reading


def _known_tensors(tape, records, kept):
    """id -> tensor for every value still at hand: kept by the caller, saved by the tape, or alive elsewhere."""
    known = dict(kept)
    for record in records:
        for i, x in zip(record.inputs, record.saved_inputs or ()):
            known.setdefault(i, x)
        output = record.output_ref() if record.saved_output is None else record.saved_output
        if output is not None:
            known.setdefault(record.output, output)
    for i, t in tape.watched.items():  # last: a Variable may have been assigned since the tape read it
        known.setdefault(i, t)
    return known


def _without_tangent_arithmetic(records, accumulator):
    """The records that are not the accumulator's own tangent arithmetic.

    A tape recording while a ForwardAccumulator is active also records the
    ops of the JVP rules (that is how reverse-over-forward works). The
    accumulator notes the span of ids each JVP rule created; records whose
    result falls in a span are its arithmetic, not the function's.
    """
    spans = sorted(accumulator.jvp_spans)
    starts = [start for start, _ in spans]
    reach = list(itertools.accumulate((end for _, end in spans), max))  # the furthest end so far

    def in_a_span(i):
        k = bisect.bisect_right(starts, i) - 1  # spans[:k + 1] start at or before i
        return k >= 0 and reach[k] >= i

    return [r for r in records if not in_a_span(r.output)]


def local_partials(op, values):
    """``∂output/∂input`` for each input of ``op``, if all its values are known scalars (else ``None``).

    An input without a gradient (a boolean condition) gets ``None``. One VJP
    with the output's adjoint set to 1 gives them all: for scalars the
    vector-Jacobian product with 1 *is* the row of partial derivatives.

    >>> import minitape as mt
    >>> x = mt.Variable(3.0)
    >>> with mt.GradientTape() as tape:
    ...     y = x * 2.0
    >>> reading = read_tape(tape)
    >>> local_partials(reading.ops[0], reading.values)  # d(x * 2)/dx, d(x * 2)/d2
    [2.0, 3.0]
    """
    prim, in_ids, out_id, saved_output, saved_inputs, attrs, _ = op.record  # a Record
    inputs_known = [values[i].tensor for i in in_ids]
    if any(t is None or np.size(t.array) != 1 for t in inputs_known):
        return None
    if prim.keeps_output and saved_output is None:
        return None  # the rule reads the output, and nobody kept it
    # The output of scalar inputs is a scalar: the seed needs only its dtype.
    out = values[out_id].tensor or next(t for t in inputs_known if t.array.dtype.kind == "f")
    ones = Tensor(np.ones((), dtype=out.array.dtype))
    inputs = (None,) * len(in_ids) if saved_inputs is None else saved_inputs
    with recording.silenced():  # a question about the tape: no tape may record it
        grads = prim.vjp(ones, saved_output, inputs, attrs, [True] * len(in_ids))
    return [None if g is None else float(np.asarray(g.array).reshape(())) for g in grads]


# -- formatting ------------------------------------------------------------------------------------
def format_number(x, decimals=None):
    """``x`` in a few characters: 4 significant digits, or ``decimals`` decimals; no trailing zeros.

    >>> format_number(11.6521), format_number(11.6521, decimals=3), format_number(2.0), format_number(1e-7)
    ('11.65', '11.652', '2', '1e-07')
    """
    x = float(x)
    if x == 0 or 1e-3 <= abs(x) < 1e5:
        return np.format_float_positional(x, precision=decimals or 4, fractional=decimals is not None, trim="-")
    return np.format_float_scientific(x, precision=3, trim="-")


def format_value(tensor, decimals=None):
    """A small tensor's value as short text; ``None`` beyond SMALL elements.

    >>> from minitape import constant, zeros
    >>> format_value(constant([1.0, 2.5])), format_value(zeros((3, 3))), short_text(zeros((3, 3)))
    ('[1, 2.5]', None, '(3, 3) float32')
    """
    array = np.asarray(tensor.array)
    if array.size > SMALL:
        return None
    if array.dtype.kind != "f":
        return np.array2string(array, separator=", ").replace("\n", "")
    formatter = {"float_kind": lambda x: format_number(x, decimals)}
    return np.array2string(array, separator=", ", formatter=formatter).replace("\n", "")


def shape_text(tensor):
    """``(2, 3) float32``: what a value is, when its numbers are too many to show."""
    return f"{tuple(np.shape(tensor.array))} {np.asarray(tensor.array).dtype.name}"


def short_text(tensor, decimals=None):
    """The value if it is small, else its shape and dtype."""
    return format_value(tensor, decimals) or shape_text(tensor)


# -- the three tables ----------------------------------------------------------------------------------
class Table:
    """An evaluation-trace table: ``rows`` of cells joined by ``=``, shown as aligned text or HTML."""

    def __init__(self, title, rows):
        self.title, self.rows = title, rows

    def __repr__(self):
        widths = [max(_width(row[c]) for row in self.rows) for c in range(len(self.rows[0]))]
        lines = [self.title]
        for row in self.rows:
            cells = [cell + " " * (w - _width(cell)) for cell, w in zip(row, widths)]
            line = cells[0] + "".join((" = " if cell.strip() else "   ") + cell for cell in cells[1:])
            lines.append(line.rstrip())
        return "\n".join(lines)

    def _repr_html_(self):
        def cell(column, text):  # as in the text: every cell after the first reads "= ..."
            return f'<td style="text-align: left">{"= " if column and text else ""}{html.escape(text)}</td>'

        rows = ["<tr>" + "".join(cell(c, text) for c, text in enumerate(row)) + "</tr>" for row in self.rows]
        return f"<table><caption>{html.escape(self.title)}</caption>{''.join(rows)}</table>"


def _width(text):
    """Printed width: combining marks (the dot of v̇, the bar of v̄) take no column."""
    return sum(not unicodedata.combining(c) for c in text)


def _dot(name):  # v̇: the tangent of v. NFC makes x + dot the single letter ẋ, as typed.
    return unicodedata.normalize("NFC", name[0] + "\u0307" + name[1:])


def _bar(name):  # v̄: the adjoint of v
    return unicodedata.normalize("NFC", name[0] + "\u0304" + name[1:])


def _times(a, b):
    """``a × b``, with negative numbers in parentheses."""
    return " × ".join(f"({s})" if s.startswith("-") else s for s in (a, b))


INFIX = {"add": "+", "subtract": "−", "multiply": "×", "divide": "/", "pow": "**"}


class EvaluationTrace:
    """The three evaluation traces of one run of a function: ``primal``, ``tangent`` and ``adjoint`` tables.

    Also keeps what produced them, to draw with :mod:`minitape.viz`: the
    ``tape``, the ``accumulator``, the ``inputs`` (Variables by name) and the
    ``output``; every intermediate value stays alive as long as this object.
    """

    def __init__(self, tape, accumulator, inputs, output, decimals=3):
        self.tape, self.accumulator, self.inputs, self.output = tape, accumulator, inputs, output
        self._decimals = decimals
        reading = read_tape(tape, kept=tape.kept)
        self.primal = self._primal_table(reading)
        self.tangent = self._tangent_table(reading)
        self.adjoint = self._adjoint_table(reading)

    def _number(self, tensor):
        return short_text(tensor, self._decimals)

    def _leaves(self, reading):
        return [v for v in reading.values.values() if v.kind in ("variable", "watched")]

    def _result(self, reading):
        return reading.values[self.output.id]

    def _operand(self, value):
        """How an op's input is written: a small constant by its value, anything else by its symbol."""
        if value.kind == "constant" and value.tensor is not None and np.size(value.tensor.array) == 1:
            return self._number(value.tensor)
        return value.symbol

    def _primal_table(self, reading):
        rows = [(v.symbol, v.name if v.name != v.symbol else "input", self._number(v.tensor))
                for v in self._leaves(reading)]
        for op in reading.ops:
            args = [self._operand(reading.values[i]) for i in op.inputs]
            expression = (f" {INFIX[op.name]} ".join(args) if op.name in INFIX and len(args) == 2
                          else f"{op.name}({', '.join(args)})")
            out = reading.values[op.output]
            rows.append((out.symbol, expression, self._number(out.tensor)))
        y = self._result(reading)
        rows.append(("y", y.symbol, self._number(self.output)))
        return Table("forward primal trace", rows)

    def _tangent_table(self, reading):
        tangents = self.accumulator.tangents
        rows = [(_dot(v.symbol), _dot(v.name) if v.name != v.symbol else "", "", self._number(tangents[v.id]))
                for v in self._leaves(reading) if v.id in tangents]
        for op in reading.ops:
            if op.output not in tangents:
                continue
            out = reading.values[op.output]
            partials = local_partials(op, reading.values)
            terms = [(k, reading.values[i]) for k, i in enumerate(op.inputs) if i in tangents]
            formula = " + ".join(f"∂{out.symbol}/∂{v.symbol} {_dot(v.symbol)}" for _, v in terms)
            numbers = "" if partials is None else " + ".join(
                _times(format_number(partials[k], self._decimals), self._number(tangents[v.id])) for k, v in terms)
            rows.append((_dot(out.symbol), formula, numbers, self._number(tangents[op.output])))
        y = self._result(reading)
        rows.append((_dot("y"), _dot(y.symbol), "", self._number(tangents[y.id])))
        return Table(f"forward tangent trace ({self._direction_text(reading)})", rows)

    def _direction_text(self, reading):
        tangents = self.accumulator.tangents
        return ", ".join(f"{_dot(v.name)} = {self._number(tangents[v.id])}" for v in self._leaves(reading))

    def _adjoint_table(self, reading):
        y = self._result(reading)
        ops = {op.output: op for op in reading.ops}
        rows = [(_bar(y.symbol), _bar("y"), "", "1")]
        previous = {}  # id -> the adjoint before the current step, to write "v̄j = v̄j + ..."

        def on_step(record, adjoints):
            op = ops.get(record.output)
            if op is None:
                return
            out = reading.values[op.output]
            g = self._number(adjoints[op.output])
            partials = local_partials(op, reading.values)
            for i in dict.fromkeys(op.inputs):  # each input once, in order
                v = reading.values[i]
                if v.kind == "constant" or i not in adjoints:
                    continue
                positions = [k for k, j in enumerate(op.inputs) if j == i]  # x * x uses x twice
                formula = " + ".join(f"{_bar(out.symbol)} ∂{out.symbol}/∂{v.symbol}" for _ in positions)
                numbers = "" if partials is None else " + ".join(
                    _times(g, format_number(partials[k], self._decimals)) for k in positions)
                if i in previous:
                    formula = f"{_bar(v.symbol)} + {formula}"
                    numbers = numbers and f"{self._number(previous[i])} + {numbers}"
                rows.append((_bar(v.symbol), formula, numbers, self._number(adjoints[i])))
                previous[i] = adjoints[i]

        adjoints = self.tape.adjoints(self.output, on_step=on_step)
        rows += [(_bar(v.name), _bar(v.symbol), "", self._number(adjoints[v.id]))
                 for v in self._leaves(reading) if v.name != v.symbol and v.id in adjoints]
        return Table("reverse adjoint trace", rows)

    def __repr__(self):
        return "\n\n".join(repr(t) for t in (self.primal, self.tangent, self.adjoint))

    def _repr_html_(self):
        return "".join(t._repr_html_() for t in (self.primal, self.tangent, self.adjoint))


class _KeepingTape(GradientTape):
    """A persistent tape that also keeps alive every value it records (a tape keeps only what VJPs need)."""

    def __init__(self):
        super().__init__(persistent=True)
        self.kept = {}

    def record(self, prim, inputs, out, attrs):
        before = len(self)
        super().record(prim, inputs, out, attrs)
        if len(self) > before:  # the op was recorded
            for t in (*inputs, out):
                self.kept.setdefault(t.id, t)


def evaluation_trace(f, /, direction=None, dtype=float64, **inputs):
    """Run ``f(**inputs)`` and return its three evaluation traces (an :class:`EvaluationTrace`).

    Each input becomes a Variable named after its keyword (``dtype``
    float64, so the numbers are those of the literature). ``direction``
    maps input names to their tangents, for the forward tangent trace; by
    default it is 1 for the first input and 0 for the others (``∂/∂x1``).
    ``f`` must return one tensor.

    >>> t = evaluation_trace(lambda x: x * x, x=3.0)
    >>> t.adjoint
    reverse adjoint trace
    v̄1 = ȳ                                       = 1
    v̄0 = v̄1 ∂v1/∂v0 + v̄1 ∂v1/∂v0 = 1 × 3 + 1 × 3 = 6
    x̄  = v̄0                                      = 6
    """
    if not inputs:
        raise TypeError("evaluation_trace: give the inputs by name, e.g. evaluation_trace(f, x1=2.0, x2=5.0)")
    variables = {name: Variable(value, name=name, dtype=dtype) for name, value in inputs.items()}
    direction = {next(iter(inputs)): 1.0} if direction is None else direction
    unknown = sorted(set(direction) - set(inputs))
    if unknown:
        raise ValueError(f"evaluation_trace: direction names {unknown}, which are not inputs; the inputs are "
                         f"{list(inputs)}")
    tangents = [np.broadcast_to(np.asarray(direction.get(name, 0.0), v.dtype.as_numpy_dtype), v.shape).copy()
                for name, v in variables.items()]
    with _KeepingTape() as tape:
        tape.watch(list(variables.values()))  # in keyword order: x1 is v-1, x2 is v0
        output = f(**variables)
    if not isinstance(output, Tensor):
        raise TypeError(f"evaluation_trace: {getattr(f, '__name__', 'f')} must return one minitape tensor, "
                        f"got {type(output).__name__}")
    # Forward mode, replayed: the accumulator takes the JVP step it takes beside each op as it runs,
    # op by op in recording order. Run beside f, its JVP ops would be recorded on the tape too.
    accumulator = ForwardAccumulator(list(variables.values()), tangents)
    with accumulator:
        for record in tape.records:
            accumulator.record(record.op, [tape.kept[i] for i in record.inputs], tape.kept[record.output],
                               record.attrs)
    return EvaluationTrace(tape, accumulator, variables, output)
