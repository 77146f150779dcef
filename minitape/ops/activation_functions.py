"""Activations beyond relu, sigmoid and tanh (which are elementwise ops): elu, swish (silu), relu6, leaky_relu,
selu, softsign and gelu.

Each is a primitive whose derivative rule is written beside it, except swish and gelu, written with the
ops they are made of, as TensorFlow writes them.
"""


import numpy as np

from ..dtypes import NUMBERS
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs, float_input
from .elementwise import abs, cast, pow, reciprocal, where  # noqa: A004
from .transcendental import erfc, sigmoid, tanh
from .exports import exported


# -- activations: elu and swish -------------------------------------------------------------------------
# For x < 0, elu's slope e**x is y + 1; at 0 the slope is 1, as in TensorFlow.
_elu_derivative = [lambda s, y, x: where(y < 0, s * (y + 1.0), s)]
_elu = Primitive("elu", lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))), keeps="output",
                 vjp=_elu_derivative, jvp=_elu_derivative)


@exported("tf.nn")
def elu(features, name=None):
    """The exponential linear unit: ``x`` for ``x > 0``, ``e**x - 1`` otherwise.

    >>> elu([-1.0, 0.0, 2.0]).numpy()
    array([-0.63212055,  0.        ,  2.        ], dtype=float32)
    """
    return apply(_elu, (float_input("elu", features, "features"),))


@exported("tf.nn:silu", "tf.nn")
def swish(features, beta=1.0):
    """``x * sigmoid(beta * x)`` (also called SiLU); ``beta`` may be a tensor that learns.

    >>> swish([0.0, 2.0]).numpy()
    array([0.      , 1.761594], dtype=float32)
    """
    x = float_input("swish", features, "features")
    return x * sigmoid(beta * x)


silu = swish


# -- activations: relu6, leaky_relu, selu, softsign, gelu -------------------------------------------------------------
# TensorFlow's rules (nn_grad.py): relu6's slope is 0 at both kinks, 0 and 6; leaky_relu's is alpha at 0.
_relu6_derivative = [lambda s, y, x: where(x > 0.0, where(x < 6.0, s, 0.0), 0.0)]
_relu6 = Primitive("relu6", lambda x: np.clip(x, 0, 6).astype(x.dtype), vjp=_relu6_derivative,
                   jvp=_relu6_derivative)


@exported("tf.nn")
def relu6(features, name=None):
    """min(max(x, 0), 6): a relu capped at 6; its gradient is 0 at 0 and at 6.

    >>> relu6([-1.0, 3.0, 8.0]).numpy()
    array([0., 3., 6.], dtype=float32)
    """
    (x,) = convert_inputs("relu6", features)
    if x.array.dtype.kind != "f":
        check_dtype("relu6", x, NUMBERS)
    return apply(_relu6, (x,))


_leaky_relu_derivative = [lambda s, y, x, alpha: where(x > 0.0, s, s * alpha)]
_leaky_relu = Primitive("leaky_relu", lambda x, alpha: np.where(x > 0, x, x * x.dtype.type(alpha)),
                        vjp=_leaky_relu_derivative, jvp=_leaky_relu_derivative)


@exported("tf.nn")
def leaky_relu(features, alpha=0.2, name=None):
    """``x`` for ``x > 0``, ``alpha * x`` otherwise; integers become float32, as in TensorFlow.

    >>> leaky_relu([-1.0, 2.0]).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    (x,) = convert_inputs("leaky_relu", features)
    if x.array.dtype.kind in "iu":
        x = cast(x, "float32")
    return apply(_leaky_relu, (float_input("leaky_relu", x, "features"),), {"alpha": float(alpha)})


# selu(x) = scale * x for x > 0, scale * alpha * (e**x - 1) otherwise, with the constants that keep a layer's
# mean and variance fixed (Klambauer et al., 2017). For x < 0 the slope scale * alpha * e**x is y + scale * alpha.
_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
_selu_derivative = [lambda s, y, x: where(y < 0.0, s * (y + _SELU_SCALE * _SELU_ALPHA), s * _SELU_SCALE)]
_selu = Primitive(
    "selu", lambda x: (_SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(np.minimum(x, 0)))).astype(x.dtype),
    keeps="output", vjp=_selu_derivative, jvp=_selu_derivative)


@exported("tf.nn")
def selu(features, name=None):
    """The scaled exponential linear unit: ``scale * x`` for x > 0, ``scale * alpha * (e**x - 1)`` otherwise.

    >>> selu([0.0, 1.0]).numpy()
    array([0.      , 1.050701], dtype=float32)
    """
    return apply(_selu, (float_input("selu", features, "features"),))


_softsign_derivative = [lambda s, y, x: s * reciprocal((1.0 + abs(x)) * (1.0 + abs(x)))]
_softsign = Primitive("softsign", lambda x: x / (1 + np.abs(x)), vjp=_softsign_derivative,
                      jvp=_softsign_derivative)


@exported("tf.math", "tf.nn")
def softsign(features, name=None):
    """x / (1 + |x|): like tanh, between -1 and 1, but approaching them slowly.

    >>> softsign([-1.0, 3.0]).numpy()
    array([-0.5 ,  0.75], dtype=float32)
    """
    return apply(_softsign, (float_input("softsign", features, "features"),))


@exported("tf.nn")
def gelu(features, approximate=False, name=None):
    """The Gaussian error linear unit, ``x`` times the normal distribution's CDF at x: ``x/2 erfc(-x/sqrt 2)``.

    With ``approximate=True``, TensorFlow's tanh approximation,
    ``x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3)))``. Written with the ops
    it is made of, as TensorFlow writes it: its derivatives are theirs.

    >>> gelu([-1.0, 0.0, 1.0]).numpy()
    array([-0.15865526,  0.        ,  0.8413447 ], dtype=float32)
    """
    (x,) = convert_inputs("gelu", features)
    if x.array.dtype.kind != "f":
        raise ValueError(f"gelu: features must be floating-point, got {x.dtype.name}; convert them first, e.g. "
                         f"mt.cast(x, mt.float32)")
    if approximate:
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * pow(x, 3.0))))
    return 0.5 * x * erfc(-x * 0.7071067811865476)
