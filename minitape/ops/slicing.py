"""Indexing, ``x[index]``, and its transpose: ``getitem`` reads elements, the VJP ``scatter`` puts them back.

Most of this module is the reading of an index as TensorFlow reads it, and
the errors that say what is wrong with one. ``variable[index]`` is a
:class:`VariableSlice`: a read, like any other, that can also be assigned.
"""

import numpy as np

from ..primitive import Primitive, apply
from ..tensor import Tensor
from .arguments import convert_input
from .axes import stand_in
from .exports import exported


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
        stand_in(x.array.shape)[index]
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


@exported("tf")
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
    x = convert_input(tensor, None, "getitem")
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
        return self._variable.assign_slice(self._index, value)

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
