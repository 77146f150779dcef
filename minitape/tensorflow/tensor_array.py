"""``mt.TensorArray``: a list of tensors of one dtype and shape, written one at a time, stacked at the end.

In a TensorFlow graph a Python list cannot grow inside a ``tf.while_loop``;
a TensorArray can. minitape runs eagerly, as TensorFlow's eager mode does,
where a TensorArray is a Python list with TensorFlow's rules: one dtype, one
element shape (taken from the first write), a fixed size unless
``dynamic_size=True``, an element read only once unless
``clear_after_read=False``, and zeros for the elements never written.
``write`` changes the array and returns it, so ``ta = ta.write(i, x)`` (the
graph idiom) works too. Gradients flow through what was written to what is
read or stacked:

>>> import minitape as mt
>>> x = mt.constant(2.0)
>>> with mt.GradientTape() as tape:
...     tape.watch(x)
...     ta = mt.TensorArray(mt.float32, size=3)
...     for i in range(3):
...         ta = ta.write(i, x ** (i + 1))
...     y = mt.reduce_sum(ta.stack())  # x + x² + x³
>>> float(y), float(tape.gradient(y, x))
(14.0, 17.0)
"""

from ..dtypes import as_dtype
from ..ops import stack, zeros
from ..tensor import Tensor, convert_to_tensor
from ..tensor_shape import TensorShape

_CLEARED = object()  # the place of an element read once with clear_after_read


def _index(index, what):
    if isinstance(index, Tensor):
        index = index.__index__()
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"TensorArray.{what}: the index must be an integer, got {index!r}")
    return index


class TensorArray:
    """A list of tensors of ``dtype`` (TensorFlow's ``tf.TensorArray``, as in eager mode).

    Args:
      dtype: the dtype of every element.
      size: the number of elements (they read as zeros until written).
      dynamic_size: if True, writing past the end grows the array.
      clear_after_read: if True (the default), an element can be read once.
      infer_shape: if True (the default), the first write fixes the element shape.
      element_shape: the shape of every element, if known in advance.

    The other arguments of ``tf.TensorArray`` name graph resources and are
    accepted for compatibility.
    """

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        if size is None:
            raise ValueError("TensorArray: give its size (size=0 with dynamic_size=True for one that grows)")
        self._dtype = as_dtype(dtype)
        self._elements = [None] * int(size)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._infer_shape = infer_shape
        self._element_shape = None if element_shape is None else TensorShape(int(d) for d in element_shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    def size(self, name=None):
        """The number of elements, an int32 tensor."""
        return convert_to_tensor(len(self._elements), dtype="int32")

    def write(self, index, value, name=None):
        """Put ``value`` at ``index``; returns the TensorArray."""
        index = _index(index, "write")
        if index < 0:
            raise IndexError(f"TensorArray.write: writing to negative indices (index {index}) is not allowed")
        if index >= len(self._elements):
            if not self._dynamic_size:
                raise IndexError(f"TensorArray.write: index {index} is past the end of an array of size "
                                 f"{len(self._elements)}, which does not grow; make it with dynamic_size=True")
            self._elements.extend([None] * (index + 1 - len(self._elements)))
        self._elements[index] = self._checked(convert_to_tensor(value, dtype_hint=self._dtype), "write")
        return self

    def _checked(self, value, what):
        """``value``, if it has this array's dtype and element shape (the first one fixes the shape)."""
        if value.dtype != self._dtype:
            raise ValueError(f"TensorArray.{what}: the array holds {self._dtype.name}, but the value is "
                             f"{value.dtype.name}; convert it first with mt.cast(value, mt.{self._dtype.name})")
        if self._element_shape is not None and tuple(value.shape) != self._element_shape:
            raise ValueError(f"TensorArray.{what}: incompatible shape for value {tuple(value.shape)}, expected "
                             f"{tuple(self._element_shape)}: every element has one shape")
        if self._infer_shape:
            self._element_shape = value.shape
        return value

    def _zeros_if_unwritten(self, index):
        if self._elements[index] is None:
            if self._element_shape is None:
                raise ValueError(f"TensorArray: element {index} was never written, and no element shape is known "
                                 f"to make zeros of; write it, or give element_shape=...")
            self._elements[index] = zeros(self._element_shape, dtype=self._dtype)
        return self._elements[index]

    def read(self, index, name=None):
        """The element at ``index`` (zeros if it was never written)."""
        index = _index(index, "read")
        if not 0 <= index < len(self._elements):
            raise IndexError(f"TensorArray.read: index {index} is out of range for an array of size "
                             f"{len(self._elements)}")
        if self._elements[index] is _CLEARED:
            raise ValueError(f"TensorArray.read: element {index} was read before and then cleared (the array was made "
                             f"with clear_after_read=True, the default); make it with clear_after_read=False to "
                             f"read an element again")
        value = self._zeros_if_unwritten(index)
        if self._clear_after_read:
            self._elements[index] = _CLEARED
        return value

    def _stacked(self, indices):
        """The elements at ``indices``, stacked; one read and cleared stacks as zeros, as in TensorFlow's eager mode."""
        return stack([zeros(self._element_shape, dtype=self._dtype) if self._elements[i] is _CLEARED
                      else self._zeros_if_unwritten(i) for i in indices])

    def stack(self, name=None):
        """All elements stacked along a new first axis: shape ``(size,) + element_shape``."""
        if not self._elements:
            return zeros((0,) + tuple(self._element_shape or ()), dtype=self._dtype)
        return self._stacked(range(len(self._elements)))

    def gather(self, indices, name=None):
        """The elements at ``indices``, stacked."""
        return self._stacked([_index(i, "gather") for i in indices])

    def unstack(self, value, name=None):
        """Make the rows of ``value`` (its slices along the first axis) the elements; returns the TensorArray."""
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.ndim == 0:
            raise ValueError("TensorArray.unstack: the value is a scalar, which has no rows to unstack")
        rows = [self._checked(value[i], "unstack") for i in range(len(value))]
        if len(rows) > len(self._elements) and not self._dynamic_size:
            raise ValueError(f"TensorArray.unstack: cannot unstack {len(rows)} tensors into a TensorArray of static "
                             f"size {len(self._elements)}")
        self._elements = rows
        return self

    def close(self, name=None):
        """Nothing to release in eager code (TensorFlow frees the graph resource here)."""

    def __repr__(self):
        return f"<mt.TensorArray dtype={self._dtype.name} size={len(self._elements)}>"


__all__ = ["TensorArray"]
