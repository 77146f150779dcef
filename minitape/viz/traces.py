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
order), constants the tape does not watch ``c1, c2, ...``; they are given
by :func:`~minitape.viz.reading.read_tape` (this module prints tables, that one
reads a tape). Pictures (:mod:`minitape.viz.draw`) use the same names, but
call a Variable by its own name.

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

import html
import unicodedata

import numpy as np

from .. import recording
from ..dtypes import float64
from ..forward import ForwardAccumulator
from ..tape import GradientTape
from ..tensor import Tensor
from ..variable import Variable
from .reading import format_number, local_partials, read_tape, short_text, sweep_steps

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
        # As in the text, every cell after the first reads "= ...". The padding keeps the columns apart where a
        # page's stylesheet gives table cells none (the book's does).
        def cell(column, text):
            return (f'<td style="text-align: left; padding: 0.1em 0.6em">{"= " if column and text else ""}'
                    f'{html.escape(text)}</td>')

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

    Also keeps what produced them, to draw with :func:`minitape.viz.draw`: the
    ``tape``, the ``accumulator``, the ``inputs`` (Variables by name) and the
    ``output``; every intermediate value stays alive as long as this object.
    """

    def __init__(self, tape, accumulator, inputs, output, decimals=3, known=None):
        self.tape, self.accumulator, self.inputs, self.output = tape, accumulator, inputs, output
        self._decimals = decimals
        self._known = known or {}  # id -> tensor of every value computed: keeps each one, and its tangent, alive
        reading = read_tape(tape, known=self._known)
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
        adjoints = {}
        for record, adjoints in sweep_steps(self.tape, self.output):
            op = ops.get(record.output)
            if op is None:
                continue
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
        rows += [(_bar(v.name), _bar(v.symbol), "", self._number(adjoints[v.id]))
                 for v in self._leaves(reading) if v.name != v.symbol and v.id in adjoints]
        return Table("reverse adjoint trace", rows)

    def __repr__(self):
        return "\n\n".join(repr(t) for t in (self.primal, self.tangent, self.adjoint))

    def _repr_html_(self):
        return "".join(t._repr_html_() for t in (self.primal, self.tangent, self.adjoint))


class _Keeper(recording.Recorder):
    """Keeps alive every tensor an op reads or makes (a tape keeps only what its VJP rules need), by id."""

    def __init__(self):
        self.values = {}

    def record(self, prim, inputs, out, attrs):
        for t in (*inputs, out):
            self.values.setdefault(t.id, t)


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
    # The accumulator outside the tape: the tape records f's ops but not the accumulator's tangent arithmetic.
    accumulator = ForwardAccumulator(list(variables.values()), tangents)
    with accumulator, GradientTape(persistent=True) as tape, _Keeper() as keeper:
        tape.watch(list(variables.values()))  # in keyword order: x1 is v-1, x2 is v0
        output = f(**variables)
    if not isinstance(output, Tensor):
        raise TypeError(f"evaluation_trace: {getattr(f, '__name__', 'f')} must return one minitape tensor, "
                        f"got {type(output).__name__}")
    return EvaluationTrace(tape, accumulator, variables, output, known=keeper.values)
