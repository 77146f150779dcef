"""The ops that put elements back where a gather picks them: scatter_nd, tensor_scatter_nd_add and _update,
and the segment sums.

Each is :mod:`.indexing`'s ``scatter_add`` (or, for an update, a replacement), the transpose of a gather: its
gradient is the gather again (see :mod:`.indexing` for the pair).

>>> unsorted_segment_sum([1.0, 2.0, 3.0], [0, 1, 0], num_segments=2).numpy()
array([4., 2.], dtype=float32)
"""


import numpy as np

from ..primitive import Primitive, apply
from .arguments import convert_inputs
from ..tensor import Tensor
from .indexing import gather_nd_prim, gather_prim, integer_array, one_integer, one_tensor, scatter_add_prim
from .exports import exported


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


@exported("tf")
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
    return apply(scatter_add_prim, (u,), {"index": index, "perm": None, "shape": shape})


@exported("tf")
def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """``tensor`` with ``updates`` added at ``indices`` (as in :func:`scatter_nd`): ``tensor + scatter_nd(...)``.

    >>> tensor_scatter_nd_add([1.0, 1.0, 1.0], [[2], [2]], [5.0, 7.0]).numpy()
    array([ 1.,  1., 13.], dtype=float32)
    """
    x, u = convert_inputs("tensor_scatter_nd_add", tensor, updates)
    index = _index_vectors("tensor_scatter_nd_add", indices, x.array.shape, u.array.shape)
    return x + apply(scatter_add_prim, (u,), {"index": index, "perm": None, "shape": x.array.shape})


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
         lambda g, ans, x, u, index: apply(gather_nd_prim, (g,), {"index": index, "perm": None,
                                                                  "shape": g.array.shape})])


@exported("tf")
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
@exported("tf.math")
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
        x = apply(gather_prim, (x,), {"index": np.nonzero(kept), "perm": None, "shape": shape})
        ids = ids[kept]
    return apply(scatter_add_prim, (x,), {"index": (ids,), "perm": None, "shape": (n,) + shape[kept.ndim:]})


@exported("tf.math")
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
