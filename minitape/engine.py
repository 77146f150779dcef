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
``for out, parents in reversed(records):``             ``for op, inputs, output, ... in backwards(records):``
(the ``for`` unpacks the record)                       (the ``for`` unpacks the record: its six fields)
``g = adjoint.get(out, 0.0)``                          ``g = adjoints.pop(output, None)``
``for inp, partial in parents:``                       ``for i, gi, need in zip(inputs, grads, needs):``
``adjoint[inp] = adjoint.get(inp, 0.0) + partial*g``   ``adjoints[i] = add(adjoints[i], gi)``, or ``gi``
(``partial * g``, one per parent)                      ``gi``: the op's VJP rule for input ``i``
====================================================  ===============================================

The differences: a value nobody needs gets no adjoint (``needed``), an
adjoint is dropped once its op has used it, unless its id is in ``retain``
(so memory falls as the sweep goes), and a missing adjoint is skipped
instead of taken as 0.0 (an array of zeros would cost as much as a real one).
:class:`~minitape.GradientTape` records, seeds and answers TensorFlow's
questions (``gradient``, ``jacobian``) on top of this module, and the
pictures replay it op by op (:mod:`minitape.viz.reading`): this loop is the one
that runs.

A tape and a tensor's graph meet here. A ``GradientTape`` keeps its records in one list;
``minitape.torch`` keeps them on the tensors (each ``grad_fn`` holds the records of its op), and its
``backward`` gathers the nodes it can reach, orders their records as they ran and calls the same
:func:`sweep` (:mod:`minitape.torch.autograd`).

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x
>>> [(r.op.name, len(r.inputs)) for r in tape.records]
[('multiply', 2)]
>>> sweep(tape.records, {y.id: mt.constant(1.0)}, needed={x.id})[x.id]
<mt.Tensor: shape=(), dtype=float32, numpy=6.0>
"""

from operator import itemgetter

from . import recording
from .tensor import Tensor


class Record(tuple):
    """One recorded op: what the backward sweep needs to send the output's adjoint to the inputs.

    A tuple of six fields, read by name:

    * ``op``: the :class:`~minitape.primitive.Primitive` that ran;
    * ``inputs``: the ids of its input tensors; ``output``: the id of its result;
    * ``saved_output``, ``saved_inputs``: the result and the input tensors, kept
      only if the op's VJP rules read them (``None`` otherwise: see the
      primitive's ``keeps``);
    * ``attrs``: the op's attributes (``axis=...``), a dict.

    Built from the six in that order, ``Record((op, inputs, output, saved_output,
    saved_inputs, attrs))``, in one step: a tape builds one per op, and a named
    tuple's constructor (a Python function) would cost it 5 % of its speed
    (benchmarks/README.md). Read-only, like any tuple, so that a tape's
    ``records`` can be handed out.
    """

    __slots__ = ()
    _fields = ("op", "inputs", "output", "saved_output", "saved_inputs", "attrs")
    op = property(itemgetter(0))
    inputs = property(itemgetter(1))
    output = property(itemgetter(2))
    saved_output = property(itemgetter(3))
    saved_inputs = property(itemgetter(4))
    attrs = property(itemgetter(5))

    def __repr__(self):
        return "Record(" + ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self)) + ")"


def sweep(records, seeds, needed, retain=(), release=False):
    """Play ``records`` (a list of :class:`Record`) backwards from ``seeds`` ({id: adjoint}).

    Returns the adjoints left at the end, by id. Only values whose id is in
    ``needed`` receive adjoints; an adjoint is dropped as soon as its op has
    used it, unless its id is in ``retain``. With ``release``, each record is
    removed from the list ``records`` as it is used, so that what it holds can
    be freed.

    Three shortcuts save about 1 µs per op of a gradient, a fifth of it
    (``benchmarks/per_op.py``; benchmarks/README.md): the record is unpacked
    once into local names, the inputs that need a gradient are listed by a
    plain loop (on Python 3.11 a list comprehension builds a function object
    on every call), and :func:`add` skips the op's checks when no tape listens.
    """
    adjoints = dict(seeds)
    for op, inputs, output, saved_output, saved_inputs, attrs in backwards(records, release):
        g = adjoints.get(output) if output in retain else adjoints.pop(output, None)
        if g is None:
            continue  # no adjoint reaches this op's result: nothing to pass on
        needs = []
        for i in inputs:
            needs.append(i in needed)
        if True not in needs:
            continue  # no input leads back to a source
        grads = op.vjp(g, saved_output, saved_inputs or (None,) * len(inputs), attrs, needs)
        for i, gi, need in zip(inputs, grads, needs):
            if need and gi is not None:
                adjoints[i] = add(adjoints[i], gi) if i in adjoints else gi
    return adjoints


def add(a, b):
    """The chain rule's sum of two adjoints of one value.

    While a tape listens it is an op, not NumPy's +, so that a tape still
    recording hears it (second derivatives); otherwise NumPy's + alone gives
    the same number without an op's checks.
    """
    if recording.this_thread.recorders:
        return a + b
    return Tensor(a.array + b.array)


def backwards(records, release=False):
    """``records`` from last to first; with ``release``, each is removed from the list as it is handed out."""
    return _popping(records) if release else reversed(records)


def _popping(records):
    while records:
        yield records.pop()
