"""The transcendental functions beyond exp and log (which the rules of arithmetic use, so they are in
:mod:`.elementwise`): trigonometric and hyperbolic functions and their inverses, sigmoid, softplus and
log_sigmoid, expm1, erf and erfc, lgamma and digamma, atan2 and xlogy.

Each is declared as the ops of :mod:`.elementwise` are, one line with its derivative: read that module's
note first.
"""

import math

import numpy as np

from ..dtypes import FLOATING
from ..primitive import Primitive, apply
from . import elementwise
from .casting import cast
from .comparisons import not_equal
from .elementwise import DECLARED, binary, checked_input, exp, reciprocal, sqrt, square, unary, where
from .exports import exported


# -- trigonometric functions, tanh and sigmoid ------------------------------------------------------------
def _stable_sigmoid(x):
    """1 / (1 + e**-x) without overflow: e**-|x| is at most 1."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


sin = unary("sin", np.sin, lambda s, y, x: s * cos(x), "Sine (radians).")
cos = unary("cos", np.cos, lambda s, y, x: s * -sin(x), "Cosine (radians).")
tan = unary("tan", np.tan, lambda s, y, x: square(reciprocal(cos(x))) * s, "Tangent (radians).")
atan = unary("atan", np.arctan, lambda s, y, x: s * reciprocal(1.0 + square(x)),
             "The inverse tangent (radians, between -pi/2 and pi/2).",
             names=("tf", "tf.math", "torch", "torch:arctan", "jnp:arctan"))
tanh = unary("tanh", np.tanh, lambda s, y, x: s * (1.0 - y * y), "Hyperbolic tangent.", keeps="output",
             names=("tf", "tf.math", "tf.nn", "torch", "torch.nn.functional", "jnp", "jax.nn"))
sigmoid = unary("sigmoid", _stable_sigmoid, lambda s, y, x: s * y * (1.0 - y),
                "1 / (1 + e ** -x), computed without overflow.", keeps="output",
                names=("tf", "tf.math", "tf.nn", "torch", "torch.nn.functional", "jax.nn"))


# -- softplus --------------------------------------------------------------------------------------------
softplus = unary("softplus", lambda x: np.logaddexp(0, x), lambda s, y, x: s * sigmoid(x),
                 "log(1 + e ** x), computed without overflow; its derivative is sigmoid(x).\n\n"
                 "    >>> softplus([0.0, 100.0]).numpy()\n"
                 "    array([  0.6931472, 100.       ], dtype=float32)", names=("tf", "tf.math", "tf.nn", "jax.nn"))


# -- hyperbolic and inverse trigonometric functions, erf, expm1, log_sigmoid ---------------------------------------
# TensorFlow's rules (math_grad.py): asinh's and acosh's use the output (1 / cosh(y), 1 / sinh(y)); asin's and
# acos's are infinite at |x| = 1 and NaN beyond, where the op itself is NaN.
sinh = unary("sinh", np.sinh, lambda s, y, x: s * cosh(x), "Hyperbolic sine.")
cosh = unary("cosh", np.cosh, lambda s, y, x: s * sinh(x), "Hyperbolic cosine.")
asin = unary("asin", np.arcsin, lambda s, y, x: s * reciprocal(sqrt(1.0 - square(x))),
             "The inverse sine (radians, between -pi/2 and pi/2); NaN outside [-1, 1].",
             names=("tf", "tf.math", "torch", "torch:arcsin", "jnp:arcsin"))
acos = unary("acos", np.arccos, lambda s, y, x: -s * reciprocal(sqrt(1.0 - square(x))),
             "The inverse cosine (radians, between 0 and pi); NaN outside [-1, 1].",
             names=("tf", "tf.math", "torch", "torch:arccos", "jnp:arccos"))
asinh = unary("asinh", np.arcsinh, lambda s, y, x: s * reciprocal(cosh(y)), "The inverse hyperbolic sine.",
              keeps="output", names=("tf", "tf.math", "torch", "torch:arcsinh", "jnp:arcsinh"))
acosh = unary("acosh", np.arccosh, lambda s, y, x: s * reciprocal(sinh(y)),
              "The inverse hyperbolic cosine; NaN below 1.", keeps="output",
              names=("tf", "tf.math", "torch", "torch:arccosh", "jnp:arccosh"))
atanh = unary("atanh", np.arctanh, lambda s, y, x: s * reciprocal(1.0 - square(x)),
              "The inverse hyperbolic tangent; infinite at -1 and 1, NaN beyond.",
              names=("tf", "tf.math", "torch", "torch:arctanh", "jnp:arctanh"))
expm1 = unary("expm1", np.expm1, lambda s, y, x: s * exp(x),
              "e ** x - 1, accurate for small x, where e ** x rounds to 1.\n\n"
              "    >>> expm1([1e-10]).numpy()  # exp(1e-10) - 1 is 0 in float32\n"
              "    array([1.e-10], dtype=float32)", names=("tf.math", "torch", "torch.special", "jnp"))
# log(sigmoid(x)) = -softplus(-x): TensorFlow computes it so, without overflow for large |x|.
log_sigmoid = unary("log_sigmoid", lambda x: -np.logaddexp(0, -x), lambda s, y, x: s * sigmoid(-x),
                    "log(1 / (1 + e ** -x)), computed without overflow; its derivative is sigmoid(-x).\n\n"
                    "    >>> log_sigmoid([0.0, -100.0]).numpy()\n"
                    "    array([  -0.6931472, -100.       ], dtype=float32)",
                    names=("tf.math", "torch.nn.functional:logsigmoid", "jax.nn"))


def _each_element(function):
    """A function of one Python float applied to every element: NumPy has no erf or lgamma, Python's math has.

    The result keeps the input's dtype. ``math.lgamma`` refuses its poles (0, -1, -2, ...): there the gamma
    function is infinite, and so is log|gamma|, which is TensorFlow's value too.
    """
    def scalar(v):
        try:
            return function(v)
        except ValueError:
            return math.inf

    on_objects = np.frompyfunc(scalar, 1, 1)
    return lambda x: np.asarray(on_objects(x.astype(np.float64)), np.float64).astype(x.dtype)


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
erf = unary("erf", _each_element(math.erf), lambda s, y, x: s * (_TWO_OVER_SQRT_PI * exp(-square(x))),
            "The error function, 2/sqrt(pi) times the integral of e ** -t**2 from 0 to x.\n\n"
            "    >>> erf([0.0, 1.0]).numpy()\n"
            "    array([0.       , 0.8427008], dtype=float32)",
            names=("tf.math", "torch", "torch.special", "jax.scipy.special"))
erfc = unary("erfc", _each_element(math.erfc), lambda s, y, x: s * (-_TWO_OVER_SQRT_PI * exp(-square(x))),
             "1 - erf(x), accurate where erf(x) is close to 1.",
             names=("tf.math", "torch", "torch.special", "jax.scipy.special"))


# -- lgamma and digamma: the polygamma functions ----------------------------------------------------------------
# Bernoulli numbers B_2, B_4, ..., B_16: the coefficients of the asymptotic series below.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _polygamma_of(x, n):
    """psi^(n)(x), the n-th derivative of digamma (n = 0: digamma itself), in float64 and back to x's dtype.

    How: psi(x) = psi(x + 1) - 1/x, differentiated n times, carries x up to 10 or more, where the asymptotic
    series ln z - 1/(2z) - sum B_2k / (2k z**2k) (for n = 0), or its n-th derivative, is summed to B_16. Its
    first left-out term is below 1e-17 of the result there, so the error is that of float64 rounding: about
    1e-15 relative (absolute, near digamma's zero at 1.4616). Digamma of a negative x comes from the
    reflection psi(x) = psi(1 - x) - pi / tan(pi x); the higher derivatives step up from x instead, one step
    per unit below 10. At the poles (0, -1, -2, ...) digamma is NaN (as in TensorFlow), an odd derivative
    +inf (it is +inf from both sides), an even one NaN (-inf on one side, +inf on the other).
    """
    z = x.astype(np.float64)
    pole = (z <= 0) & (z == np.floor(z))
    with np.errstate(all="ignore"):
        reflected = np.zeros_like(z)
        if n == 0:  # reflection, so that the steps up start from at least 1/2
            negative = z < 0.5
            reflected = np.where(negative & ~pole, -np.pi / np.tan(np.pi * z), 0.0)
            z = np.where(negative, 1.0 - z, z)
        sign, factorial = (-1.0) ** (n + 1), math.factorial(n)
        steps = np.zeros_like(z)
        small = np.isfinite(z) & (z < 10) & ~pole
        while small.any():
            # psi^(n)(z) = psi^(n)(z + 1) - (-1)**n n! / z**(n + 1)
            steps = np.where(small, steps + sign * factorial / z ** (n + 1), steps)
            z = np.where(small, z + 1.0, z)
            small &= z < 10
        if n == 0:
            series = np.log(z) - 0.5 / z
            for k, b in enumerate(_BERNOULLI, 1):
                series -= b / (2 * k * z ** (2 * k))
        else:  # the n-th derivative of the series above, term by term
            series = math.factorial(n - 1) / z ** n + factorial / (2 * z ** (n + 1))
            for k, b in enumerate(_BERNOULLI, 1):
                series += b * math.factorial(2 * k + n - 1) / math.factorial(2 * k) / z ** (2 * k + n)
            series *= sign
        value = np.where(pole, np.inf if n % 2 else np.nan, series + steps + reflected)
    return value.astype(x.dtype)


# d/dx psi^(n)(x) = psi^(n + 1)(x): one primitive, its order n an attribute, gives every derivative of digamma.
_polygamma = Primitive("polygamma", _polygamma_of,
                       vjp=[lambda g, y, x, n: g * apply(_polygamma, (x,), {"n": n + 1})],
                       jvp=[lambda t, y, x, n: t * apply(_polygamma, (x,), {"n": n + 1})])


@exported("tf.math")
def digamma(x, name=None):
    """psi(x), the derivative of lgamma(x) (accuracy: see ``_polygamma_of``); NaN at 0, -1, -2, ...

    >>> digamma(np.float64(1.0)).numpy().round(12)  # minus the Euler-Mascheroni constant, 0.5772156649...
    np.float64(-0.577215664902)
    """
    return apply(_polygamma, (checked_input("digamma", x, FLOATING),), {"n": 0})


digamma.primitive = _polygamma
lgamma = unary("lgamma", _each_element(math.lgamma), lambda s, y, x: s * digamma(x),
               "log|gamma(x)|, the log of the absolute value of the gamma function; inf at 0, -1, -2, ...\n\n"
               "    >>> lgamma([1.0, 5.0]).numpy()  # gamma(5) is 4! = 24\n"
               "    array([0.       , 3.1780539], dtype=float32)",
               names=("tf.math", "torch", "jax.scipy.special:gammaln"))


# -- two-argument functions: atan2, xlogy --------------------------------------------------------------------
# atan2(y, x) is the angle of the point (x, y); TensorFlow's argument order, and its rules: at (0, 0) they
# divide by 0 and give NaN.
atan2 = binary("atan2", np.arctan2, (lambda s, z, y, x: x * (s / (square(x) + square(y))),
                                     lambda s, z, y, x: -y * (s / (square(x) + square(y)))),
               "The angle (radians, between -pi and pi) of the point (x, y): atan(y / x) in the right quadrant.\n\n"
               "    >>> float(atan2(1.0, -1.0))  # 3 pi / 4\n"
               "    2.356194496154785", dtypes=FLOATING,
               names=("tf", "tf.math", "torch", "torch:arctan2", "jnp:arctan2"))


def _xlogy(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, x.dtype.type(0), x * np.log(y))


def _x_over_y_or_zero(x, y):
    """x / y, but 0 wherever x is 0 (TensorFlow's xdivy): d xlogy(x, y) / dy, which has no 0 / 0 at x = 0."""
    nonzero = not_equal(x, 0.0)
    return where(nonzero, x / where(nonzero, y, 1.0), 0.0)


# d/dx of x log y is log y, taken as 0 where x is 0 (TensorFlow's xlogy(x != 0, y)); d/dy is x / y, also 0 there.
xlogy = binary("xlogy", _xlogy, (lambda s, z, x, y: s * xlogy(cast(not_equal(x, 0.0), s.dtype), y),
                                 lambda s, z, x, y: s * _x_over_y_or_zero(x, y)),
               "x * log(y), but 0 wherever x is 0 (even where y is 0): the terms of an entropy.\n\n"
               "    >>> xlogy([0.0, 2.0], [0.0, 1.0]).numpy()\n"
               "    array([0., 0.], dtype=float32)", dtypes=FLOATING,
               names=("tf.math", "torch", "torch.special", "jax.scipy.special"))


# unary and binary make their ops in elementwise.py, so doctest, which looks only in the functions a module defines,
# would not find the examples in the docstrings of this module's ops: they are listed here.
__test__ = {name: op for name, op in DECLARED.items() if name not in vars(elementwise)}
