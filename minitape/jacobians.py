"""Jacobians: one backward sweep per output element, over one tape (``tape.jacobian``, ``tape.batch_jacobian``).

A gradient is one vector-Jacobian product: the sweep seeded with the
target's adjoint. The full Jacobian of a target with ``m`` elements is ``m``
such sweeps, each seeded with a one-hot adjoint (1 for one element of the
target, 0 elsewhere), and its rows stacked. So reverse mode pays per
*output*, and forward mode (:mod:`minitape.forward`) per *input*.

The two functions here are :class:`~minitape.GradientTape`'s methods of the
same names; they ask the tape for the sweeps through its public
:meth:`~minitape.GradientTape.vjps`, and only shape the results.

>>> import minitape as mt
>>> x = mt.constant([0.0, 1.0])
>>> with mt.GradientTape(persistent=True) as tape:
...     tape.watch(x)
...     y = mt.stack([x[0] * x[1], x[0] + x[1]])
>>> tape.jacobian(y, x).numpy()  # row i: one sweep seeded with the one-hot adjoint of y[i]
array([[1., 0.],
       [1., 1.]], dtype=float32)
>>> tape.gradient(y, x, output_gradients=mt.constant([1.0, 0.0])).numpy()  # that sweep for row 0
array([1., 0.], dtype=float32)
"""

import collections.abc

import numpy as np

from . import nest
from .ops import reshape, stack, zeros
from .tensor import Tensor
from .unconnected import UnconnectedGradients, final_results, unconnected_mode


def jacobian(tape, target, sources, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None,
             experimental_use_pfor=True):
    """The full Jacobian d target[i...] / d source[j...], shaped ``target.shape + source.shape``.

    One backward pass per element of ``target``: cheap for few outputs.
    An empty target or source gives an empty Jacobian of that shape.
    ``parallel_iterations`` and ``experimental_use_pfor`` are accepted so
    that TensorFlow code runs unchanged, and ignored: TensorFlow uses them
    to vectorise or parallelise its passes, minitape runs them one by one.
    As in TensorFlow, ``experimental_use_pfor=False`` needs a persistent tape.

    >>> import minitape as mt
    >>> x = mt.constant([1.0, 2.0])
    >>> with mt.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> tape.jacobian(y, x).numpy()
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    unconnected = _checked(tape, "jacobian", unconnected_gradients, experimental_use_pfor)
    if isinstance(target, (list, tuple, dict)):
        raise TypeError("jacobian: the target must be one tensor (call jacobian once for each target, or stack "
                        "them into one with mt.stack)")
    flat_sources = nest.flatten(sources)
    rows = tape.vjps(target, flat_sources, OneHots(target), method="jacobian")

    def shape(source):
        return target.array.shape + source.array.shape

    jacobians = [_joined(r, stack, shape(s), s) for r, s in zip(rows, flat_sources)]
    return nest.pack_sequence_as(sources, final_results(jacobians, flat_sources, unconnected, shape))


def batch_jacobian(tape, target, source, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None,
                   experimental_use_pfor=True):
    """Per-example Jacobians, shaped ``(batch,) + target.shape[1:] + source.shape[1:]``.

    Assumes ``target[b]`` depends only on ``source[b]`` (examples do not
    mix), which lets one backward pass per *column* of the target serve
    the whole batch. ``parallel_iterations`` and ``experimental_use_pfor``
    are accepted and ignored, as in :func:`jacobian`.

    >>> import minitape as mt
    >>> x = mt.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> with mt.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> tape.batch_jacobian(y, x).numpy()[1]  # example 1's Jacobian
    array([[6., 0.],
           [0., 8.]], dtype=float32)
    """
    unconnected = _checked(tape, "batch_jacobian", unconnected_gradients, experimental_use_pfor)
    if not isinstance(source, Tensor) or not isinstance(target, Tensor):
        raise TypeError("batch_jacobian: the target and the source must each be one tensor (for several, "
                        "call batch_jacobian once for each)")
    t_shape, s_shape = target.array.shape, source.array.shape
    # TensorFlow's words, which its own tests match; it checks the target first, then the source.
    for shape in (t_shape, s_shape):
        if len(shape) < 2:
            raise ValueError(f"Shape {shape} must have rank at least 2: batch_jacobian needs a batch dimension "
                             f"and at least one more (reshape a vector to (batch, 1); for one value per "
                             f"example, tape.gradient of their sum gives each example's gradient)")
    if t_shape[0] != s_shape[0]:
        raise ValueError(f"Need first dimension of target shape {t_shape} and source shape {s_shape} to match: "
                         f"batch_jacobian takes the first dimension as the batch of both")
    (cols,) = tape.vjps(target, [source], OneHots(target, per_example=True), method="batch_jacobian")
    shape = t_shape + s_shape[1:]
    result = _joined(cols, lambda cols: stack(cols, axis=1), shape, source)
    return final_results([result], [source], unconnected, shape=lambda s: shape)[0]


def _checked(tape, method, unconnected_gradients, experimental_use_pfor):
    """TensorFlow's first checks of a Jacobian: a spent tape, the unconnected mode, then pfor. Without pfor,
    TensorFlow computes a Jacobian by calling ``gradient`` again and again, which a non-persistent tape cannot
    do; it refuses at once, and so does minitape (whose result does not depend on the flag)."""
    tape.check_not_spent(method)
    unconnected = unconnected_mode(unconnected_gradients)
    if not experimental_use_pfor and not tape.persistent:
        raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {method} with "
                           f"experimental_use_pfor=False (or leave experimental_use_pfor at True)")
    return unconnected


class OneHots(collections.abc.Sequence):
    """The one-hot adjoints of ``target``, made one at a time as the sweeps ask for them.

    Item ``i`` is 1 at element ``i`` of ``target`` (flattened), 0 elsewhere.
    ``per_example``: item ``j`` is 1 at column ``j`` of *every* example
    (``target[b]`` flattened), for :func:`batch_jacobian`.

    >>> import minitape as mt
    >>> [seed.numpy().tolist() for seed in OneHots(mt.constant([5.0, 6.0]))]
    [[1.0, 0.0], [0.0, 1.0]]
    """

    def __init__(self, target, per_example=False):
        self.target, self.per_example = target, per_example

    def __len__(self):
        shape = self.target.array.shape
        return int(np.prod(shape[1:] if self.per_example else shape))

    def __getitem__(self, k):
        count = len(self)
        if not 0 <= k < count:
            raise IndexError(k)
        array = self.target.array
        rows = array.shape[0] if self.per_example else 1
        seed = np.zeros((rows, count), dtype=array.dtype)
        seed[:, k] = 1
        return Tensor(seed.reshape(array.shape))


def _joined(parts, join, shape, source):
    """The results of the one-hot passes joined into a Jacobian of ``shape``; zeros if there were none."""
    if parts is None:
        return None
    if not parts:
        return zeros(shape, dtype=source.dtype)
    return reshape(join(parts), shape)
