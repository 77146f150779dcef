"""Ops that move elements around: reshape, transpose, slicing, concat, tile, broadcasting, reverse, roll.

All of them are linear, so each one's JVP is the op itself applied to the
tangent, and each one's VJP is its *transpose*, another op of this module:
``reshape`` undoes ``reshape``, ``broadcast_to`` and ``unbroadcast`` undo
each other, ``getitem`` and ``_scatter`` undo each other; ``reverse`` and
``roll`` are undone by themselves, reversing the same axes or rolling back.
"""

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply
from .arguments import convert_input, convert_inputs
from ..tensor import Tensor, Variable, convert_to_tensor, holds_tensors
from .casting import cast


def _input(x, op_name):
    return convert_inputs(op_name, x)[0]


# -- axes -----------------------------------------------------------------------------------------
def _integers(shape, op_name, what):
    """``shape`` as a tuple of ints: as it is if it already is one (the shapes rules pass), else checked."""
    if type(shape) is tuple and all(type(d) is int for d in shape):
        return shape
    return integer_axes(shape, op_name, what)


def integer_axes(axis, op_name, what="axis"):
    """``axis`` (an int, a list of ints or an integer tensor) as a flat tuple of ints.

    A float axis is a TypeError, even 1.0, as in TensorFlow: truncating 1.9
    to 1 would silently pick a dimension nobody asked for. The same goes for
    the other lists of integers an op takes (``what``: a shape, multiples, a perm).

    >>> integer_axes([0, -1], "reduce_sum")
    (0, -1)
    """
    values = np.asarray(axis.array if isinstance(axis, Tensor) else axis)
    if values.size and values.dtype.kind not in "iu":
        raise TypeError(f"{op_name}: {what} must be an integer or a list of integers, got {axis!r}")
    return tuple(int(a) for a in values.reshape(-1))


def one_axis(axis, ndim, op_name):
    """``axis`` as a single non-negative axis of a tensor with ``ndim`` dimensions (-1 is the last)."""
    axes = integer_axes(axis, op_name)
    if not isinstance(axis, (int, np.integer)) and np.ndim(axis.array if isinstance(axis, Tensor) else axis) != 0:
        raise ValueError(f"{op_name}: axis must be a single integer, got {axis!r}")
    if ndim == 0:
        raise ValueError(f"{op_name}: axis {axes[0]} is out of range: the tensor is a scalar, which has no axes "
                         f"(give it one first, e.g. mt.reshape(x, [1]))")
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
    return apply(_identity, (_input(input, "identity"),))


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


def stop_gradient(input):
    """The same value, cut off from every tape: its gradient is ``None``.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0)
    >>> with mt.GradientTape() as tape:
    ...     y = x * mt.stop_gradient(x)
    >>> float(tape.gradient(y, x))  # d(x * c)/dx with c = 2
    2.0
    """
    return Tensor(_input(input, "stop_gradient").array)


# -- reshaping ------------------------------------------------------------------------------
_reshape = Primitive("reshape", lambda x, shape: np.reshape(x, shape),
                     vjp=[lambda g, ans, x, shape: reshape(g, x.array.shape)],
                     jvp="linear")


def _dummy(shape):
    """A zero-byte stand-in array of ``shape``: lets NumPy work out shapes without touching data."""
    return np.broadcast_to(np.empty((), np.bool_), shape)


def reshape(tensor, shape):
    """The same elements in a new shape (one entry may be -1: "whatever fits").

    >>> reshape([1.0, 2.0, 3.0, 4.0], (2, -1)).shape
    TensorShape([2, 2])
    """
    x = _input(tensor, "reshape")
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
        shape = _dummy(x.array.shape).reshape(shape).shape
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


