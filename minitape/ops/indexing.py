"""Ops that pick elements by their indices: gather, gather_nd, slice, split, pad and one_hot.

Picking is linear in the tensor picked from, so each op's JVP is the op itself
applied to the tangent, and its VJP is its *transpose*: it puts the gradient
back where the elements came from.

* ``gather`` and ``gather_nd`` read ``x[index]``; their transpose,
  ``scatter_add``, adds ``g`` into zeros at ``index``, so an element picked
  twice receives both gradients. ``scatter_add`` is linear too, and its
  transpose is the gather again: that pair gives every higher derivative.
* ``slice`` reads a box of the input; its transpose pads ``g`` with zeros back
  to the input's shape, and the transpose of ``pad`` is ``slice``.
* ``split`` is one slice per piece. A ``REFLECT`` or ``SYMMETRIC`` pad is a
  gather along each axis (of an index map such as 2 1 0 1 2 1 0), so its
  gradient is gather's.

``one_hot`` builds a constant: as in TensorFlow, it has no gradient.

>>> gather([10.0, 20.0, 30.0], [2, 0, 2]).numpy()
array([30., 10., 30.], dtype=float32)
>>> [piece.numpy().tolist() for piece in split([1.0, 2.0, 3.0, 4.0], [1, -1])]
[[1.0], [2.0, 3.0, 4.0]]
"""

import builtins

import numpy as np

from ..dtypes import as_dtype
from ..fast import apply
from ..primitive import Primitive, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .shapes import broadcast_to, one_axis


def _input(op_name, x):
    return convert_inputs(op_name, x)[0]


def _integers(op_name, what, value, allowed):
    """``value`` as a NumPy integer array, if its dtype is one of ``allowed`` (TensorFlow's list for the op)."""
    array = convert_to_tensor(value).array
    if array.dtype.name not in allowed:
        raise TypeError(f"{op_name}: {what} must be integers ({', '.join(allowed)}), got {array.dtype.name} "
                        f"({value!r}); write them as integers, e.g. [0, 2], or convert them with mt.cast")
    return array


def _number(op_name, what, value):
    """A single integer argument (a Python int, a NumPy integer or a 0-d integer tensor)."""
    array = np.asarray(value.array if isinstance(value, Tensor) else value)
    if array.ndim != 0 or array.dtype.kind not in "iu":
        raise TypeError(f"{op_name}: {what} must be a single integer, got {value!r}")
    return int(array)


# -- gather and gather_nd, and their transpose ----------------------------------------------------
def _pick(x, index, perm, shape):
    picked = x[index]
    return picked if perm is None else np.transpose(picked, perm)


def _put(g, index, perm, shape):
    """Zeros of ``shape`` with ``g`` added at ``index``; an index that repeats adds up (np.add.at)."""
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, index, g if perm is None else np.transpose(g, np.argsort(perm)))
    return out


def _picker(name):
    """A primitive that reads ``x[index]`` (then permutes the axes by ``perm``), with ``scatter_add`` as its VJP."""
    return Primitive(name, _pick, keeps="nothing", jvp="linear",
                     vjp=[lambda g, ans, x, **attrs: apply(_scatter_add, (g,), attrs)])


_gather = _picker("gather")
_gather_nd = _picker("gather_nd")
_scatter_add = Primitive("scatter_add", _put, keeps="nothing", jvp="linear",
                         vjp=[lambda g, ans, x, **attrs: apply(_gather, (g,), attrs)])


def _batch_ranges(shape, batch_dims, ndim):
    """For each batch dimension ``i``, ``arange(shape[i])`` shaped to broadcast along dimension ``i`` of ``ndim``."""
    return tuple(np.arange(shape[i]).reshape((1,) * i + (-1,) + (1,) * (ndim - i - 1)) for i in range(batch_dims))


