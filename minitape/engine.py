"""The backward engine: records of ops, played back from last to first (reverse-mode autodiff).

This is the tape the learner builds in the lesson "Build your own tape", at full size. There a
record is ``(out, parents)`` with a number per parent; here it is a
:class:`Record` whose op turns the output's adjoint into its inputs'
adjoints (its VJP rule), and values are known by their ids. The loop of
:func:`sweep` is that lesson's ``reverse_sweep``, line by line:

====================================================  ===============================================
"Build your own tape"                                  :func:`sweep`
====================================================  ===============================================
``adjoint = {target: 1.0}``                            ``adjoints = dict(seeds)``
``for out, parents in reversed(records):``             ``for record in reversed(records):``
(the ``for`` unpacks the record)                       ``op, inputs, output, ... = record``
``g = adjoint.get(out, 0.0)``                          ``g = adjoints.pop(output, None)``
``for inp, partial in parents:``                       ``for i, gi in zip(inputs, op.vjp(g, ...)):``
``adjoint[inp] = adjoint.get(inp, 0.0) + partial*g``   ``adjoints[i] = adjoints[i] + gi``, or ``gi``
(``partial * g``, one per parent)                      ``gi``: the op's VJP rule for input ``i``
====================================================  ===============================================

The differences: a value nobody needs gets no adjoint (``needed``), an
adjoint is dropped once its op has used it (so memory falls as the sweep
goes), and a missing adjoint is skipped instead of taken as 0.0 (an array
of zeros would cost as much as a real one).
:class:`~minitape.GradientTape` records, seeds and answers TensorFlow's
questions (``gradient``, ``jacobian``) on top of this module.

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x
>>> [(r.op.name, len(r.inputs)) for r in tape.records]
[('multiply', 2)]
>>> sweep(tape.records, {y.id: mt.constant(1.0)}, needed={x.id})[x.id]
<mt.Tensor: shape=(), dtype=float32, numpy=6.0>
"""

import collections

from . import recording
from .tensor import Tensor

Record = collections.namedtuple("Record", ["op", "inputs", "output", "saved_output", "saved_inputs", "attrs",
                                           "output_ref"])
Record.__doc__ = """One recorded op: what the backward sweep needs to send the output's adjoint to the inputs.

Performance (benchmarks/README.md): a tape stores each record as a plain tuple with these fields in
this order, and hands out Records (``tape.records``, the ``on_step`` of :func:`sweep`).

* ``op``: the :class:`~minitape.primitive.Primitive` that ran;
* ``inputs``: the ids of its input tensors; ``output``: the id of its result;
* ``saved_output``, ``saved_inputs``: the result and the input tensors, kept
  only if the op's VJP rules read them (``None`` otherwise);
* ``attrs``: the op's attributes (``axis=...``), a dict;
* ``output_ref``: a weak reference to the result, so that a picture of the
  tape can show a value someone else keeps alive; the tape never needs it.
"""


def sweep(records, seeds, needed, keep=(), on_step=None, release=False):
    """Play ``records`` (each laid out as a :class:`Record`) backwards from ``seeds`` ({id: adjoint}).

    Returns the adjoints left at the end, by id. Only values whose id is in ``needed`` receive adjoints; an adjoint is
    dropped as soon as its op has used it, unless its id is in ``keep``.
    ``on_step(record, adjoints)``, if given, is called after each op that
    passed adjoints on. With ``release``, each record is removed from the
    list ``records`` as it is used, so that what it holds can be freed.
    """
    adjoints = dict(seeds)
    for record in _popping(records) if release else reversed(records):
        op, inputs, output, saved_output, saved_inputs, attrs, _ = record
        g = adjoints.get(output) if output in keep else adjoints.pop(output, None)
        if g is None:
            continue  # no adjoint reaches this op's result: nothing to pass on
        wanted = []  # performance (benchmarks/README.md): a plain loop, not a comprehension
        for i in inputs:
            wanted.append(i in needed)
        if True not in wanted:
            continue
        grads = op.vjp(g, saved_output, saved_inputs or (None,) * len(inputs), attrs, wanted)
        for i, gi, w in zip(inputs, grads, wanted):
            if gi is not None and w:
                adjoints[i] = _add(adjoints[i], gi) if i in adjoints else gi  # the chain rule's sum
        if on_step is not None:
            on_step(Record._make(record), adjoints)
    return adjoints


def _add(a, b):
    """a + b for two adjoints of one value. Performance (benchmarks/README.md): plain NumPy when no tape
    is listening (the same number without an op's cost); an op when one is, since a gradient of the
    gradient needs it."""
    if recording._state.recorders:
        return a + b
    return Tensor(a.array + b.array)


def _popping(records):
    """Iterate ``records`` from last to first, removing each one as it is handed out."""
    while records:
        yield records.pop()
