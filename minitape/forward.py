"""Forward-mode autodiff: carry a tangent alongside every value (``mt.autodiff``).

Inside ``with ForwardAccumulator(primals, tangents) as acc:`` every op whose
inputs have tangents computes its output's tangent at once, with the op's JVP
rule: no tape, no backward pass. ``acc.jvp(y)`` is then the directional
derivative of ``y`` along the tangents, a Jacobian-vector product.

>>> import minitape as mt
>>> x = mt.constant(3.0)
>>> with mt.autodiff.ForwardAccumulator(x, mt.constant(1.0)) as acc:
...     y = x * x * x
>>> acc.jvp(y)
<mt.Tensor: shape=(), dtype=float32, numpy=27.0>

One pass gives the derivative along one direction, so a full Jacobian of
f: R^n -> R^m takes n passes (reverse mode takes m). :class:`OpCounter`
counts the primitive ops a computation runs, to show that cost in numbers.

Forward over reverse: an accumulator around a tape sees the tape's backward
pass too, so ``acc.jvp(tape.gradient(f, x))`` is a Hessian-vector product.
"""

import collections
import types
import weakref

from . import nest, recording
from .ops import zeros
from .tape import GradientTape
from .tensor import Tensor, convert_to_tensor
from .unconnected import UnconnectedGradients, unconnected_mode


class ForwardAccumulator:
    """Computes Jacobian-vector products with forward mode, alongside the computation.

    Args:
      primals: a tensor or Variable, or a list/tuple/dict of them: the inputs.
      tangents: the same structure of tensors: the direction for each input.
    """

    def __init__(self, primals, tangents):
        flat_primals = nest.flatten(primals)
        try:
            flat_tangents = nest.flatten_up_to(primals, tangents)
        except ValueError as e:
            raise ValueError(f"ForwardAccumulator: give one tangent per primal, in the same structure: {e}") \
                from None
        self._tangents = {}  # id -> tangent of that value, while the value is alive
        self._inert = {}  # id -> tangent of an integer or boolean primal: jvp gives it back, no op carries it on
        self._alive = {}  # id -> weak reference to an op's result; its death drops the tangent
        self._jvp_spans = []  # (first id, last id) of the tensors each JVP rule created while a tape recorded
        for k, (p, t) in enumerate(zip(flat_primals, flat_tangents)):
            if not isinstance(p, Tensor):
                raise TypeError(f"ForwardAccumulator: primal {k} must be a tensor or Variable, got "
                                f"{type(p).__name__}")
            if p._id in self._tangents or p._id in self._inert:
                raise ValueError(f"ForwardAccumulator: primal {k} was given as a primal multiple times; give each "
                                 f"tensor once, with the sum of its tangents")
            self._watch(k, p, t)
        self._recording = False

    def _watch(self, k, p, t):
        if isinstance(t, (list, tuple, dict)):  # TensorFlow wants the structure of the primals exactly
            raise ValueError(f"ForwardAccumulator: the tangent of primal {k} is a {type(t).__name__}, but the primal "
                             f"is one tensor; give one tensor, e.g. mt.constant({t!r})")
        if isinstance(t, Tensor):
            if t.dtype != p.dtype:
                raise ValueError(f"ForwardAccumulator: tangent {k} has dtype {t.dtype.name}, but its primal has "
                                 f"dtype {p.dtype.name}; convert it with mt.cast(tangent, mt.{p.dtype.name})")
        else:
            t = convert_to_tensor(t, dtype=p.dtype)
        if t.shape != p.shape:
            raise ValueError(f"ForwardAccumulator: tangent {k} has shape {tuple(t.shape)}, but its primal has shape "
                             f"{tuple(p.shape)}; they must match")
        # Integers and booleans have no derivatives: their tangent is kept only to be given back by jvp.
        (self._tangents if p.dtype.is_floating else self._inert)[p._id] = t

    def __enter__(self):
        if self._recording:
            raise ValueError("this ForwardAccumulator is already recording: it cannot be entered twice at once")
        recording.push(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        recording.remove(self)
        self._recording = False

    def record(self, prim, inputs, out, attrs):
        """Called after every op while active: push the tangents through the op's JVP rule."""
        tangents = [self._tangents.get(x._id) for x in inputs]
        if not any(t is not None for t in tangents) or out._value.dtype.kind != "f":
            return
        with recording.paused(self) as outside:  # the rule's ops have no tangents of ours, nor of those inside
            tangent = prim.jvp(tangents, out, inputs, attrs)
        if tangent is not None:
            self._tangents[out._id] = tangent
            # Like the values themselves, tangents of intermediate results are dropped as soon as
            # nobody holds the result: forward mode keeps no history of the computation.
            self._alive[out._id] = weakref.ref(out, _forget(out._id, self._tangents, self._alive))
            if outside and tangent._id > out._id and any(isinstance(r, GradientTape)
                                                         for r in recording.active()[:outside]):
                # A tape outside this accumulator has recorded the rule's ops too (reverse over forward); a
                # picture of that tape hides them by these spans. Without such a tape there is nothing to hide.
                self._jvp_spans.append((out._id + 1, tangent._id))

    def variable_accessed(self, variable):
        pass  # a Variable's reads share its id, so its tangent is found without watching

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangent of each tensor in ``primals`` (same structure): ``None`` or zeros if unconnected."""
        zero = unconnected_mode(unconnected_gradients) is UnconnectedGradients.ZERO
        out = []
        for p in nest.flatten(primals):
            if not isinstance(p, Tensor):
                raise TypeError(f"ForwardAccumulator.jvp: expected tensors, got {type(p).__name__}")
            t = self._tangents.get(p._id)
            if t is None:
                t = self._inert.get(p._id)
            if t is None and zero:
                t = zeros(p.shape, dtype=p.dtype)
            out.append(t)
        return nest.pack_sequence_as(primals, out)

    @property
    def tangents(self):
        """The tangent of every value that has one, by id (read-only): the inputs' and the live results'."""
        return types.MappingProxyType(self._tangents)

    @property
    def jvp_spans(self):
        """``(first id, last id)`` of the tensors each JVP rule created while a tape recorded, in order.

        A tape recording under this accumulator records the JVP rules' ops
        too (reverse over forward); a picture of the tape hides the results
        whose ids fall in these spans, since they are the accumulator's
        arithmetic, not the function's.
        """
        return tuple(self._jvp_spans)

    def __repr__(self):
        return f"<ForwardAccumulator: {len(self._tangents)} tangents>"


def _forget(i, tangents, alive):
    def callback(_):
        tangents.pop(i, None)
        alive.pop(i, None)
    return callback


class OpCounter:
    """Counts the primitive ops run in this thread inside its ``with`` block, by name.

    >>> import minitape as mt
    >>> with mt.autodiff.OpCounter() as count:
    ...     y = mt.sin(mt.constant(1.0)) * 2.0
    >>> count.total, dict(count.by_op)
    (2, {'sin': 1, 'multiply': 1})
    """

    def __init__(self):
        self.by_op = collections.Counter()

    @property
    def total(self):
        return sum(self.by_op.values())

    def record(self, prim, inputs, out, attrs):
        self.by_op[prim.name] += 1

    def variable_accessed(self, variable):
        pass

    def __enter__(self):
        recording.push(self)
        return self

    def __exit__(self, *exc):
        recording.remove(self)

    def __repr__(self):
        return f"<OpCounter: {self.total} ops>"
