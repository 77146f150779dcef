"""Ops that pick elements by their indices (gather, gather_nd, slice, split, pad, one_hot, repeat, boolean_mask), and
the ops that put them back (scatter_nd, tensor_scatter_nd_add and _update, the segment sums).

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
* ``repeat``, ``boolean_mask`` and the sorting ops (``sorting.py``) are gathers
  too; ``scatter_nd`` and the segment sums *are* ``scatter_add``.
  ``tensor_scatter_nd_update`` replaces elements: its transpose zeroes the
  replaced places of ``g`` (another replacement) and reads them for the updates.

``one_hot`` builds a constant: as in TensorFlow, it has no gradient.

>>> gather([10.0, 20.0, 30.0], [2, 0, 2]).numpy()
array([30., 10., 30.], dtype=float32)
>>> [piece.numpy().tolist() for piece in split([1.0, 2.0, 3.0, 4.0], [1, -1])]
[[1.0], [2.0, 3.0, 4.0]]
"""

import builtins

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .norms import clip_by_norm
from .shapes import broadcast_to, concat, one_axis, reshape


def one_tensor(op_name, x):
    return convert_inputs(op_name, x)[0]


def integer_array(op_name, what, value, allowed):
    """``value`` as a NumPy integer array, if its dtype is one of ``allowed`` (TensorFlow's list for the op)."""
    array = convert_to_tensor(value).array
    if array.dtype.name not in allowed:
        raise TypeError(f"{op_name}: {what} must be integers ({', '.join(allowed)}), got {array.dtype.name} "
                        f"({value!r}); write them as integers, e.g. [0, 2], or convert them with mt.cast")
    return array


def one_integer(op_name, what, value):
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
    x = one_tensor("gather", params)
    idx = integer_array("gather", "indices", indices, ("int16", "int32", "int64"))
    shape = x.array.shape
    if not shape:
        raise ValueError("gather: params must have at least 1 dimension, got a scalar")
    b = one_integer("gather", "batch_dims", batch_dims)
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
    x = one_tensor("gather_nd", params)
    idx = integer_array("gather_nd", "indices", indices, ("int16", "int32", "int64"))
    shape = x.array.shape
    if idx.ndim == 0:
        raise ValueError("gather_nd: indices must be at least a vector (its last dimension holds the index "
                         "vectors), got a scalar; write [[i]] to pick one slice")
    b = one_integer("gather_nd", "batch_dims", batch_dims)
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


def take_along_axis(x, indices, axis):
    """``x``'s elements at ``indices`` along ``axis`` (NumPy's ``take_along_axis``): one index per position of the
    result, the other dimensions kept. A gather, so its gradient goes back to the elements read. ``x`` is a tensor,
    ``indices`` a NumPy integer array of ``x``'s rank, ``axis`` non-negative.

    >>> take_along_axis(convert_to_tensor([[1.0, 2.0], [3.0, 4.0]]), np.array([[1, 1], [0, 1]]), 1).numpy()
    array([[2., 2.],
           [3., 4.]], dtype=float32)
    """
    shape = x.array.shape
    index = tuple(indices if d == axis else
                  np.arange(indices.shape[d]).reshape((1,) * d + (-1,) + (1,) * (len(shape) - d - 1))
                  for d in range(len(shape)))
    return apply(_gather, (x,), {"index": index, "perm": None, "shape": shape})


