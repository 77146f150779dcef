"""Elementwise math: each op declared once, with its NumPy forward and its derivative.

This module holds the declarations' machinery (:func:`unary`, :func:`binary`) and arithmetic: +, -, *, /,
powers, exp, log, sqrt, abs, maximum, where, clipping, add_n. :mod:`.transcendental` declares the trigonometric
functions and the others with the same machinery; :mod:`.comparisons` holds the functions without a gradient.

Read a declaration as calculus. For ``y = sin(x)``, ``dy/dx = cos(x)``, and
the declaration says ``lambda s, y, x: s * cos(x)``: a change ``s`` of ``x``
moves ``y`` by ``s * cos(x)``. Both derivative rules follow from it:

* JVP (forward mode): a tangent ``t`` of ``x`` arrives at ``y`` as ``t * cos(x)``;
* VJP (reverse mode): the gradient ``g`` arriving at ``y`` leaves as ``g * cos(x)``.

They are the same function because an elementwise op's Jacobian is
diagonal, so it is its own transpose. ``y`` is the op's output. The rules use
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

from ..dtypes import ALL, FLOATING, NUMBERS, SIGNED
from ..primitive import Primitive, apply
from .arguments import broadcast_shape, check_dtype, convert_inputs, float_constant
from ..tensor import Tensor
from .casting import cast
from .creation import zeros_like
from .broadcasting import Broadcasting
from .exports import export, exported


# Performance (benchmarks/README.md): every op of this module takes every float dtype, so only other dtypes are
# looked up; float32, the default, is recognised by identity, which is cheaper than reading `.kind`.
_FLOAT32 = np.dtype(np.float32)


def checked_input(op_name, x, allowed):
    """``x`` as a tensor, if its dtype is a float or one of ``allowed``; else check_dtype's TypeError."""
    if type(x) is not Tensor:
        (x,) = convert_inputs(op_name, x)
    dtype = x.array.dtype
    return x if dtype is _FLOAT32 or dtype.kind == "f" else check_dtype(op_name, x, allowed)


def _as_float(x):
    """An integer tensor as TensorFlow's true division sees it: float32 for 8- and 16-bit integers, else float64."""
    return cast(x, "float32" if x.array.dtype.itemsize <= 2 else "float64")


DECLARED = {}  # name -> op, in the order declared: the ops of this module, then transcendental.py's
# Where an elementwise op is found unless its declaration says otherwise: TensorFlow's top level and tf.math, and
# PyTorch's and jax.numpy's top levels, under the same name (mt.sin, mt.math.sin, torch.sin, jnp.sin).
ELEMENTWISE = ("tf", "tf.math", "torch", "jnp")


def unary(name, forward, derivative, doc, keeps="inputs", dtypes=FLOATING, linear=False, gradient=None,
          names=ELEMENTWISE):
    """Declare the elementwise op ``name(x)``: its NumPy ``forward`` and its ``derivative``, once.

    ``derivative(s, y, x)`` is how a small change ``s`` of ``x`` moves the
    output ``y``: ``s * dy/dx``, linear in ``s``. Since the op works on each
    element alone, the same function is both rules: the JVP (``s`` is the
    tangent ``t`` of ``x``) and the VJP (``s`` is the gradient ``g`` of ``y``).
    ``linear`` ops take the op itself as their JVP. ``gradient(g, y, x)``,
    if given, replaces the VJP where TensorFlow's gradient differs from its
    tangent (sqrt). ``dtypes`` are the dtypes it accepts (TensorFlow's:
    :data:`~minitape.dtypes.FLOATING` for sin). ``doc`` becomes the op's docstring; ``names``
    are the namespaces it is found in (:mod:`.exports`).
    """
    prim = Primitive(name, forward, vjp=[gradient or derivative], jvp="linear" if linear else [derivative],
                     keeps=keeps)

    def op(x):
        return apply(prim, (checked_input(name, x, dtypes),))

    return _declared(op, name, prim, doc, names)


