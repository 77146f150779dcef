"""Broadcasting and its transpose: ``broadcast_to`` repeats a tensor, ``unbroadcast`` sums it back.

Each one's VJP is the other. :class:`Broadcasting` is the kind of
:class:`~minitape.primitive.Primitive` whose inputs broadcast like NumPy's
(``x + y``, ``where``, ``matmul``'s batch dimensions): it sums each gradient
back to its input's shape with ``unbroadcast``, in one place for every such op.
"""

import numpy as np

from ..primitive import Primitive, apply
from .arguments import convert_input
from .axes import integer_tuple
from .exports import exported


_broadcast_to = Primitive("broadcast_to", lambda x, shape: np.broadcast_to(x, shape),
                          vjp=[lambda g, ans, x, shape: unbroadcast(g, x.array.shape)],
                          jvp="linear")


@exported("tf")
def broadcast_to(input, shape):
    """Repeat ``input`` along new or size-1 dimensions to reach ``shape`` (NumPy's rules)."""
    x = convert_input(input, None, "broadcast_to")
    shape = integer_tuple(shape, "broadcast_to", "shape")
    if x.array.shape == shape:
        return x
    try:
        return apply(_broadcast_to, (x,), {"shape": shape})
    except ValueError:  # NumPy refuses exactly the shapes we refuse; say it in our words
        raise ValueError(f"broadcast_to: a tensor of shape {x.array.shape} cannot be broadcast to {shape} "
                         f"(compared from the right, each dimension must equal the target's or be 1)") from None


def _sum_to_shape(g, shape):
    """Sum ``g`` over the dimensions that broadcasting added or stretched, to get ``shape``."""
    extra = g.ndim - len(shape)
    stretched = tuple(extra + i for i, d in enumerate(shape) if d == 1 and g.shape[extra + i] != 1)
    summed = np.sum(g, axis=tuple(range(extra)) + stretched, keepdims=True)
    return summed.reshape(shape)


_unbroadcast = Primitive("unbroadcast", _sum_to_shape,
                         vjp=[lambda g, ans, x, shape: broadcast_to(g, x.array.shape)],
                         jvp="linear")


@exported("tf")
def unbroadcast(x, shape):
    """Undo broadcasting: sum ``x`` down to ``shape``. The gradient of a broadcast input.

    >>> unbroadcast([[1.0, 2.0], [3.0, 4.0]], (2,)).numpy()
    array([4., 6.], dtype=float32)
    """
    x = convert_input(x, None, "unbroadcast")
    shape = integer_tuple(shape, "unbroadcast", "shape")
    have = x.array.shape
    if have == shape:
        return x
    if len(shape) > len(have) or any(d != 1 and d != h for d, h in zip(shape, have[len(have) - len(shape):])):
        raise ValueError(f"unbroadcast: a tensor of shape {have} is not a broadcast of shape {shape}, so it cannot "
                         f"be summed down to it")
    return apply(_unbroadcast, (x,), {"shape": shape})


class Broadcasting(Primitive):
    """A primitive whose inputs broadcast like NumPy (``x + y``, ``where``, ``matmul``'s batch dimensions).

    Its rules may return gradients of the broadcast shape: each is summed
    back to its input's shape here, in one place. A tangent that reaches the
    output with an input's smaller shape is broadcast to the output's shape.
    """

    __slots__ = ()

    def vjp(self, g, ans, inputs, attrs, needed):
        # Shortcut: Primitive.vjp's loop with the summing back inside it. Calling Primitive.vjp and then
        # un-broadcasting in a second loop costs 6 % more instructions per op of a recorded chain and its gradient
        # (49,510 against 46,525: callgrind on benchmarks/per_op.py, where 3 ops in 4 broadcast).
        grads = []
        for rule, need, x in zip(self.vjp_rules, needed, inputs):
            grad = rule(g, ans, *inputs, **attrs) if need and rule is not None else None
            if grad is not None and grad.array.shape != x.array.shape:
                grad = unbroadcast(grad, x.array.shape)
            grads.append(grad)
        return grads

    def jvp(self, tangents, ans, inputs, attrs):
        total = Primitive.jvp(self, tangents, ans, inputs, attrs)
        if total is not None and total.array.shape != ans.array.shape:
            total = broadcast_to(total, ans.array.shape)
        return total