def repeat(input, repeats, axis=None, name=None):
    """Each slice of ``input`` along ``axis`` repeated ``repeats`` times (one count for all, or one per slice).

    Without ``axis`` the input is flattened first. It is a :func:`gather` of
    each index repeated (0 0 1 1 ...), so a slice's gradient adds up over its copies.

    >>> repeat([[1, 2], [3, 4]], [1, 2], axis=0).numpy()
    array([[1, 2],
           [3, 4],
           [3, 4]], dtype=int32)
    """
    x = one_tensor("repeat", input)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    if x.array.ndim == 0:
        raise ValueError("repeat: a scalar has no axis to repeat along; leave axis out to repeat its value")
    axis = one_axis(axis, x.array.ndim, "repeat")
    n = x.array.shape[axis]
    counts = integer_array("repeat", "repeats", repeats, ("int32", "int64"))
    if counts.ndim > 1 or counts.size not in (1, n):
        raise ValueError(f"repeat: repeats must be one count or one count per slice ({n} along axis {axis}), got "
                         f"{counts.tolist()}")
    if (counts < 0).any():
        raise ValueError(f"repeat: repeats must not be negative, got {counts.tolist()}")
    return gather(x, np.repeat(np.arange(n), np.broadcast_to(counts.reshape(-1), (n,))), axis=axis)


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The slices of ``tensor`` where ``mask`` is true (nonzero): ``tensor[mask]`` for a mask that starts at ``axis``.

    ``mask`` has the shape of ``tensor``'s dimensions ``axis, axis + 1, ...``
    (``axis`` is 0 unless given); those dimensions become one, holding the
    slices kept, in order. It is a :func:`gather` of the flattened
    positions, so the slices not kept get a zero gradient.

    >>> boolean_mask([[1.0, 2.0], [3.0, 4.0]], [False, True]).numpy()
    array([[3., 4.]], dtype=float32)
    """
    x = one_tensor("boolean_mask", tensor)
    keep = convert_to_tensor(mask).array
    if keep.ndim == 0:
        raise ValueError("boolean_mask: mask cannot be a scalar; it needs the shape of the dimensions it selects from")
    shape = x.array.shape
    axis = 0 if axis is None else one_axis(axis, len(shape), "boolean_mask")
    if shape[axis:axis + keep.ndim] != keep.shape:
        raise ValueError(f"boolean_mask: mask of shape {keep.shape} does not fit tensor of shape {shape} at axis "
                         f"{axis}: it must equal dimensions {axis} to {axis + keep.ndim - 1} of the tensor")
    merged = reshape(x, shape[:axis] + (-1,) + shape[axis + keep.ndim:])
    return gather(merged, np.flatnonzero(keep), axis=axis)


# -- scatter: the transposes of gather_nd, as ops of their own ------------------------------------------
def _index_vectors(op_name, indices, shape, updates_shape):
    """The index vectors in the last dimension of ``indices``, checked against ``shape`` (the tensor scattered
    into) and ``updates_shape``, as the tuple of arrays NumPy indexes with."""
    idx = integer_array(op_name, "indices", indices, ("int16", "int32", "int64"))
    if idx.ndim == 0 or idx.shape[-1] > len(shape):
        raise ValueError(f"{op_name}: indices of shape {idx.shape} do not index into shape {shape}: its last "
                         f"dimension holds index vectors of at most {len(shape)} entries")
    k = idx.shape[-1]
    expected = idx.shape[:-1] + tuple(shape[k:])
    if tuple(updates_shape) != expected:
        raise ValueError(f"{op_name}: updates must have shape {expected} (indices.shape[:-1] + shape[{k}:]) for "
                         f"indices of shape {idx.shape} into shape {shape}, got {tuple(updates_shape)}")
    bad = ((idx < 0) | (idx >= np.array(shape[:k], dtype=np.int64))).any(axis=-1)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{op_name}: indices{list(where)} = {idx[where].tolist()} does not index into shape "
                         f"{shape} (entry j must lie in [0, size of dimension j))")
    return tuple(idx[..., j] for j in range(k))


def scatter_nd(indices, updates, shape, name=None):
    """Zeros of ``shape`` with ``updates`` added at ``indices``: the transpose of :func:`gather_nd`.

    ``indices[..., :]`` is a vector of ``K`` indices into the first ``K``
    dimensions of ``shape``; ``updates`` has shape
    ``indices.shape[:-1] + shape[K:]``. Updates at the same index add up.
    The gradient of ``updates`` is ``gather_nd(g, indices)``.

    >>> scatter_nd([[1], [3], [1]], [1.0, 2.0, 3.0], [5]).numpy()
    array([0., 4., 0., 2., 0.], dtype=float32)
    """
    u = one_tensor("scatter_nd", updates)
    shape = tuple(int(d) for d in integer_array("scatter_nd", "shape", shape, ("int16", "int32", "int64")).reshape(-1))
    index = _index_vectors("scatter_nd", indices, shape, u.array.shape)
    return apply(_scatter_add, (u,), {"index": index, "perm": None, "shape": shape})


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """``tensor`` with ``updates`` added at ``indices`` (as in :func:`scatter_nd`): ``tensor + scatter_nd(...)``.

    >>> tensor_scatter_nd_add([1.0, 1.0, 1.0], [[2], [2]], [5.0, 7.0]).numpy()
    array([ 1.,  1., 13.], dtype=float32)
    """
    x, u = convert_inputs("tensor_scatter_nd_add", tensor, updates)
    index = _index_vectors("tensor_scatter_nd_add", indices, x.array.shape, u.array.shape)
    return x + apply(_scatter_add, (u,), {"index": index, "perm": None, "shape": x.array.shape})


def _replaced(x, u, index):
    out = x.copy()
    out[index] = u
    return out


# Replacing is linear in (x, u) together. The gradient of x is g with the replaced places zeroed, itself a
# replacement (by zeros); the gradient of u is g read at those places. An index given twice keeps its last
# update, yet both updates get the gradient there, as in TensorFlow.
_tensor_scatter_nd_update = Primitive(
    "tensor_scatter_nd_update", _replaced, keeps="nothing", jvp="linear",
    vjp=[lambda g, ans, x, u, index: apply(_tensor_scatter_nd_update, (g, Tensor(np.zeros_like(g.array[index]))),
                                           {"index": index}),
         lambda g, ans, x, u, index: apply(_gather_nd, (g,), {"index": index, "perm": None, "shape": g.array.shape})])


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """``tensor`` with the elements (or slices) at ``indices`` replaced by ``updates`` (shapes as in
    :func:`scatter_nd`). An index given twice keeps its last update.

    >>> tensor_scatter_nd_update([1.0, 2.0, 3.0], [[0]], [9.0]).numpy()
    array([9., 2., 3.], dtype=float32)
    """
    x, u = convert_inputs("tensor_scatter_nd_update", tensor, updates)
    index = _index_vectors("tensor_scatter_nd_update", indices, x.array.shape, u.array.shape)
    return apply(_tensor_scatter_nd_update, (x, u), {"index": index})


# -- segment sums: scatters along the first dimensions ------------------------------------------------------
def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the slices of ``data`` that share a segment id: ``out[i] = sum of data[j] where segment_ids[j] == i``.

    ``segment_ids`` has the shape of ``data``'s first dimensions and holds
    ids in ``[0, num_segments)``; slices with a negative id are left out, as
    in TensorFlow. A segment with no slice sums to 0. It is a scatter-add,
    so the gradient of ``data[j]`` is ``g[segment_ids[j]]`` (0 where the id
    is negative).

    >>> unsorted_segment_sum([1.0, 2.0, 3.0, 4.0], [1, 0, 1, -1], 3).numpy()
    array([2., 4., 0.], dtype=float32)
    """
    x = one_tensor("unsorted_segment_sum", data)
    ids = integer_array("unsorted_segment_sum", "segment_ids", segment_ids, ("int16", "int32", "int64"))
    n = one_integer("unsorted_segment_sum", "num_segments", num_segments)
    shape = x.array.shape
    if shape[:ids.ndim] != ids.shape:
        raise ValueError(f"unsorted_segment_sum: segment_ids of shape {ids.shape} must have the shape of data's "
                         f"first dimensions (data has shape {shape})")
    if (ids >= n).any():
        raise ValueError(f"unsorted_segment_sum: segment id {int(ids.max())} is out of range [0, {n}); make "
                         f"num_segments larger than every id")
    kept = ids >= 0
    if not kept.all():  # the slices of negative ids take no part: read the others first
        x = apply(_gather, (x,), {"index": np.nonzero(kept), "perm": None, "shape": shape})
        ids = ids[kept]
    return apply(_scatter_add, (x,), {"index": (ids,), "perm": None, "shape": (n,) + shape[kept.ndim:]})


