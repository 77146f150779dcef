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

Each call of :func:`derivative` has an ε of its own, told apart by a
*tag*, and reads off only its own tangent. With one shared ε, a derivative
taken inside another would mix up the two perturbations ("perturbation
confusion": the first example below would give 2). The value and the
tangent of a dual number may themselves be dual numbers of an outer
``derivative``: that is how derivatives nest, to any order.

>>> derivative(lambda x: x * derivative(lambda y: x + y, 1.0), 1.0)  # d/dy (x + y) = 1, so d/dx x = 1
1.0
>>> derivative(lambda x: derivative(lambda z: z ** 3, x), 2.0)      # second derivative 6x at 2
12.0

This is what :class:`~minitape.autodiff.ForwardAccumulator` does for whole
tensors, with one JVP rule per op.
"""

import itertools
import math


class Dual:
    """The number ``value + tangent·ε`` with ``ε² = 0``, for the ε named ``tag``.

    ``value`` and ``tangent`` are numbers, or dual numbers of an outer
    ``derivative`` (a smaller tag). Tag 0 is the ε of dual numbers you make
    yourself.
    """

    __slots__ = ("value", "tangent", "tag")

    def __init__(self, value, tangent=0.0, tag=0):
        self.value = value if isinstance(value, Dual) else float(value)
        self.tangent = tangent if isinstance(tangent, Dual) else float(tangent)
        self.tag = tag

    def __add__(self, other):
        (a, da), (b, db), tag = _parts(self, other)
        return Dual(a + b, da + db, tag)

    def __sub__(self, other):
        (a, da), (b, db), tag = _parts(self, other)
        return Dual(a - b, da - db, tag)

    def __mul__(self, other):  # the product rule
        (a, da), (b, db), tag = _parts(self, other)
        return Dual(a * b, da * b + a * db, tag)

    def __truediv__(self, other):  # the quotient rule
        (a, da), (b, db), tag = _parts(self, other)
        return Dual(a / b, (da * b - a * db) / b ** 2, tag)

    def __pow__(self, other):
        if isinstance(other, Dual):  # x^y = exp(y log x), for a varying exponent
            return exp(other * log(self))
        return Dual(self.value ** other, other * self.value ** (other - 1) * self.tangent, self.tag)

    def __rpow__(self, base):  # c^x = exp(x log c)
        return exp(self * math.log(base))

    # A number on the left: a constant, with tangent 0 (a Dual on the left would have been asked first).
    def __radd__(self, other):
        return Dual(other, 0.0, self.tag) + self

    def __rsub__(self, other):
        return Dual(other, 0.0, self.tag) - self

    def __rmul__(self, other):
        return Dual(other, 0.0, self.tag) * self

    def __rtruediv__(self, other):
        return Dual(other, 0.0, self.tag) / self

    def __neg__(self):
        return Dual(-self.value, -self.tangent, self.tag)

    def __repr__(self):
        tag = f", tag={self.tag}" if self.tag else ""
        return f"Dual({self.value!r}, {self.tangent!r}{tag})"


def _parts(x, y):
    """``x`` and ``y`` as (value, tangent) along the innermost ε of the two, and that ε's tag.

    Along that ε, a number or a dual number of an outer ε is a constant: its tangent is 0.
    """
    tag = max(d.tag for d in (x, y) if isinstance(d, Dual))

    def split(d):
        return (d.value, d.tangent) if isinstance(d, Dual) and d.tag == tag else (d, 0.0)
    return split(x), split(y), tag


def _elementary(f, df):
    """Lift f (with derivative df) to dual numbers: f(a + bε) = f(a) + f'(a)·b·ε.

    ``a`` may be a dual number itself (of an outer ε), so ``df`` is written with lifted functions.
    """
    def lifted(x):
        if not isinstance(x, Dual):
            return f(x)
        return Dual(lifted(x.value), df(x.value) * x.tangent, x.tag)
    lifted.__name__ = f.__name__
    lifted.__doc__ = f"{f.__name__} of a dual number (or a plain number)."
    return lifted


sin = _elementary(math.sin, lambda a: cos(a))
cos = _elementary(math.cos, lambda a: -sin(a))
tan = _elementary(math.tan, lambda a: 1 / cos(a) ** 2)
exp = _elementary(math.exp, lambda a: exp(a))
log = _elementary(math.log, lambda a: 1 / a)
sqrt = _elementary(math.sqrt, lambda a: 0.5 / sqrt(a))
tanh = _elementary(math.tanh, lambda a: 1 - tanh(a) ** 2)

_tags = itertools.count(1)  # each derivative() call takes the next: inner calls have larger tags


def derivative(f, x):
    """f'(x) in one evaluation of f on the dual number x + 1·ε, with an ε of its own."""
    tag = next(_tags)
    y = f(Dual(x, 1.0, tag))
    return y.tangent if isinstance(y, Dual) and y.tag == tag else 0.0
