"""``mt.keras.regularizers``: penalties on a layer's weights or outputs, added to the loss by the training loop.

A regularizer is a function of a tensor that gives a number. Given to a
layer (``Dense(4, kernel_regularizer=l2(0.01))``), it appears in
``layer.losses`` and ``model.losses``, and the loop adds their sum to its
loss inside the tape, so that the penalty's gradient pulls the weights
towards 0::

    with mt.GradientTape() as tape:
        loss = loss_fn(y, model(x)) + sum(model.losses)

>>> float(L2(0.5)(convert_to_tensor([1.0, -2.0])))  # 0.5 * (1 + 4)
2.5
>>> float(l1_l2(l1=0.1, l2=0.0)(convert_to_tensor([1.0, -2.0])))  # 0.1 * (1 + 2)
0.30000001192092896
"""

import math

from ..ops import abs as _abs, cast, reduce_sum, square
from ..tensor import convert_to_tensor
from .namespace import missing_names


def _penalty(value, name):
    """``value`` as a float, refused unless it is a finite number of at least 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float. Received: "
                         f"{name}={value!r}")
    return float(value)


class Regularizer:
    """What every regularizer is: ``regularizer(x)`` gives a scalar penalty for the tensor ``x``."""

    def __call__(self, x):
        return 0.0


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x**2)``: the L1 part pushes weights to exactly 0, the L2 part keeps them small."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _penalty(l1, "l1"), _penalty(l2, "l2")

    def __call__(self, x):
        x = convert_to_tensor(x)
        penalty = convert_to_tensor(0.0, dtype=x.dtype)
        if self.l1:
            penalty = penalty + cast(self.l1, x.dtype) * reduce_sum(_abs(x))
        if self.l2:
            penalty = penalty + cast(self.l2, x.dtype) * reduce_sum(square(x))
        return penalty


class L1(Regularizer):
    """``l1 * sum(|x|)``: its gradient has the same size for every weight, so small weights reach 0."""

    def __init__(self, l1=0.01):
        self.l1 = _penalty(l1, "l1")

    def __call__(self, x):
        x = convert_to_tensor(x)
        return cast(self.l1, x.dtype) * reduce_sum(_abs(x))


class L2(Regularizer):
    """``l2 * sum(x**2)`` (weight decay): its gradient ``2 * l2 * x`` shrinks each weight in proportion to it."""

    def __init__(self, l2=0.01):
        self.l2 = _penalty(l2, "l2")

    def __call__(self, x):
        x = convert_to_tensor(x)
        return cast(self.l2, x.dtype) * reduce_sum(square(x))


# Keras's lower-case names are the classes themselves: l2(0.01) is L2(0.01).
l1, l2, l1_l2 = L1, L2, L1L2

# The names Keras 3 reads (it reads "l1l2", and not "l1_l2", as the name of L1L2).
_BY_NAME = {"l1": L1, "l2": L2, "l1l2": L1L2, "L1": L1, "L2": L2, "L1L2": L1L2}


def get(identifier):
    """The regularizer called ``identifier`` (``"l2"``: ``L2()``, with its default 0.01); a regularizer or any
    function of a tensor is returned as it is, and None stays None.

    >>> get("l2").l2, get(None)
    (0.01, None)
    """
    if identifier is None or callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}; minitape's Keras has "
                         f"{', '.join(_BY_NAME)}, or pass a regularizer")
    return _BY_NAME[identifier]()


__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get"]
__getattr__ = missing_names("mt.keras.regularizers", __all__)
