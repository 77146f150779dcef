"""Tensors made from nothing but a shape and a value: zeros, ones, ranges, identity matrices.

They are constants: no tape records their creation. The default dtype is
float32, as in TensorFlow.

>>> zeros((2, 3)).shape
TensorShape([2, 3])
>>> range(4).numpy()
array([0, 1, 2, 3], dtype=int32)
"""

import numpy as np

from ..dtypes import as_dtype
from ..tensor import Tensor, constant, convert_to_tensor
from .shapes import one_axis


def _shape(shape):
    return tuple(int(d) for d in np.reshape(np.asarray(shape._value if isinstance(shape, Tensor) else shape), -1))


def zeros(shape, dtype="float32"):
    """A tensor of ``shape`` filled with 0."""
    return Tensor(np.zeros(_shape(shape), dtype=as_dtype(dtype).as_numpy_dtype))


def ones(shape, dtype="float32"):
    """A tensor of ``shape`` filled with 1."""
    return Tensor(np.ones(_shape(shape), dtype=as_dtype(dtype).as_numpy_dtype))


def zeros_like(input, dtype=None):
    """Zeros with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    x = convert_to_tensor(input)
    return Tensor(np.zeros(x._value.shape, dtype=x._value.dtype if dtype is None else as_dtype(dtype).as_numpy_dtype))


def ones_like(input, dtype=None):
    """Ones with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    x = convert_to_tensor(input)
    return Tensor(np.ones(x._value.shape, dtype=x._value.dtype if dtype is None else as_dtype(dtype).as_numpy_dtype))


def fill(dims, value):
    """A tensor of shape ``dims`` with every element equal to ``value`` (whose dtype it takes).

    >>> fill([2], 7.0).numpy()
    array([7., 7.], dtype=float32)
    """
    return constant(value, shape=_shape(dims))


def range(start, limit=None, delta=1, dtype=None):  # noqa: A001  (TensorFlow's name)
    """``start, start + delta, ...`` up to but excluding ``limit`` (``range(n)`` counts from 0).

    int32 when every argument is an integer, else float32, unless ``dtype`` is given.
    """
    if limit is None:
        start, limit = 0, start
    args = [convert_to_tensor(a)._value if isinstance(a, Tensor) else a for a in (start, limit, delta)]
    first, last, step = args
    if step == 0:
        raise ValueError(f"range: delta must not be 0 (it would count from {first} to {last} forever); "
                         f"use a positive delta to count up, a negative one to count down")
    if (step > 0 and first > last) or (step < 0 and first < last):
        # TensorFlow refuses a delta that points away from limit rather than returning nothing
        direction = "up" if step > 0 else "down"
        raise ValueError(f"range: delta {step} counts {direction}, but limit {last} is on the other side of "
                         f"start {first}; swap start and limit, or change the sign of delta")
    if dtype is None:
        dtype = "int32" if all(np.asarray(a).dtype.kind in "iu" for a in args) else "float32"
    return Tensor(np.arange(*args).astype(as_dtype(dtype).as_numpy_dtype))


def linspace(start, stop, num, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop``, both included.

    >>> linspace(0.0, 1.0, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """
    a, b = convert_to_tensor(start), convert_to_tensor(stop, dtype_hint=convert_to_tensor(start).dtype)
    axis = one_axis(axis, np.broadcast(a._value, b._value).ndim + 1, "linspace")
    return Tensor(np.linspace(a._value, b._value, int(num), axis=axis).astype(a._value.dtype))


def eye(num_rows, num_columns=None, dtype="float32"):
    """The identity matrix (ones on the diagonal)."""
    return Tensor(np.eye(int(num_rows), None if num_columns is None else int(num_columns),
                         dtype=as_dtype(dtype).as_numpy_dtype))


__all__ = ["zeros", "ones", "zeros_like", "ones_like", "fill", "range", "linspace", "eye"]
