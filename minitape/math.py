"""``mt.math``: the elementwise and reduction ops, under TensorFlow's ``tf.math`` names.

Every op declared in ``ops/elementwise.py`` is here (``mt.math.atan``), except ``relu``, which is ``mt.nn``'s.
"""

from .ops import (argmax, argmin, cumprod, cumsum, equal, floordiv, greater, greater_equal, less,  # noqa: F401
                  less_equal, logical_and, logical_not, logical_or, logical_xor, not_equal, reduce_max, reduce_mean,
                  reduce_min, reduce_prod, reduce_sum, round, squared_difference)
from .ops import add_n, reduce_logsumexp  # noqa: F401
from .ops import elementwise as _elementwise
from .ops.elementwise import ceil, digamma, floor, is_finite, is_inf, is_nan, scalar_mul  # noqa: F401
from .ops.nn import l2_normalize, softsign  # noqa: F401
from .ops.reductions import (reduce_all, reduce_any, reduce_euclidean_norm, reduce_std,  # noqa: F401
                             reduce_variance)

globals().update(_elementwise.in_tf_math())
truediv, mod = _elementwise.divide, _elementwise.floormod  # TensorFlow's other names for / and %
