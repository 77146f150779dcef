"""The operators and methods of ``torch.Tensor`` (``x * y``, ``x.sum()``, ``x.add_(1)``), attached here.

Each is one of the module functions (``torch.mul``, ``torch.sum``); an in-place method ``name_``
computes ``name`` and puts the result in the tensor (``Tensor._assign``), which counts a new
version of it.

>>> import minitape.torch as torch
>>> x = torch.tensor([1.0, 2.0])
>>> x.add_(1), x._version
(tensor([2., 3.]), 1)
"""

import numpy as np

from .. import ops
from ..tensor import Tensor as Value
from . import creation, dtypes, elementwise, reductions, shaping
from .elementwise import FUNCTIONS
from .tensor import Tensor


def _attach(name, function):
    setattr(Tensor, name, function)


def _in_place(name, function, node):
    def method(self, *args, **kwargs):
        others = [a for a in args if isinstance(a, Tensor)]
        return self._assign(node, lambda v, *o: function(Tensor(v), *_rebuilt(args, o), **kwargs).value, others)
    method.__name__ = name
    return method


def _rebuilt(args, values):
    values = iter(values)
    return [Tensor(next(values)) if isinstance(a, Tensor) else a for a in args]


for _name, _function in FUNCTIONS.items():
    _attach(_name, _function)
    _attach(_name + "_", _in_place(_name + "_", _function, elementwise.node_name(_name)))
for _name, _function, _node in [("add", elementwise.add, "AddBackward0"), ("sub", elementwise.sub, "SubBackward0"),
                                ("subtract", elementwise.sub, "SubBackward0"),
                                ("clamp", elementwise.clamp, "ClampBackward1"),
                                ("clip", elementwise.clamp, "ClampBackward1")]:
    _attach(_name, _function)
    _attach(_name + "_", _in_place(_name + "_", _function, _node))
for _name in ("eq", "ne", "lt", "le", "gt", "ge", "logical_not", "isclose", "allclose"):
    _attach(_name, getattr(elementwise, _name))
for _name in ("sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "norm", "softmax",
              "log_softmax", "logsumexp", "cumsum", "sort", "matmul", "mm", "dot", "outer"):
    _attach(_name, getattr(reductions, _name))
for _name in ("reshape", "view", "flatten", "transpose", "t", "permute", "movedim", "unsqueeze", "squeeze",
              "expand", "unbind", "select", "clone"):
    _attach(_name, getattr(shaping, _name))

Tensor.T = property(lambda self: shaping.permute(self, *reversed(range(self.dim()))))
Tensor.mT = property(lambda self: shaping.transpose(self, -2, -1))
Tensor.__getitem__ = shaping.getitem
Tensor.__setitem__ = shaping.setitem
Tensor.where = lambda self, condition, other: elementwise.where(condition, self, other)
Tensor.view_as = lambda self, other: shaping.reshape(self, *other.shape)
Tensor.reshape_as = Tensor.view_as
Tensor.expand_as = lambda self, other: shaping.expand(self, *other.shape)

_reflect = {"__add__": elementwise.add, "__radd__": elementwise.add, "__sub__": elementwise.sub,
            "__rsub__": elementwise.rsub, "__mul__": FUNCTIONS["mul"], "__rmul__": FUNCTIONS["mul"],
            "__truediv__": FUNCTIONS["div"], "__rtruediv__": elementwise.rdiv, "__pow__": FUNCTIONS["pow"],
            "__rpow__": elementwise.rpow, "__matmul__": reductions.matmul,
            "__rmatmul__": lambda self, other: reductions.matmul(other, self), "__eq__": elementwise.eq,
            "__ne__": elementwise.ne, "__lt__": elementwise.lt, "__le__": elementwise.le, "__gt__": elementwise.gt,
            "__ge__": elementwise.ge, "__mod__": FUNCTIONS["remainder"]}
for _name, _function in _reflect.items():
    _attach(_name, _function)
for _name, _method in {"__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
                       "__ipow__": "pow_"}.items():
    _attach(_name, getattr(Tensor, _method))
Tensor.__neg__ = FUNCTIONS["neg"]
Tensor.__abs__ = FUNCTIONS["abs"]
Tensor.__invert__ = elementwise.logical_not
Tensor.__hash__ = lambda self: id(self)


def _to(self, *args, dtype=None, **kwargs):
    """``x.to(torch.float64)``; a device (``"cpu"``) changes nothing."""
    for a in args:
        if isinstance(a, dtypes.dtype):
            dtype = a
    return self if dtype is None else elementwise.to_dtype(self, dtype)


Tensor.to = _to
Tensor.type_as = lambda self, other: elementwise.to_dtype(self, other.dtype)
for _name, _dtype in {"double": dtypes.float64, "float": dtypes.float32, "half": dtypes.float16,
                      "long": dtypes.int64, "int": dtypes.int32, "bool": dtypes.bool}.items():
    _attach(_name, lambda self, _d=_dtype: elementwise.to_dtype(self, _d))
Tensor.cpu = lambda self: self
Tensor.contiguous = lambda self: self


def _filled(name, value_of):
    def method(self, *args):
        return self._assign(name, lambda v, *others: Value(np.broadcast_to(
            np.asarray(value_of(args, others), v.array.dtype), np.shape(v.array)).copy()) if not others else
            ops.broadcast_to(elementwise.cast(others[0], self.dtype), list(self.shape)),
            [a for a in args if isinstance(a, Tensor)])
    method.__name__ = name
    return method


Tensor.zero_ = _filled("ZeroBackward0", lambda args, others: 0)
Tensor.fill_ = _filled("FillBackward0", lambda args, others: args[0])
Tensor.copy_ = _filled("CopyBackwards", lambda args, others: None)
Tensor.normal_ = creation.normal_
Tensor.uniform_ = creation.uniform_
