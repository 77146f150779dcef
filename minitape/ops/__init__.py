"""Every op minitape knows, gathered in one namespace (``mt.ops``).

The ops are grouped by family, one module each. On each element:

* :mod:`.elementwise`: how an elementwise op is declared (``unary``, ``binary``), and arithmetic: +, -, *, /,
  pow, exp, log, sqrt, abs, maximum, where, clip_by_value, add_n;
* :mod:`.transcendental`: sin, cos, tanh, sigmoid, softplus, the hyperbolic and inverse trigonometric
  functions, erf, lgamma, digamma, atan2, xlogy (declared as the elementwise ones are);
* :mod:`.comparisons`: the functions without a gradient: ==, <, logic and bitwise operators, round, floor,
  is_nan, argmax;
* :mod:`.casting`: cast, which every family uses.

Over axes, shapes and indices:

* :mod:`.reductions`: sums, means, maxima, products, log-sum-exp, variances, cumulative sums and products;
* :mod:`.norms`: norm (vector, matrix, spectral), reduce_euclidean_norm, global_norm, clip_by_norm,
  clip_by_global_norm, normalize;
* :mod:`.shapes`: reshape, transpose, slicing, concat, stack, tile, broadcasting;
* :mod:`.indexing`: gather, gather_nd, take_along_axis, repeat, boolean_mask, one_hot, embedding_lookup;
* :mod:`.scatter`: scatter_nd, tensor_scatter_nd_add and _update, the segment sums (the gathers' transposes);
* :mod:`.padding`: slice, pad and split;
* :mod:`.sorting`: sort, argsort, top_k, searchsorted;
* :mod:`.creation`: zeros, ones, ranges (constants, never recorded).

Matrices (most of ``mt.linalg``):

* :mod:`.products`: matmul, matrix_transpose, matvec, cross;
* :mod:`.contractions`: einsum and tensordot;
* :mod:`.inverses`: inv, solve, det, slogdet, logdet, cholesky, with their rules derived in its docstring;
* :mod:`.diagonals`: diag, diag_part, trace, tensor_diag, band_part, set_diag, adjoint;
* :mod:`.decompositions`: eigh, eigvalsh, svd;
* :mod:`.solvers`: triangular_solve, cholesky_solve, qr, pinv, lstsq.

Neural networks (most of ``mt.nn``):

* :mod:`.activation_functions`: elu, swish, relu6, leaky_relu, selu, softsign, gelu (relu, sigmoid and tanh
  are elementwise);
* :mod:`.cross_entropy`: softmax, log_softmax and the cross-entropy losses;
* :mod:`.normalization`: l2_normalize, moments, batch_normalization, dropout;
* :mod:`.convolution`: convolution, conv1d, conv2d, conv2d_transpose;
* :mod:`.pooling`: max and average pooling.

No module is named after a namespace: ``mt.linalg``, ``mt.nn`` and ``mt.math`` gather the ops of several
families under TensorFlow's names.

Every differentiable op is a :class:`~minitape.primitive.Primitive`: its
NumPy forward, VJP rule and JVP rule are written side by side.

This package also gives :class:`~minitape.Tensor` its operators: ``x * y``
is ``multiply(x, y)``, ``x[i]`` is ``getitem(x, i)``, and
:class:`~minitape.Variable` its reads (``v.read_value()`` is ``identity``
of the Variable; ``v[i]`` is a read that can also be assigned). ``tensor.py`` knows no ops (the ops are built on it), so
they are attached here, once all exist; so is the packing of a list of
tensors into one (``convert_to_tensor([x, 2 * x])`` is ``stack``).
"""

import numpy as np

from .comparisons import *  # noqa: F403
from .contractions import *  # noqa: F403
from .creation import *  # noqa: F403
from .cross_entropy import *  # noqa: F403
from .elementwise import *  # noqa: F403
from .indexing import *  # noqa: F403
from .norms import *  # noqa: F403
from .padding import *  # noqa: F403
from .products import *  # noqa: F403
from .reductions import *  # noqa: F403
from .scatter import *  # noqa: F403
from .shapes import *  # noqa: F403
from .sorting import *  # noqa: F403
from .transcendental import *  # noqa: F403

# Ops that TensorFlow has only under tf.math, tf.linalg or tf.nn are in mt.ops (and mt.math, mt.linalg, mt.nn), not
# at the top level: mt.trace is the module of evaluation traces, mt.linalg.trace the sum of a diagonal.
from .comparisons import ceil, is_finite, is_inf, is_nan  # noqa: F401
from .transcendental import digamma, erf, erfc, expm1, lgamma, log_sigmoid, xlogy  # noqa: F401
from .reductions import reduce_std, reduce_variance  # noqa: F401
from .norms import global_norm, normalize, reduce_euclidean_norm  # noqa: F401
from .scatter import segment_sum, unsorted_segment_sum  # noqa: F401
from .sorting import top_k  # noqa: F401
from .products import cross, matvec  # noqa: F401
from .inverses import cholesky, det, inv, logdet, slogdet, solve  # noqa: F401
from .diagonals import (adjoint, band_part, diag, diag_part, set_diag, tensor_diag, tensor_diag_part,  # noqa: F401
                        trace)
from .decompositions import eigh, eigvalsh, svd  # noqa: F401
from .solvers import cholesky_solve, lstsq, pinv, qr, triangular_solve  # noqa: F401
from .activation_functions import elu, gelu, leaky_relu, relu6, selu, silu, softsign, swish  # noqa: F401
from .cross_entropy import sparse_softmax_cross_entropy_with_logits  # noqa: F401
from .normalization import batch_normalization, dropout, l2_normalize, moments  # noqa: F401
from .indexing import embedding_lookup  # noqa: F401
from .convolution import conv1d, conv2d, conv2d_transpose, convolution  # noqa: F401
from .pooling import avg_pool, avg_pool1d, avg_pool2d, max_pool, max_pool1d, max_pool2d  # noqa: F401

from . import (activation_functions, casting, comparisons, contractions, creation, cross_entropy, decompositions,
               diagonals, elementwise, indexing, inverses, normalization, norms, padding, pooling, products, reductions,
               scatter, shapes, solvers, sorting, transcendental)
from ..primitive import convert_inputs
from ..tensor import Tensor, Variable, packing

__all__ = list(dict.fromkeys(name for module in (activation_functions, casting, comparisons, contractions, creation,
                                                  cross_entropy, decompositions, diagonals, elementwise, indexing,
                                                  inverses, normalization, norms, padding, pooling, products,
                                                  reductions, scatter, shapes, solvers, sorting, transcendental)
                              for name in module.__all__))


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
Tensor.__getitem__ = shapes.getitem
Variable.__getitem__ = shapes.getitem_of_variable  # v[1:3] can also be assigned: v[1:3].assign(...)
Variable.value = Variable.read_value = shapes.read_value
packing.pack = staticmethod(shapes.pack)  # convert_to_tensor([x, 2 * x]) is stack([x, 2 * x])
