"""Element types of tensors: ``mt.float32``, ``mt.int32``, ...

A :class:`DType` is a thin, named wrapper around a NumPy dtype, so that code
written for TensorFlow (``x.dtype == tf.float32``, ``x.dtype.is_floating``)
reads the same here:

>>> import minitape as mt
>>> mt.constant(1.5).dtype
mt.float32
>>> mt.constant(1.5).dtype.is_floating
True
"""

import numpy as np


class DType:
    """The type of a tensor's elements (wraps a NumPy dtype)."""

    __slots__ = ("name", "as_numpy_dtype")

    def __init__(self, numpy_dtype):
        self.as_numpy_dtype = np.dtype(numpy_dtype)
        self.name = self.as_numpy_dtype.name

    @property
    def is_floating(self):
        """True for the dtypes gradients can flow through (float16/32/64)."""
        return self.as_numpy_dtype.kind == "f"

    @property
    def is_integer(self):
        return self.as_numpy_dtype.kind in "iu"

    @property
    def is_bool(self):
        return self.as_numpy_dtype.kind == "b"

    def __eq__(self, other):
        try:
            return self.as_numpy_dtype == as_dtype(other).as_numpy_dtype
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.as_numpy_dtype)

    def __repr__(self):
        return f"mt.{self.name}"


float16 = DType(np.float16)
float32 = DType(np.float32)
float64 = DType(np.float64)
int8 = DType(np.int8)
int16 = DType(np.int16)
int32 = DType(np.int32)
int64 = DType(np.int64)
uint8 = DType(np.uint8)
uint16 = DType(np.uint16)
uint32 = DType(np.uint32)
uint64 = DType(np.uint64)
bool = DType(np.bool_)  # noqa: A001  (TensorFlow's name: mt.bool)

_BY_NUMPY = {d.as_numpy_dtype: d for d in (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
                                         uint64, bool)}


def as_dtype(type_value):
    """Turn ``mt.float32``, ``np.float32``, ``"float32"`` or a NumPy dtype into a :class:`DType`.

    >>> as_dtype("float64")
    mt.float64
    """
    if isinstance(type_value, DType):
        return type_value
    try:
        return _BY_NUMPY[np.dtype(type_value)]
    except (TypeError, KeyError):
        names = ", ".join(sorted(d.name for d in _BY_NUMPY.values()))
        raise TypeError(f"minitape has no dtype {type_value!r}; use one of: {names}") from None
