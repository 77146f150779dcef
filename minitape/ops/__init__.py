"""Every op minitape knows, gathered in one namespace (``mt.ops``); importing it declares them all.

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

No module is named after a namespace: each op lists the namespaces it is found in where it is declared
(:mod:`.exports`), and ``mt.linalg``, ``mt.nn``, ``mt.math``, ``minitape.torch`` and ``minitape.jax.numpy`` are
made from those lists.

Beside the families: :mod:`.arguments` (TensorFlow's rules for an op's
arguments: dtypes, conversion), :mod:`.axes` (reading ``axis`` and shape
arguments), :mod:`.packing` (a list of tensors as one) and :mod:`.operators`.

Every differentiable op is a :class:`~minitape.primitive.Primitive`: its
NumPy forward, VJP rule and JVP rule are written side by side.

:class:`~minitape.Tensor`'s operators (``x * y`` is ``multiply(x, y)``,
``x[i]`` is ``getitem(x, i)``) are these ops, attached in
:mod:`.operators` once all exist, since ``tensor.py`` is below them.
"""

from . import (activation_functions, broadcasting, casting, comparisons, contractions, creation,  # noqa: F401
               cross_entropy, decompositions, diagonals, elementwise, indexing, inverses, normalization, norms,
               padding, pooling, products, reductions, scatter, shapes, slicing, solvers, sorting, transcendental)
from . import operators  # noqa: F401  (gives Tensor and Variable their operators, once every op exists)
from .exports import names
from .slicing import newaxis  # x[:, mt.newaxis]: None, not an op

# Every op under its TensorFlow names: those of the top level (``mt.sin``) and those TensorFlow has only under tf.math,
# tf.nn or tf.linalg (``mt.ops.erf`` is ``mt.math.erf``; there is no tf.erf, and no mt.erf). ``from minitape.ops
# import *`` takes the top level's, as ``mt.`` does.
globals().update({name: op for space in ("tf.linalg", "tf.nn", "tf.math", "tf")
                  for name, op in names(space).items()})
__all__ = [*names("tf"), "newaxis"]
