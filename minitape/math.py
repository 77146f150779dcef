"""``mt.math``: the elementwise and reduction ops, under TensorFlow's ``tf.math`` names."""

from .ops import (abs, add, argmax, argmin, cos, cumprod, cumsum, divide, equal, exp, greater,  # noqa: F401
                  greater_equal, less, less_equal, log, log1p, maximum, minimum, multiply, negative, not_equal,
                  pow, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round, sigmoid, sign, sin,
                  sqrt, square, squared_difference, subtract, tan, tanh)
