"""The axes, shapes and other lists of integers an op takes, read and checked as TensorFlow checks them.

Every op family reads its ``axis`` (or ``shape``, ``perm``, ``multiples``)
argument through these, so the errors are the same everywhere: a float
axis is refused, an axis out of range says which ones are in range.

>>> one_axis(-1, 3, "reduce_sum")
2
"""

import numpy as np

from ..tensor import Tensor


def integer_tuple(shape, op_name, what):
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


def distinct_axes(axis, ndim, op_name):
    """``axis`` (a list of integers) as non-negative axes of a tensor with ``ndim`` dimensions, each at most once."""
    axes = tuple(one_axis(a, ndim, op_name) for a in integer_axes(axis, op_name))
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op_name}: axis {list(axis)} names the same dimension more than once")
    return axes


def stand_in(shape):
    """A zero-byte stand-in array of ``shape``: lets NumPy work out shapes without touching data."""
    return np.broadcast_to(np.empty((), np.bool_), shape)
