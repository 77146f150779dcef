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
* :mod:`.shapes`: reshape, transpose, concat, stack, tile, reverse, roll;
* :mod:`.broadcasting`: broadcast_to, unbroadcast, and ``Broadcasting``, the primitive whose inputs broadcast;
* :mod:`.slicing`: ``x[index]`` (getitem), and ``v[index]``, a slice of a Variable that can be assigned;
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

Beside the families: :mod:`.arguments` (TensorFlow's rules for an op's
arguments: dtypes, conversion), :mod:`.axes` (reading ``axis`` and shape
arguments), :mod:`.packing` (a list of tensors as one) and :mod:`.operators`.

Every differentiable op is a :class:`~minitape.primitive.Primitive`: its
NumPy forward, VJP rule and JVP rule are written side by side.

:class:`~minitape.Tensor`'s operators (``x * y`` is ``multiply(x, y)``,
``x[i]`` is ``getitem(x, i)``) are these ops, attached in
:mod:`.operators` once all exist, since ``tensor.py`` is below them.
"""

from .broadcasting import *  # noqa: F403
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
from .slicing import *  # noqa: F403
from .sorting import *  # noqa: F403
from .transcendental import *  # noqa: F403

# Ops that TensorFlow has only under tf.math, tf.linalg or tf.nn are in mt.ops (and mt.math, mt.linalg, mt.nn), not
# at the top level, as in TensorFlow: there is no tf.trace, only tf.linalg.trace.
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

from . import (activation_functions, broadcasting, casting, comparisons, contractions, creation, cross_entropy,
               decompositions, diagonals, elementwise, indexing, inverses, normalization, norms, padding, pooling,
               products, reductions, scatter, shapes, slicing, solvers, sorting, transcendental)
from . import operators  # noqa: F401  (gives Tensor and Variable their operators, once every op exists)

__all__ = list(dict.fromkeys(name for module in (activation_functions, broadcasting, casting, comparisons, contractions,
                                                  creation, cross_entropy, decompositions, diagonals, elementwise,
                                                  indexing, inverses, normalization, norms, padding, pooling, products,
                                                  reductions, scatter, shapes, slicing, solvers, sorting,
                                                  transcendental)
                             for name in module.__all__))
