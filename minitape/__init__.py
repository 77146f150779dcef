"""minitape: a small NumPy tape for automatic differentiation, with TensorFlow's API.

Write TensorFlow code with ``mt.`` for ``tf.``:

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x * x
>>> tape.gradient(y, x)
<mt.Tensor: shape=(), dtype=float32, numpy=27.0>

Where to read the source, in order:

* ``tensor.py``: Tensors and Variables (NumPy values with an id);
* ``primitive.py``: an op = a NumPy forward + a VJP rule + a JVP rule;
* ``ops/``: every op and its rules;
* ``tape.py``: recording and the backward pass;
* ``forward.py``: forward mode (``mt.autodiff.ForwardAccumulator``);
* ``custom_gradient.py``: user-defined gradient rules;
* ``control.py``: ``cond``, ``while_loop``, ``map_fn``, ``function`` (eager), ``recompute_grad``;
* ``numeric.py``: finite differences and gradient checking;
* ``dual.py``: dual numbers, forward mode in a few lines;
* ``trace.py``: evaluation traces, the three tables of the AD literature;
* ``viz.py``: pictures of tapes (needs Graphviz; ``mt.viz`` loads it on first use).
"""

import importlib

from . import autodiff, dual, image, linalg, math, nest, nn, numeric, ops, random, test, trace
from .control import TensorSpec, cond, function, get_static_value, map_fn, recompute_grad, vectorized_map, while_loop
from .custom_gradient import custom_gradient
from .numeric import check_gradients
from .dtypes import (DType, as_dtype, bool, float16, float32, float64, int8, int16, int32, int64,  # noqa: A004
                     uint8, uint16, uint32, uint64)
from .ops import *
from .tape import GradientTape
from .tensor import Tensor, TensorShape, Variable, constant, convert_to_tensor, is_tensor
from .unconnected import UnconnectedGradients

__version__ = "0.1.0"


def __getattr__(name):
    if name == "viz":  # needs the graphviz package: imported on first use, so the core needs only NumPy
        return importlib.import_module("minitape.viz")
    raise AttributeError(f"module 'minitape' has no attribute {name!r}")


__all__ = ["GradientTape", "UnconnectedGradients", "custom_gradient", "check_gradients", "Tensor", "TensorShape",
           "Variable", "constant", "convert_to_tensor", "is_tensor", "DType", "as_dtype", "bool", "float16", "float32",
           "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "autodiff", "dual",
           "linalg", "math", "nn", "numeric", "random", "test", "trace", "nest", "TensorSpec", "cond", "function",
           "get_static_value", "map_fn", "recompute_grad", "while_loop", "image", "vectorized_map"] + ops.__all__