def _check_batch(op_name, x_shape, i_shape, batch_dims):
    if x_shape[:batch_dims] != i_shape[:batch_dims]:
        raise ValueError(f"{op_name}: with batch_dims={batch_dims}, params and indices must share their first "
                         f"{batch_dims} dimension(s), got shapes {x_shape} and {i_shape}")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """The slices of ``params`` along ``axis`` at ``indices``: ``params[..., indices, ...]``.

    The result's shape is ``params.shape[:axis] + indices.shape[batch_dims:] +
    params.shape[axis + 1:]``. With ``batch_dims = b``, the first ``b``
    dimensions of ``params`` and ``indices`` are a batch: example ``i`` takes
    its slices from ``params[i]``. Indices must lie in ``[0, n)``, ``n`` the
    size of ``axis`` (TensorFlow refuses negative indices on the CPU). The
    gradient adds ``g`` back at the indices read: an index read twice gets
    both. (``validate_indices`` is accepted and ignored, as in TensorFlow.)

    >>> gather([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [2, 0], axis=1).numpy()
    array([[3., 1.],
           [6., 4.]], dtype=float32)
    """
    x = _input("gather", params)
    idx = _integers("gather", "indices", indices, ("int16", "int32", "int64"))
    shape = x.array.shape
    if not shape:
        raise ValueError("gather: params must have at least 1 dimension, got a scalar")
    b = _number("gather", "batch_dims", batch_dims)
    b = b + idx.ndim if b < 0 else b
    if not 0 <= b <= idx.ndim:
        raise ValueError(f"gather: batch_dims={batch_dims} is out of range for indices of shape {idx.shape} "
                         f"(use -{idx.ndim} to {idx.ndim})")
    a = b if axis is None else one_axis(axis, len(shape), "gather")
    if a < b:
        raise ValueError(f"gather: axis {a} comes before the {b} batch dimension(s); axis must be at least batch_dims")
    _check_batch("gather", shape, idx.shape, b)
    bad = (idx < 0) | (idx >= shape[a])
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"gather: indices{list(where)} = {idx[where]} is not in [0, {shape[a]}), the range of "
                         f"axis {a} of params (shape {shape}); negative indices are not counted from the end")
    index = _batch_ranges(shape, b, idx.ndim) + (builtins.slice(None),) * (a - b) + (idx,)
    perm = None
    if b and a > b:  # NumPy puts the dimensions of indices first when slices separate them from the batch ranges
        n_idx, n_mid = idx.ndim, a - b
        perm = (tuple(range(b)) + tuple(range(n_idx, n_idx + n_mid)) + tuple(range(b, n_idx))
                + tuple(range(n_idx + n_mid, n_idx + len(shape) - b - 1)))
    return apply(_gather, (x,), {"index": index, "perm": perm, "shape": shape})


def gather_nd(params, indices, batch_dims=0, name=None):
    """The elements (or slices) of ``params`` at the index vectors in the last dimension of ``indices``.

    ``indices[..., :]`` is a vector of ``K`` indices into the first ``K``
    dimensions of ``params`` (after ``batch_dims``): the result's shape is
    ``indices.shape[:-1] + params.shape[batch_dims + K:]``.

    >>> gather_nd([[1.0, 2.0], [3.0, 4.0]], [[0, 1], [1, 0]]).numpy()
    array([2., 3.], dtype=float32)
    >>> gather_nd([[1.0, 2.0], [3.0, 4.0]], [[1]]).numpy()  # K = 1: whole rows
    array([[3., 4.]], dtype=float32)
    """
    x = _input("gather_nd", params)
    idx = _integers("gather_nd", "indices", indices, ("int16", "int32", "int64"))
    shape = x.array.shape
    if idx.ndim == 0:
        raise ValueError("gather_nd: indices must be at least a vector (its last dimension holds the index "
                         "vectors), got a scalar; write [[i]] to pick one slice")
    b = _number("gather_nd", "batch_dims", batch_dims)
    if not 0 <= b < idx.ndim:
        raise ValueError(f"gather_nd: batch_dims={batch_dims} must be at least 0 and less than the rank of indices "
                         f"({idx.ndim})")
    k = idx.shape[-1]
    if k > len(shape) - b:
        raise ValueError(f"gather_nd: each index vector has {k} entries but params of shape {shape} has only "
                         f"{len(shape) - b} dimension(s) after the {b} batch dimension(s)")
    _check_batch("gather_nd", shape, idx.shape, b)
    limits = np.array(shape[b:b + k])
    bad = ((idx < 0) | (idx >= limits)).any(axis=-1)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"gather_nd: indices{list(where)} = {idx[where].tolist()} does not index into params of "
                         f"shape {shape} (each entry j must lie in [0, size of dimension {b} + j))")
    if k == 0 and b == 0:  # every index vector is empty: each picks the whole of params
        return broadcast_to(x, idx.shape[:-1] + shape)
    # the batch ranges are broadcast to the full shape of the index vectors, for K = 0 where no index does that
    ranges = tuple(np.broadcast_to(r, idx.shape[:-1]) for r in _batch_ranges(shape, b, idx.ndim - 1))
    index = ranges + tuple(idx[..., j] for j in range(k))
    return apply(_gather_nd, (x,), {"index": index, "perm": None, "shape": shape})


