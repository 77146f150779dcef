"""Every op minitape knows, gathered in one namespace (``mt.ops``).

The ops are grouped by family, one module each:

* :mod:`.elementwise`: math on each element (exp, sin, erf, lgamma, +, *, maximum, where, ...);
* :mod:`.reductions`: sums, means, maxima, products, variances and norms over axes;
* :mod:`.shapes`: reshape, transpose, concat, stack, tile, reverse, roll;
* :mod:`.broadcasting`: broadcast_to, unbroadcast, and ``Broadcasting``, the primitive whose inputs broadcast;
* :mod:`.slicing`: ``x[index]`` (getitem), and ``v[index]``, a slice of a Variable that can be assigned;
* :mod:`.indexing`: gather, gather_nd, slice, split, pad, one_hot, scatter_nd, segment sums;
* :mod:`.sorting`: sort, argsort, top_k, searchsorted;
* :mod:`.linalg`: matrix products, einsum, inverses, solves, determinants, Cholesky;
* :mod:`.decompositions`: eigh, svd, qr, triangular and Cholesky solves, pinv, lstsq;
* :mod:`.nn`: softmax, the cross-entropy losses, activations (elu, gelu, selu, ...), moments and
  batch_normalization, embedding_lookup;
* :mod:`.convolution`: conv1d, conv2d, conv2d_transpose, max and average pooling;
* :mod:`.creation`: zeros, ones, ranges (constants, never recorded);
* :mod:`.casting`: cast, which every family uses.

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
from .creation import *  # noqa: F403
from .elementwise import *  # noqa: F403
from .indexing import *  # noqa: F403
from .linalg import *  # noqa: F403
from .nn import *  # noqa: F403
from .reductions import *  # noqa: F403
from .shapes import *  # noqa: F403
from .slicing import *  # noqa: F403
from .sorting import *  # noqa: F403

# Ops that TensorFlow has only under tf.math, tf.linalg or tf.nn are in mt.ops (and mt.math, mt.linalg, mt.nn), not
# at the top level: mt.trace is the module of evaluation traces, mt.linalg.trace the sum of a diagonal.
from .elementwise import (ceil, digamma, erf, erfc, expm1, is_finite, is_inf, is_nan, lgamma,  # noqa: F401
                          log_sigmoid, xlogy)
from .indexing import segment_sum, unsorted_segment_sum  # noqa: F401
from .linalg import (cholesky, det, diag, diag_part, inv, logdet, slogdet, solve, tensor_diag,  # noqa: F401
                     tensor_diag_part, trace)
from .linalg import adjoint, band_part, cross, global_norm, matvec, normalize, set_diag  # noqa: F401
from .decompositions import (cholesky_solve, eigh, eigvalsh, lstsq, pinv, qr, svd,  # noqa: F401
                             triangular_solve)
from .convolution import (avg_pool, avg_pool1d, avg_pool2d, conv1d, conv2d, conv2d_transpose,  # noqa: F401
                          convolution, max_pool, max_pool1d, max_pool2d)
from .nn import elu, embedding_lookup, silu, swish  # noqa: F401
from .nn import (batch_normalization, dropout, gelu, l2_normalize, leaky_relu, moments, relu6, selu,  # noqa: F401
                 softsign, sparse_softmax_cross_entropy_with_logits)
from .reductions import reduce_euclidean_norm, reduce_std, reduce_variance  # noqa: F401
from .sorting import top_k  # noqa: F401

from . import (broadcasting, casting, creation, decompositions, elementwise, indexing, linalg, nn, reductions, shapes,
               slicing, sorting)
from . import operators  # noqa: F401  (gives Tensor and Variable their operators, once every op exists)

__all__ = list(dict.fromkeys(name for module in (broadcasting, casting, creation, decompositions, elementwise, indexing,
                                                  linalg, nn, reductions, shapes, slicing, sorting)
                             for name in module.__all__))
