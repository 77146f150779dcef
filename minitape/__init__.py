"""minitape: a small NumPy tape for automatic differentiation, with TensorFlow's API.

Write TensorFlow code with ``mt.`` for ``tf.``:

>>> import minitape as mt
>>> x = mt.Variable(3.0)
>>> with mt.GradientTape() as tape:
...     y = x * x * x
>>> tape.gradient(y, x)
<mt.Tensor: shape=(), dtype=float32, numpy=27.0>

Where to read the source, in order (README.md's table says the same, and it is the order a
gradient runs in: a value, an op on it, the recorder that hears it, the sweep back). The top of
the package is the engine, and nothing else:

* ``tensor.py``, ``variable.py``: a Tensor is a NumPy value with an id; a Variable a mutable one
  (``tensor_shape.py``, ``dtypes.py``: its shape and dtypes);
* ``primitive.py``: an op = a NumPy forward + a VJP rule + a JVP rule; ``apply``, which every op runs;
* ``ops/``: every op and its rules, a module per family (``ops/__init__.py`` lists them), beside
  ``arguments.py`` (TensorFlow's rules for an op's arguments), ``axes.py``, ``exports.py`` (the
  namespaces each op names where it is declared) and ``operators.py`` (``x * y`` is ``multiply(x, y)``);
* ``recording.py``: who listens to the ops (tapes, accumulators, counters);
* ``engine.py``: a record per op, and ``sweep``, the backward pass every gradient runs;
* ``tape.py``: ``GradientTape``, the tape on the engine (``jacobians.py``: its Jacobians, a sweep per
  row, through ``tape.vjps``; ``unconnected.py``: what an unconnected source gets; ``nest.py``: the
  nested structures of its sources);
* ``forward.py``: forward mode (``mt.autodiff.ForwardAccumulator``);
* ``numeric.py``: finite differences and gradient checking; ``dual.py``: dual numbers, forward mode in
  a few lines.

Beside the engine, each in a package of its own: ``tensorflow/``, the rest of TensorFlow's API
(``mt.math``, ``mt.nn``, ``mt.linalg``, ``custom_gradient``, control flow, ``Module``, ``mt.random``,
...: its ``__init__.py`` lists them); ``keras/``, the Keras pieces of a custom training loop; and
``viz/``, the presentation wing, which nothing above imports: a tape read back from its public
records, as evaluation traces (the three tables of the AD literature) and as pictures (needs
Graphviz; ``mt.viz`` loads it on first use).
"""

import importlib
import importlib.util
import sys

from . import dual, keras, nest, numeric, ops
from .tensorflow import autodiff, image, linalg, math, nn, random, test
from .tensorflow.control import cond, map_fn, recompute_grad, vectorized_map, while_loop
from .tensorflow.custom_gradient import custom_gradient
from .tensorflow.eager_function import TensorSpec, function, get_static_value, py_function
from .tensorflow.indexed_slices import IndexedSlices
from .tensorflow.module import Module
from .tensorflow.printing import print as print  # noqa: A004 (mt.print is tf.print; `as print` marks it exported)
from .tensorflow.scopes import name_scope
from .tensorflow.tensor_array import TensorArray
from .numeric import check_gradients
from .dtypes import (DType, as_dtype, bool, float16, float32, float64, int8, int16, int32, int64,  # noqa: A004
                     uint8, uint16, uint32, uint64)
from .ops import *
from .tape import GradientTape
from .tensor import Tensor, constant, convert_to_tensor, is_tensor
from .tensor_shape import TensorShape
from .variable import Variable
from .unconnected import UnconnectedGradients

__version__ = "0.1.0"


def __getattr__(name):
    if name == "viz":  # the presentation wing needs graphviz: imported on first use, so the core needs only NumPy
        if sys.modules.get("graphviz", True) is None or importlib.util.find_spec("graphviz") is None:
            raise ImportError("minitape.viz draws tapes with the graphviz package, which is not installed: "
                              "pip install 'minitape[viz]' (and Graphviz's dot program, e.g. apt install graphviz)")
        return importlib.import_module("minitape.viz")
    raise AttributeError(f"module 'minitape' has no attribute {name!r}")


__all__ = ["GradientTape", "UnconnectedGradients", "custom_gradient", "check_gradients", "Tensor", "TensorShape",
           "Variable", "constant", "convert_to_tensor", "is_tensor", "DType", "as_dtype", "bool", "float16", "float32",
           "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "autodiff", "dual",
           "image", "keras", "linalg", "math", "nn", "numeric", "random", "test", "nest", "TensorSpec", "cond",
           "function", "get_static_value", "map_fn", "recompute_grad", "vectorized_map", "while_loop", "Module",
           "name_scope", "IndexedSlices", "TensorArray", "py_function"] + ops.__all__
# mt.print is left out of __all__: `from minitape import *` must not replace Python's print.