# -- slice and its transpose, pad with a constant -------------------------------------------------
def _box(begin, size):
    return tuple(builtins.slice(b, b + s) for b, s in zip(begin, size))


def _padded(x, paddings, constant_values):
    if not paddings:  # a scalar has nothing to pad (and NumPy refuses an empty list of widths)
        return np.array(x)
    return np.pad(x, paddings, constant_values=constant_values)


_slice = Primitive(
    "slice", lambda x, begin, size, shape: x[_box(begin, size)], keeps="nothing", jvp="linear",
    vjp=[lambda g, ans, x, begin, size, shape: apply(_pad, (g,), {
        "paddings": tuple((b, n - b - s) for b, s, n in zip(begin, size, shape)), "constant_values": 0})])
# pad(x, c) is affine, not linear, when c is not 0: its tangent is pad(t, 0).
_pad = Primitive(
    "pad", _padded, keeps="nothing",
    vjp=[lambda g, ans, x, paddings, constant_values: apply(_slice, (g,), {
        "begin": tuple(lo for lo, _ in paddings),
        "size": tuple(n - lo - hi for n, (lo, hi) in zip(g.array.shape, paddings)), "shape": g.array.shape})],
    jvp=[lambda t, ans, x, paddings, constant_values: apply(_pad, (t,), {"paddings": paddings,
                                                                         "constant_values": 0})])


def _sliced(x, begin, size):
    return apply(_slice, (x,), {"begin": tuple(begin), "size": tuple(size), "shape": x.array.shape})