def segment_sum(data, segment_ids, name=None):
    """Sums of the rows of ``data`` in each segment, for sorted ``segment_ids`` (one id per row, from 0 upwards).

    The result has ``segment_ids[-1] + 1`` rows; an id that is skipped
    gives a row of zeros. It is :func:`unsorted_segment_sum` with ids that
    must not decrease, as in TensorFlow.

    >>> segment_sum([1.0, 2.0, 3.0], [0, 0, 2]).numpy()
    array([3., 0., 3.], dtype=float32)
    """
    x = one_tensor("segment_sum", data)
    ids = integer_array("segment_sum", "segment_ids", segment_ids, ("int32", "int64"))
    if ids.ndim != 1 or not x.array.ndim or ids.shape[0] != x.array.shape[0]:
        raise ValueError(f"segment_sum: segment_ids must be a vector with one id per row of data, got shape "
                         f"{ids.shape} for data of shape {x.array.shape}")
    if (ids < 0).any() or (np.diff(ids) < 0).any():
        raise ValueError(f"segment_sum: segment ids must be at least 0 and never decrease, got {ids.tolist()}; "
                         f"for ids in any order use mt.math.unsorted_segment_sum")
    return unsorted_segment_sum(x, ids, int(ids[-1]) + 1 if ids.size else 0)


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
    x = one_tensor("slice", input_)
    shape = x.array.shape
    begin = integer_array("slice", "begin", begin, ("int32", "int64"))
    size = integer_array("slice", "size", size, ("int32", "int64"))
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
    x = one_tensor("split", value)
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
    if num is not None and one_integer("split", "num", num) != len(sizes):
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
    sizes = integer_array("split", "the sizes", sizes, ("int8", "int32", "int64"))
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
    x = one_tensor("pad", tensor)
    shape = x.array.shape
    upper = str(mode).upper()
    if upper not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f'pad: mode must be "CONSTANT", "REFLECT" or "SYMMETRIC", got {mode!r}')
    widths = integer_array("pad", "paddings", paddings, ("int32", "int64"))
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
    idx = integer_array("one_hot", "indices", indices, ("uint8", "int8", "int32", "int64"))
    depth = one_integer("one_hot", "depth", depth)
    if depth < 0:
        raise ValueError(f"one_hot: depth must not be negative, got {depth}")
    axis = -1 if axis is None else one_integer("one_hot", "axis", axis)
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


