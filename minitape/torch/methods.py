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
from . import along_dims, backward, factories, pointwise, scalar_types, shaping
from .pointwise import FUNCTIONS
from .torch_tensor import Tensor


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
    _attach(_name + "_", _in_place(_name + "_", _function, pointwise.node_name(_name)))
for _name, _function, _node in [("add", pointwise.add, "AddBackward0"), ("sub", pointwise.sub, "SubBackward0"),
                                ("subtract", pointwise.sub, "SubBackward0"),
                                ("clamp", pointwise.clamp, "ClampBackward1"),
                                ("clip", pointwise.clamp, "ClampBackward1")]:
    _attach(_name, _function)
    _attach(_name + "_", _in_place(_name + "_", _function, _node))
for _name in ("eq", "ne", "lt", "le", "gt", "ge", "logical_not", "isclose", "allclose"):
    _attach(_name, getattr(pointwise, _name))
for _name in ("sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "norm", "softmax",
              "log_softmax", "logsumexp", "cumsum", "sort", "matmul", "mm", "dot", "outer"):
    _attach(_name, getattr(along_dims, _name))
for _name in ("reshape", "view", "flatten", "transpose", "t", "permute", "movedim", "unsqueeze", "squeeze",
              "expand", "unbind", "select", "clone"):
    _attach(_name, getattr(shaping, _name))

Tensor.T = property(lambda self: shaping.permute(self, *reversed(range(self.dim()))))
Tensor.mT = property(lambda self: shaping.transpose(self, -2, -1))
Tensor.__getitem__ = shaping.getitem
Tensor.__setitem__ = shaping.setitem
Tensor.where = lambda self, condition, other: pointwise.where(condition, self, other)
Tensor.view_as = lambda self, other: shaping.reshape(self, *other.shape)
Tensor.reshape_as = Tensor.view_as
Tensor.expand_as = lambda self, other: shaping.expand(self, *other.shape)

_reflect = {"__add__": pointwise.add, "__radd__": pointwise.add, "__sub__": pointwise.sub,
            "__rsub__": pointwise.rsub, "__mul__": FUNCTIONS["mul"], "__rmul__": FUNCTIONS["mul"],
            "__truediv__": FUNCTIONS["div"], "__rtruediv__": pointwise.rdiv, "__pow__": FUNCTIONS["pow"],
            "__rpow__": pointwise.rpow, "__matmul__": along_dims.matmul,
            "__rmatmul__": lambda self, other: along_dims.matmul(other, self), "__eq__": pointwise.eq,
            "__ne__": pointwise.ne, "__lt__": pointwise.lt, "__le__": pointwise.le, "__gt__": pointwise.gt,
            "__ge__": pointwise.ge, "__mod__": FUNCTIONS["remainder"], "__floordiv__": pointwise.floor_divide}
for _name, _function in _reflect.items():
    _attach(_name, _function)
for _name, _method in {"__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
                       "__ipow__": "pow_"}.items():
    _attach(_name, getattr(Tensor, _method))
Tensor.__neg__ = FUNCTIONS["neg"]
Tensor.__abs__ = FUNCTIONS["abs"]
Tensor.__invert__ = pointwise.logical_not
Tensor.__hash__ = lambda self: id(self)


def _to(self, *args, dtype=None, **kwargs):
    """``x.to(torch.float64)``; a device (``"cpu"``) changes nothing."""
    for a in args:
        if isinstance(a, scalar_types.dtype):
            dtype = a
    return self if dtype is None else pointwise.to_dtype(self, dtype)


Tensor.to = _to
Tensor.type_as = lambda self, other: pointwise.to_dtype(self, other.dtype)
for _name, _dtype in {"double": scalar_types.float64, "float": scalar_types.float32, "half": scalar_types.float16,
                      "long": scalar_types.int64, "int": scalar_types.int32, "bool": scalar_types.bool}.items():
    _attach(_name, lambda self, _d=_dtype: pointwise.to_dtype(self, _d))
Tensor.backward = lambda self, gradient=None, retain_graph=None, create_graph=False, inputs=None: \
    backward.backward(self, gradient, retain_graph, create_graph, inputs=inputs)
Tensor.cpu = lambda self: self
Tensor.contiguous = lambda self: self


def _filled(name, value_of):
    def method(self, *args):
        return self._assign(name, lambda v, *others: Value(np.broadcast_to(
            np.asarray(value_of(args, others), v.array.dtype), np.shape(v.array)).copy()) if not others else
            ops.broadcast_to(pointwise.cast(others[0], self.dtype), list(self.shape)),
            [a for a in args if isinstance(a, Tensor)])
    method.__name__ = name
    return method


Tensor.zero_ = _filled("ZeroBackward0", lambda args, others: 0)
Tensor.fill_ = _filled("FillBackward0", lambda args, others: args[0])
Tensor.copy_ = _filled("CopyBackwards", lambda args, others: None)
Tensor.normal_ = factories.normal_
Tensor.uniform_ = factories.uniform_
