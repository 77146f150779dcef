"""What a gradient or a JVP is for a value the result does not depend on: ``None`` or zeros.

Shared by :class:`~minitape.GradientTape` and
:class:`~minitape.autodiff.ForwardAccumulator`, as in TensorFlow.

>>> unconnected_mode("zero")
<UnconnectedGradients.ZERO: 'zero'>
"""

import enum
import warnings

from .ops import zeros


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on: ``None`` or zeros."""

    NONE = "none"
    ZERO = "zero"


def unconnected_mode(value):
    """``value`` (an :class:`UnconnectedGradients` or its string) as an :class:`UnconnectedGradients`."""
    try:
        return UnconnectedGradients(value.value if isinstance(value, UnconnectedGradients) else value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}; use mt.UnconnectedGradients.NONE "
                         f"(or 'none') to get None, or mt.UnconnectedGradients.ZERO (or 'zero') to get "
                         f"zeros") from None


def warn_not_floating(role, t):
    """Warn that the ``role`` tensor ``t`` ("target" or "source") has an integer or boolean dtype, so its gradient
    is None, as TensorFlow does. The warning points at the caller of ``gradient`` or ``jacobian``."""
    warnings.warn(f"The dtype of the {role} tensor must be floating (e.g. mt.float32) when calling "
                  f"GradientTape.gradient, got {t.dtype.name}; its gradient is None.", stacklevel=4)


def final_results(grads, sources, mode, shape=lambda s: s.array.shape):
    """The answer for each source: its gradient, or None for a non-floating source (with a warning), and for an
    unconnected one None or, in ``ZERO`` mode, zeros of ``shape(source)`` in the source's dtype."""
    out = []
    for g, s in zip(grads, sources):
        if s.array.dtype.kind != "f":  # NumPy's kind, as the tape's `record` reads it
            warn_not_floating("source", s)
            g = None
        if g is None and mode is UnconnectedGradients.ZERO:  # integer sources get integer zeros
            g = zeros(shape(s), dtype=s.dtype)
        out.append(g)
    return out
