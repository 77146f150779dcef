"""Ops that move elements around: reshape, transpose, slicing, concat, tile, broadcasting.

All of them are linear, so each one's JVP is the op itself applied to the
tangent, and each one's VJP is its *transpose*, another op of this module:
``reshape`` undoes ``reshape``, ``broadcast_to`` and ``unbroadcast`` undo
each other, ``getitem`` and ``_scatter`` undo each other.
"""

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply, convert_inputs
from ..tensor import Tensor, convert_to_tensor


def _input(x):
    return convert_inputs("op", x)[0]


# -- axes -----------------------------------------------------------------------------------------
def integer_axes(axis, op_name):
    """``axis`` (an int, a list of ints or an integer tensor) as a flat tuple of ints.

    A float axis is a TypeError, even 1.0, as in TensorFlow: truncating 1.9
    to 1 would silently pick a dimension nobody asked for.

    >>> integer_axes([0, -1], "reduce_sum")
    (0, -1)
    """
    values = np.asarray(axis._value if isinstance(axis, Tensor) else axis)
    if values.size and values.dtype.kind not in "iu":
        raise TypeError(f"{op_name}: axis must be an integer or a list of integers, got {axis!r}")
    return tuple(int(a) for a in values.reshape(-1))


def one_axis(axis, ndim, op_name):
    """``axis`` as a single non-negative axis of a tensor with ``ndim`` dimensions (-1 is the last)."""
    axes = integer_axes(axis, op_name)
    if len(axes) != 1:
        raise TypeError(f"{op_name}: axis must be a single integer, got {axis!r}")
    if not -ndim <= axes[0] < ndim:
        raise ValueError(f"{op_name}: axis {axes[0]} is out of range for tensors with {ndim} "
                         f"dimension{'s' if ndim != 1 else ''} (use -{ndim} to {ndim - 1})")
    return axes[0] % ndim


# -- identity and stop_gradient ------------------------------------------------------------
_identity = Primitive("identity", lambda x: x, keeps="nothing",
                      vjp=[lambda g, ans, x: g],
                      jvp="linear")


def identity(input):
    """A new tensor with the same value (and, unlike ``y = x``, its own place on the tape)."""
    return apply(_identity, (_input(input),))


def stop_gradient(input):
    """The same value, cut off from every tape: its gradient is ``None``.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0)
    >>> with mt.GradientTape() as tape:
    ...     y = x * mt.stop_gradient(x)
    >>> float(tape.gradient(y, x))  # d(x * c)/dx with c = 2
    2.0
    """
    return Tensor(_input(input)._value)


# -- reshaping ------------------------------------------------------------------------------
_reshape = Primitive("reshape", lambda x, shape: np.reshape(x, shape),
                     vjp=[lambda g, ans, x, shape: reshape(g, x._value.shape)],
                     jvp="linear")


def _dummy(shape):
    """A zero-byte stand-in array of ``shape``: lets NumPy work out shapes without touching data."""
    return np.broadcast_to(np.empty((), np.bool_), shape)


def reshape(tensor, shape):
    """The same elements in a new shape (one entry may be -1: "whatever fits").

    >>> reshape([1.0, 2.0, 3.0, 4.0], (2, -1)).shape
    TensorShape([2, 2])
    """
    x = _input(tensor)
    dims = np.reshape(np.asarray(shape), -1)
    if dims.size and dims.dtype.kind not in "iu":
        raise TypeError(f"reshape: shape must be integers, got {shape!r} (dtype {dims.dtype}); "
                        f"write it as integers, e.g. (2, 3), or cast it with mt.cast(shape, mt.int32)")
    shape = tuple(int(d) for d in dims)
    try:
        shape = _dummy(x._value.shape).reshape(shape).shape
    except ValueError:
        raise ValueError(f"reshape: cannot reshape a tensor of shape {x._value.shape} "
                         f"({x._value.size} elements) into shape {shape}") from None
    return apply(_reshape, (x,), {"shape": shape})


_transpose = Primitive("transpose", lambda x, perm: np.transpose(x, perm), keeps="nothing",
                       vjp=[lambda g, ans, x, perm: transpose(g, np.argsort(perm))],
                       jvp="linear")


