"""The gradient tape: record operations, then play them backwards (reverse-mode autodiff).

Inside ``with GradientTape() as tape:`` every primitive op whose inputs the
tape *tracks* is appended to the tape as a :class:`~minitape.engine.Record`
(the op, the ids of its inputs and output, what its VJP rule needs, its
attributes), and its output becomes tracked too. The tape tracks the tensors it was told
to ``watch`` and the trainable Variables it sees being read.

``tape.gradient(target, sources)`` then walks the records from last to first,
carrying the adjoint ``d target / d value`` of every value: each record hands
the adjoint of its output to its inputs through the primitive's VJP rule, and
adjoints reaching the same value add up (the multivariable chain rule). That
walk is :func:`minitape.engine.sweep`, a plain loop, so a tape of a million ops
needs no recursion; this module is TensorFlow's front end around it.

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x * x
>>> tape.gradient(y, x)
<mt.Tensor: shape=(), dtype=float32, numpy=27.0>

The semantics are TensorFlow's ``tf.GradientTape``: a tape answers once
unless ``persistent=True``; non-scalar targets give the gradient of their
sum; unconnected sources give ``None`` (or zeros); integer values give
``None`` with a warning; a target that is itself a source has gradient 1.
"""

import contextlib
import types
import warnings
import weakref

import numpy as np

from . import nest, recording
from .engine import Record, sweep
from .ops import broadcast_to, ones_like, reshape, stack, zeros
from .tensor import Tensor, Variable, convert_to_tensor
from .unconnected import UnconnectedGradients, unconnected_mode


def _warn_not_floating(role, t):
    warnings.warn(f"The dtype of the {role} tensor must be floating (e.g. mt.float32) when calling "
                  f"GradientTape.gradient, got {t.dtype.name}; its gradient is None.", stacklevel=4)


