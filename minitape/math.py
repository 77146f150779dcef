"""``mt.math``: the elementwise and reduction ops, under TensorFlow's ``tf.math`` names.

Every op declared in ``ops/elementwise.py`` is here (``mt.math.atan``), except ``relu``, which is ``mt.nn``'s.
"""

from .ops import (argmax, argmin, cumprod, cumsum, equal, floordiv, greater, greater_equal, less,  # noqa: F401
                  less_equal, logical_and, logical_not, logical_or, logical_xor, not_equal, reduce_max, reduce_mean,
                  reduce_min, reduce_prod, reduce_sum, round, squared_difference)
from .ops import add_n, reduce_logsumexp  # noqa: F401
from .ops import segment_sum, top_k, unsorted_segment_sum  # noqa: F401
from .ops import elementwise as _elementwise

globals().update(_elementwise.in_tf_math())
truediv, mod = _elementwise.divide, _elementwise.floormod  # TensorFlow's other names for / and %
