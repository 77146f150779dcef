"""``mt.keras.activations``: the functions a layer applies to its output, by name or as functions.

>>> get("relu")([-1.0, 2.0]).numpy()
array([0., 2.], dtype=float32)

``softmax`` and ``sigmoid`` remember the logits they were given, as Keras's
do: a cross-entropy loss told ``from_logits=False`` then computes from those
logits, which is exact where the probabilities round to 0 or 1 (see
:func:`logits_behind` and ``losses.py``).
"""

import weakref

from ..ops import (cast, clip_by_value, elu as _elu, exp as _exp, gelu as _gelu, leaky_relu as _leaky_relu,
                   log_softmax as _log_softmax, relu as _relu, relu6 as _relu6, selu as _selu, sigmoid as _sigmoid,
                   softmax as _softmax, softplus as _softplus, softsign as _softsign, swish as _swish, tanh as _tanh,
                   where)
from ..tensor import convert_to_tensor
from .namespace import missing_names

_LOGITS = {}  # id of a softmax or sigmoid output -> the logits it was computed from, while the output lives


def _remember_logits(output, logits):
    _LOGITS[output.id] = logits
    weakref.finalize(output, _LOGITS.pop, output.id, None)
    return output


def logits_behind(output):
    """The logits that :func:`softmax` or :func:`sigmoid` turned into ``output``, or None for any other tensor.

    >>> logits = convert_to_tensor([0.0, 1.0])
    >>> logits_behind(softmax(logits)) is logits, logits_behind(logits)
    (True, None)
    """
    return _LOGITS.get(getattr(output, "id", None))


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``; with its keyword arguments, Keras's general rectifier.

    ``threshold``: values at or below it become 0 (instead of the values
    below 0); ``max_value``: the output is at most it; ``negative_slope``:
    below the threshold the output is ``negative_slope * (x - threshold)``
    instead of 0 (a leaky ReLU).

    >>> relu([-10.0, -5.0, 0.0, 5.0, 10.0], negative_slope=0.5, max_value=5.0, threshold=1.0).numpy()
    array([-5.5, -3. , -0.5,  5. ,  5. ], dtype=float32)
    """
    x = convert_to_tensor(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return _leaky_relu(x, alpha=negative_slope)
    if threshold != 0:
        below = _relu(-x + threshold)  # how far below the threshold each value is
        x = where(x > cast(threshold, x.dtype), x, 0.0)
    else:
        below = _relu(-x)
        x = _relu(x)
    if max_value is not None:
        x = clip_by_value(x, cast(0.0, x.dtype), cast(max_value, x.dtype))
    if negative_slope != 0.0:
        x = x - negative_slope * below
    return x


def leaky_relu(x, negative_slope=0.2):
    """``x`` above 0, ``negative_slope * x`` below: a ReLU whose gradient below 0 is not 0."""
    return _leaky_relu(x, alpha=negative_slope)


def relu6(x):
    """``min(max(x, 0), 6)``."""
    return _relu6(x)


def elu(x, alpha=1.0):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below: a ReLU that is smooth at 0 when ``alpha`` is 1.

    >>> elu([-1.0, 2.0], alpha=2.0).numpy()
    array([-1.2642411,  2.       ], dtype=float32)
    """
    x = convert_to_tensor(x)
    return _elu(x) if alpha == 1.0 else where(x > 0.0, x, alpha * _elu(x))


def selu(x):
    """The scaled ELU of Klambauer et al. (2017), whose constants keep a layer's outputs at mean 0, variance 1."""
    return _selu(x)


def softplus(x):
    """``log(1 + exp(x))``, a smooth ReLU."""
    return _softplus(x)


def softsign(x):
    """``x / (1 + |x|)``, between -1 and 1."""
    return _softsign(x)


def silu(x):
    """``x * sigmoid(x)`` (also called swish)."""
    return _swish(x)


def exponential(x):
    """``exp(x)``."""
    return _exp(x)


def log_softmax(x, axis=-1):
    """``x - log(sum(exp(x)))`` along ``axis``: the log of :func:`softmax`, computed without rounding to 0."""
    return _log_softmax(x, axis=axis)


def sigmoid(x):
    """``1 / (1 + exp(-x))``, a probability; the output remembers ``x`` (see :func:`logits_behind`)."""
    x = convert_to_tensor(x)
    return _remember_logits(_sigmoid(x), x)


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis``; the output remembers ``x`` (see :func:`logits_behind`).

    >>> softmax([[0.0, 0.0]]).numpy()
    array([[0.5, 0.5]], dtype=float32)
    """
    x = convert_to_tensor(x)
    return _remember_logits(_softmax(x, axis=axis), x)


def tanh(x):
    """The hyperbolic tangent, between -1 and 1."""
    return _tanh(x)


def gelu(x, approximate=False):
    """``x`` times the chance that a standard normal is below ``x`` (Hendrycks and Gimpel 2016); ``approximate``
    uses the tanh formula instead of erf."""
    return _gelu(x, approximate=approximate)


def linear(x):
    """``x`` itself, unchanged: no activation (what ``activation=None`` means)."""
    return x


swish = silu

_BY_NAME = {f.__name__: f for f in [relu, leaky_relu, relu6, elu, selu, softplus, softsign, silu, exponential,
                                    sigmoid, softmax, log_softmax, tanh, gelu, linear]}
_BY_NAME["swish"] = silu


def get(identifier):
    """The activation called ``identifier``; a function is returned as it is, and None means :func:`linear`.

    Names work wherever Keras takes an activation: ``Dense(4, activation="elu")``.

    >>> get(None) is linear, get("tanh") is tanh
    (True, True)
    """
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret activation function identifier: {identifier!r}; minitape's Keras "
                         f"has {', '.join(_BY_NAME)}, or pass any function of a tensor")
    return _BY_NAME[identifier]


__all__ = [*_BY_NAME, "get"]
__getattr__ = missing_names("mt.keras.activations", __all__)
