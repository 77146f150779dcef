"""Ops that move elements around: reshape, transpose, concat, stack, tile, reverse, roll.

All of them are linear, so each one's JVP is the op itself applied to the
tangent, and each one's VJP is its *transpose*, another op: ``reshape``
undoes ``reshape``, ``concat`` and ``stack`` are undone by ``getitem``
(:mod:`.slicing`), ``tile`` by ``unbroadcast`` (:mod:`.broadcasting`);
``reverse`` and ``roll`` are undone by themselves, reversing the same axes
or rolling back.
"""

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply
from ..tensor import Tensor, convert_to_tensor
from .arguments import convert_input, convert_inputs
from .axes import distinct_axes, integer_axes, one_axis, stand_in
from .broadcasting import broadcast_to, unbroadcast
from .slicing import getitem
from .exports import exported


# -- identity and stop_gradient ------------------------------------------------------------
_identity = Primitive("identity", lambda x: x, keeps="nothing",
                      vjp=[lambda g, ans, x: g],
                      jvp="linear")


@exported("tf")
def identity(input):
    """A new tensor with the same value (and, unlike ``y = x``, its own place on the tape)."""
    return apply(_identity, (convert_input(input, None, "identity"),))


def read_value(variable):
    """A read of ``variable``: a new tensor with its current value (``v.read_value()``, ``v.value()``).

    As in TensorFlow, every read is a tensor of its own: watched by itself,
    its gradient counts only its own uses, while the Variable's gradient
    counts them all. On a tape a read is the op ``identity`` of the Variable.
    (Ops read a Variable directly: ``v * 2.0`` records one op, on ``v``.)

    >>> import minitape as mt
    >>> v = mt.Variable(2.0)
    >>> with mt.GradientTape(persistent=True) as tape:
    ...     a = v.read_value()
    ...     y = a * v
    >>> float(tape.gradient(y, a)), float(tape.gradient(y, v))  # a's own use; both uses of v
    (2.0, 4.0)
    """
    return apply(_identity, (variable.snapshot(),))


@exported("tf")
def stop_gradient(input):
    """The same value, cut off from every tape: its gradient is ``None``.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0)
    >>> with mt.GradientTape() as tape:
    ...     y = x * mt.stop_gradient(x)
    >>> float(tape.gradient(y, x))  # d(x * c)/dx with c = 2
    2.0
    """
    return Tensor(convert_input(input, None, "stop_gradient").array)


# -- reshaping ------------------------------------------------------------------------------
_reshape = Primitive("reshape", lambda x, shape: np.reshape(x, shape),
                     vjp=[lambda g, ans, x, shape: reshape(g, x.array.shape)],
                     jvp="linear")


@exported("tf")
def reshape(tensor, shape):
    """The same elements in a new shape (one entry may be -1: "whatever fits").

    >>> reshape([1.0, 2.0, 3.0, 4.0], (2, -1)).shape
    TensorShape([2, 2])
    """
    x = convert_input(tensor, None, "reshape")
    dims = np.reshape(np.asarray(shape.array if isinstance(shape, Tensor) else shape), -1)
    if dims.size and dims.dtype.kind not in "iu":
        raise TypeError(f"reshape: shape must be integers, got {shape!r} (dtype {dims.dtype}); "
                        f"write it as integers, e.g. (2, 3), or cast it with mt.cast(shape, mt.int32)")
    shape = tuple([int(d) for d in dims])
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        raise ValueError(f"reshape: shape {shape} has a negative size; sizes are 0 or more, and one of them may "
                         f"be -1 (\"whatever fits\")")
    shape = _with_minus_one_filled(shape, x.array.shape)
    try:
        shape = stand_in(x.array.shape).reshape(shape).shape
    except ValueError:
        raise ValueError(f"reshape: cannot reshape a tensor of shape {x.array.shape} "
                         f"({x.array.size} elements) into shape {shape}") from None
    return apply(_reshape, (x,), {"shape": shape})


