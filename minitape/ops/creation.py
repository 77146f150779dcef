"""Tensors made from a shape and a value: zeros, ones, ranges, identity matrices, fill and linspace.

Most are constants: no tape records their creation. ``fill`` and
``linspace`` are built from ops, so a tensor given as their value (or start
and stop) keeps its gradient, as in TensorFlow. The default dtype is
float32, as in TensorFlow.

>>> zeros((2, 3)).shape
TensorShape([2, 3])
>>> range(4).numpy()
array([0, 1, 2, 3], dtype=int32)
"""

import numpy as np

from ..dtypes import FLOATING, as_dtype
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .casting import cast
from .axes import integer_axes, one_axis
from .broadcasting import broadcast_to
from .shapes import concat, expand_dims
from .slicing import getitem
from .exports import exported


def _shape(shape, op_name):
    """``shape`` (a list, a tuple, an int or an integer tensor) as a tuple of sizes, checked."""
    dims = integer_axes(shape, op_name, "shape")
    if any(d < 0 for d in dims):
        raise ValueError(f"{op_name}: sizes cannot be negative, got shape {dims}")
    return dims


@exported("tf")
def zeros(shape, dtype="float32"):
    """A tensor of ``shape`` filled with 0."""
    return Tensor(np.zeros(_shape(shape, "zeros"), dtype=as_dtype(dtype).as_numpy_dtype))


@exported("tf")
def ones(shape, dtype="float32"):
    """A tensor of ``shape`` filled with 1."""
    return Tensor(np.ones(_shape(shape, "ones"), dtype=as_dtype(dtype).as_numpy_dtype))


@exported("tf")
def zeros_like(input, dtype=None):
    """Zeros with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    (x,) = convert_inputs("zeros_like", input)
    return Tensor(np.zeros(x.array.shape, dtype=x.array.dtype if dtype is None else as_dtype(dtype).as_numpy_dtype))


@exported("tf")
def ones_like(input, dtype=None):
    """Ones with the shape (and, unless ``dtype`` is given, the dtype) of ``input``."""
    (x,) = convert_inputs("ones_like", input)
    return Tensor(np.ones(x.array.shape, dtype=x.array.dtype if dtype is None else as_dtype(dtype).as_numpy_dtype))


@exported("tf")
def fill(dims, value):
    """A tensor of shape ``dims`` with every element equal to the scalar ``value`` (whose dtype it takes).

    It is ``broadcast_to(value, dims)``, so a watched ``value`` gets the sum
    of the gradients of all the elements.

    >>> fill([2], 7.0).numpy()
    array([7., 7.], dtype=float32)
    """
    (x,) = convert_inputs("fill", value)
    if x.array.ndim:
        raise ValueError(f"fill: value must be a scalar, got shape {x.array.shape}; to repeat a tensor, use "
                         f"mt.broadcast_to(value, shape) or mt.tile")
    return broadcast_to(x, _shape(dims, "fill"))


@exported("tf")
def range(start, limit=None, delta=1, dtype=None):  # noqa: A001  (TensorFlow's name)
    """``start, start + delta, ...`` up to but excluding ``limit`` (``range(n)`` counts from 0).

    int32 when every argument is an integer, else float32, unless ``dtype`` is given.
    """
    if limit is None:
        start, limit = 0, start
    args = [a.array if isinstance(a, Tensor) else a for a in (start, limit, delta)]
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
    result = Tensor(np.arange(*args).astype(as_dtype(dtype).as_numpy_dtype))
    return check_dtype("range", result, _RANGE)


_RANGE = FLOATING | {np.dtype(np.int32), np.dtype(np.int64)}  # TensorFlow's kernels


@exported("tf")
def linspace(start, stop, num, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop``, both included (TensorFlow's ``linspace_nd``).

    Integers give floats (float64, or float32 for 8- and 16-bit ones), as
    in TensorFlow. Built from ops as TensorFlow builds it, so a watched
    ``start`` or ``stop`` gets its gradient: start, then ``start + delta * i``,
    then stop exactly.

    >>> linspace(0.0, 1.0, 3).numpy()
    array([0. , 0.5, 1. ], dtype=float32)
    """

    (a,) = convert_inputs("linspace", start)
    (b,) = convert_inputs("linspace", stop) if isinstance(stop, Tensor) else convert_inputs("linspace", a, stop)[1:]
    if b.dtype != a.dtype:
        raise ValueError(f"linspace: start is {a.dtype.name} but stop is {b.dtype.name}; give both one dtype, "
                         f"e.g. mt.cast(stop, mt.{a.dtype.name})")
    count = np.asarray(num.array if isinstance(num, Tensor) else num)
    if count.ndim or count.dtype.kind not in "iu":
        raise TypeError(f"linspace: num must be an integer, got {num!r}")
    count = int(count)
    if count < 0:
        raise ValueError(f"linspace: num must not be negative, got {count}")
    shape = np.broadcast_shapes(a.array.shape, b.array.shape)
    axis = one_axis(axis, len(shape) + 1, "linspace")
    a, b = expand_dims(broadcast_to(a, shape), axis), expand_dims(broadcast_to(b, shape), axis)
    steps = max(count - 1, 1)
    delta = (b - a) / steps  # integers divide into floats
    a, b = cast(a, delta.dtype), cast(b, delta.dtype)
    inner = np.arange(1, steps, dtype=np.dtype(delta.dtype.as_numpy_dtype)).reshape(
        [max(count - 2, 0) if d == axis else 1 for d in range(len(shape) + 1)])
    values = concat([a, a + delta * inner, b], axis)
    return getitem(values, (slice(None),) * axis + (slice(0, count),))


@exported("tf", "tf.linalg")
def eye(num_rows, num_columns=None, dtype="float32"):
    """The identity matrix (ones on the diagonal)."""
    rows, columns = _shape([num_rows, num_rows if num_columns is None else num_columns], "eye")
    return Tensor(np.eye(rows, columns, dtype=as_dtype(dtype).as_numpy_dtype))
