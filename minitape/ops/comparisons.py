"""Elementwise functions without a gradient: comparisons, logic and bitwise operators, rounding, tests for
NaN and infinity, and argmax and argmin. Their results are constants to every tape (None as a gradient, as
in TensorFlow).

>>> less([1.0, 2.0], 1.5).numpy()
array([ True, False])
"""

import numpy as np

from ..dtypes import ALL, FLOATING, INTEGERS_AND_BOOL, NUMBERS, as_dtype
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .elementwise import no_gradient
from .axes import one_axis
from .exports import export, exported


equal = no_gradient("equal", np.equal, "x == y, a boolean tensor.", dtypes=ALL)
not_equal = no_gradient("not_equal", np.not_equal, "x != y, a boolean tensor.", dtypes=ALL)
less = no_gradient("less", np.less, "x < y, a boolean tensor.")
less_equal = no_gradient("less_equal", np.less_equal, "x <= y, a boolean tensor.")
greater = no_gradient("greater", np.greater, "x > y, a boolean tensor.")
greater_equal = no_gradient("greater_equal", np.greater_equal, "x >= y, a boolean tensor.")
BOOL = frozenset({np.dtype(np.bool_)})
logical_and = no_gradient("logical_and", np.logical_and, "x and y, for booleans.", dtypes=BOOL)
logical_or = no_gradient("logical_or", np.logical_or, "x or y, for booleans.", dtypes=BOOL)
logical_xor = no_gradient("logical_xor", np.logical_xor, "x xor y (one but not both), for booleans.", dtypes=BOOL)
# The operators &, |, ^ and ~: logical for booleans, bitwise for integers (as in TensorFlow and NumPy).
bitwise_and = no_gradient("bitwise_and", np.bitwise_and, "x & y: and, bit by bit (for booleans: and).",
                          dtypes=INTEGERS_AND_BOOL, names=())
bitwise_or = no_gradient("bitwise_or", np.bitwise_or, "x | y: or, bit by bit (for booleans: or).",
                         dtypes=INTEGERS_AND_BOOL, names=())
bitwise_xor = no_gradient("bitwise_xor", np.bitwise_xor, "x ^ y: xor, bit by bit (for booleans: xor).",
                          dtypes=INTEGERS_AND_BOOL, names=())


@exported("tf", "tf.math")
def logical_not(x):
    """not x, for booleans; no gradient."""
    (x,) = convert_inputs("logical_not", x)
    return Tensor(np.logical_not(check_dtype("logical_not", x, BOOL).array))


def invert(x):
    """~x: every bit flipped (for booleans: not); no gradient."""
    (x,) = convert_inputs("invert", x)
    return Tensor(np.invert(check_dtype("invert", x, INTEGERS_AND_BOOL).array))


@exported("tf", "tf.math")
def round(x):  # noqa: A001  (TensorFlow's name)
    """Round to the nearest integer, halves to even (as TF and NumPy do). No gradient: the result
    is a constant to every tape (see the custom-gradients lesson for a straight-through estimator)."""
    (x,) = convert_inputs("round", x)
    return Tensor(np.round(check_dtype("round", x, NUMBERS).array))


def _float_test(name, numpy_fn, doc):
    """A NumPy function of one float tensor lifted to tensors, with no gradient: rounding, and tests for NaN."""
    def op(x, name=None):
        (x,) = convert_inputs(op.__name__, x)
        return Tensor(numpy_fn(check_dtype(op.__name__, x, FLOATING).array))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


# floor and ceil are step functions: their gradient is None, as in TensorFlow (which registers none).
floor = export(_float_test("floor", np.floor, "The largest integer not above x, as a float. No gradient (None)."),
       ("tf", "tf.math"))
ceil = export(_float_test("ceil", np.ceil, "The smallest integer not below x, as a float. No gradient (None)."),
       ("tf.math",))
is_nan = export(_float_test("is_nan", np.isnan, "Whether x is NaN, elementwise (a boolean tensor).\n\n"
                     "    >>> is_nan([1.0, float('nan')]).numpy()\n"
                     "    array([False,  True])"), ("tf.math",))
is_inf = export(_float_test("is_inf", np.isinf, "Whether x is inf or -inf, elementwise (a boolean tensor)."),
       ("tf.math",))
is_finite = export(_float_test("is_finite", np.isfinite, "Whether x is neither inf, -inf nor NaN (a boolean tensor)."),
       ("tf.math",))

def _arg_extreme(name, numpy_fn, nan_as):
    def op(input, axis=None, output_type="int64"):
        (x,) = convert_inputs(name, input)
        values = x.array
        axis = one_axis(0 if axis is None else axis, values.ndim, name)
        if values.shape[axis] == 0:
            raise ValueError(f"{name}: axis {axis} of the tensor of shape {values.shape} is empty, so it has no "
                             f"{'largest' if name == 'argmax' else 'smallest'} element")
        if values.dtype.kind == "f":  # TensorFlow skips NaN (an all-NaN slice gives 0); NumPy would pick it
            values = np.where(np.isnan(values), values.dtype.type(nan_as), values)
        return Tensor(np.asarray(numpy_fn(values, axis=axis)).astype(as_dtype(output_type).as_numpy_dtype))

    op.__name__ = op.__qualname__ = name
    return op


argmax = export(_arg_extreme("argmax", np.argmax, -np.inf), ("tf", "tf.math"))
argmax.__doc__ = """The index of the largest element along ``axis`` (default 0), skipping NaN. No gradient.

    >>> argmax([1.0, float("nan"), 3.0]).numpy()
    np.int64(2)
    """
argmin = export(_arg_extreme("argmin", np.argmin, np.inf), ("tf", "tf.math"))
argmin.__doc__ = "The index of the smallest element along ``axis`` (default 0), skipping NaN. No gradient."


# ceil, is_nan, is_inf and is_finite are tf.math's only; bitwise_* and invert: the operators &, |, ^ and ~ only