# -- embedding_lookup -------------------------------------------------------------------------------------
def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of ``params`` at ``ids``: ``gather(params, ids)``, the embedding of each id.

    A Python list ``params`` is a list of shards, as in TensorFlow's "div"
    strategy: shard ``p`` holds the next block of consecutive ids, the first
    shards one row more when the rows do not divide evenly. With ``max_norm``,
    each embedding longer than ``max_norm`` is scaled down to that length.
    The gradient of ``params`` is a dense tensor here (TensorFlow gives
    ``IndexedSlices``, which ``convert_to_tensor`` makes dense).

    >>> table = convert_to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> embedding_lookup(table, [2, 0]).numpy()
    array([[5., 6.],
           [1., 2.]], dtype=float32)
    """
    if isinstance(params, list):
        if not params:
            raise ValueError("embedding_lookup: params is an empty list; give a tensor, or a list of shards")
        shards = convert_inputs("embedding_lookup", *params)
        if len(shards) > 1:
            _check_div_shards([s.array.shape[0] if s.array.ndim else 0 for s in shards])
        params = concat(list(shards), 0) if len(shards) > 1 else shards[0]
    looked_up = gather(params, ids)
    if max_norm is None:
        return looked_up
    embedding_axes = list(range(np.ndim(convert_to_tensor(ids).array), looked_up.array.ndim))
    return clip_by_norm(looked_up, max_norm, axes=embedding_axes)


def _check_div_shards(rows):
    total, n = sum(rows), len(rows)
    expected = [total // n + (1 if p < total % n else 0) for p in range(n)]
    if rows != expected:
        raise ValueError(f"embedding_lookup: shards of {rows} rows are not TensorFlow's 'div' partition of {total} "
                         f"ids into {n} shards, which is {expected}; concatenate them and look up in one tensor")


__all__ = ["gather", "gather_nd", "slice", "split", "pad", "one_hot", "repeat", "boolean_mask", "scatter_nd",
           "tensor_scatter_nd_add", "tensor_scatter_nd_update"]  # the segment sums are tf.math's only