class GradientTape:
    """Records operations on watched tensors so that their gradients can be computed.

    Args:
      persistent: if False (the default) the tape answers one ``gradient``
        or ``jacobian`` call and then releases what it recorded; if True it
        answers any number, and keeps its records until it is deleted.
      watch_accessed_variables: if True (the default), trainable Variables
        read inside the ``with`` block are watched automatically.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recording = False
        self._reset()

    def _reset(self):
        self._records = []  # None once a non-persistent tape has answered
        self._tracked = set()  # ids of the tensors whose ops are recorded
        self._watched = {}  # id -> tensor or Variable passed to watch (or read), in watch order

    # -- recording ---------------------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise ValueError("this tape is already recording: a tape cannot be entered twice at once")
        if self._records is None:  # a spent non-persistent tape starts afresh, as in TensorFlow
            self._reset()
        recording.push(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self._recording:
            recording.remove(self)
            self._recording = False

    def record(self, prim, inputs, out, attrs):
        """Called by every op run while this tape is active; keeps the op if it touches a tracked value."""
        tracked = self._tracked
        for x in inputs:
            if x._id in tracked:
                break
        else:
            return  # no input is tracked: the op is a constant as far as this tape knows
        if out._value.dtype.kind != "f":
            return  # integers and booleans carry no gradient
        tracked.add(out._id)
        # The weak reference lets a picture of the tape show the value while someone
        # else keeps it alive; the tape itself keeps only what the VJP rule needs.
        # performance (benchmarks/README.md): a plain tuple, laid out as a Record
        self._records.append((prim, tuple([x._id for x in inputs]), out._id, out if prim.keeps_output else None,
                              inputs if prim.keeps_inputs else None, attrs, weakref.ref(out)))

    def variable_accessed(self, variable):
        if self._watch_accessed_variables and variable._trainable:
            self._watch_one(variable)

    def watch(self, tensor):
        """Track ``tensor`` (or every tensor in a list/tuple/dict): ops on it will be recorded."""
        for t in nest.flatten(tensor):
            if not isinstance(t, Tensor):
                raise ValueError(f"GradientTape.watch: expected a tensor or Variable, got {type(t).__name__} "
                                 f"({t!r}). Make it a tensor first, e.g. x = mt.constant(x).")
            if not t.dtype.is_floating:
                warnings.warn(f"The dtype of the watched tensor must be floating (e.g. mt.float32), got "
                              f"{t.dtype.name}; it is not watched.", stacklevel=2)
                continue
            self._watch_one(t)

    def _watch_one(self, t):
        if self._records is None:
            self._reset()
        self._tracked.add(t._id)
        self._watched.setdefault(t._id, t)

    def watched_variables(self):
        """The Variables this tape watches, in the order they were created (as in TensorFlow).

        >>> import minitape as mt
        >>> a, b = mt.Variable(1.0, name="a"), mt.Variable(2.0, name="b")
        >>> with mt.GradientTape() as tape:
        ...     y = b * a  # b is read first
        >>> [v.name for v in tape.watched_variables()]
        ['a:0', 'b:0']
        """
        # Ids are handed out in creation order, and a Variable keeps its id for life.
        return tuple(sorted((t for t in self._watched.values() if isinstance(t, Variable)), key=lambda v: v._id))

    @contextlib.contextmanager
    def stop_recording(self):
        """A block in which this tape records nothing (other tapes carry on)."""
        if not self._recording:
            raise RuntimeError("stop_recording: this tape is not recording (use it inside the tape's `with` block)")
        position = recording.remove(self)
        self._recording = False
        try:
            yield
        finally:
            recording.insert(position, self)
            self._recording = True

    def reset(self):
        """Forget everything recorded and watched so far (recording goes on inside the context)."""
        self._reset()

    def __len__(self):
        """The number of operations recorded."""
        return 0 if self._records is None else len(self._records)

    @property
    def records(self):
        """The recorded ops, first to last: a tuple of :class:`~minitape.engine.Record` (read-only).

        A spent tape (non-persistent, already answered) raises RuntimeError: it released its records.

        >>> import minitape as mt
        >>> x = mt.Variable(2.0)
        >>> with mt.GradientTape() as tape:
        ...     y = mt.sin(x) * x
        >>> [r.op.name for r in tape.records]
        ['sin', 'multiply']
        """
        self._check_not_spent("records")
        return tuple([Record._make(r) for r in self._records])

    @property
    def spent(self):
        """True once a non-persistent tape has answered (or failed while answering) and released its records."""
        return self._records is None

    @property
    def watched(self):
        """The tensors and Variables this tape watches, by id, in the order they were first watched (read-only)."""
        return types.MappingProxyType(self._watched)

    def __repr__(self):
        state = "spent" if self._records is None else f"{len(self._records)} ops"
        return f"<GradientTape: {state}{', persistent' if self._persistent else ''}>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        """A tape shown in a notebook draws itself (with Graphviz; see :mod:`minitape.viz`)."""
        try:
            from . import viz  # noqa: PLC0415  (graphviz is optional: load it only to show a tape)
        except ImportError:
            return {"text/plain": repr(self) + " (pip install graphviz to see its picture)"}
        return viz.tape_mimebundle(self, include, exclude)

    # -- differentiating -----------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d target / d source for every source, in the structure of ``sources``.

        Args:
          target: a tensor, or a list/structure of tensors (their gradients add up).
            A non-scalar target gives the gradient of the sum of its elements.
          sources: a tensor or Variable, or a list/tuple/dict (nested) of them.
          output_gradients: one tensor per target (a list in the structure of
            ``target``), of its dtype and broadcastable to its shape: the
            vector ``v`` in the vector-Jacobian product ``v^T (d target / d source)``.
          unconnected_gradients: ``"none"`` or ``"zero"``: what an unconnected
            source gets.
        """
        unconnected = self._check_usable("gradient", unconnected_gradients)
        flat_sources = self._checked_sources(sources)
        seeds = self._seeds(target, output_gradients)
        self._leave_context()
        try:
            adjoints = sweep(self._records, seeds, needed=self._needed(flat_sources),
                             keep={s._id for s in flat_sources}, release=not self._persistent)
        finally:  # even if a rule fails midway: a half-swept tape must never answer again
            self._release_unless_persistent()
        grads = [adjoints.get(s._id) for s in flat_sources]
        return nest.pack_sequence_as(sources, self._final_results(grads, flat_sources, unconnected))

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
        n_out = int(np.prod(target._value.shape))
        try:
            rows = self._one_hot_passes(target, flat_sources, n_out, lambda i: _one_hot(target, i))
        finally:
            self._release_unless_persistent()
        jacobians = [_joined(r, stack, target._value.shape + s._value.shape, s)
                     for r, s in zip(rows, flat_sources)]
        return nest.pack_sequence_as(sources, self._final_results(
            jacobians, flat_sources, unconnected, shape=lambda s: target._value.shape + s._value.shape))

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
        t_shape, s_shape = target._value.shape, source._value.shape
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

    # -- the steps of an answer --------------------------------------------------------------
    def _check_not_spent(self, method):
        if self._records is None:
            raise RuntimeError(f"GradientTape.{method}: this non-persistent tape has already answered once (or "
                               f"failed while answering) and released its records. Create it with "
                               f"mt.GradientTape(persistent=True) to ask for several gradients, or record again "
                               f"in a new `with` block.")

    def _check_usable(self, method, unconnected_gradients):
        self._check_not_spent(method)
        return unconnected_mode(unconnected_gradients)

    def _check_pfor(self, method, experimental_use_pfor):
        """TensorFlow computes a Jacobian without pfor by calling ``gradient`` again and again, which a
        non-persistent tape cannot do; it refuses at once, and so does minitape (whose result does not depend
        on the flag)."""
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {method} with "
                               f"experimental_use_pfor=False (or leave experimental_use_pfor at True)")

    def _leave_context(self):
        """Called inside the ``with`` block, a non-persistent tape stops; a persistent one warns."""
        if self._recording:
            if not self._persistent:  # TensorFlow stops recording; the tape is about to be spent anyway
                self.__exit__()
            else:
                warnings.warn("Calling GradientTape.gradient on a persistent tape inside its context is "
                              "significantly less efficient than calling it outside the context (it causes "
                              "the gradient ops to be recorded on the tape, leading to increased CPU and "
                              "memory usage). Only call GradientTape.gradient inside the context if you "
                              "actually want to trace the gradient in order to compute higher order "
                              "derivatives.", stacklevel=3)

    def _release_unless_persistent(self):
        if not self._persistent:
            self._records = None  # release everything: the tape has answered
            self._tracked = set()
            self._watched = {i: t for i, t in self._watched.items() if isinstance(t, Variable)}

    def _checked_sources(self, sources):
        flat = nest.flatten(sources)
        for s in flat:
            if not isinstance(s, Tensor):
                raise TypeError(f"GradientTape: every source must be a tensor or Variable, got "
                                f"{type(s).__name__} ({s!r}). Gradients exist only for minitape values: "
                                f"use mt.Variable(...) or mt.constant(...) with tape.watch.")
        return flat

    def _checked_target(self, target):
        if not isinstance(target, Tensor):
            raise TypeError(f"GradientTape: the target must be a minitape tensor computed inside the tape's "
                            f"context, got {type(target).__name__}. A value computed with NumPy or Python "
                            f"is invisible to the tape: compute it with minitape ops.")
        return target

    def _seeds(self, target, output_gradients):
        """The starting adjoints: d target / d target = 1 (or ``output_gradients``), by id."""
        targets = [self._checked_target(t) for t in nest.flatten(target)]
        if output_gradients is None:
            given = [None] * len(targets)
        else:
            given = nest.flatten(output_gradients)  # as in TensorFlow, a list of numbers is one per target
            if len(given) != len(targets):
                raise ValueError(f"output_gradients has {len(given)} item(s) for {len(targets)} target(s): give "
                                 f"one gradient per target (for a vector target, one tensor: "
                                 f"mt.constant([...]))")
        seeds = {}
        for k, (t, v) in enumerate(zip(targets, given)):
            if not t.dtype.is_floating:
                _warn_not_floating("target", t)
                continue
            if v is None:
                v = ones_like(t)
            else:
                v = self._checked_output_gradient(k, v, t)
            # Every target is seeded, tracked or not: a target that is itself a source (``y = x``, or
            # a Variable returned as it is) has gradient 1 with no op in between, as in TensorFlow.
            seeds[t._id] = seeds[t._id] + v if t._id in seeds else v
        return seeds

    def _checked_output_gradient(self, k, v, target):
        """``v`` as the seed for ``target``: of its dtype, and broadcast to its shape (a scalar scales it)."""
        v = convert_to_tensor(v, dtype_hint=target.dtype)
        if v.dtype != target.dtype:
            raise TypeError(f"output_gradients[{k}] has dtype {v.dtype.name} but its target is "
                            f"{target.dtype.name}; convert it with mt.cast(v, mt.{target.dtype.name})")
        if v._value.shape != target._value.shape:
            try:
                v = broadcast_to(v, target._value.shape)
            except ValueError:
                raise ValueError(f"output_gradients[{k}] has shape {v._value.shape} but its target has shape "
                                 f"{target._value.shape}; give it the target's shape (or a scalar)") from None
        return v

    def _needed(self, sources):
        """The ids of the values that depend on some source: only they need an adjoint."""
        needed = {s._id for s in sources if s._id in self._tracked}
        for _, inputs, output, _, _, _, _ in self._records:  # each laid out as a Record
            if not needed.isdisjoint(inputs):
                needed.add(output)
        return needed

    def adjoints(self, target, output_gradients=None, on_step=None):
        """The adjoint of every tracked value, by id, without spending the tape.

        For pictures and trace tables of the backward pass: ``gradient`` is
        the way to get gradients. ``on_step(record, adjoints)``, if given, is
        called after each step of the sweep (see :func:`minitape.engine.sweep`).
        No tape records this computation, not even one still open.

        >>> import minitape as mt
        >>> x = mt.Variable(3.0)
        >>> with mt.GradientTape() as tape:
        ...     y = x * x
        >>> tape.adjoints(y)[x._id]
        <mt.Tensor: shape=(), dtype=float32, numpy=6.0>
        """
        self._check_not_spent("adjoints")
        with recording.silenced():
            seeds = self._seeds(target, output_gradients)
            return sweep(self._records, seeds, needed=self._tracked, keep=self._tracked, on_step=on_step)

    def _one_hot_passes(self, target, sources, n_passes, seed_for):
        """Run ``n_passes`` sweeps seeded by ``seed_for(k)``; per source, the list of results (or None).

        With no passes at all (an empty target), a source connected to the
        target gets an empty list, an unconnected one None.
        """
        if not target.dtype.is_floating:
            _warn_not_floating("target", target)
            return [None] * len(sources)
        keep = {s._id for s in sources}
        if target._id not in self._tracked and target._id not in keep:
            return [None] * len(sources)
        if n_passes == 0:
            return [[] if s._id == target._id or target._id in self._needed([s]) else None for s in sources]
        needed = self._needed(sources)
        passes = []
        for k in range(n_passes):
            last = k == n_passes - 1
            adjoints = sweep(self._records, {target._id: seed_for(k)}, needed, keep,
                             release=last and not self._persistent)
            passes.append([adjoints.get(s._id) for s in sources])
        return [None if passes[0][j] is None else [p[j] for p in passes] for j in range(len(sources))]

    def _final_results(self, grads, sources, unconnected, shape=lambda s: s._value.shape):
        """Apply the dtype and unconnected-gradient rules to the raw results."""
        out = []
        for g, s in zip(grads, sources):
            if not s.dtype.is_floating:
                _warn_not_floating("source", s)
                g = None
            if g is None and unconnected is UnconnectedGradients.ZERO:  # integer sources get integer zeros
                g = zeros(shape(s), dtype=s.dtype)
            out.append(g)
        return out


def _joined(parts, join, shape, source):
    """The results of the one-hot passes joined into a Jacobian of ``shape``; zeros if there were none."""
    if parts is None:
        return None
    if not parts:
        return zeros(shape, dtype=source.dtype)
    return reshape(join(parts), shape)


def _one_hot(target, i):
    seed = np.zeros(target._value.size, dtype=target._value.dtype)
    seed[i] = 1
    return Tensor(seed.reshape(target._value.shape))


def _one_hot_column(target, j):
    seed = np.zeros((target._value.shape[0], max(int(np.prod(target._value.shape[1:])), 1)),
                    dtype=target._value.dtype)
    seed[:, j] = 1
    return Tensor(seed.reshape(target._value.shape))