def slice(input_, begin, size, name=None):  # noqa: A001  (TensorFlow's name)
    """The box of ``input_`` that starts at ``begin`` and has shape ``size`` (-1: up to the end).

    >>> slice([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [0, 1], [2, -1]).numpy()
    array([[2., 3.],
           [5., 6.]], dtype=float32)
    """
    x = _input("slice", input_)
    shape = x.array.shape
    begin = _integers("slice", "begin", begin, ("int32", "int64"))
    size = _integers("slice", "size", size, ("int32", "int64"))
    if begin.shape != (len(shape),) or size.shape != (len(shape),):
        raise ValueError(f"slice: begin and size need one entry per dimension of the input (shape {shape}), got "
                         f"{begin.tolist()} and {size.tolist()}")
    begin, size = begin.tolist(), size.tolist()
    for i, (b, s, n) in enumerate(zip(begin, size, shape)):
        if not 0 <= b <= n:
            raise ValueError(f"slice: begin[{i}] = {b} is not in [0, {n}], the range of dimension {i} (shape {shape})")
        size[i] = n - b if s == -1 else s
        if not 0 <= size[i] <= n - b:
            raise ValueError(f"slice: size[{i}] = {s} is not in [0, {n - b}]: dimension {i} has {n} elements and the "
                             f"box starts at {b}; use -1 to take everything up to the end")
    return _sliced(x, begin, size)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Cut ``value`` along ``axis`` into pieces: ``n`` equal ones, or one per entry of a list of sizes.

    One size may be -1: whatever is left. Returns a list of tensors; each
    piece is a :func:`slice`, so the gradient of a piece goes back to its place.

    >>> [piece.numpy().tolist() for piece in split([[1.0, 2.0, 3.0, 4.0]], 2, axis=1)]
    [[[1.0, 2.0]], [[3.0, 4.0]]]
    """
    x = _input("split", value)
    shape = x.array.shape
    if not shape:
        raise ValueError("split: cannot split a scalar; the value needs at least one dimension")
    axis = one_axis(axis, len(shape), "split")
    n = shape[axis]
    scalar = np.asarray(num_or_size_splits.array if isinstance(num_or_size_splits, Tensor) else num_or_size_splits)
    if scalar.ndim == 0:
        if scalar.dtype.kind not in "iu":
            raise ValueError(f"split: num_or_size_splits must be an integer (the number of pieces) or a list of "
                             f"sizes, got {num_or_size_splits!r}")
        pieces = int(scalar)
        if pieces < 1:
            raise ValueError(f"split: num_or_size_splits={pieces}: there must be at least one piece")
        if n % pieces:
            raise ValueError(f"split: {n} elements along axis {axis} cannot be cut into {pieces} equal pieces; give "
                             f"the sizes instead, e.g. num_or_size_splits={_example_sizes(n, pieces)}")
        sizes = [n // pieces] * pieces
    else:
        sizes = _split_sizes(num_or_size_splits, n, axis)
    if num is not None and _number("split", "num", num) != len(sizes):
        raise ValueError(f"split: num={num} but num_or_size_splits gives {len(sizes)} pieces")
    begin, pieces = [0] * len(shape), []
    for s in sizes:
        size = list(shape)
        size[axis] = s
        pieces.append(_sliced(x, begin, size))
        begin = list(begin)
        begin[axis] += s
    return pieces


def _example_sizes(n, pieces):
    """Sizes for ``pieces`` pieces of ``n`` elements, as even as can be: 6 in 4 gives [2, 2, 1, 1]."""
    return [n // pieces + (1 if i < n % pieces else 0) for i in range(pieces)]


def _split_sizes(sizes, n, axis):
    if not isinstance(sizes, Tensor) and np.size(sizes) == 0:
        raise ValueError("split: num_or_size_splits is empty; give the number of pieces or at least one size")
    sizes = _integers("split", "the sizes", sizes, ("int8", "int32", "int64"))
    if sizes.ndim != 1 or sizes.size == 0:
        raise ValueError(f"split: num_or_size_splits must be an integer or a non-empty list of sizes, got "
                         f"{sizes.tolist()}")
    sizes = sizes.tolist()
    if sizes.count(-1) > 1:
        raise ValueError(f"split: sizes {sizes} have more than one -1; only one piece can take what is left")
    for i, s in enumerate(sizes):
        if s < -1:
            raise ValueError(f"split: size {s} (entry {i} of {sizes}) is negative; sizes are at least 0, or -1 for "
                             f"what is left")
    known = sum(s for s in sizes if s != -1)
    if -1 in sizes and known <= n:
        sizes[sizes.index(-1)] = n - known
    if sum(sizes) != n or -1 in sizes:
        raise ValueError(f"split: sizes {sizes} add up to {known}, but axis {axis} has {n} elements; make them add "
                         f"up to {n}, or let one size be -1")
    return sizes


_MIRROR_MODES = {"REFLECT": ("reflect", 1), "SYMMETRIC": ("symmetric", 0)}  # NumPy's name, and how much a pad
# must leave of the dimension: a reflection does not repeat the edge, so it can reach at most n - 1 elements away


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tensor`` with ``paddings[i] = [before, after]`` elements added on each side of dimension ``i``.

    ``mode`` (any case): ``"CONSTANT"`` fills with ``constant_values``;
    ``"REFLECT"`` mirrors the tensor without repeating its edge (3 2 | 1 2 3 |
    2 1); ``"SYMMETRIC"`` mirrors it with its edge (2 1 | 1 2 3 | 3 2). As in
    TensorFlow, ``constant_values`` gets no gradient.

    >>> pad([1.0, 2.0, 3.0], [[2, 1]], mode="REFLECT").numpy()
    array([3., 2., 1., 2., 3., 2.], dtype=float32)
    """
    x = _input("pad", tensor)
    shape = x.array.shape
    upper = str(mode).upper()
    if upper not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f'pad: mode must be "CONSTANT", "REFLECT" or "SYMMETRIC", got {mode!r}')
    widths = _integers("pad", "paddings", paddings, ("int32", "int64"))
    if widths.shape != (len(shape), 2):
        raise ValueError(f"pad: paddings must have one pair [before, after] per dimension of the tensor (shape "
                         f"{shape}), got {widths.tolist()}")
    if (widths < 0).any():
        raise ValueError(f"pad: paddings must not be negative, got {widths.tolist()}")
    widths = tuple((int(lo), int(hi)) for lo, hi in widths)
    if upper == "CONSTANT":
        return apply(_pad, (x,), {"paddings": widths, "constant_values": _pad_value(x, constant_values)})
    numpy_mode, keep = _MIRROR_MODES[upper]
    out = x
    for axis, (n, (lo, hi)) in enumerate(zip(shape, widths)):
        if max(lo, hi) > n - keep:
            raise ValueError(f"pad: a {upper} pad of dimension {axis} can be at most {n - keep} (its size is {n}"
                             f"{', less 1' if keep else ''}), got {[lo, hi]}")
        if lo or hi:
            out = gather(out, np.pad(np.arange(n), (lo, hi), mode=numpy_mode), axis=axis)
    return out


