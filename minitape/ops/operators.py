"""Where ``tensor.py`` meets the ops: Tensor's operators, Variable's reads, and the packing of a list of tensors.

``tensor.py`` is below the ops (they are built on it), so it cannot import
them. Every place where a Tensor or a Variable runs an op is filled in here,
once every op exists, and nowhere else:

* ``x + y``, ``x - y``, ``x * y``, ``x / y``, ``x // y``, ``x % y``, ``x ** y``,
  ``x @ y``, ``x & y``, ``x | y``, ``x ^ y`` (and ``2.0 * x``, reflected),
  ``-x``, ``abs(x)``, ``~x``: the elementwise ops and ``matmul``;
* ``x == y``, ``x != y``, ``x < y``, ...: the comparisons;
* ``x[index]``: :func:`~minitape.ops.slicing.getitem`, which ``iter(x)`` runs
  too; ``variable[index]`` is a slice that can be assigned;
* ``v.value()`` and ``v.read_value()``: :func:`~minitape.ops.shapes.read_value`,
  which ``convert_to_tensor(v)`` runs too (through :data:`minitape.tensor.conversions`);
* :class:`minitape.tensor.packing`'s ``pack``: :func:`~minitape.ops.packing.pack`,
  which ``convert_to_tensor([x, 2 * x])`` and every op given a list of tensors run.

>>> import minitape as mt
>>> x = mt.constant([1.0, 2.0])
>>> (2.0 * x).numpy(), (x == [1.0, 3.0]).numpy()
(array([2., 4.], dtype=float32), array([ True, False]))
"""

import numpy as np

from .. import tensor
from ..tensor import Tensor
from ..variable import Variable
from . import comparisons, elementwise, packing, products, shapes, slicing
from .arguments import convert_inputs


def _reflected(op):
    """``other <op> tensor``, e.g. ``2.0 * x``: Python calls ``x.__rmul__(2.0)``, which is ``op(2.0, x)``."""
    def method(self, other):
        return op(other, self)
    method.__name__ = f"__r{op.__name__}__"
    return method


for _name, _op in [("add", elementwise.add), ("sub", elementwise.subtract), ("mul", elementwise.multiply),
                   ("truediv", elementwise.divide), ("floordiv", elementwise.floordiv), ("mod", elementwise.floormod),
                   ("pow", elementwise.pow), ("matmul", products.matmul), ("and", comparisons.bitwise_and),
                   ("or", comparisons.bitwise_or), ("xor", comparisons.bitwise_xor)]:
    setattr(Tensor, f"__{_name}__", _op)
    setattr(Tensor, f"__r{_name}__", _reflected(_op))


def _comparison(op, if_none, if_shapes_differ):
    """``x == y`` and ``x != y`` as TensorFlow has them: ``x == None`` is False, and tensors whose shapes cannot
    broadcast are simply unequal (the functions ``equal`` and ``not_equal`` raise there)."""
    def method(self, other):
        if other is None:
            return if_none
        x, y = convert_inputs(op.__name__, self, other)
        try:
            np.broadcast_shapes(x.array.shape, y.array.shape)
        except ValueError:
            return Tensor(np.array(if_shapes_differ))
        return op(x, y)
    method.__name__ = f"__{'eq' if if_none is False else 'ne'}__"
    return method


# Comparisons give boolean tensors; they have no gradient.
Tensor.__eq__ = _comparison(comparisons.equal, False, False)
Tensor.__ne__ = _comparison(comparisons.not_equal, True, True)
Tensor.__lt__, Tensor.__le__ = comparisons.less, comparisons.less_equal
Tensor.__gt__, Tensor.__ge__ = comparisons.greater, comparisons.greater_equal
Tensor.__neg__, Tensor.__abs__, Tensor.__invert__ = elementwise.negative, elementwise.abs, comparisons.invert
Tensor.__getitem__ = slicing.getitem
Variable.__getitem__ = slicing.getitem_of_variable  # v[1:3] can also be assigned: v[1:3].assign(...)
Variable.value = Variable.read_value = shapes.read_value
tensor.conversions[Variable] = lambda variable, dtype: shapes.read_value(variable)  # convert_to_tensor(v) is a read
tensor.packing.pack = staticmethod(packing.pack)  # convert_to_tensor([x, 2 * x]) is stack([x, 2 * x])
