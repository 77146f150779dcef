"""Reductions and the ops on a whole axis: ``sum``, ``mean``, ``prod``, ``max``, ``min``, ``norm``,
``softmax``, ``log_softmax``, ``logsumexp``, ``argmax``, ``sort``, ``matmul`` and its kin.

PyTorch says ``dim`` and ``keepdim`` where minitape's ops say ``axis`` and ``keepdims``, and names
the node by whether a ``dim`` was given (``SumBackward0`` for all elements, ``SumBackward1`` for a
``dim``). ``max(dim=...)`` and ``sort`` return ``(values, indices)``, as PyTorch's named tuples do.

>>> import minitape.torch as torch
>>> x = torch.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
>>> x.sum(dim=0), x.max(dim=1).indices
(tensor([4., 7.], grad_fn=<SumBackward1>), tensor([1, 0]))
"""

import collections

import numpy as np

from .. import ops
from ..tensor import Tensor as Value
from . import scalar_types
from .pointwise import FUNCTIONS, cast
from .torch_tensor import SCALAR_TYPES, Tensor, run

def _return_type(name):
    """PyTorch's named pair ``torch.return_types.max(values=..., indices=...)``."""
    base = collections.namedtuple(name, ["values", "indices"])
    base.__repr__ = lambda self: f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"
    return base


RETURN_TYPES = {name: _return_type(name) for name in ("max", "min", "sort")}


def _axis(dim):
    return list(dim) if isinstance(dim, (list, tuple)) else dim


def _reduction(name, op, integer_result=None):
    def reduce(input, dim=None, keepdim=False, dtype=None):
        d = dtype or (integer_result if integer_result and not input.dtype.is_floating_point else input.dtype)
        if name == "Mean" and not d.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point "
                               f"or complex dtype. Got: {SCALAR_TYPES[input.dtype.name]}")
        node = f"{name}Backward{0 if dim is None or name.startswith('A') else 1}"
        return run(node, lambda v: op(cast(v, d), axis=_axis(dim), keepdims=keepdim), [input])
    reduce.__name__ = name.lower()
    return reduce


sum = _reduction("Sum", ops.reduce_sum, scalar_types.int64)  # noqa: A001 (torch.sum)
mean = _reduction("Mean", ops.reduce_mean)
prod = _reduction("Prod", ops.reduce_prod, scalar_types.int64)


def _extreme(name, op, arg):
    def extreme(input, dim=None, keepdim=False):
        if isinstance(dim, Tensor):  # torch.max(a, b) is the elementwise maximum
            return FUNCTIONS["maximum" if name == "Max" else "minimum"](input, dim)
        if dim is None:
            return run(f"{name}Backward1", lambda v: op(v), [input])
        array = input.value.array
        indices = arg(array, axis=dim)
        # The gradient goes to the element the index names (PyTorch's rule), even where others tie with it.
        everywhere = np.indices(indices.shape)
        picks = np.stack([*everywhere[:dim % array.ndim], indices, *everywhere[dim % array.ndim:]], axis=-1)
        if keepdim:
            indices = np.expand_dims(indices, dim)
        values = run(f"{name}Backward0", lambda v: _kept(ops.gather_nd(v, picks), dim, keepdim), [input])
        return RETURN_TYPES[name.lower()](values, Tensor(Value(indices.astype(np.int64))))
    extreme.__name__ = name.lower()
    return extreme


max = _extreme("Max", ops.reduce_max, np.argmax)  # noqa: A001 (torch.max)
min = _extreme("Min", ops.reduce_min, np.argmin)  # noqa: A001 (torch.min)
amax = _reduction("Amax", ops.reduce_max)
amin = _reduction("Amin", ops.reduce_min)


def _kept(value, dim, keepdim):
    return ops.expand_dims(value, dim) if keepdim else value


def argmax(input, dim=None, keepdim=False):
    array = input.value.array
    index = np.argmax(array.reshape(-1)) if dim is None else np.argmax(array, axis=dim)
    if keepdim and dim is not None:
        index = np.expand_dims(index, dim)
    return Tensor(Value(np.asarray(index, np.int64)))


def argmin(input, dim=None, keepdim=False):
    return argmax(-input if input.dtype is not scalar_types.bool else input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False):
    """The vector norm of ``input`` (all its elements, or along ``dim``); ``p`` is 2 by default."""
    order = "euclidean" if p in ("fro", 2, 2.0) else p
    return run("LinalgVectorNormBackward0", lambda v: ops.norm(v, ord=order, axis=_axis(dim), keepdims=keepdim),
               [input])


def softmax(input, dim, dtype=None):
    return run("SoftmaxBackward0", lambda v: ops.softmax(v if dtype is None else cast(v, dtype), axis=dim), [input])


def log_softmax(input, dim, dtype=None):
    return run("LogSoftmaxBackward0", lambda v: ops.log_softmax(v if dtype is None else cast(v, dtype), axis=dim),
               [input])


def logsumexp(input, dim, keepdim=False):
    return run("LogsumexpBackward0", lambda v: ops.reduce_logsumexp(v, axis=_axis(dim), keepdims=keepdim), [input])


def cumsum(input, dim):
    return run("CumsumBackward0", lambda v: ops.cumsum(v, axis=dim), [input])


def sort(input, dim=-1, descending=False):
    order = np.argsort(-input.value.array if descending else input.value.array, axis=dim, kind="stable")
    values = run("SortBackward0", lambda v: ops.sort(v, axis=dim, direction="DESCENDING" if descending else
                                                     "ASCENDING"), [input])
    return RETURN_TYPES["sort"](values, Tensor(Value(order.astype(np.int64))))


def matmul(input, other):
    """The matrix product, with NumPy's rules for 1-d operands (a vector is a row on the left, a column on the
    right); a product of two vectors is their dot product."""
    a, b = input.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    names = {(1, 1): "DotBackward0", (2, 1): "MvBackward0", (2, 2): "MmBackward0", (1, 2): "SqueezeBackward4"}
    name = names.get((a, b), "UnsafeViewBackward0")
    if input.dtype is not other.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {input.dtype.name} != "
                           f"{other.dtype.name}")

    def product(x, y):
        if a == 1:
            x = ops.expand_dims(x, 0)
        if b == 1:
            y = ops.expand_dims(y, -1)
        out = ops.matmul(x, y)
        if b == 1:
            out = ops.squeeze(out, -1)
        if a == 1:
            out = ops.squeeze(out, -2 if b > 1 else -1)
        return out
    return run(name, product, [input, other])


def mm(input, mat2):
    if input.dim() != 2 or mat2.dim() != 2:
        raise RuntimeError("self must be a matrix")
    return matmul(input, mat2)


def dot(input, other):
    return matmul(input, other)


def outer(input, vec2):
    return run("MulBackward0", lambda x, y: ops.multiply(ops.expand_dims(x, -1), ops.expand_dims(y, 0)),
               [input, vec2])
