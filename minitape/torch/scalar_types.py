"""PyTorch's dtypes (``torch.float32``, ...) and its rule for the dtype of a mixed operation.

A :class:`dtype` names a NumPy dtype the way PyTorch prints it. The promotion rule differs from
NumPy's in one place a learner meets at once: a Python number does not widen a tensor
(``float32 tensor * 2.5`` stays float32, an ``int64 tensor * 2.5`` becomes the default float).

>>> float32, promote(float32, 2.5), promote(int64, 2.5), promote(int64, float64)
(torch.float32, torch.float32, torch.float32, torch.float64)
"""

import builtins

import numpy as np


class dtype:
    """A PyTorch dtype: a name and the NumPy dtype that holds its values."""

    def __init__(self, name, numpy_dtype):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)

    def __repr__(self):
        return f"torch.{self.name}"

    @property
    def is_floating_point(self):
        return self.numpy.kind == "f"


float16 = half = dtype("float16", np.float16)
float32 = float = dtype("float32", np.float32)  # noqa: A001 (torch.float is float32)
float64 = double = dtype("float64", np.float64)
int8 = dtype("int8", np.int8)
int16 = short = dtype("int16", np.int16)
int32 = int = dtype("int32", np.int32)  # noqa: A001 (torch.int is int32)
int64 = long = dtype("int64", np.int64)
uint8 = dtype("uint8", np.uint8)
bool = dtype("bool", np.bool_)  # noqa: A001 (torch.bool)

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool)
_BY_NUMPY = {d.numpy: d for d in ALL}
_default_float = [float32]


def get_default_dtype():
    """The dtype of a tensor made from Python floats: ``torch.float32`` unless set."""
    return _default_float[0]


def set_default_dtype(d):
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float[0] = d


def of(numpy_dtype):
    """The PyTorch dtype of a NumPy dtype."""
    try:
        return _BY_NUMPY[np.dtype(numpy_dtype)]
    except KeyError:
        raise TypeError(f"minitape.torch has no dtype for NumPy's {np.dtype(numpy_dtype)}") from None


def _kind_rank(d):
    return {"b": 0, "u": 1, "i": 1, "f": 2}[d.numpy.kind]


def promote(*operands):
    """The dtype of an op on ``operands`` (dtypes, or Python numbers), by PyTorch's rule.

    Tensors decide among themselves (the wider of those of the highest kind wins: int64 and
    float32 make float32); a Python number counts only if it is of a
    higher kind (bool < integer < float) than every tensor, and then it brings the default
    dtype of its kind (float32 for a float, int64 for an int).
    """
    tensors = [d for d in operands if isinstance(d, dtype)]
    numbers = [x for x in operands if not isinstance(x, dtype)]
    top = builtins.max((_kind_rank(d) for d in tensors), default=None)  # a float tensor is not widened by an int one
    result = of(np.result_type(*[d.numpy for d in tensors if _kind_rank(d) == top])) if tensors else None
    for x in numbers:
        number = (bool if isinstance(x, (np.bool_, builtins.bool)) else
                  int64 if isinstance(x, (builtins.int, np.integer)) else get_default_dtype())
        if result is None or _kind_rank(number) > _kind_rank(result):
            result = number
    return result
