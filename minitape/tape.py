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
walk is :func:`minitape.engine.sweep` (the loop that runs), a plain loop, so a tape
of a million ops needs no recursion; this module is TensorFlow's front end around it.

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

import numpy as np

from . import jacobians, nest, recording
from .engine import Record, sweep
from .ops import broadcast_to
from .tensor import Tensor, convert_to_tensor
from .variable import Variable
from .unconnected import UnconnectedGradients, final_results, unconnected_mode, warn_not_floating


class GradientTape(recording.Recorder):
    """Records operations on watched tensors so that their gradients can be computed.

    ``gradient`` runs one backward sweep; ``vjps`` runs one per seed, which
    is how :mod:`minitape.jacobians` computes ``jacobian`` and ``batch_jacobian``.

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
        super().__enter__()
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self._recording:
            super().__exit__(*exc)
            self._recording = False

    def record(self, prim, inputs, out, attrs):
        """Called by every op run while this tape is active; keeps the op if it touches a tracked value."""
        tracked = self._tracked
        for x in inputs:
            if x.id in tracked:
                break
        else:
            return  # no input is tracked: the op is a constant as far as this tape knows
        if out.array.dtype.kind != "f":
            return  # integers and booleans carry no gradient
        tracked.add(out.id)
        self._records.append(Record((prim, tuple([x.id for x in inputs]), out.id, out if prim.keeps_output else None,
                                     inputs if prim.keeps_inputs else None, attrs)))

    def variable_accessed(self, variable):
        if self._watch_accessed_variables and variable.trainable:
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
        self._tracked.add(t.id)
        self._watched.setdefault(t.id, t)

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
        return tuple(sorted((t for t in self._watched.values() if isinstance(t, Variable)), key=lambda v: v.id))

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
        self.check_not_spent("records")
        return tuple(self._records)

    @property
    def spent(self):
        """True once a non-persistent tape has answered (or failed while answering) and released its records."""
        return self._records is None

    @property
    def persistent(self):
        """True if the tape answers any number of ``gradient`` calls (``GradientTape(persistent=True)``)."""
        return self._persistent

    @property
    def watched(self):
        """The tensors and Variables this tape watches, by id, in the order they were first watched (read-only)."""
        return types.MappingProxyType(self._watched)

    def __repr__(self):
        state = "spent" if self._records is None else f"{len(self._records)} ops"
        return f"<GradientTape: {state}{', persistent' if self._persistent else ''}>"

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
        self.check_not_spent("gradient")
        unconnected = unconnected_mode(unconnected_gradients)
        flat_sources = self._checked_sources(sources)
        seeds = self._seeds(target, output_gradients)
        self._leave_context()
        try:
            adjoints = sweep(self._records, seeds, needed=self._needed(flat_sources),
                             retain={s.id for s in flat_sources}, release=not self._persistent)
        finally:  # even if a rule fails midway: a half-swept tape must never answer again
            self._release_unless_persistent()
        grads = [adjoints.get(s.id) for s in flat_sources]
        return nest.pack_sequence_as(sources, final_results(grads, flat_sources, unconnected))

    def vjps(self, target, sources, seeds, method="vjps"):
        """Several vector-Jacobian products of one target in one answer: a backward sweep per seed.

        ``seeds`` is a sequence of adjoints of ``target`` (its shape and dtype),
        read one at a time; ``sources`` a flat list of tensors. Returns, per
        source, the list of its gradients (one per seed), or None if the
        target does not depend on it; with no seeds, a connected source gets
        an empty list. A non-persistent tape releases its records after the
        last sweep. ``method`` names the caller in errors.

        >>> import minitape as mt
        >>> x = mt.constant([1.0, 2.0])
        >>> with mt.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> [g.numpy() for g in tape.vjps(y, [x], [mt.constant([1.0, 0.0]), mt.constant([0.0, 1.0])])[0]]
        [array([2., 0.], dtype=float32), array([0., 4.], dtype=float32)]
        """
        self.check_not_spent(method)
        sources = self._checked_sources(sources)
        target = self._checked_target(target)
        self._leave_context()
        try:
            if target.array.dtype.kind != "f":
                warn_not_floating("target", target)
                return [None] * len(sources)
            retain = {s.id for s in sources}
            if target.id not in self._tracked and target.id not in retain:
                return [None] * len(sources)
            if not seeds:
                return [[] if s.id == target.id or target.id in self._needed([s]) else None for s in sources]
            needed = self._needed(sources)
            last = len(seeds) - 1
            passes = []
            for k, seed in enumerate(seeds):
                adjoints = sweep(self._records, {target.id: seed}, needed, retain,
                                 release=k == last and not self._persistent)
                passes.append([adjoints.get(s.id) for s in sources])
            return [None if passes[0][j] is None else [p[j] for p in passes] for j in range(len(sources))]
        finally:
            self._release_unless_persistent()

    jacobian = jacobians.jacobian
    batch_jacobian = jacobians.batch_jacobian

    # -- the steps of an answer --------------------------------------------------------------
    def check_not_spent(self, method):
        """Raise RuntimeError, naming ``method`` and the fix, if this tape has answered and released its records."""
        if self._records is None:
            raise RuntimeError(f"GradientTape.{method}: this non-persistent tape has already answered once (or "
                               f"failed while answering) and released its records. Create it with "
                               f"mt.GradientTape(persistent=True) to ask for several gradients, or record again "
                               f"in a new `with` block.")

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
            if t.array.dtype.kind != "f":  # NumPy's kind, as `record` reads it: integers carry no gradient
                warn_not_floating("target", t)
                continue
            if v is None:
                v = Tensor(np.ones_like(t.array))  # d target / d target: a constant, recorded by no tape
            else:
                v = self._checked_output_gradient(k, v, t)
            # Every target is seeded, tracked or not: a target that is itself a source (``y = x``, or
            # a Variable returned as it is) has gradient 1 with no op in between, as in TensorFlow.
            seeds[t.id] = seeds[t.id] + v if t.id in seeds else v
        return seeds

    def _checked_output_gradient(self, k, v, target):
        """``v`` as the seed for ``target``: of its dtype, and broadcast to its shape (a scalar scales it)."""
        v = convert_to_tensor(v, dtype_hint=target.dtype)
        if v.dtype != target.dtype:
            raise TypeError(f"output_gradients[{k}] has dtype {v.dtype.name} but its target is "
                            f"{target.dtype.name}; convert it with mt.cast(v, mt.{target.dtype.name})")
        if v.array.shape != target.array.shape:
            try:
                v = broadcast_to(v, target.array.shape)
            except ValueError:
                raise ValueError(f"output_gradients[{k}] has shape {v.array.shape} but its target has shape "
                                 f"{target.array.shape}; give it the target's shape (or a scalar)") from None
        return v

    def _needed(self, sources):
        """The ids of the values that depend on some source: only they need an adjoint."""
        needed = {s.id for s in sources if s.id in self._tracked}
        for record in self._records:
            if not needed.isdisjoint(record.inputs):
                needed.add(record.output)
        return needed

    def adjoints(self, target, output_gradients=None):
        """The adjoint of every tracked value, by id, without spending the tape.

        For pictures and trace tables of the backward pass: ``gradient`` is
        the way to get gradients. No tape records this computation, not even
        one still open.

        >>> import minitape as mt
        >>> x = mt.Variable(3.0)
        >>> with mt.GradientTape() as tape:
        ...     y = x * x
        >>> tape.adjoints(y)[x.id]
        <mt.Tensor: shape=(), dtype=float32, numpy=6.0>
        """
        self.check_not_spent("adjoints")
        with recording.silenced():
            seeds = self._seeds(target, output_gradients)
            return sweep(self._records, seeds, needed=self._tracked, retain=self._tracked)
