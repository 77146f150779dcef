"""Ops that pick elements by their indices: gather, gather_nd, take_along_axis, repeat, boolean_mask,
embedding_lookup; and one_hot. The ops that put elements back are in :mod:`.scatter`, the boxes (slice, split,
pad) in :mod:`.padding`.

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
"""

import builtins

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply
from .arguments import convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .norms import clip_by_norm
from .shapes import concat, reshape
from .broadcasting import broadcast_to
from .axes import one_axis
from .exports import exported


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
                     vjp=[lambda g, ans, x, **attrs: apply(scatter_add_prim, (g,), attrs)])


# The gather and its transpose, scatter_add, which scatter.py applies too.
gather_prim = _picker("gather")
gather_nd_prim = _picker("gather_nd")
scatter_add_prim = Primitive("scatter_add", _put, keeps="nothing", jvp="linear",
                             vjp=[lambda g, ans, x, **attrs: apply(gather_prim, (g,), attrs)])


def _batch_ranges(shape, batch_dims, ndim):
    """For each batch dimension ``i``, ``arange(shape[i])`` shaped to broadcast along dimension ``i`` of ``ndim``."""
    return tuple(np.arange(shape[i]).reshape((1,) * i + (-1,) + (1,) * (ndim - i - 1)) for i in range(batch_dims))


def _check_batch(op_name, x_shape, i_shape, batch_dims):
    if x_shape[:batch_dims] != i_shape[:batch_dims]:
        raise ValueError(f"{op_name}: with batch_dims={batch_dims}, params and indices must share their first "
                         f"{batch_dims} dimension(s), got shapes {x_shape} and {i_shape}")


@exported("tf")
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
    return apply(gather_prim, (x,), {"index": index, "perm": perm, "shape": shape})


@exported("tf")
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
    return apply(gather_nd_prim, (x,), {"index": index, "perm": None, "shape": shape})


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
    return apply(gather_prim, (x,), {"index": index, "perm": None, "shape": shape})


@exported("tf")
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


@exported("tf")
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


# -- one_hot ---------------------------------------------------------------------------------------
@exported("tf")
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
@exported("tf.nn")
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