def transpose(a, perm=None):
    """Permute the dimensions; without ``perm``, reverse them (a matrix's transpose).

    >>> transpose([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    x = _input(a, "transpose")
    ndim = x.array.ndim
    perm = tuple(range(ndim))[::-1] if perm is None else tuple(
        p % max(ndim, 1) for p in integer_axes(perm, "transpose", "perm"))
    if sorted(perm) != list(range(ndim)):
        raise ValueError(f"transpose: perm {perm} is not a permutation of the {ndim} dimensions "
                         f"of a tensor of shape {x.array.shape}")
    return apply(_transpose, (x,), {"perm": perm})


def expand_dims(input, axis):
    """Insert a dimension of size 1 at ``axis``: shape (3,) with axis=0 gives (1, 3)."""
    x = _input(input, "expand_dims")
    axes = integer_axes(axis, "expand_dims")
    if len(axes) != 1:
        raise ValueError(f"expand_dims: axis must be a single integer, got {axis!r}; to insert several "
                         f"dimensions, call expand_dims once for each (or use mt.reshape)")
    try:
        shape = np.expand_dims(_dummy(x.array.shape), axes).shape
    except np.exceptions.AxisError:
        raise ValueError(f"expand_dims: axis {axis} is out of range for a tensor of shape {x.array.shape} "
                         f"(use -{x.array.ndim + 1} to {x.array.ndim})") from None
    return reshape(x, shape)


def squeeze(input, axis=None):
    """Remove dimensions of size 1 (all of them, or those in ``axis``; an empty list is all of them, as in TF)."""
    x = _input(input, "squeeze")
    axes = (integer_axes(axis, "squeeze") or None) if axis is not None else None
    if axes is not None:
        ndim = x.array.ndim
        if any(not -ndim <= a < ndim for a in axes):
            raise ValueError(f"squeeze: axis {axis} is out of range for a tensor of shape {x.array.shape} "
                             f"(use -{ndim} to {ndim - 1})")
        axes = tuple({a % ndim for a in axes})  # the same axis twice is squeezed once, as in TensorFlow
    try:
        shape = np.squeeze(_dummy(x.array.shape), axis=axes).shape
    except (ValueError, np.exceptions.AxisError):
        raise ValueError(f"squeeze: axis {axis} of a tensor of shape {x.array.shape} "
                         f"does not have size 1") from None
    return reshape(x, shape)


# -- broadcasting and its transpose ---------------------------------------------------------
_broadcast_to = Primitive("broadcast_to", lambda x, shape: np.broadcast_to(x, shape),
                          vjp=[lambda g, ans, x, shape: unbroadcast(g, x.array.shape)],
                          jvp="linear")


def broadcast_to(input, shape):
    """Repeat ``input`` along new or size-1 dimensions to reach ``shape`` (NumPy's rules)."""
    x = _input(input, "broadcast_to")
    shape = _integers(shape, "broadcast_to", "shape")
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


def unbroadcast(x, shape):
    """Undo broadcasting: sum ``x`` down to ``shape``. The gradient of a broadcast input.

    >>> unbroadcast([[1.0, 2.0], [3.0, 4.0]], (2,)).numpy()
    array([4., 6.], dtype=float32)
    """
    x = _input(x, "unbroadcast")
    shape = _integers(shape, "unbroadcast", "shape")
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


# -- indexing and its transpose ------------------------------------------------------------
def _scatter_forward(g, index, shape):
    """Zeros of ``shape`` with ``g`` put at ``index`` (an index reads each element at most once)."""
    out = np.zeros(shape, dtype=g.dtype)
    out[index] = g
    return out


_getitem = Primitive("getitem", lambda x, index: x[index],
                     vjp=[lambda g, ans, x, index: apply(_scatter, (g,), {"index": index, "shape": x.array.shape})],
                     jvp="linear")
_scatter = Primitive("scatter", _scatter_forward, keeps="nothing",
                     vjp=[lambda g, ans, x, index, shape: apply(_getitem, (g,), {"index": index})],
                     jvp="linear")


def _plain_index(index):
    """NumPy's version of an index, read as TensorFlow reads it.

    A list is a tuple of indices (``x[[0, 1]]`` is ``x[0, 1]``), tensors
    inside become arrays (indices have no gradient), and index arrays are
    copied, so that the tape keeps the index it used.
    """
    index = tuple(index) if isinstance(index, (tuple, list)) else (index,)
    return tuple([np.array(i.array if isinstance(i, Tensor) else i) if isinstance(i, (Tensor, np.ndarray, list))
                  else i for i in index])


def _check_array_index(i, index):
    """An array (or tensor) in ``index`` is a scalar integer, or a boolean mask that is the whole index."""
    if i.dtype.kind not in "iub":
        raise TypeError(f"getitem: {i!r} is not a valid index: indices are integers, slices (1:3), ..., "
                        f"None (a new axis), or scalar integer tensors")
    if i.dtype.kind in "iu" and i.ndim > 0:
        raise TypeError(f"getitem: an integer array or tensor of shape {i.shape} is not an index: indices are "
                        f"integers, slices (1:3), ..., None (a new axis), or scalar integer tensors, as in "
                        f"TensorFlow. To pick several elements along an axis, use mt.gather(x, indices, "
                        f"axis=...); for one element per row of indices, mt.gather_nd(x, indices).")
    if i.dtype.kind == "b" and len(index) > 1:
        raise TypeError("getitem: a boolean mask must be the whole index, x[mask] with mask of x's leading "
                        "shape, as in TensorFlow; it cannot be combined with other indices")


def _check_index(index, x):
    """A TypeError or ValueError (TensorFlow's classes) that names what is wrong with ``index`` for ``x``."""
    for i in index:
        if not isinstance(i, (int, np.integer, slice, np.ndarray)) and i is not None and i is not Ellipsis:
            raise TypeError(f"getitem: {i!r} is not a valid index: indices are integers, slices (1:3), ..., "
                            f"None (a new axis), or scalar integer tensors")
        if isinstance(i, (bool, np.bool_)):
            raise ValueError("getitem: True and False are not indices; to select elements where a condition "
                             "holds, index with a boolean tensor of the same shape (x[x > 0])")
        if isinstance(i, (float, np.floating)):
            raise TypeError(f"getitem: {i!r} is not a valid index: indices are integers, slices (1:3), ..., "
                            f"None (a new axis), or scalar integer tensors")
        if isinstance(i, np.ndarray):
            _check_array_index(i, index)
        if isinstance(i, slice) and i.step is not None and int(i.step) == 0:
            raise ValueError("getitem: a slice's step must not be 0")
    try:
        _dummy(x.array.shape)[index]
    except IndexError:
        simple = [i for i in index if i is not None and i is not Ellipsis]
        if sum(i is Ellipsis for i in index) > 1:
            raise ValueError("getitem: an index can have only one ... (ellipsis)") from None
        if len(simple) > x.array.ndim:
            raise ValueError(f"getitem: the index has {len(simple)} entries but the tensor of shape "
                             f"{x.array.shape} has {x.array.ndim} dimension{'s' if x.array.ndim != 1 else ''}. "
                             f"A list is read as a tuple, as in TensorFlow: x[[0, 1]] is x[0, 1]. To pick several "
                             f"elements along one axis, use mt.gather(x, [0, 1]).") from None
        raise ValueError(f"getitem: index {index} is out of range for a tensor of shape {x.array.shape} (an "
                         f"index along an axis of size n is between -n and n - 1)") from None


newaxis = None  # x[:, mt.newaxis] is x[:, None]: a new axis of size 1 there


def getitem(tensor, index):
    """``tensor[index]``, differentiable with respect to ``tensor``.

    Integers, slices, ``...``, ``None`` (a new axis) and scalar integer
    tensors work as in NumPy and TensorFlow; a list is a tuple of indices, as
    in TensorFlow (``x[[0, 1]]`` is ``x[0, 1]``); a boolean tensor as the whole
    index keeps the elements where it is true (``x[x > 0]``). An integer array
    or tensor is refused, as in TensorFlow: ``gather`` picks several elements.

    >>> getitem([10.0, 20.0, 30.0], slice(1, None)).numpy()
    array([20., 30.], dtype=float32)
    """
    x = _input(tensor, "getitem")
    index = _plain_index(index)
    _check_index(index, x)
    return apply(_getitem, (x,), {"index": index})


class VariableSlice(Tensor):
    """What ``variable[index]`` gives: the value there, a Tensor like any other, that can be assigned back.

    Reading it is a read of the Variable (the op ``getitem``, recorded as any
    other, so its gradient reaches the Variable); ``assign`` writes into the
    Variable at ``index`` and is never recorded, as ``Variable.assign``.

    >>> import minitape as mt
    >>> v = mt.Variable([1.0, 2.0, 3.0])
    >>> v[1:].assign([5.0, 6.0])
    <mt.Variable 'Variable:0' shape=(3,) dtype=float32, numpy=array([1., 5., 6.], dtype=float32)>
    >>> v[0] * 2.0
    <mt.Tensor: shape=(), dtype=float32, numpy=2.0>

    The slice keeps the value read: after an ``assign``, read ``v[1:]`` again.
    """

    __slots__ = ("_read", "_variable", "_index")

    def __init__(self, read, variable, index):
        # The tensor that getitem made, with its value and its id: the recorders that heard the read know it by that
        # id, and a forward accumulator keeps its tangent while that tensor lives, so the slice keeps it alive.
        self.array, self.id, self._read = read.array, read.id, read
        self._variable = variable
        self._index = index

    def assign(self, value, name=None):
        """Write ``value`` (of this slice's shape, or one that broadcasts to it) into the Variable; returns it."""
        return self._variable._assign_slice(self._index, value)

    def __getattr__(self, name):
        if name in ("assign_add", "assign_sub"):
            raise AttributeError(f"a slice of a Variable has no {name}, as in TensorFlow, where only assign writes "
                                 f"into a slice: write v[i].assign(v[i] {'+' if name == 'assign_add' else '-'} delta)")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def getitem_of_variable(variable, index):
    """``variable[index]``: :func:`getitem` of the Variable, as a :class:`VariableSlice` that can be assigned.

    A boolean mask picks elements rather than a slice, so ``v[v > 0]`` is a
    plain Tensor, with no ``assign`` (as in TensorFlow).
    """
    x = variable.snapshot()
    index = _plain_index(index)
    _check_index(index, x)
    read = apply(_getitem, (x,), {"index": index})
    if any(isinstance(i, np.ndarray) and i.dtype.kind == "b" for i in index):
        return read
    return VariableSlice(read, variable, index)


# -- joining and repeating ------------------------------------------------------------------
def _concat_vjp(g, ans, *xs, axis):
    ends = np.cumsum([x.array.shape[axis] for x in xs])
    lead = (slice(None),) * axis
    return [getitem(g, lead + (slice(end - x.array.shape[axis], end),)) for x, end in zip(xs, ends)]


_concat = Primitive("concat", lambda *xs, axis: np.concatenate(xs, axis=axis),
                    vjp=_concat_vjp, jvp="linear")


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


def tile(input, multiples):
    """Repeat ``input`` ``multiples[i]`` times along dimension ``i``.

    >>> tile([1.0, 2.0], [2]).numpy()
    array([1., 2., 1., 2.], dtype=float32)
    """
    x = _input(input, "tile")
    multiples = integer_axes(multiples, "tile", "multiples")
    if any(m < 0 for m in multiples):
        raise ValueError(f"tile: multiples {multiples} must not be negative")
    if len(multiples) != x.array.ndim:
        raise ValueError(f"tile: multiples {multiples} must have one entry per dimension of the "
                         f"input's shape {x.array.shape}")
    return apply(_tile, (x,), {"multiples": multiples})


def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of ``value`` along ``axis``, as a list: the inverse of :func:`stack`.

    Each slice is a :func:`getitem`, so each one's gradient goes back to its place.

    >>> [t.numpy().tolist() for t in unstack([[1.0, 2.0], [3.0, 4.0]], axis=1)]
    [[1.0, 3.0], [2.0, 4.0]]
    """
    x = _input(value, "unstack")
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


def _distinct_axes(axis, ndim, op_name):
    """``axis`` (a list of integers) as non-negative axes of a tensor with ``ndim`` dimensions, each at most once."""
    axes = tuple(one_axis(a, ndim, op_name) for a in integer_axes(axis, op_name))
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op_name}: axis {list(axis)} names the same dimension more than once")
    return axes


def reverse(tensor, axis, name=None):
    """``tensor`` with the order of its elements reversed along each dimension in the list ``axis``.

    Its gradient is the same reversal of the gradient.

    >>> reverse([[1, 2, 3], [4, 5, 6]], [1]).numpy()
    array([[3, 2, 1],
           [6, 5, 4]], dtype=int32)
    """
    x = _input(tensor, "reverse")
    if np.ndim(axis.array if isinstance(axis, Tensor) else axis) != 1:
        raise ValueError(f"reverse: axis must be a list of dimensions, e.g. [0], got {axis!r}")
    return apply(_reverse, (x,), {"axes": _distinct_axes(axis, x.array.ndim, "reverse")})


_roll = Primitive("roll", lambda x, shift, axes: np.roll(x, shift, axes), keeps="nothing",
                  vjp=[lambda g, ans, x, shift, axes: apply(_roll, (g,), {"shift": tuple(-s for s in shift),
                                                                          "axes": axes})],
                  jvp="linear")


def roll(input, shift, axis, name=None):
    """Shift the elements of ``input`` by ``shift`` places along ``axis``; those pushed off one end come back at the
    other.

    ``shift`` and ``axis`` are integers or lists of the same length; shifts of
    the same axis add up. Rolling back by ``-shift`` undoes it: that is the gradient.

    >>> roll([0, 1, 2, 3, 4], 2, 0).numpy()
    array([3, 4, 0, 1, 2], dtype=int32)
    """
    x = _input(input, "roll")
    shifts, axes = integer_axes(shift, "roll", "shift"), integer_axes(axis, "roll")
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} must have the same length (one shift per axis)")
    axes = tuple(one_axis(a, x.array.ndim, "roll") for a in axes)
    return apply(_roll, (x,), {"shift": shifts, "axes": axes})


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


def shape(input, out_type=None, name=None):
    """The shape as an int32 (or ``out_type=mt.int64``) tensor, TensorFlow's ``tf.shape``; ``x.shape`` is a tuple."""
    dtype = as_dtype(out_type or "int32")
    if dtype.name not in ("int32", "int64"):
        raise TypeError(f"shape: out_type must be mt.int32 or mt.int64, got {dtype.name}")
    return convert_to_tensor(np.array(_input(input, "shape").array.shape, dtype=dtype.as_numpy_dtype))


def size(input, out_type=None, name=None):
    """The number of elements, as an int32 scalar tensor (or of dtype ``out_type``).

    >>> size([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).numpy()
    np.int32(6)
    """
    dtype = as_dtype(out_type or "int32")
    return Tensor(np.array(_input(input, "size").array.size, dtype=dtype.as_numpy_dtype))


def pack(values, dtype, op_name):
    """The (nested) list ``values``, which holds tensors, as one tensor: ``stack`` level by level.

    This is TensorFlow's autopacking: wherever an op takes a tensor, a list
    of tensors is packed, so ``reduce_sum([a, b * b])`` is
    ``reduce_sum(stack([a, b * b]))`` and the gradient reaches ``a`` and
    ``b``. Numbers beside the tensors take the tensors' dtype; if ``dtype``
    is given, the tensors are cast to it. ``op_name`` is named in errors.

    >>> x = convert_to_tensor(2.0)
    >>> pack([[x, 1.0], [3.0, x]], None, "example").numpy()
    array([[2., 1.],
           [3., 2.]], dtype=float32)
    """
    requested = dtype is not None
    dtype = np.dtype(dtype.as_numpy_dtype if hasattr(dtype, "as_numpy_dtype") else dtype) if requested \
        else _first_dtype(values)
    items = tuple([_packed(v, dtype, requested, op_name) for v in values])
    shapes = sorted({x.array.shape for x in items})
    if len(shapes) > 1:
        raise ValueError(f"{op_name}: the list's items have different shapes {shapes}; a list of tensors is "
                         f"stacked into one tensor, so every item must have the same shape")
    return apply(_stack, items, {"axis": 0})


def _first_dtype(values):
    """The dtype of the first tensor in the nested list ``values`` (depth first)."""
    for v in values:
        if isinstance(v, Tensor):
            return v.array.dtype
        if holds_tensors(v):
            return _first_dtype(v)


def _packed(value, dtype, requested, op_name):
    if isinstance(value, Tensor):
        x = value.snapshot() if isinstance(value, Variable) else value
        if x.array.dtype != dtype:
            if not requested:
                raise TypeError(f"{op_name}: the list mixes tensors of dtypes {dtype.name} and "
                                f"{x.array.dtype.name}; cast them to one first, e.g. mt.cast(x, mt.{dtype.name})")
            x = cast(x, dtype)
        return x
    return convert_input(value, dtype, op_name)  # numbers, arrays, and lists, which are packed in turn


__all__ = ["identity", "stop_gradient", "reshape", "transpose", "expand_dims", "squeeze", "broadcast_to",
           "unbroadcast", "newaxis", "getitem", "concat", "stack", "tile", "shape", "size", "unstack", "reverse",
           "roll", "meshgrid"]