def _pad_value(x, constant_values):
    value = convert_to_tensor(constant_values, dtype_hint=x.dtype)
    if value.dtype != x.dtype:
        raise TypeError(f"pad: constant_values has dtype {value.dtype.name} but the tensor {x.dtype.name}; convert "
                        f"it: mt.cast(constant_values, mt.{x.dtype.name})")
    if value.array.ndim != 0:
        raise ValueError(f"pad: constant_values must be a scalar, got shape {value.array.shape}")
    return value.array[()]


# -- one_hot ---------------------------------------------------------------------------------------
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """For each index, a vector of ``depth`` elements: ``on_value`` at the index, ``off_value`` elsewhere.

    An index outside ``[0, depth)`` gives a vector of ``off_value`` only. The
    new dimension is the last one unless ``axis`` says otherwise. The dtype is
    ``dtype``, else that of ``on_value`` or ``off_value``, else float32. No
    gradient, as in TensorFlow.

    >>> one_hot([0, 2, -1], 3).numpy()
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float32)
    """
    idx = _integers("one_hot", "indices", indices, ("uint8", "int8", "int32", "int64"))
    depth = _number("one_hot", "depth", depth)
    if depth < 0:
        raise ValueError(f"one_hot: depth must not be negative, got {depth}")
    axis = -1 if axis is None else _number("one_hot", "axis", axis)
    if not (axis == -1 or 0 <= axis <= idx.ndim):
        raise ValueError(f"one_hot: axis must be -1 or between 0 and {idx.ndim} (the rank of indices), got {axis}")
    on, off, dtype = _on_off(on_value, off_value, dtype)
    hot = idx[..., None] == np.arange(depth)
    out = np.where(hot, on, off).astype(dtype)
    return Tensor(out if axis == -1 else np.moveaxis(out, -1, axis))


def _on_off(on_value, off_value, dtype):
    """The on and off values as NumPy scalars, and the dtype, by TensorFlow's rules."""
    wanted = None if dtype is None else as_dtype(dtype)
    given = {}
    for what, value in (("on_value", on_value), ("off_value", off_value)):
        if value is not None:
            given[what] = convert_to_tensor(value, dtype_hint=wanted)
            if wanted is not None and given[what].dtype != wanted:
                raise TypeError(f"one_hot: {what} has dtype {given[what].dtype.name} but dtype={wanted.name}; make "
                                f"them agree")
    if len(given) == 2 and given["on_value"].dtype != given["off_value"].dtype:
        raise TypeError(f"one_hot: on_value has dtype {given['on_value'].dtype.name} but off_value "
                        f"{given['off_value'].dtype.name}; give both in one dtype")
    if wanted is None:
        wanted = next(iter(given.values())).dtype if given else as_dtype("float32")
    on = given["on_value"].array if "on_value" in given else convert_to_tensor(1, dtype=wanted).array
    off = given["off_value"].array if "off_value" in given else convert_to_tensor(0, dtype=wanted).array
    return on, off, wanted.as_numpy_dtype


__all__ = ["gather", "gather_nd", "slice", "split", "pad", "one_hot"]