def transpose(a, perm=None):
    """Permute the dimensions; without ``perm``, reverse them (a matrix's transpose).

    >>> transpose([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    x = _input(a)
    ndim = x._value.ndim
    perm = tuple(range(ndim))[::-1] if perm is None else tuple(int(p) % max(ndim, 1) for p in perm)
    if sorted(perm) != list(range(ndim)):
        raise ValueError(f"transpose: perm {perm} is not a permutation of the {ndim} dimensions "
                         f"of a tensor of shape {x._value.shape}")
    return apply(_transpose, (x,), {"perm": perm})


def expand_dims(input, axis):
    """Insert a dimension of size 1 at ``axis``: shape (3,) with axis=0 gives (1, 3)."""
    x = _input(input)
    try:
        shape = np.expand_dims(_dummy(x._value.shape), integer_axes(axis, "expand_dims")).shape
    except np.exceptions.AxisError:
        raise ValueError(f"expand_dims: axis {axis} is out of range for a tensor of shape {x._value.shape} "
                         f"(use -{x._value.ndim + 1} to {x._value.ndim})") from None
    return reshape(x, shape)


def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all of them, or those in ``axis``)."""
    x = _input(input)
    axes = None if axis is None else integer_axes(axis, "squeeze")
    try:
        shape = np.squeeze(_dummy(x._value.shape), axis=axes).shape
    except (ValueError, np.exceptions.AxisError):
        raise ValueError(f"squeeze: axis {axis} of a tensor of shape {x._value.shape} "
                         f"does not have size 1") from None
    return reshape(x, shape)


# -- broadcasting and its transpose ---------------------------------------------------------
_broadcast_to = Primitive("broadcast_to", lambda x, shape: np.broadcast_to(x, shape),
                          vjp=[lambda g, ans, x, shape: unbroadcast(g, x._value.shape)],
                          jvp="linear")


def broadcast_to(input, shape):
    """Repeat ``input`` along new or size-1 dimensions to reach ``shape`` (NumPy's rules)."""
    x = _input(input)
    shape = tuple(int(d) for d in shape)
    if x._value.shape == shape:
        return x
    try:
        return apply(_broadcast_to, (x,), {"shape": shape})
    except ValueError:  # NumPy refuses exactly the shapes we refuse; say it in our words
        raise ValueError(f"broadcast_to: a tensor of shape {x._value.shape} cannot be broadcast to {shape} "
                         f"(compared from the right, each dimension must equal the target's or be 1)") from None


def _sum_to_shape(g, shape):
    """Sum ``g`` over the dimensions that broadcasting added or stretched, to get ``shape``."""
    extra = g.ndim - len(shape)
    stretched = tuple(extra + i for i, d in enumerate(shape) if d == 1 and g.shape[extra + i] != 1)
    summed = np.sum(g, axis=tuple(range(extra)) + stretched, keepdims=True)
    return summed.reshape(shape)


_unbroadcast = Primitive("unbroadcast", _sum_to_shape,
                         vjp=[lambda g, ans, x, shape: broadcast_to(g, x._value.shape)],
                         jvp="linear")


def unbroadcast(x, shape):
    """Undo broadcasting: sum ``x`` down to ``shape``. The gradient of a broadcast input.

    >>> unbroadcast([[1.0, 2.0], [3.0, 4.0]], (2,)).numpy()
    array([4., 6.], dtype=float32)
    """
    x = _input(x)
    shape = tuple(shape)
    if x._value.shape == shape:
        return x
    return apply(_unbroadcast, (x,), {"shape": shape})


class Broadcasting(Primitive):
    """A primitive whose inputs broadcast like NumPy (``x + y``, ``where``, ``matmul``'s batch dimensions).

    Its rules may return gradients of the broadcast shape: each is summed
    back to its input's shape here, in one place. A tangent that reaches the
    output with an input's smaller shape is broadcast to the output's shape.
    """

    __slots__ = ()

    def vjp(self, g, ans, inputs, attrs, wanted):
        grads = []
        for k, rule in enumerate(self.vjp_rules):
            grad = rule(g, ans, *inputs, **attrs) if wanted[k] and rule is not None else None
            if grad is not None and grad._value.shape != inputs[k]._value.shape:
                grad = unbroadcast(grad, inputs[k]._value.shape)
            grads.append(grad)
        return grads

    def jvp(self, tangents, ans, inputs, attrs):
        total = Primitive.jvp(self, tangents, ans, inputs, attrs)
        if total is not None and total._value.shape != ans._value.shape:
            total = broadcast_to(total, ans._value.shape)
        return total


# -- indexing and its transpose ------------------------------------------------------------
def _has_advanced(index):
    return any(isinstance(i, (np.ndarray, list)) for i in index)


def _scatter_forward(g, index, shape):
    """Zeros of ``shape`` with ``g`` added at ``index``; repeated indices add up (np.add.at)."""
    out = np.zeros(shape, dtype=g.dtype)
    if _has_advanced(index):
        np.add.at(out, index, g)
    else:
        out[index] = g
    return out


_getitem = Primitive("getitem", lambda x, index: x[index],
                     vjp=[lambda g, ans, x, index: apply(_scatter, (g,), {"index": index, "shape": x._value.shape})],
                     jvp="linear")
_scatter = Primitive("scatter", _scatter_forward, keeps="nothing",
                     vjp=[lambda g, ans, x, index, shape: apply(_getitem, (g,), {"index": index})],
                     jvp="linear")


def _plain_index(index):
    """NumPy's version of an index: tensors inside it become arrays (indices have no gradient)."""
    index = index if isinstance(index, tuple) else (index,)
    return tuple(i._value if isinstance(i, Tensor) else i for i in index)


