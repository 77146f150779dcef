"""Dual numbers: forward-mode differentiation in a few lines, for teaching.

A dual number ``a + b·ε`` with ``ε² = 0`` carries a value ``a`` and a
derivative ``b``. Arithmetic on dual numbers is the chain rule:
``(a + bε)(c + dε) = ac + (ad + bc)ε`` is the product rule. Start with
``Dual(x, 1.0)`` ("dx/dx = 1"), compute, and read the derivative off the
``tangent``.

>>> y = Dual(3.0, 1.0) ** 3       # x³ at x = 3
>>> y.value, y.tangent            # 27 and 3x² = 27
(27.0, 27.0)
>>> derivative(lambda x: sin(x) * x, 0.0)
0.0

This is what :class:`~minitape.autodiff.ForwardAccumulator` does for whole
tensors, with one JVP rule per op.
"""

import math


class Dual:
    """The number ``value + tangent·ε`` with ``ε² = 0``."""

    __slots__ = ("value", "tangent")

    def __init__(self, value, tangent=0.0):
        self.value = float(value)
        self.tangent = float(tangent)

    def __add__(self, other):
        other = _dual(other)
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __sub__(self, other):
        other = _dual(other)
        return Dual(self.value - other.value, self.tangent - other.tangent)

    def __mul__(self, other):  # the product rule
        other = _dual(other)
        return Dual(self.value * other.value, self.tangent * other.value + self.value * other.tangent)

    def __truediv__(self, other):  # the quotient rule
        other = _dual(other)
        return Dual(self.value / other.value,
                    (self.tangent * other.value - self.value * other.tangent) / other.value ** 2)

    def __pow__(self, other):
        if isinstance(other, Dual):  # x^y = exp(y log x), for a varying exponent
            return exp(other * log(self))
        return Dual(self.value ** other, other * self.value ** (other - 1) * self.tangent)

    def __rpow__(self, base):  # c^x = exp(x log c)
        return exp(self * math.log(base))

    def __radd__(self, other):
        return _dual(other) + self

    def __rsub__(self, other):
        return _dual(other) - self

    def __rmul__(self, other):
        return _dual(other) * self

    def __rtruediv__(self, other):
        return _dual(other) / self

    def __neg__(self):
        return Dual(-self.value, -self.tangent)

    def __repr__(self):
        return f"Dual({self.value!r}, {self.tangent!r})"


def _dual(x):
    """A plain number is a constant: its tangent is 0."""
    return x if isinstance(x, Dual) else Dual(x, 0.0)


def _elementary(f, df):
    """Lift f (with derivative df) to dual numbers: f(a + bε) = f(a) + f'(a)·b·ε."""
    def lifted(x):
        x = _dual(x)
        return Dual(f(x.value), df(x.value) * x.tangent)
    lifted.__name__ = f.__name__
    lifted.__doc__ = f"{f.__name__} of a dual number (or a plain number)."
    return lifted


sin = _elementary(math.sin, math.cos)
cos = _elementary(math.cos, lambda a: -math.sin(a))
tan = _elementary(math.tan, lambda a: 1 / math.cos(a) ** 2)
exp = _elementary(math.exp, math.exp)
log = _elementary(math.log, lambda a: 1 / a)
sqrt = _elementary(math.sqrt, lambda a: 0.5 / math.sqrt(a))
tanh = _elementary(math.tanh, lambda a: 1 - math.tanh(a) ** 2)


def derivative(f, x):
    """f'(x) in one evaluation of f on the dual number x + 1·ε."""
    return _dual(f(Dual(x, 1.0))).tangent