def _with_minus_one_filled(shape, old):
    """``shape`` with its -1 worked out as TensorFlow does when there are no elements: NumPy cannot tell what
    -1 stands for in ``(0, -1)`` (any size fits 0 elements); TensorFlow takes the sizes that are not 0.

    >>> _with_minus_one_filled((0, -1), (0, 3)), _with_minus_one_filled((-1,), (0, 3))
    ((0, 3), (0,))
    """
    if 0 not in old or shape.count(-1) != 1:
        return shape  # nothing to work out, or NumPy does it (and says what is wrong)
    known = [d for d in shape if d != -1]
    if 0 not in known:
        return tuple(0 if d == -1 else d for d in shape)
    rest, other = int(np.prod([d for d in old if d])), int(np.prod([d for d in known if d]))
    return tuple(rest // other if d == -1 and rest % other == 0 else d for d in shape)


_transpose = Primitive("transpose", lambda x, perm: np.transpose(x, perm), keeps="nothing",
                       vjp=[lambda g, ans, x, perm: transpose(g, np.argsort(perm))],
                       jvp="linear")


@exported("tf")
def transpose(a, perm=None):
    """Permute the dimensions; without ``perm``, reverse them (a matrix's transpose).

    >>> transpose([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    x = convert_input(a, None, "transpose")
    ndim = x.array.ndim
    perm = tuple(range(ndim))[::-1] if perm is None else tuple(
        p % max(ndim, 1) for p in integer_axes(perm, "transpose", "perm"))
    if sorted(perm) != list(range(ndim)):
        raise ValueError(f"transpose: perm {perm} is not a permutation of the {ndim} dimensions "
                         f"of a tensor of shape {x.array.shape}")
    return apply(_transpose, (x,), {"perm": perm})


@exported("tf")
def expand_dims(input, axis):
    """Insert a dimension of size 1 at ``axis``: shape (3,) with axis=0 gives (1, 3)."""
    x = convert_input(input, None, "expand_dims")
    axes = integer_axes(axis, "expand_dims")
    if len(axes) != 1:
        raise ValueError(f"expand_dims: axis must be a single integer, got {axis!r}; to insert several "
                         f"dimensions, call expand_dims once for each (or use mt.reshape)")
    try:
        shape = np.expand_dims(stand_in(x.array.shape), axes).shape
    except np.exceptions.AxisError:
        raise ValueError(f"expand_dims: axis {axis} is out of range for a tensor of shape {x.array.shape} "
                         f"(use -{x.array.ndim + 1} to {x.array.ndim})") from None
    return reshape(x, shape)


@exported("tf")
def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all of them, or those in ``axis``; an empty list is all of them, as in TF)."""
    x = convert_input(input, None, "squeeze")
    axes = (integer_axes(axis, "squeeze") or None) if axis is not None else None
    if axes is not None:
        ndim = x.array.ndim
        if any(not -ndim <= a < ndim for a in axes):
            raise ValueError(f"squeeze: axis {axis} is out of range for a tensor of shape {x.array.shape} "
                             f"(use -{ndim} to {ndim - 1})")
        axes = tuple({a % ndim for a in axes})  # the same axis twice is squeezed once, as in TensorFlow
    try:
        shape = np.squeeze(stand_in(x.array.shape), axis=axes).shape
    except (ValueError, np.exceptions.AxisError):
        raise ValueError(f"squeeze: axis {axis} of a tensor of shape {x.array.shape} "
                         f"does not have size 1") from None
    return reshape(x, shape)


# -- joining and repeating ------------------------------------------------------------------
def _concat_vjp(g, ans, *xs, axis):
    ends = np.cumsum([x.array.shape[axis] for x in xs])
    lead = (slice(None),) * axis
    return [getitem(g, lead + (slice(end - x.array.shape[axis], end),)) for x, end in zip(xs, ends)]


_concat = Primitive("concat", lambda *xs, axis: np.concatenate(xs, axis=axis),
                    vjp=_concat_vjp, jvp="linear")


@exported("tf")
def concat(values, axis):
    """Join tensors end to end along an existing dimension ``axis``.

    >>> concat([[1.0, 2.0], [3.0]], axis=0).numpy()
    array([1., 2., 3.], dtype=float32)
    """
    xs = convert_inputs("concat", *values)
    if not xs:
        raise ValueError("concat: the list of tensors is empty; give at least one tensor (mt.zeros((0,)) is an "
                         "empty one)")
    if xs[0].array.ndim == 0:
        raise ValueError("concat: the tensors are scalars, which have no axis to join along; "
                         "mt.stack(values) joins scalars into a vector")
    axis = one_axis(axis, xs[0].array.ndim, "concat")
    shapes = [x.array.shape for x in xs]
    if any(len(s) != len(shapes[0]) or s[:axis] + s[axis + 1:] != shapes[0][:axis] + shapes[0][axis + 1:]
           for s in shapes):
        raise ValueError(f"concat: shapes {shapes} must agree in every dimension except axis {axis}")
    return apply(_concat, xs, {"axis": axis})


_stack = Primitive("stack", lambda *xs, axis: np.stack(xs, axis=axis), keeps="nothing",
                   vjp=lambda g, ans, *xs, axis: [getitem(g, (slice(None),) * axis + (k,)) for k in range(len(xs))],
                   jvp="linear")


@exported("tf")
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
    shapes = {x.array.shape for x in xs}
    if len(shapes) > 1:
        raise ValueError(f"stack: all tensors must have the same shape, got {sorted(shapes)}")
    axis = one_axis(axis, xs[0].array.ndim + 1, "stack")
    return apply(_stack, xs, {"axis": axis})


def _tile_vjp(g, ans, x, multiples):
    # View g as (m0, s0, m1, s1, ...) and sum over the repeats m_i.
    interleaved = [d for pair in zip(multiples, x.array.shape) for d in pair]
    ones_between = [d for s in x.array.shape for d in (1, s)]
    return reshape(unbroadcast(reshape(g, interleaved), ones_between), x.array.shape)


_tile = Primitive("tile", lambda x, multiples: np.tile(x, multiples),
                  vjp=[_tile_vjp], jvp="linear")


@exported("tf")
def tile(input, multiples):
    """Repeat ``input`` ``multiples[i]`` times along dimension ``i``.

    >>> tile([1.0, 2.0], [2]).numpy()
    array([1., 2., 1., 2.], dtype=float32)
    """
    x = convert_input(input, None, "tile")
    multiples = integer_axes(multiples, "tile", "multiples")
    if any(m < 0 for m in multiples):
        raise ValueError(f"tile: multiples {multiples} must not be negative")
    if len(multiples) != x.array.ndim:
        raise ValueError(f"tile: multiples {multiples} must have one entry per dimension of the "
                         f"input's shape {x.array.shape}")
    return apply(_tile, (x,), {"multiples": multiples})


@exported("tf")
def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of ``value`` along ``axis``, as a list: the inverse of :func:`stack`.

    Each slice is a :func:`getitem`, so each one's gradient goes back to its place.

    >>> [t.numpy().tolist() for t in unstack([[1.0, 2.0], [3.0, 4.0]], axis=1)]
    [[1.0, 3.0], [2.0, 4.0]]
    """
    x = convert_input(value, None, "unstack")
    if x.array.ndim == 0:
        raise ValueError("unstack: a scalar has no axis to unstack along; the value needs at least one dimension")
    axis = one_axis(axis, x.array.ndim, "unstack")
    n = x.array.shape[axis]
    if num is not None and num != n:
        raise ValueError(f"unstack: num={num}, but axis {axis} of the value (shape {x.array.shape}) has {n} slices")
    return [getitem(x, (slice(None),) * axis + (k,)) for k in range(n)]


# -- reversing and rolling: each its own transpose, with the opposite direction -----------------------
_reverse = Primitive("reverse", lambda x, axes: np.flip(x, axes), keeps="nothing",
                     vjp=[lambda g, ans, x, axes: apply(_reverse, (g,), {"axes": axes})], jvp="linear")


@exported("tf")
def reverse(tensor, axis, name=None):
    """``tensor`` with the order of its elements reversed along each dimension in the list ``axis``.

    Its gradient is the same reversal of the gradient.

    >>> reverse([[1, 2, 3], [4, 5, 6]], [1]).numpy()
    array([[3, 2, 1],
           [6, 5, 4]], dtype=int32)
    """
    x = convert_input(tensor, None, "reverse")
    if np.ndim(axis.array if isinstance(axis, Tensor) else axis) != 1:
        raise ValueError(f"reverse: axis must be a list of dimensions, e.g. [0], got {axis!r}")
    return apply(_reverse, (x,), {"axes": distinct_axes(axis, x.array.ndim, "reverse")})


_roll = Primitive("roll", lambda x, shift, axes: np.roll(x, shift, axes), keeps="nothing",
                  vjp=[lambda g, ans, x, shift, axes: apply(_roll, (g,), {"shift": tuple(-s for s in shift),
                                                                          "axes": axes})],
                  jvp="linear")


@exported("tf")
def roll(input, shift, axis, name=None):
    """Shift the elements of ``input`` by ``shift`` places along ``axis``; those pushed off one end come back at the
    other.

    ``shift`` and ``axis`` are integers or lists of the same length; shifts of
    the same axis add up. Rolling back by ``-shift`` undoes it: that is the gradient.

    >>> roll([0, 1, 2, 3, 4], 2, 0).numpy()
    array([3, 4, 0, 1, 2], dtype=int32)
    """
    x = convert_input(input, None, "roll")
    shifts, axes = integer_axes(shift, "roll", "shift"), integer_axes(axis, "roll")
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} must have the same length (one shift per axis)")
    axes = tuple(one_axis(a, x.array.ndim, "roll") for a in axes)
    return apply(_roll, (x,), {"shift": shifts, "axes": axes})


@exported("tf")
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D coordinates: output ``i`` repeats ``args[i]`` along every other dimension.

    With ``indexing="xy"`` (the default, as in plotting) the first two
    dimensions are swapped: for ``x`` of length 2 and ``y`` of length 3 both
    grids have shape (3, 2), ``x`` varying along a row. ``indexing="ij"``
    keeps the order of ``args``: shape (2, 3). Inputs of any shape are
    flattened first. Each grid is a :func:`broadcast_to`, so its gradient
    sums back to the coordinates.

    >>> [g.numpy().tolist() for g in meshgrid([1, 2], [3, 4, 5])]
    [[[1, 2], [1, 2], [1, 2]], [[3, 3], [4, 4], [5, 5]]]
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword argument(s) {sorted(kwargs)}; it takes indexing and name")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    vectors = [reshape(x, (-1,)) for x in convert_inputs("meshgrid", *args)]
    sizes = [v.array.shape[0] for v in vectors]
    order = list(range(len(vectors)))
    if indexing == "xy" and len(vectors) > 1:
        order[0], order[1] = 1, 0  # output dimension k holds input order[k]
    shape = tuple(sizes[i] for i in order)
    grids = []
    for i, v in enumerate(vectors):
        along = [1] * len(vectors)
        along[order.index(i)] = -1
        grids.append(broadcast_to(reshape(v, along), shape))
    return grids


@exported("tf")
def shape(input, out_type=None, name=None):
    """The shape as an int32 (or ``out_type=mt.int64``) tensor, TensorFlow's ``tf.shape``; ``x.shape`` is a tuple."""
    dtype = as_dtype(out_type or "int32")
    if dtype.name not in ("int32", "int64"):
        raise TypeError(f"shape: out_type must be mt.int32 or mt.int64, got {dtype.name}")
    return convert_to_tensor(np.array(convert_input(input, None, "shape").array.shape, dtype=dtype.as_numpy_dtype))


@exported("tf")
def size(input, out_type=None, name=None):
    """The number of elements, as an int32 scalar tensor (or of dtype ``out_type``).

    >>> size([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).numpy()
    np.int32(6)
    """
    dtype = as_dtype(out_type or "int32")
    return Tensor(np.array(convert_input(input, None, "size").array.size, dtype=dtype.as_numpy_dtype))
