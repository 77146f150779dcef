"""What a gradient or a JVP is for a value the result does not depend on: ``None`` or zeros.

Shared by :class:`~minitape.GradientTape` and
:class:`~minitape.autodiff.ForwardAccumulator`, as in TensorFlow.

>>> unconnected_mode("zero")
<UnconnectedGradients.ZERO: 'zero'>
"""

import enum


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
