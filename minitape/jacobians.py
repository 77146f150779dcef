"""Jacobians: one backward sweep per output element, over one tape (``tape.jacobian``, ``tape.batch_jacobian``).

A gradient is one vector-Jacobian product: the sweep seeded with the
target's adjoint. The full Jacobian of a target with ``m`` elements is ``m``
such sweeps, each seeded with a one-hot adjoint (1 for one element of the
target, 0 elsewhere), and its rows stacked. So reverse mode pays per
*output*, and forward mode (:mod:`minitape.forward`) per *input*.

:class:`Jacobians` gives :class:`~minitape.GradientTape` these two methods;
they use the tape's own steps of an answer (checks, leaving the ``with``
block, releasing a non-persistent tape) as ``gradient`` does.

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

import numpy as np

from . import nest
from .engine import sweep
from .ops import reshape, stack, zeros
from .tensor import Tensor
from .unconnected import UnconnectedGradients, warn_not_floating


class Jacobians:
    """The Jacobian methods of :class:`~minitape.GradientTape` (a part of it, in a module of its own)."""

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
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
        unconnected = self._check_usable("jacobian", unconnected_gradients)
        self._check_pfor("jacobian", experimental_use_pfor)
        flat_sources = self._checked_sources(sources)
        if isinstance(target, (list, tuple, dict)):
            raise TypeError("jacobian: the target must be one tensor (call jacobian once for each target, or stack "
                            "them into one with mt.stack)")
        target = self._checked_target(target)
        self._leave_context()
        n_out = int(np.prod(target.array.shape))
        try:
            rows = self._one_hot_passes(target, flat_sources, n_out, lambda i: _one_hot(target, i))
        finally:
            self._release_unless_persistent()
        jacobians = [_joined(r, stack, target.array.shape + s.array.shape, s)
                     for r, s in zip(rows, flat_sources)]
        return nest.pack_sequence_as(sources, self._final_results(
            jacobians, flat_sources, unconnected, shape=lambda s: target.array.shape + s.array.shape))

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians, shaped ``(batch,) + target.shape[1:] + source.shape[1:]``.

        Assumes ``target[b]`` depends only on ``source[b]`` (examples do not
        mix), which lets one backward pass per *column* of the target serve
        the whole batch. ``parallel_iterations`` and ``experimental_use_pfor``
        are accepted and ignored, as in :meth:`jacobian`.
        """
        unconnected = self._check_usable("batch_jacobian", unconnected_gradients)
        self._check_pfor("batch_jacobian", experimental_use_pfor)
        if not isinstance(source, Tensor) or not isinstance(target, Tensor):
            raise TypeError("batch_jacobian: the target and the source must each be one tensor (for several, "
                            "call batch_jacobian once for each)")
        (source,) = self._checked_sources(source)
        target = self._checked_target(target)
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
        self._leave_context()
        n_cols = int(np.prod(t_shape[1:]))
        try:
            (cols,) = self._one_hot_passes(target, [source], n_cols, lambda j: _one_hot_column(target, j))
        finally:
            self._release_unless_persistent()
        shape = t_shape + s_shape[1:]
        result = _joined(cols, lambda cols: stack(cols, axis=1), shape, source)
        return self._final_results([result], [source], unconnected, shape=lambda s: shape)[0]

    def _check_pfor(self, method, experimental_use_pfor):
        """TensorFlow computes a Jacobian without pfor by calling ``gradient`` again and again, which a
        non-persistent tape cannot do; it refuses at once, and so does minitape (whose result does not depend
        on the flag)."""
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {method} with "
                               f"experimental_use_pfor=False (or leave experimental_use_pfor at True)")

    def _one_hot_passes(self, target, sources, n_passes, seed_for):
        """Run ``n_passes`` sweeps seeded by ``seed_for(k)``; per source, the list of results (or None).

        With no passes at all (an empty target), a source connected to the
        target gets an empty list, an unconnected one None.
        """
        if not target.dtype.is_floating:
            warn_not_floating("target", target)
            return [None] * len(sources)
        retain = {s.id for s in sources}
        if target.id not in self._tracked and target.id not in retain:
            return [None] * len(sources)
        if n_passes == 0:
            return [[] if s.id == target.id or target.id in self._needed([s]) else None for s in sources]
        needed = self._needed(sources)
        passes = []
        for k in range(n_passes):
            last = k == n_passes - 1
            adjoints = sweep(self._records, {target.id: seed_for(k)}, needed, retain,
                             release=last and not self._persistent)
            passes.append([adjoints.get(s.id) for s in sources])
        return [None if passes[0][j] is None else [p[j] for p in passes] for j in range(len(sources))]


def _joined(parts, join, shape, source):
    """The results of the one-hot passes joined into a Jacobian of ``shape``; zeros if there were none."""
    if parts is None:
        return None
    if not parts:
        return zeros(shape, dtype=source.dtype)
    return reshape(join(parts), shape)


def _one_hot(target, i):
    seed = np.zeros(target.array.size, dtype=target.array.dtype)
    seed[i] = 1
    return Tensor(seed.reshape(target.array.shape))


def _one_hot_column(target, j):
    seed = np.zeros((target.array.shape[0], max(int(np.prod(target.array.shape[1:])), 1)),
                    dtype=target.array.dtype)
    seed[:, j] = 1
    return Tensor(seed.reshape(target.array.shape))
