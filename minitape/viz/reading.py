"""Reading a tape back: every value and op it recorded, named as the literature's tables name them.

A tape is a list of :class:`~minitape.engine.Record`; this module reads
those public records after the fact, as a debugger reads a program: pictures
(:mod:`minitape.viz.draw`) and evaluation-trace tables (:mod:`minitape.viz.traces`)
are built on it. Nothing here changes a tape, and no tape records what is
computed here.

The names are those of the tables: the n inputs are ``v-(n-1) ... v0`` (in
the order the tape watched them), op results ``v1, v2, ...`` (in recording
order), constants the tape does not watch ``c1, c2, ...``.

>>> import minitape as mt
>>> x = mt.Variable(3.0, name="x")
>>> with mt.GradientTape() as tape:
...     y = mt.sin(x) * 2.0
>>> [(v.symbol, v.name, v.kind) for v in read_tape(tape).values.values()]
[('v0', 'x', 'variable'), ('v1', 'v1', 'result'), ('c1', 'c1', 'constant'), ('v2', 'v2', 'result')]
"""

import collections
import dataclasses

import numpy as np

from .. import recording
from ..engine import Record, sweep
from ..tensor import Tensor
from ..variable import Variable

SMALL = 6  # arrays with at most this many elements are shown in full

SPENT = ("this non-persistent tape has already answered a gradient() call and released its records, so there "
         "is nothing left to show. Draw or trace it before calling tape.gradient(...), or record with "
         "mt.GradientTape(persistent=True).")


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


def read_tape(tape, accumulator=None, known=None):
    """Name every value and op of ``tape``, in recording order (a :class:`Reading`).

    ``accumulator`` (a ForwardAccumulator active while the tape recorded)
    hides the ops that computed its tangents; ``known`` maps ids to tensors
    the caller has at hand (the values of targets, or of every op: see
    :func:`values_at_hand`).

    A value is known if the tape kept it for a VJP rule, if it was watched,
    if the caller gave it, or if the op that computed it can be run again on
    known inputs (the same NumPy forward on the same numbers gives the same
    result); otherwise its tensor is ``None``.

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
    tensors = _known_tensors(tape, records, known or {})
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


def _known_tensors(tape, records, known):
    """id -> tensor for every value at hand: given by the caller, kept by the tape, watched, or run again."""
    known = dict(known)
    for record in records:
        for i, x in zip(record.inputs, record.saved_inputs or ()):
            known.setdefault(i, x)
        if record.saved_output is not None:
            known.setdefault(record.output, record.saved_output)
    for i, t in tape.watched.items():  # after the records: a Variable may have been assigned since an op read it
        known.setdefault(i, t)
    for record in records:  # in recording order, so that a result run again can feed the next op
        if record.output not in known and all(i in known for i in record.inputs):
            arrays = [known[i].array for i in record.inputs]
            known[record.output] = Tensor(record.op.forward(*arrays, **record.attrs))
    return known


def _without_tangent_arithmetic(records, accumulator):
    """The records that are not the accumulator's own tangent arithmetic.

    A tape recording while a ForwardAccumulator is active also records the
    ops of the JVP rules (that is how reverse-over-forward works). They are
    found from the records alone: whatever is computed from a tangent is
    tangent arithmetic (``t * cos(x)`` in the rule of ``sin``), and so is a
    result that only tangent arithmetic uses (the ``cos(x)``), unless it is a
    value with a tangent of its own. The function's own ops never use a tangent.
    """
    tangents = accumulator.tangents  # id of a value still alive -> its tangent
    arithmetic = {t.id for t in tangents.values()}
    for record in records:
        if not arithmetic.isdisjoint(record.inputs):
            arithmetic.add(record.output)
    users = collections.defaultdict(list)  # id -> the results of the ops that read it
    for record in records:
        for i in record.inputs:
            users[i].append(record.output)
    for record in reversed(records):  # an op's users come after it: decided before it
        out = record.output
        if out not in arithmetic and out not in tangents and users[out] and all(u in arithmetic for u in users[out]):
            arithmetic.add(out)
    return [r for r in records if r.output not in arithmetic]


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
    record = op.record
    prim, in_ids, saved_output, saved_inputs = record.op, record.inputs, record.saved_output, record.saved_inputs
    inputs_known = [values[i].tensor for i in in_ids]
    if any(t is None or np.size(t.array) != 1 for t in inputs_known):
        return None
    if prim.keeps_output and saved_output is None:
        return None  # the rule reads the output, and nobody kept it
    # The output of scalar inputs is a scalar: the seed needs only its dtype.
    out = values[record.output].tensor or next(t for t in inputs_known if t.array.dtype.kind == "f")
    ones = Tensor(np.ones((), dtype=out.array.dtype))
    inputs = (None,) * len(in_ids) if saved_inputs is None else saved_inputs
    with recording.silenced():  # a question about the tape: no tape may record it
        grads = prim.vjp(ones, saved_output, inputs, record.attrs, [True] * len(in_ids))
    return [None if g is None else float(np.asarray(g.array).reshape(())) for g in grads]


def sweep_steps(tape, target):
    """The backward sweep of ``tape`` from ``target`` (seeded with ones), one op at a time.

    Yields ``(record, adjoints)`` after each op that passed adjoints on:
    ``adjoints`` holds every adjoint known so far, by id (none is dropped).
    Step k is :func:`~minitape.engine.sweep` itself, run over the last k
    records with every adjoint retained, so the picture shows what the
    engine computes (a tape's picture has at most a few hundred ops, so
    running the sweep again for each step costs little). No tape records any
    of it.

    >>> import minitape as mt
    >>> x = mt.Variable(3.0)
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x * x)
    >>> [(record.op.name, len(adjoints)) for record, adjoints in sweep_steps(tape, y)]
    [('sin', 2), ('multiply', 3)]
    """
    records = list(tape.records)
    needed = set(tape.watched).union(record.output for record in records)  # the constants get no adjoint
    seeds = {target.id: Tensor(np.ones_like(target.array))}
    known = set(seeds)
    with recording.silenced():
        for k in range(1, len(records) + 1):
            record = records[-k]
            if record.output not in known or needed.isdisjoint(record.inputs):
                continue  # no adjoint reaches this op, or none of its inputs takes one: the sweep passes it by
            adjoints = sweep(records[-k:], seeds, needed, retain=needed | known)
            known = set(adjoints)
            yield record, adjoints


# -- a value in a few characters ------------------------------------------------------------------------------------
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
