"""``mt.math``: the elementwise and reduction ops, under TensorFlow's ``tf.math`` names.

Every elementwise op declared with ``unary`` or ``binary`` (in ``ops/elementwise.py``,
``ops/transcendental.py`` and ``ops/comparisons.py``) is here (``mt.math.atan``), except ``relu``, which
is ``mt.nn``'s. ``softsign`` and ``l2_normalize`` are in both, as in TensorFlow.
"""

from .ops import (abs, acos, acosh, add, add_n, argmax, argmin, asin, asinh, atan, atan2, atanh,  # noqa: F401
                  ceil, cos, cosh, cumprod, cumsum, digamma, divide, divide_no_nan, equal, erf, erfc, exp, expm1, floor,
                  floordiv, floormod, greater, greater_equal, is_finite, is_inf, is_nan, l2_normalize, less, less_equal,
                  lgamma, log, log1p, log_sigmoid, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
                  multiply, multiply_no_nan, negative, not_equal, pow, reciprocal, reduce_all, reduce_any,
                  reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std,
                  reduce_sum, reduce_variance, round, scalar_mul, segment_sum, sigmoid, sign, sin, sinh, softplus,
                  softsign, sqrt, square, squared_difference, subtract, tan, tanh, top_k, unsorted_segment_sum, xlogy)

truediv, mod = divide, floormod  # TensorFlow's other names for / and %
