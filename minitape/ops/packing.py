"""TensorFlow's autopacking: a list that holds tensors, given where a tensor goes, is ``stack``-ed into one.

``convert_to_tensor([x, 2 * x])`` and ``reduce_sum([a, b])`` pack their
list with :func:`pack`, so the gradient reaches each tensor in it.
:mod:`minitape.tensor` and :mod:`minitape.ops.arguments` find it through
the plug :class:`minitape.tensor.packing`, which :mod:`minitape.ops.operators`
fills in (this module is built on them).
"""

import numpy as np

from ..tensor import Tensor, holds_tensors
from ..variable import Variable
from .arguments import convert_input
from .casting import cast
from .shapes import stack


def pack(values, dtype, op_name):
    """The (nested) list ``values``, which holds tensors, as one tensor: ``stack`` level by level.

    This is TensorFlow's autopacking: wherever an op takes a tensor, a list
    of tensors is packed, so ``reduce_sum([a, b * b])`` is
    ``reduce_sum(stack([a, b * b]))`` and the gradient reaches ``a`` and
    ``b``. Numbers beside the tensors take the tensors' dtype; if ``dtype``
    is given, the tensors are cast to it. ``op_name`` is named in errors.

    >>> from minitape import constant
    >>> x = constant(2.0)
    >>> pack([[x, 1.0], [3.0, x]], None, "example").numpy()
    array([[2., 1.],
           [3., 2.]], dtype=float32)
    """
    requested = dtype is not None
    dtype = np.dtype(dtype.as_numpy_dtype if hasattr(dtype, "as_numpy_dtype") else dtype) if requested \
        else _first_dtype(values)
    items = tuple([_packed(v, dtype, requested, op_name) for v in values])
    shapes = sorted({x.array.shape for x in items})
    if len(shapes) > 1:
        raise ValueError(f"{op_name}: the list's items have different shapes {shapes}; a list of tensors is "
                         f"stacked into one tensor, so every item must have the same shape")
    return stack(items)


def _first_dtype(values):
    """The dtype of the first tensor in the nested list ``values`` (depth first)."""
    for v in values:
        if isinstance(v, Tensor):
            return v.array.dtype
        if holds_tensors(v):
            return _first_dtype(v)


def _packed(value, dtype, requested, op_name):
    if isinstance(value, Tensor):
        x = value.snapshot() if isinstance(value, Variable) else value
        if x.array.dtype != dtype:
            if not requested:
                raise TypeError(f"{op_name}: the list mixes tensors of dtypes {dtype.name} and "
                                f"{x.array.dtype.name}; cast them to one first, e.g. mt.cast(x, mt.{dtype.name})")
            x = cast(x, dtype)
        return x
    return convert_input(value, dtype, op_name)  # numbers, arrays, and lists, which are packed in turn