def binary(name, forward, derivatives, doc, keeps="inputs", dtypes=NUMBERS, linear=False, divides=False,
           names=ELEMENTWISE):
    """Declare the broadcasting elementwise op ``name(x, y)``, with one ``derivative(s, z, x, y)`` per input.

    As for :func:`unary`: ``derivatives[0]`` is ``s * dz/dx`` and
    ``derivatives[1]`` is ``s * dz/dy``, each both the JVP of its input and
    its VJP; :class:`~minitape.ops.shapes.Broadcasting` sums a gradient back
    to its input's shape. An op that ``divides`` as TensorFlow's true
    division does turns integers into floats first (:func:`_as_float`).
    """
    prim = Broadcasting(name, forward, vjp=list(derivatives), jvp="linear" if linear else list(derivatives),
                        keeps=keeps)

    def op(x, y):
        if type(y) is float and type(x) is Tensor and ((dtype := x.array.dtype) is _FLOAT32 or dtype.kind == "f"):
            y = float_constant(y, dtype)  # `x * 0.5`: the commonest case, converted directly
        else:
            if type(x) is not Tensor or type(y) is not Tensor or (dtype := x.array.dtype) != y.array.dtype:
                x, y = convert_inputs(name, x, y)
                dtype = x.array.dtype
            if dtype is not _FLOAT32 and dtype.kind != "f":
                check_dtype(name, x, dtypes)
                if divides and dtype.kind in "iu":
                    x, y = _as_float(x), _as_float(y)
        try:
            return apply(prim, (x, y))
        except ValueError:  # checked only on failure: most calls have compatible shapes
            broadcast_shape(name, x.array.shape, y.array.shape)
            raise

    return _declared(op, name, prim, doc, names)


def _declared(op, name, prim, doc, names):
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    op.primitive = prim
    DECLARED[name] = op
    return export(op, names)


# One line per op: name, NumPy forward, derivative (s times the local derivative), docstring. The derivatives use
# the ops of this module, including ones declared further down: they run only when a derivative is computed.
negative = unary("negative", np.negative, lambda s, y, x: -s, "-x, elementwise.",
                 keeps="nothing", dtypes=SIGNED, linear=True, names=("tf", "tf.math", "torch", "torch:neg", "jnp"))
square = unary("square", np.square, lambda s, y, x: s * (2.0 * x), "x * x, elementwise.", dtypes=NUMBERS)
# TensorFlow's gradient of sqrt is 0 wherever g is 0 (multiply_no_nan, see above); its tangent is 0.5 * (t / y),
# NaN for a zero tangent at 0.
sqrt = unary("sqrt", np.sqrt, lambda s, y, x: 0.5 * (s / y), "The square root, elementwise.", keeps="output",
             gradient=lambda g, y, x: multiply_no_nan(0.5 / y, g))
exp = unary("exp", np.exp, lambda s, y, x: s * y, "e ** x, elementwise: ``mt.exp(0.0)`` is 1.0.", keeps="output")
reciprocal = unary("reciprocal", np.reciprocal, lambda s, y, x: multiply_no_nan(-y * y, s), "1 / x, elementwise.",
                   keeps="output")
log = unary("log", np.log, lambda s, y, x: s * reciprocal(x), "The natural logarithm, elementwise.")
log1p = unary("log1p", np.log1p, lambda s, y, x: s * reciprocal(1.0 + x), "log(1 + x), accurate for small x.")
abs = unary("abs", np.abs, lambda s, y, x: s * sign(x), "|x|; its gradient at 0 is 0.",  # noqa: A001
            dtypes=SIGNED)
sign = unary("sign", np.sign, lambda s, y, x: zeros_like(s), "-1, 0 or 1; its gradient is 0 everywhere.",
             keeps="nothing", dtypes=SIGNED)
relu = unary("relu", lambda x: np.maximum(x, x.dtype.type(0)), lambda s, y, x: where(y > 0, s, 0.0),
             "max(x, 0); its gradient at 0 is 0.", keeps="output", dtypes=NUMBERS,
             names=("tf", "tf.nn", "torch", "torch.nn.functional", "jax.nn"))

add = binary("add", np.add, (lambda s, z, x, y: s, lambda s, z, x, y: s), "x + y, broadcasting like NumPy.",
             linear=True)
subtract = binary("subtract", np.subtract, (lambda s, z, x, y: s, lambda s, z, x, y: -s),
                  "x - y, broadcasting like NumPy.", linear=True, names=("tf", "tf.math", "torch", "torch:sub", "jnp"))
multiply = binary("multiply", np.multiply, (lambda s, z, x, y: s * y, lambda s, z, x, y: x * s),
                  "x * y, broadcasting like NumPy (for booleans: and).", dtypes=ALL,
                  names=("tf", "tf.math", "torch", "torch:mul", "jnp"))
divide = binary("divide", np.true_divide, (lambda s, z, x, y: s / y, lambda s, z, x, y: s * (-x / y / y)),
                "x / y (true division), broadcasting like NumPy. Integers are divided as floats: float32 for "
                "8- and 16-bit ones, float64 for the others, as in TensorFlow.", divides=True,
                names=("tf", "tf.math", "tf.math:truediv", "torch", "torch:div", "torch:true_divide", "jnp",
                       "jnp:true_divide"))


def _multiply_no_nan(x, y):
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)), np.result_type(x, y))
    return np.multiply(x, y, out=out, where=y != 0)  # never computes inf * 0 or NaN * 0: no warning


