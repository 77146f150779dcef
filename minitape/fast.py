"""The fast path: :func:`~minitape.primitive.apply` and :func:`~minitape.engine.sweep` again, written for speed.

The plain versions in ``primitive.py`` and ``engine.py`` are the definitions:
read those. The library runs these twins instead (the ops call :func:`apply`,
the tape calls :func:`sweep`), because for the small tensors of a lesson
Python's own steps cost as much as NumPy's arithmetic. Each twin does the
same arithmetic in the same order, with fewer Python steps, so it gives the
same numbers to the last bit; ``tests/test_fast.py`` checks that on every
op, first and second derivatives, by running the library both ways.

What each tweak saves was measured by removing it alone (``benchmarks/per_op.py``:
2,000 ops on float32[8], record and gradient; Python 3.11, 2 cores; see
``benchmarks/README.md``):

* ``apply``: an op with one or two inputs and no attributes calls its NumPy
  function without building a list, and no loop starts when nothing
  records, and the list of recorders is read without calling
  :func:`recording.active`: about 0.2 µs per op (20 % of an op run with no tape).
* ``sweep``: a record is unpacked once into local names, the inputs that
  need a gradient are listed by a plain loop (on Python 3.11 a list
  comprehension builds a function object on every call), and two adjoints
  of one value are added by NumPy when no tape listens (the same number
  without an op's checks): about 1 µs per op of the gradient.
* ``float_constant``: the ``0.5`` of ``x * 0.5`` is converted once and
  shared, not made a new tensor each time: about 0.25 µs per op that has one.

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x
>>> sweep(tape.records, {y.id: mt.constant(1.0)}, needed={x.id})[x.id]
<mt.Tensor: shape=(), dtype=float32, numpy=6.0>
"""

import numpy as np

from . import recording
from .engine import backwards
from .tensor import Tensor

NO_ATTRS = {}  # the attributes of an op that has none (most ops): one dict, shared, never changed


def apply(prim, inputs, attrs=NO_ATTRS):
    """:func:`minitape.primitive.apply`, fast."""
    if attrs:
        out = Tensor(prim.forward(*[x.array for x in inputs], **attrs))
    elif len(inputs) == 2:
        out = Tensor(prim.forward(inputs[0].array, inputs[1].array))
    elif len(inputs) == 1:
        out = Tensor(prim.forward(inputs[0].array))
    else:
        out = Tensor(prim.forward(*[x.array for x in inputs]))
    recorders = recording.this_thread.recorders
    if recorders:
        for recorder in recorders:
            recorder.record(prim, inputs, out, attrs)
    return out


def sweep(records, seeds, needed, retain=(), release=False):
    """:func:`minitape.engine.sweep`, fast."""
    adjoints = dict(seeds)
    for op, inputs, output, saved_output, saved_inputs, attrs in backwards(records, release):
        g = adjoints.get(output) if output in retain else adjoints.pop(output, None)
        if g is None:
            continue
        needs = []
        for i in inputs:
            needs.append(i in needed)
        if True not in needs:
            continue
        grads = op.vjp(g, saved_output, saved_inputs or (None,) * len(inputs), attrs, needs)
        for i, gi, need in zip(inputs, grads, needs):
            if need and gi is not None:
                adjoints[i] = _add(adjoints[i], gi) if i in adjoints else gi
    return adjoints


def _add(a, b):
    """``a + b`` for two adjoints of one value: by NumPy when no tape listens, else by the op (for second
    derivatives)."""
    if recording.this_thread.recorders:
        return a + b
    return Tensor(a.array + b.array)


_FLOAT_CONSTANTS = {}  # (value, dtype) -> Tensor


def float_constant(value, dtype):
    """``Tensor(np.array(value, dtype))`` for a Python float ``value`` and a floating ``dtype``, fast.

    Converted once and shared: a constant is never tracked, so one tensor can
    serve every op that uses it. (0.0 and NaN are not shared: 0.0 == -0.0
    would mix up the two zeros, and NaN != NaN would never be found.)
    """
    shared = value == value and value != 0.0
    tensor = _FLOAT_CONSTANTS.get((value, dtype)) if shared else None
    if tensor is None:
        tensor = Tensor(np.array(value, dtype))
        if shared:
            if len(_FLOAT_CONSTANTS) >= 1024:  # a program with many distinct constants: start afresh
                _FLOAT_CONSTANTS.clear()
            _FLOAT_CONSTANTS[(value, dtype)] = tensor
    return tensor
