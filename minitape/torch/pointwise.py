"""Elementwise functions: the ops that ``ops/exports.py`` lists under ``"torch"``, with PyTorch's scalar_types.

Each op is minitape's own (its forward and its derivative rules are in ``minitape/ops``); here it
gets PyTorch's conventions: the dtype of a mixed operation (:func:`~minitape.torch.scalar_types.promote`),
integer inputs of a floating function made float (``torch.exp(torch.tensor(1))`` is float32), and
the name of its backward node (``ExpBackward0``).

>>> import minitape.torch as torch
>>> x = torch.tensor([1.0, 4.0], requires_grad=True)
>>> torch.sqrt(x), torch.mul(x, 2)
(tensor([1., 2.], grad_fn=<SqrtBackward0>), tensor([2., 8.], grad_fn=<MulBackward0>))
"""

import inspect

import numpy as np

from .. import ops
from ..ops import exports
from ..tensor import Tensor as Value
from . import scalar_types
from .torch_tensor import Tensor, run

# PyTorch's name of a backward node, where it is not the op's name capitalized followed by Backward0
_NODE_NAMES = {"negative": "NegBackward0", "square": "PowBackward0", "log1p": "Log1PBackward0",
               "subtract": "SubBackward0", "multiply": "MulBackward0", "divide": "DivBackward0",
               "true_divide": "DivBackward0", "remainder": "RemainderBackward0", "maximum": "MaximumBackward0",
               "minimum": "MinimumBackward0", "arctan": "AtanBackward0", "arcsin": "AsinBackward0",
               "arccos": "AcosBackward0", "arcsinh": "AsinhBackward0", "arccosh": "AcoshBackward0",
               "arctanh": "AtanhBackward0", "arctan2": "Atan2Backward0", "sub": "SubBackward0", "mul": "MulBackward0",
               "div": "DivBackward0", "pow": "PowBackward1", "xlogy": "XlogyBackward0"}
# ops whose result keeps an integer input's dtype; the others make it the default float dtype
_KEEP_INTEGERS = {"negative", "neg", "abs", "sign", "relu", "square", "add", "subtract", "sub", "multiply", "mul",
                  "maximum", "minimum", "remainder", "pow", "floor_divide"}


def node_name(name):
    return _NODE_NAMES.get(name) or name[0].upper() + name[1:] + "Backward0"


def constant(x, dtype):
    """A Python number (or NumPy value) as a tensor of ``dtype``, outside the graph."""
    return Tensor(Value(np.asarray(x, dtype=dtype.numpy)))


def cast(value, dtype):
    """The minitape value ``value`` as ``dtype`` (recorded, so that a gradient goes through it)."""
    return value if value.array.dtype == dtype.numpy else ops.cast(value, dtype.numpy)


def result_dtype(name, *operands):
    d = scalar_types.promote(*[x.dtype if isinstance(x, Tensor) else x for x in operands])
    if name not in _KEEP_INTEGERS and not d.is_floating_point:
        d = scalar_types.get_default_dtype()
    if name in ("divide", "div", "true_divide") and not d.is_floating_point:
        d = scalar_types.get_default_dtype()
    return d


def elementwise(name, op, *operands, node=None):
    """``op`` on ``operands`` (tensors or Python numbers), all cast to their common dtype first."""
    d = result_dtype(name, *operands)
    tensors = [x if isinstance(x, Tensor) else constant(x, d) for x in operands]
    return run(node or node_name(name), lambda *values: op(*[cast(v, d) for v in values]), tensors,
               keeps_all=name == "pow")


def _function(name, op, arity):
    if arity == 1:
        def function(input):
            return elementwise(name, op, input)
    else:
        def function(input, other):
            if name == "pow" and not isinstance(other, Tensor):
                return elementwise(name, op, input, other, node="PowBackward0")
            if name == "pow" and not isinstance(input, Tensor):
                return elementwise(name, op, input, other, node="PowBackward1")
            return elementwise(name, op, input, other)
    function.__name__ = name
    function.__doc__ = f"PyTorch's ``torch.{name}``: minitape's ``{op.__name__}`` op."
    return function


FUNCTIONS = {name: _function(name, op, len(inspect.signature(op).parameters))
             for name, op in exports.names("torch").items()}


def add(input, other, alpha=1):
    return elementwise("add", ops.add, input, other if alpha == 1 else other * alpha)


def sub(input, other, alpha=1):
    return elementwise("sub", ops.subtract, input, other if alpha == 1 else other * alpha)


def rsub(input, other):
    """``other - input`` (what ``2 - x`` runs)."""
    return elementwise("rsub", lambda x, y: ops.subtract(y, x), input, other, node="RsubBackward1")


def rdiv(input, other):
    """``other / input`` (what ``2 / x`` runs: PyTorch's ``reciprocal() * other``, hence its node's name)."""
    return elementwise("div", lambda x, y: ops.divide(y, x), input, other, node="MulBackward0")


def rpow(input, other):
    """``other ** input`` (what ``2 ** x`` runs)."""
    return elementwise("pow", lambda x, y: ops.pow(y, x), input, other, node="PowBackward2")


def floor_divide(input, other):
    """``input // other``, rounded down; its gradient is zero, as PyTorch's."""
    return elementwise("floor_divide", ops.floordiv, input, other, node="FloorDivideBackward0")


def clamp(input, min=None, max=None):
    """``input`` limited to ``[min, max]``; the gradient passes where ``min <= input <= max``."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    low, high = -np.inf if min is None else min, np.inf if max is None else max

    def clamped(v):
        return ops.clip_by_value(v, Value(np.asarray(low, v.array.dtype)), Value(np.asarray(high, v.array.dtype)))
    return run("ClampBackward1", clamped, [input])


def where(condition, input, other):
    d = scalar_types.promote(*[x.dtype if isinstance(x, Tensor) else x for x in (input, other)])
    tensors = [condition] + [x if isinstance(x, Tensor) else constant(x, d) for x in (input, other)]
    return run("WhereBackward0", lambda c, x, y: ops.where(c, cast(x, d), cast(y, d)), tensors)


def _comparison(op):
    def compare(input, other):
        d = scalar_types.promote(*[x.dtype if isinstance(x, Tensor) else x for x in (input, other)])
        a, b = [x.value.array if isinstance(x, Tensor) else x for x in (input, other)]
        return Tensor(Value(op(np.asarray(a, d.numpy), np.asarray(b, d.numpy))))
    compare.__name__ = op.__name__
    return compare


eq, ne, lt, le, gt, ge = (_comparison(op) for op in (np.equal, np.not_equal, np.less, np.less_equal, np.greater,
                                                      np.greater_equal))


def logical_not(input):
    return Tensor(Value(np.logical_not(input.value.array)))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(input.value.array, other.value.array, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor(Value(np.isclose(input.value.array, other.value.array, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def to_dtype(input, dtype):
    """``input`` as ``dtype`` (``x.double()``, ``x.to(torch.float64)``): ``ToCopyBackward0``."""
    if input.dtype is dtype:
        return input
    return run("ToCopyBackward0", lambda v: cast(v, dtype), [input])