def _divide_no_nan(x, y):
    out = np.zeros(np.broadcast_shapes(np.shape(x), np.shape(y)), np.result_type(x, y))
    return np.divide(x, y, out=out, where=y != 0)


# x * y and x / y, but 0 wherever y is 0 (TensorFlow's names and gradient rules; floats only, as there)
multiply_no_nan = binary("multiply_no_nan", _multiply_no_nan,
                         (lambda s, z, x, y: multiply_no_nan(s, y), lambda s, z, x, y: multiply_no_nan(x, s)),
                         "x * y, but 0 wherever y is 0, even where x is inf or NaN.\n\n"
                         "    >>> multiply_no_nan([float('inf'), 2.0], [0.0, 3.0]).numpy()\n"
                         "    array([0., 6.], dtype=float32)", dtypes=FLOATING, names=("tf", "tf.math"))
divide_no_nan = binary("divide_no_nan", _divide_no_nan,
                       (lambda s, z, x, y: divide_no_nan(s, y),
                        lambda s, z, x, y: s * divide_no_nan(divide_no_nan(-x, y), y)),
                       "x / y, but 0 wherever y is 0.\n\n"
                       "    >>> divide_no_nan([1.0, 0.0, 3.0], [0.0, 0.0, 2.0]).numpy()\n"
                       "    array([0. , 0. , 1.5], dtype=float32)", divides=True, names=("tf", "tf.math"))
maximum = binary("maximum", np.maximum,  # a tie sends the gradient to x, as in TensorFlow
                 (lambda s, z, x, y: where(x >= y, s, 0.0), lambda s, z, x, y: where(x >= y, 0.0, s)),
                 "The larger of x and y; on a tie the gradient goes to x.")
minimum = binary("minimum", np.minimum,
                 (lambda s, z, x, y: where(x <= y, s, 0.0), lambda s, z, x, y: where(x <= y, 0.0, s)),
                 "The smaller of x and y; on a tie the gradient goes to x.")


def _log_where_positive(x):
    """log(x) where x > 0 and 0 elsewhere: the factor in d(x**y)/dy, safe at x <= 0 (as in TF)."""
    positive = x > 0
    return where(positive, log(where(positive, x, 1.0)), 0.0)


def _power(x, y):
    if x.dtype.kind in "iu" and np.any(y < 0):
        raise ValueError("pow: an integer to a negative power is not an integer; convert to floats first, e.g. "
                         "mt.cast(x, mt.float32)")
    return np.power(x, y)


pow = binary("pow", _power,  # noqa: A001  (TensorFlow's name)
             (lambda s, z, x, y: s * y * x ** (y - 1.0), lambda s, z, x, y: s * z * _log_where_positive(x)),
             "x ** y; the gradient for y uses log(x), taken as 0 where x <= 0.", keeps="both", dtypes=SIGNED,
             names=("tf", "tf.math", "torch", "jnp:power", "jnp:pow"))


def _integer_division(numpy_fn):
    """``numpy_fn`` (floor division or its remainder), refusing an integer division by zero as TensorFlow does."""
    def forward(x, y):
        if x.dtype.kind in "iu" and not np.all(y):
            raise ValueError("integer division by zero: a divisor is 0 (for floats the result would be inf or NaN; "
                             "for integers there is none)")
        return numpy_fn(x, y)
    return forward


# floordiv(x, y) is a step function, so it has no gradient (None, as in TensorFlow); floormod(x, y) is
# x - floordiv(x, y) * y, whose slope is 1 in x and -floordiv(x, y) in y between the steps.
floormod = binary("floormod", _integer_division(np.mod),
                  (lambda s, z, x, y: s, lambda s, z, x, y: s * -floordiv(x, y)),
                  "x % y: the remainder of the floor division, with the sign of y (as Python's %).\n\n"
                  "    >>> floormod([7, -7], 3).numpy()\n"
                  "    array([1, 2], dtype=int32)",
                  names=("tf", "tf.math", "tf.math:mod", "torch:remainder", "jnp:mod", "jnp:remainder"))


@exported("tf", "tf.math")
def squared_difference(x, y):
    """(x - y) ** 2, elementwise.

    >>> squared_difference(0.75, 0.5).numpy()
    np.float32(0.0625)
    """
    x, y = convert_inputs("squared_difference", x, y)
    check_dtype("squared_difference", x, _SQUARED_DIFFERENCE)
    return square(subtract(x, y))


_SQUARED_DIFFERENCE = FLOATING | {np.dtype(np.int32), np.dtype(np.int64)}  # TensorFlow's kernels


