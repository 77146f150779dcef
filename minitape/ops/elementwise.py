"""Elementwise math: each op's NumPy forward, VJP rule and JVP rule on one line each.

Read a rule as calculus. For ``y = sin(x)``, ``dy/dx = cos(x)``, so

* VJP (reverse mode): the gradient ``g`` arriving at ``y`` leaves as ``g * cos(x)``;
* JVP (forward mode): a tangent ``t`` of ``x`` arrives at ``y`` as ``t * cos(x)``.

``ans`` (here often written ``y``) is the op's output. The rules use
minitape ops, so they are themselves recorded by any tape still open: that
is what makes second derivatives work. The gradient rules follow
TensorFlow's (``math_grad.py``), including the choices at kinks: ``abs``
and ``relu`` have derivative 0 at 0, ``maximum`` sends the gradient to its
first input on a tie.

They follow TensorFlow at singular points too, where the local derivative
is infinite (sqrt at 0, 1/x at 0). There ``g * inf`` is NaN even when no
gradient arrives (``g = 0``), which would poison ``where(x > 0, sqrt(x), 0)``
at 0. TensorFlow's rules for sqrt and reciprocal multiply with
:func:`multiply_no_nan` (0 wherever ``g`` is 0), so the masked branch
gives 0; its rules for log, divide and pow do not, and still give NaN.
Tangents are TensorFlow's too: sqrt's is ``0.5 * (t / y)``, NaN for a zero
tangent at 0 (a ``where`` after it masks that, as in reverse mode).
"""

import numpy as np

from ..dtypes import as_dtype
from ..primitive import Primitive, apply, broadcast_shape, convert_inputs, float_constant
from ..tensor import Tensor
from .creation import zeros_like
from .shapes import Broadcasting


def _float_input(op_name, x):
    if type(x) is not Tensor:
        (x,) = convert_inputs(op_name, x)
    if x._value.dtype.kind != "f":
        raise TypeError(f"{op_name}: expected a floating-point tensor, got {x.dtype.name}. "
                        f"Convert it first, e.g. mt.cast(x, mt.float32).")
    return x


