"""``mt.math``: the elementwise and reduction ops, under TensorFlow's ``tf.math`` names."""

from .ops import (abs, add, argmax, argmin, cos, cumprod, cumsum, divide, divide_no_nan, equal, exp,  # noqa: F401
                  greater, greater_equal, less, less_equal, log, log1p, maximum, minimum, multiply, multiply_no_nan,
                  negative, not_equal, pow, reciprocal, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum,
                  round, sigmoid, sign, sin, sqrt, square, squared_difference, subtract, tan, tanh)