def getitem(tensor, index):
    """``tensor[index]`` with NumPy's indexing rules; differentiable with respect to ``tensor``.

    >>> getitem([10.0, 20.0, 30.0], slice(1, None)).numpy()
    array([20., 30.], dtype=float32)
    """
    x = _input(tensor)
    index = _plain_index(index)
    try:
        _dummy(x._value.shape)[index]
    except IndexError as e:
        raise IndexError(f"index {index} is not valid for a tensor of shape {x._value.shape}: {e}") from None
    return apply(_getitem, (x,), {"index": index})


# -- joining and repeating ------------------------------------------------------------------
def _concat_vjp(g, ans, *xs, axis):
    ends = np.cumsum([x._value.shape[axis] for x in xs])
    lead = (slice(None),) * axis
    return [getitem(g, lead + (slice(end - x._value.shape[axis], end),)) for x, end in zip(xs, ends)]


_concat = Primitive("concat", lambda *xs, axis: np.concatenate(xs, axis=axis),
                    vjp=_concat_vjp, jvp="linear")


def concat(values, axis):
    """Join tensors end to end along an existing dimension ``axis``.

    >>> concat([[1.0, 2.0], [3.0]], axis=0).numpy()
    array([1., 2., 3.], dtype=float32)
    """
    xs = convert_inputs("concat", *values)
    axis = one_axis(axis, max(xs[0]._value.ndim, 1), "concat")
    shapes = [x._value.shape for x in xs]
    if any(len(s) != len(shapes[0]) or s[:axis] + s[axis + 1:] != shapes[0][:axis] + shapes[0][axis + 1:]
           for s in shapes):
        raise ValueError(f"concat: shapes {shapes} must agree in every dimension except axis {axis}")
    return apply(_concat, xs, {"axis": axis})


_stack = Primitive("stack", lambda *xs, axis: np.stack(xs, axis=axis), keeps="nothing",
                   vjp=lambda g, ans, *xs, axis: [getitem(g, (slice(None),) * axis + (k,)) for k in range(len(xs))],
                   jvp="linear")


def stack(values, axis=0):
    """Join tensors of the same shape along a new dimension ``axis``.

    >>> stack([[1.0, 2.0], [3.0, 4.0]], axis=1).numpy()
    array([[1., 3.],
           [2., 4.]], dtype=float32)

    Stacking nothing gives an empty float32 vector, as in TensorFlow.
    """
    xs = convert_inputs("stack", *values)
    if not xs:
        one_axis(axis, 1, "stack")
        return Tensor(np.zeros((0,), np.float32))
    shapes = {x._value.shape for x in xs}
    if len(shapes) > 1:
        raise ValueError(f"stack: all tensors must have the same shape, got {sorted(shapes)}")
    axis = one_axis(axis, xs[0]._value.ndim + 1, "stack")
    return apply(_stack, xs, {"axis": axis})


def _tile_vjp(g, ans, x, multiples):
    # View g as (m0, s0, m1, s1, ...) and sum over the repeats m_i.
    interleaved = [d for pair in zip(multiples, x._value.shape) for d in pair]
    ones_between = [d for s in x._value.shape for d in (1, s)]
    return reshape(unbroadcast(reshape(g, interleaved), ones_between), x._value.shape)


_tile = Primitive("tile", lambda x, multiples: np.tile(x, multiples),
                  vjp=[_tile_vjp], jvp="linear")


def tile(input, multiples):
    """Repeat ``input`` ``multiples[i]`` times along dimension ``i``.

    >>> tile([1.0, 2.0], [2]).numpy()
    array([1., 2., 1., 2.], dtype=float32)
    """
    x = _input(input)
    multiples = tuple(int(m) for m in multiples)
    if len(multiples) != x._value.ndim:
        raise ValueError(f"tile: multiples {multiples} must have one entry per dimension of the "
                         f"input's shape {x._value.shape}")
    return apply(_tile, (x,), {"multiples": multiples})


def shape(input, out_type=None, name=None):
    """The shape as an int32 (or ``out_type=mt.int64``) tensor, TensorFlow's ``tf.shape``; ``x.shape`` is a tuple."""
    dtype = as_dtype(out_type or "int32")
    if dtype.name not in ("int32", "int64"):
        raise TypeError(f"shape: out_type must be mt.int32 or mt.int64, got {dtype.name}")
    return convert_to_tensor(np.array(_input(input)._value.shape, dtype=dtype.as_numpy_dtype))


def size(input, out_type=None, name=None):
    """The number of elements, as an int32 scalar tensor (or of dtype ``out_type``).

    >>> size([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).numpy()
    np.int32(6)
    """
    dtype = as_dtype(out_type or "int32")
    return Tensor(np.array(_input(input)._value.size, dtype=dtype.as_numpy_dtype))


__all__ = ["identity", "stop_gradient", "reshape", "transpose", "expand_dims", "squeeze", "broadcast_to",
           "unbroadcast", "getitem", "concat", "stack", "tile", "shape", "size"]
