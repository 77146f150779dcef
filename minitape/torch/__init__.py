"""minitape.torch: PyTorch's autograd on minitape's engine (``import minitape.torch as torch``).

>>> import minitape.torch as torch
>>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> y = (x ** 2).sum()
>>> y.backward()
>>> x.grad
tensor([2., 4., 6.])

The records of a PyTorch graph are kept on the tensors (:mod:`~minitape.torch.graph`), each op is
minitape's (``minitape/ops``), and ``backward`` runs the engine's one sweep
(:mod:`~minitape.torch.backward`). The modules, in reading order: ``scalar_types``, ``devices``, ``grad_mode``,
``graph``, ``torch_tensor``, ``formatting``, ``factories``, ``pointwise``, ``along_dims``, ``shaping``,
``methods``, ``hooks``, ``backward``, ``function``, ``autograd/`` (with ``derivatives``, also
``func``); ``nn`` and ``optim`` for training loops.
"""

from . import methods  # noqa: F401 (attaches the operators and methods of Tensor)
from . import autograd, func, nn, optim
from .devices import device
from .factories import (arange, as_tensor, empty, empty_like, eye, from_numpy, full, full_like, linspace,
                       manual_seed, ones, ones_like, rand, rand_like, randint, randn, randn_like, seed, tensor, zeros,
                       zeros_like)
from .scalar_types import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int, int8,  # noqa: A004
                     int16, int32, int64, long, set_default_dtype, short, uint8)
from .pointwise import (FUNCTIONS, add, allclose, clamp, eq, floor_divide, ge, gt, isclose, le, logical_not, lt, ne,
                        rsub, sub, where)
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .along_dims import (amax, amin, argmax, argmin, cumsum, dot, log_softmax, logsumexp, matmul,
                         max, mean, min, mm, norm, outer, prod, softmax, sort, sum)  # noqa: A004 (torch.max, ...)
from .shaping import (cat, clone, concat, expand, flatten, movedim, permute, reshape, select, squeeze, stack, t,
                      transpose, unbind, unsqueeze)
from .torch_tensor import Size, Tensor

globals().update({name: f for name, f in FUNCTIONS.items() if name not in ("add", "sub", "subtract")})
clip = clamp
subtract = sub
float_types = (float16, float32, float64)
FloatTensor = Tensor

__all__ = ["FUNCTIONS", "FloatTensor", "func", "Size", "Tensor", "floor_divide",
           "abs", "acos", "acosh", "add", "allclose", "amax", "amin",
           "arange", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin",
           "as_tensor", "asin", "asinh", "atan", "atan2", "atanh", "autograd", "bool", "cat", "clamp", "clip", "clone",
           "concat", "cos", "cosh", "cumsum", "device", "div", "divide", "dot", "double", "dtype", "empty",
           "empty_like", "enable_grad", "eq", "erf", "erfc", "exp", "expand", "expm1", "eye", "flatten", "float",
           "float16", "float32", "float64", "float_types", "from_numpy", "full", "full_like", "ge",
           "get_default_dtype", "gt", "half", "inference_mode", "int", "int16", "int32", "int64", "int8",
           "is_grad_enabled", "isclose", "le", "lgamma", "linspace", "log", "log1p", "log_softmax", "logical_not",
           "logsumexp", "long", "lt", "manual_seed", "matmul", "max", "maximum", "mean", "min", "minimum", "mm",
           "movedim", "mul", "multiply", "ne", "neg", "negative", "nn", "no_grad", "norm", "ones", "ones_like",
           "optim", "outer", "permute", "pow", "prod", "rand", "rand_like", "randint", "randn", "randn_like",
           "reciprocal", "relu", "remainder", "reshape", "rsub", "seed", "select", "set_default_dtype",
           "set_grad_enabled", "short", "sigmoid", "sign", "sin", "sinh", "softmax", "sort", "sqrt", "square",
           "squeeze", "stack", "sub", "subtract", "sum", "t", "tan", "tanh", "tensor", "transpose", "true_divide",
           "uint8", "unbind", "unsqueeze", "where", "xlogy", "zeros", "zeros_like"]
