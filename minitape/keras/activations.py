"""``mt.keras.activations``: the functions a layer applies to its output, by name or as functions.

>>> get("relu")([-1.0, 2.0]).numpy()
array([0., 2.], dtype=float32)

``softmax`` and ``sigmoid`` remember the logits they were given, as Keras's
do: a cross-entropy loss told ``from_logits=False`` then computes from those
logits, which is exact where the probabilities round to 0 or 1 (see
:func:`logits_behind` and ``losses.py``).
"""

import weakref

from ..ops import gelu as _gelu, relu as _relu, sigmoid as _sigmoid, softmax as _softmax, tanh as _tanh
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


def relu(x):
    """``max(x, 0)``."""
    return _relu(x)


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


_BY_NAME = {"relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh, "gelu": gelu, "linear": linear}


def get(identifier):
    """The activation called ``identifier``; a function is returned as it is, and None means :func:`linear`.

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


__all__ = ["relu", "sigmoid", "softmax", "tanh", "gelu", "linear", "get"]
__getattr__ = missing_names("mt.keras.activations", __all__)
