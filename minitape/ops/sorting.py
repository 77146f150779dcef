"""Ops that put elements in order: sort, argsort, top_k, and searchsorted.

The order itself is an integer result with no gradient (``argsort``,
``searchsorted``, the indices of ``top_k``). The sorted values are the input
read at those indices (:func:`~minitape.ops.indexing.take_along_axis`, a
gather), so each value's gradient goes back to the element it came from.
Where elements tie, the order is the one TensorFlow gives: the lower index
first, in either direction; so of two equal elements, the first gets the
gradient of the first place.

>>> sort([3.0, 1.0, 2.0]).numpy()
array([1., 2., 3.], dtype=float32)
"""

import collections

import numpy as np

from ..dtypes import SIGNED, as_dtype
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .indexing import one_integer, take_along_axis
from .axes import one_axis
from .exports import exported

_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _orderable(op_name, values, axis):
    """``values`` as a tensor TensorFlow can sort, and ``axis`` as a non-negative axis of it."""
    (x,) = convert_inputs(op_name, values)
    check_dtype(op_name, x, SIGNED)
    if x.array.ndim == 0:
        raise ValueError(f"{op_name}: a scalar has nothing to order; the input needs at least one dimension")
    return x, one_axis(axis, x.array.ndim, op_name)


def _order(array, axis, descending):
    """The indices that put ``array`` in order along ``axis``, equal elements by their index (a stable sort).

    For the descending order, the reversed array is sorted ascending and the
    result read backwards: negating the values instead would break ties the
    wrong way and overflow the smallest integer.
    """
    if not descending:
        return np.argsort(array, axis=axis, kind="stable")
    n = array.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(array, axis), axis=axis, kind="stable"), axis)


def _direction(op_name, direction):
    if direction not in _DIRECTIONS:
        raise ValueError(f"{op_name}: direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}")
    return direction == "DESCENDING"


@exported("tf")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis`` (the last by default), smallest first unless ``direction="DESCENDING"``.

    NaN comes last in ascending order. The gradient of each sorted value goes
    to the element it came from; tied elements keep their order.

    >>> sort([[3, 1], [0, 2]], axis=0, direction="DESCENDING").numpy()
    array([[3, 2],
           [0, 1]], dtype=int32)
    """
    descending = _direction("sort", direction)
    x, axis = _orderable("sort", values, axis)
    return take_along_axis(x, _order(x.array, axis, descending), axis)


@exported("tf")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort ``values`` along ``axis``: ``gather`` them to get :func:`sort`'s result.

    Equal elements keep their order (lower index first) whether ``stable``
    is asked for or not, as TensorFlow's CPU kernel does. No gradient.

    >>> argsort([3.0, 1.0, 2.0]).numpy()
    array([1, 2, 0], dtype=int32)
    """
    descending = _direction("argsort", direction)
    x, axis = _orderable("argsort", values, axis)
    return Tensor(_order(x.array, axis, descending).astype(np.int32))


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@exported("tf.math", "tf.nn")
def top_k(input, k=1, sorted=True, index_type="int32", name=None):
    """The ``k`` largest elements along the last axis, and their indices: ``(values, indices)``.

    Both are in descending order of value; of equal values the lower index
    comes first. (With ``sorted=False`` TensorFlow may return them in
    another order, which it does not specify; minitape returns them sorted.)
    The gradient of each value goes to the element it came from; the others
    get 0.

    >>> values, indices = top_k([1.0, 5.0, 3.0, 5.0], k=2)
    >>> values.numpy(), indices.numpy()
    (array([5., 5.], dtype=float32), array([1, 3], dtype=int32))
    """
    x, axis = _orderable("top_k", input, -1)
    k = one_integer("top_k", "k", k)
    n = x.array.shape[-1]
    if not 0 <= k <= n:
        raise ValueError(f"top_k: k={k} must be between 0 and {n}, the size of the last axis of the input "
                         f"(shape {x.array.shape})")
    dtype = as_dtype(index_type)
    if dtype.name not in ("int16", "int32", "int64"):
        raise TypeError(f"top_k: index_type must be mt.int16, mt.int32 or mt.int64, got {dtype.name}")
    indices = _order(x.array, axis, descending=True)[..., :k]
    return TopKV2(take_along_axis(x, indices, axis), Tensor(indices.astype(dtype.as_numpy_dtype)))


@exported("tf")
def searchsorted(sorted_sequence, values, side="left", out_type="int32", name=None):
    """Where each of ``values`` would go in ``sorted_sequence`` (along its last axis) to keep it sorted.

    ``side="left"`` gives the first such place (before equal elements),
    ``"right"`` the last. Leading dimensions are a batch: row ``i`` of
    ``values`` is looked up in row ``i`` of ``sorted_sequence``. No gradient.

    >>> searchsorted([1.0, 3.0, 3.0, 5.0], [3.0, 6.0]).numpy()
    array([1, 4], dtype=int32)
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    s, v = convert_inputs("searchsorted", sorted_sequence, values)
    if s.array.ndim == 0 or v.array.ndim == 0:
        raise ValueError(f"searchsorted: sorted_sequence and values need at least one dimension, got shapes "
                         f"{s.array.shape} and {v.array.shape}; write a single value as [x]")
    if s.array.shape[:-1] != v.array.shape[:-1]:
        raise ValueError(f"searchsorted: sorted_sequence and values must have the same leading dimensions (one row "
                         f"of values per sorted row), got shapes {s.array.shape} and {v.array.shape}")
    rows, vals = s.array.reshape(-1, s.array.shape[-1]), v.array.reshape(-1, v.array.shape[-1])
    places = np.array([np.searchsorted(row, val, side=side) for row, val in zip(rows, vals)])
    return Tensor(places.reshape(v.array.shape).astype(as_dtype(out_type).as_numpy_dtype))