def _stable_sigmoid(x):
    """1 / (1 + e**-x) without overflow: e**-|x| is at most 1."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _unary(name, forward, vjp, jvp, keeps="inputs", floats_only=True):
    """The public function ``name(x)`` for an elementwise primitive with one input."""
    prim = Primitive(name, forward, vjp=[vjp], jvp=jvp if jvp == "linear" else [jvp], keeps=keeps)

    def op(x):
        x = _float_input(name, x) if floats_only else convert_inputs(name, x)[0]
        return apply(prim, (x,))

    op.__name__ = op.__qualname__ = name
    op.primitive = prim
    return op


def _binary(name, forward, vjp, jvp, keeps="inputs", floats_only=False):
    """The public function ``name(x, y)`` for a broadcasting elementwise primitive."""
    prim = Broadcasting(name, forward, vjp=list(vjp), jvp=jvp if jvp == "linear" else list(jvp), keeps=keeps)

    def op(x, y):
        if type(y) is float and type(x) is Tensor and x._value.dtype.kind == "f":
            y = float_constant(y, x._value.dtype)  # `x * 0.5`: the commonest case, converted directly
        elif type(x) is not Tensor or type(y) is not Tensor or x._value.dtype != y._value.dtype:
            x, y = convert_inputs(name, x, y)
        if floats_only:
            _float_input(name, x)
        try:
            return apply(prim, (x, y))
        except ValueError:  # checked only on failure: most calls have compatible shapes
            broadcast_shape(name, x._value.shape, y._value.shape)
            raise

    op.__name__ = op.__qualname__ = name
    op.primitive = prim
    return op


#                forward        VJP: gradient of x given g             JVP: tangent of y given t
negative = _unary("negative", np.negative, lambda g, y, x: -g, "linear", keeps="nothing", floats_only=False)
square = _unary("square", np.square, lambda g, y, x: g * (2.0 * x), lambda t, y, x: t * (2.0 * x), floats_only=False)
sqrt = _unary("sqrt", np.sqrt, lambda g, y, x: multiply_no_nan(0.5 / y, g), lambda t, y, x: 0.5 * (t / y),
              keeps="output")
exp = _unary("exp", np.exp, lambda g, y, x: g * y, lambda t, y, x: t * y, keeps="output")
reciprocal = _unary("reciprocal", np.reciprocal, lambda g, y, x: multiply_no_nan(-y * y, g),
                    lambda t, y, x: multiply_no_nan(-y * y, t), keeps="output")
log = _unary("log", np.log, lambda g, y, x: g * reciprocal(x), lambda t, y, x: t * reciprocal(x))
log1p = _unary("log1p", np.log1p, lambda g, y, x: g * reciprocal(1.0 + x), lambda t, y, x: t * reciprocal(1.0 + x))
sin = _unary("sin", np.sin, lambda g, y, x: g * cos(x), lambda t, y, x: t * cos(x))
cos = _unary("cos", np.cos, lambda g, y, x: g * -sin(x), lambda t, y, x: t * -sin(x))
tan = _unary("tan", np.tan, lambda g, y, x: square(reciprocal(cos(x))) * g,
             lambda t, y, x: square(reciprocal(cos(x))) * t)
tanh = _unary("tanh", np.tanh, lambda g, y, x: g * (1.0 - y * y), lambda t, y, x: t * (1.0 - y * y), keeps="output")
sigmoid = _unary("sigmoid", _stable_sigmoid,
                 lambda g, y, x: g * y * (1.0 - y), lambda t, y, x: t * y * (1.0 - y), keeps="output")
abs = _unary("abs", np.abs, lambda g, y, x: g * sign(x), lambda t, y, x: t * sign(x), floats_only=False)  # noqa: A001
sign = _unary("sign", np.sign, lambda g, y, x: zeros_like(g), lambda t, y, x: zeros_like(t), keeps="nothing",
              floats_only=False)
relu = _unary("relu", lambda x: np.maximum(x, 0),
              lambda g, y, x: where(y > 0, g, 0.0), lambda t, y, x: where(y > 0, t, 0.0), keeps="output")

add = _binary("add", np.add, (lambda g, z, x, y: g, lambda g, z, x, y: g), "linear")
subtract = _binary("subtract", np.subtract, (lambda g, z, x, y: g, lambda g, z, x, y: -g), "linear")
multiply = _binary("multiply", np.multiply,
                   (lambda g, z, x, y: g * y, lambda g, z, x, y: x * g),
                   (lambda t, z, x, y: t * y, lambda t, z, x, y: x * t))
divide = _binary("divide", np.true_divide,
                 (lambda g, z, x, y: g / y, lambda g, z, x, y: g * (-x / y / y)),
                 (lambda t, z, x, y: t / y, lambda t, z, x, y: t * (-x / y / y)))


def _multiply_no_nan(x, y):
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)), np.result_type(x, y))
    return np.multiply(x, y, out=out, where=y != 0)  # never computes inf * 0 or NaN * 0: no warning


def _divide_no_nan(x, y):
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)), np.result_type(x, y))
    return np.divide(x, y, out=out, where=y != 0)


# x * y and x / y, but 0 wherever y is 0 (TensorFlow's names and gradient rules; floats only, as there)
multiply_no_nan = _binary("multiply_no_nan", _multiply_no_nan,
                          (lambda g, z, x, y: multiply_no_nan(g, y), lambda g, z, x, y: multiply_no_nan(x, g)),
                          (lambda t, z, x, y: multiply_no_nan(t, y), lambda t, z, x, y: multiply_no_nan(x, t)),
                          floats_only=True)
divide_no_nan = _binary("divide_no_nan", _divide_no_nan,
                        (lambda g, z, x, y: divide_no_nan(g, y),
                         lambda g, z, x, y: g * divide_no_nan(divide_no_nan(-x, y), y)),
                        (lambda t, z, x, y: divide_no_nan(t, y),
                         lambda t, z, x, y: t * divide_no_nan(divide_no_nan(-x, y), y)),
                        floats_only=True)
maximum = _binary("maximum", np.maximum,  # a tie sends the gradient to x, as in TensorFlow
                  (lambda g, z, x, y: where(x >= y, g, 0.0), lambda g, z, x, y: where(x >= y, 0.0, g)),
                  (lambda t, z, x, y: where(x >= y, t, 0.0), lambda t, z, x, y: where(x >= y, 0.0, t)))
minimum = _binary("minimum", np.minimum,
                  (lambda g, z, x, y: where(x <= y, g, 0.0), lambda g, z, x, y: where(x <= y, 0.0, g)),
                  (lambda t, z, x, y: where(x <= y, t, 0.0), lambda t, z, x, y: where(x <= y, 0.0, t)))


def _log_where_positive(x):
    """log(x) where x > 0 and 0 elsewhere: the factor in d(x**y)/dy, safe at x <= 0 (as in TF)."""
    positive = x > 0
    return where(positive, log(where(positive, x, 1.0)), 0.0)


pow = _binary("pow", np.power,  # noqa: A001  (TensorFlow's name)
              (lambda g, z, x, y: g * y * x ** (y - 1.0), lambda g, z, x, y: g * z * _log_where_positive(x)),
              (lambda t, z, x, y: t * y * x ** (y - 1.0), lambda t, z, x, y: t * z * _log_where_positive(x)),
              keeps="both")

# Rules above name these functions; their docstrings live here, beside the table.
for _op, _doc in [
    (negative, "-x, elementwise."), (square, "x * x, elementwise."), (sqrt, "The square root, elementwise."),
    (exp, "e ** x, elementwise: ``mt.exp(0.0)`` is 1.0."), (reciprocal, "1 / x, elementwise."),
    (log, "The natural logarithm, elementwise."),
    (log1p, "log(1 + x), accurate for small x."), (sin, "Sine (radians)."), (cos, "Cosine (radians)."),
    (tan, "Tangent (radians)."), (tanh, "Hyperbolic tangent."),
    (sigmoid, "1 / (1 + e ** -x), computed without overflow."),
    (abs, "|x|; its gradient at 0 is 0."), (sign, "-1, 0 or 1; its gradient is 0 everywhere."),
    (relu, "max(x, 0); its gradient at 0 is 0."),
    (add, "x + y, broadcasting like NumPy."), (subtract, "x - y, broadcasting like NumPy."),
    (multiply, "x * y, broadcasting like NumPy."), (divide, "x / y (true division), broadcasting like NumPy."),
    (multiply_no_nan, "x * y, but 0 wherever y is 0, even where x is inf or NaN.\n\n"
                      "    >>> multiply_no_nan([float('inf'), 2.0], [0.0, 3.0]).numpy()\n"
                      "    array([0., 6.], dtype=float32)"),
    (divide_no_nan, "x / y, but 0 wherever y is 0.\n\n"
                    "    >>> divide_no_nan([1.0, 0.0, 3.0], [0.0, 0.0, 2.0]).numpy()\n"
                    "    array([0. , 0. , 1.5], dtype=float32)"),
    (maximum, "The larger of x and y; on a tie the gradient goes to x."),
    (minimum, "The smaller of x and y; on a tie the gradient goes to x."),
    (pow, "x ** y; the gradient for y uses log(x), taken as 0 where x <= 0."),
]:
    _op.__doc__ = _doc


def squared_difference(x, y):
    """(x - y) ** 2, elementwise.

    >>> squared_difference(0.75, 0.5).numpy()
    np.float32(0.0625)
    """
    return square(subtract(x, y))


# -- where and clipping -----------------------------------------------------------------------
_where = Broadcasting("where", np.where,
                   vjp=[None, lambda g, z, c, x, y: where(c, g, 0.0), lambda g, z, c, x, y: where(c, 0.0, g)],
                   jvp=[None, lambda t, z, c, x, y: where(c, t, 0.0), lambda t, z, c, x, y: where(c, 0.0, t)])


def where(condition, x=None, y=None):
    """``x`` where ``condition`` is true, ``y`` elsewhere (all three broadcast).

    With only ``condition``, the coordinates of its true elements (int64).
    The branch not taken receives a gradient of exactly 0. Where that branch
    has an infinite slope, sqrt gives 0 (so ``where(x > 0, sqrt(x), 0.0)``
    is safe at 0), but log, divide and pow compute 0 * inf = NaN, as in
    TensorFlow; make their input safe in the untaken branch instead (see
    ``_log_where_positive``).

    >>> where([True, False], 1.0, 2.0).numpy()
    array([1., 2.], dtype=float32)
    """
    (c,) = convert_inputs("where", condition)
    if c._value.dtype != np.bool_:
        raise TypeError(f"where: condition must be a boolean tensor, got {c.dtype.name}")
    if x is None and y is None:
        return Tensor(np.argwhere(c._value))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither")
    x, y = convert_inputs("where", x, y)
    broadcast_shape("where", c._value.shape, x._value.shape, y._value.shape)
    return apply(_where, (c, x, y))


_clip_by_value = Broadcasting(
    "clip_by_value", np.clip,
    vjp=[lambda g, z, x, lo, hi: where(x < lo, 0.0, where(x > hi, 0.0, g)),
         lambda g, z, x, lo, hi: where(x < lo, g, 0.0),
         lambda g, z, x, lo, hi: where(x > hi, g, 0.0)],
    jvp=[lambda t, z, x, lo, hi: where(x < lo, 0.0, where(x > hi, 0.0, t)),
         lambda t, z, x, lo, hi: where(x < lo, t, 0.0),
         lambda t, z, x, lo, hi: where(x > hi, t, 0.0)])


def clip_by_value(t, clip_value_min, clip_value_max):
    """``t`` with values below ``clip_value_min`` or above ``clip_value_max`` set to those bounds.

    The gradient passes where ``min <= t <= max`` and is 0 outside.
    """
    x, lo, hi = convert_inputs("clip_by_value", t, clip_value_min, clip_value_max)
    broadcast_shape("clip_by_value", x._value.shape, lo._value.shape, hi._value.shape)
    if np.any(lo._value > hi._value):
        raise ValueError("clip_by_value: clip_value_min must not be greater than clip_value_max")
    return apply(_clip_by_value, (x, lo, hi))


# -- dtype conversion --------------------------------------------------------------------------
_cast = Primitive("cast", lambda x, dtype: x.astype(dtype),
                  vjp=[lambda g, z, x, dtype: cast(g, x._value.dtype)],
                  jvp=[lambda t, z, x, dtype: cast(t, dtype)])


def cast(x, dtype):
    """``x`` converted to ``dtype``. Gradients flow between floating dtypes only (as in TF).

    >>> cast([1.7, -1.7], "int32").numpy()
    array([ 1, -1], dtype=int32)
    """
    (x,) = convert_inputs("cast", x)
    dtype = as_dtype(dtype).as_numpy_dtype
    if x._value.dtype == dtype:
        return x
    return apply(_cast, (x,), {"dtype": dtype})


# -- functions without a gradient: comparisons, rounding, argmax ---------------------------------
def _no_gradient(name, numpy_fn, doc):
    """A NumPy function lifted to tensors; its result is a constant to every tape."""
    def op(x, y):
        x, y = convert_inputs(name, x, y)
        if x._value.shape != y._value.shape:
            broadcast_shape(name, x._value.shape, y._value.shape)
        return Tensor(numpy_fn(x._value, y._value))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc + " Elementwise, with a boolean result (no gradient)."
    return op


equal = _no_gradient("equal", np.equal, "x == y.")
not_equal = _no_gradient("not_equal", np.not_equal, "x != y.")
less = _no_gradient("less", np.less, "x < y.")
less_equal = _no_gradient("less_equal", np.less_equal, "x <= y.")
greater = _no_gradient("greater", np.greater, "x > y.")
greater_equal = _no_gradient("greater_equal", np.greater_equal, "x >= y.")


def round(x):  # noqa: A001  (TensorFlow's name)
    """Round to the nearest integer, halves to even (as TF and NumPy do). No gradient: the result
    is a constant to every tape (see the custom-gradients lesson for a straight-through estimator)."""
    return Tensor(np.round(convert_inputs("round", x)[0]._value))


def argmax(input, axis=None, output_type="int64"):
    """The index of the largest element along ``axis`` (default 0). No gradient."""
    values = convert_inputs("argmax", input)[0]._value
    return Tensor(np.asarray(np.argmax(values, axis=axis or 0)).astype(as_dtype(output_type).as_numpy_dtype))


def argmin(input, axis=None, output_type="int64"):
    """The index of the smallest element along ``axis`` (default 0). No gradient."""
    values = convert_inputs("argmin", input)[0]._value
    return Tensor(np.asarray(np.argmin(values, axis=axis or 0)).astype(as_dtype(output_type).as_numpy_dtype))


__all__ = ["negative", "square", "sqrt", "exp", "reciprocal", "log", "log1p", "sin", "cos", "tan", "tanh", "sigmoid",
           "abs", "sign", "relu", "add", "subtract", "multiply", "divide", "multiply_no_nan", "divide_no_nan",
           "maximum", "minimum", "pow", "squared_difference", "where", "clip_by_value", "cast", "equal", "not_equal",
           "less", "less_equal", "greater", "greater_equal", "round", "argmax", "argmin"]
