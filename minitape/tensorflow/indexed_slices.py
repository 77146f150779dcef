"""``IndexedSlices``: some rows of a tensor, the form TensorFlow gives the gradient of ``gather`` in."""

import numpy as np

from ..tensor import Tensor, conversions, convert_to_tensor
from ..tensor_shape import TensorShape


class IndexedSlices:
    """Some rows of a tensor: ``values[k]`` is row ``indices[k]`` of a tensor of shape ``dense_shape``.

    TensorFlow gives the gradient of ``gather`` (and of ``embedding_lookup``)
    in this form, to skip the zero rows; minitape's gradients are always dense
    tensors, so ``isinstance(grad, mt.IndexedSlices)`` is False for them, and
    code that asks (d2l's ``grad_clipping``) takes its dense branch. Built by
    hand, it becomes dense with ``mt.convert_to_tensor``, which adds the rows
    of repeated indices, as in TensorFlow (the dense tensor is a constant:
    no gradient reaches ``values`` through it).

    >>> from minitape import constant
    >>> rows = IndexedSlices(constant([[1.0, 2.0]]), constant([1]), dense_shape=constant([3, 2]))
    >>> convert_to_tensor(rows).numpy()
    array([[0., 0.],
           [1., 2.],
           [0., 0.]], dtype=float32)
    """

    def __init__(self, values, indices, dense_shape=None):
        self.values = convert_to_tensor(values)
        self.indices = convert_to_tensor(indices)
        self.dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return None if self.dense_shape is None else TensorShape(int(d) for d in self.dense_shape.array)

    def _dense(self):
        if self.dense_shape is None:
            raise ValueError(f"cannot convert {self!r} to a tensor: it has no dense_shape, the shape of the whole "
                             f"tensor; give one, IndexedSlices(values, indices, dense_shape=[...])")
        dense = np.zeros(tuple(self.shape), self.values.array.dtype)
        np.add.at(dense, self.indices.array, self.values.array)
        return Tensor(dense)

    def __repr__(self):
        dense_shape = "" if self.dense_shape is None else f", dense_shape={self.dense_shape!s}"
        return f"IndexedSlices(indices={self.indices!s}, values={self.values!s}{dense_shape})"


conversions[IndexedSlices] = lambda slices, dtype: convert_to_tensor(slices._dense(), dtype)  # the dense tensor
