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
    """The type of a tensor's elements (wraps a NumPy dtype).

    >>> import minitape as mt
    >>> mt.int8.max, mt.int8.min, mt.int8.size, mt.uint8.is_unsigned
    (127, -128, 1, True)
    """

    __slots__ = ("name", "as_numpy_dtype", "_numpy")

    def __init__(self, numpy_dtype):
        self._numpy = np.dtype(numpy_dtype)
        self.as_numpy_dtype = self._numpy.type  # the NumPy scalar type, np.float32, as in TensorFlow
        self.name = self._numpy.name

    @property
    def is_floating(self):
        """True for the dtypes gradients can flow through (float16/32/64)."""
        return self._numpy.kind == "f"

    @property
    def is_integer(self):
        return self._numpy.kind in "iu"

    @property
    def is_unsigned(self):
        """True for the integers that have no negative values (uint8, ...)."""
        return self._numpy.kind == "u"

    @property
    def is_bool(self):
        return self._numpy.kind == "b"

    @property
    def size(self):
        """Bytes per element."""
        return self._numpy.itemsize

    @property
    def max(self):
        """The largest value of this dtype (for floats, the largest finite one)."""
        return self._limits("max")

    @property
    def min(self):
        """The smallest value of this dtype (for floats, the most negative finite one)."""
        return self._limits("min")

    def _limits(self, which):
        if self.is_floating:
            return getattr(np.finfo(self._numpy), which)
        if self.is_integer:
            return int(getattr(np.iinfo(self._numpy), which))
        raise TypeError(f"mt.{self.name} has no {'maximum' if which == 'max' else 'minimum'} value: it is not a "
                        f"number type")

    def __eq__(self, other):
        try:
            return self._numpy == as_dtype(other)._numpy
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self._numpy)

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

_BY_NUMPY = {d._numpy: d for d in (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
                                   uint64, bool)}


def as_dtype(type_value):
    """Turn ``mt.float32``, ``np.float32``, ``"float32"`` or a NumPy dtype into a :class:`DType`.

    >>> as_dtype("float64")
    mt.float64
    """
    if isinstance(type_value, DType):
        return type_value
    found = _BY_NUMPY.get(type_value) if isinstance(type_value, np.dtype) else None
    if found is not None:  # a tensor's own NumPy dtype, the commonest case: no conversion needed
        return found
    try:
        return _BY_NUMPY[np.dtype(type_value)]
    except (TypeError, KeyError):
        names = ", ".join(sorted(d.name for d in _BY_NUMPY.values()))
        raise TypeError(f"minitape has no dtype {type_value!r}; use one of: {names}") from None


# What each op accepts, as TensorFlow's kernels do (sets of NumPy dtypes, for a quick membership test): sin and
# exp take FLOATING, negative and abs SIGNED (no unsigned integers), add and maximum NUMBERS (no booleans).
FLOATING = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
SIGNED = FLOATING | {np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)}
NUMBERS = SIGNED | {np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)}
INTEGERS_AND_BOOL = (NUMBERS - FLOATING) | {np.dtype(np.bool_)}
ALL = NUMBERS | {np.dtype(np.bool_)}