# -- where and clipping -----------------------------------------------------------------------
# where and clip_by_value are elementwise too: each derivative is both rules, as for the ops declared above.
_where_derivatives = [None, lambda s, z, c, x, y: where(c, s, 0.0), lambda s, z, c, x, y: where(c, 0.0, s)]
_where = Broadcasting("where", np.where, vjp=_where_derivatives, jvp=_where_derivatives)


@exported("tf")
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
    if c.array.dtype != np.bool_:
        raise TypeError(f"where: condition must be a boolean tensor, got {c.dtype.name}")
    if x is None and y is None:
        return Tensor(np.argwhere(c.array))
    if x is None or y is None:
        raise ValueError("where: give both x and y, or neither")
    x, y = convert_inputs("where", x, y)
    broadcast_shape("where", c.array.shape, x.array.shape, y.array.shape)
    return apply(_where, (c, x, y))


_clip_derivatives = [lambda s, z, x, lo, hi: where(x < lo, 0.0, where(x > hi, 0.0, s)),
                     lambda s, z, x, lo, hi: where(x < lo, s, 0.0),
                     lambda s, z, x, lo, hi: where(x > hi, s, 0.0)]
_clip_by_value = Broadcasting("clip_by_value", np.clip, vjp=_clip_derivatives, jvp=_clip_derivatives)


@exported("tf")
def clip_by_value(t, clip_value_min, clip_value_max):
    """``t`` with values below ``clip_value_min`` or above ``clip_value_max`` set to those bounds.

    The gradient passes where ``min <= t <= max`` and is 0 outside.
    """
    x, lo, hi = convert_inputs("clip_by_value", t, clip_value_min, clip_value_max)
    broadcast_shape("clip_by_value", x.array.shape, lo.array.shape, hi.array.shape)
    if np.any(lo.array > hi.array):
        raise ValueError("clip_by_value: clip_value_min must not be greater than clip_value_max")
    return apply(_clip_by_value, (x, lo, hi))


# -- floordiv, without a gradient (the others are in comparisons.py) ----------------------------------------
def no_gradient(name, numpy_fn, doc, dtypes=NUMBERS, names=("tf", "tf.math")):
    """A NumPy function of two tensors lifted to tensors; its result is a constant to every tape."""
    def op(x, y):
        x, y = convert_inputs(name, x, y)
        check_dtype(name, x, dtypes)
        if x.array.shape != y.array.shape:
            broadcast_shape(name, x.array.shape, y.array.shape)
        return Tensor(numpy_fn(x.array, y.array))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc + " Elementwise, broadcasting like NumPy; no gradient."
    return export(op, names)


floordiv = no_gradient("floordiv", _integer_division(np.floor_divide),
                       "x // y: rounded down (7 // 2 is 3, -7 // 2 is -4), in the dtype of x and y.")


# -- scalar_mul and add_n ----------------------------------------------------------------------------------
@exported("tf", "tf.math")
def scalar_mul(scalar, x, name=None):
    """``scalar * x``, where ``scalar`` must be a scalar (TensorFlow checks that; ``multiply`` broadcasts).

    >>> scalar_mul(2.0, [1.0, 3.0]).numpy()
    array([2., 6.], dtype=float32)
    """
    scalar, x = convert_inputs("scalar_mul", scalar, x)
    if scalar.array.ndim != 0:
        raise ValueError(f"scalar_mul: scalar must be a scalar (shape ()), got shape {scalar.array.shape}; "
                         f"use mt.multiply to broadcast")
    return multiply(scalar, x)


def _add_all(*xs):
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total


_add_n = Primitive("add_n", _add_all, keeps="nothing", jvp="linear",
                   vjp=lambda g, ans, *xs: [g] * len(xs))  # each input moves the sum one for one


@exported("tf", "tf.math")
def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype (no broadcasting, as in TensorFlow).

    >>> add_n([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).numpy()
    array([ 9., 12.], dtype=float32)
    """
    if isinstance(inputs, Tensor):
        inputs = list(inputs)  # a tensor is a list of its rows, as in TensorFlow
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError(f"add_n: inputs must be a non-empty list of tensors of one shape and dtype, got {inputs!r}")
    xs = convert_inputs("add_n", *inputs)
    if len({x.array.dtype for x in xs}) > 1:
        raise TypeError(f"add_n: all inputs must have one dtype, got {', '.join(x.dtype.name for x in xs)}; convert "
                        f"them first, e.g. mt.cast(x, mt.float32)")
    if len({x.array.shape for x in xs}) > 1:
        raise ValueError(f"add_n: all inputs must have the same shape (add_n does not broadcast), got "
                         f"{', '.join(str(x.array.shape) for x in xs)}; use mt.add to broadcast")
    return xs[0] if len(xs) == 1 else apply(_add_n, xs)


# The ops declared above (transcendental.py declares more into DECLARED), then the others.
