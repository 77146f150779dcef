"""Lesson 02's public test cases and probe (symbolic vs automatic differentiation)."""
import numpy as np

from classroom.probes import Slot, Wrong
from classroom.variants import variant



def _cubic(rng):
    """2.3: a cubic's four integer coefficients (the leading one not zero) and a point in quarters."""
    leading = int(rng.choice([-4, -3, -2, -1, 1, 2, 3, 4]))
    rest = tuple(int(c) for c in rng.integers(-6, 7, size=3))
    return {"coefficients": (leading, *rest), "point": float(rng.integers(-12, 13) / 4)}


VARIANTS = {
    # 2.3: p'(point) for the polynomial horner evaluates from the coefficients
    "2.3": variant(coefficients=(2, -3, 1, -5), point=1.5, draw=_cubic),
}

EXPRESSION_CASES = [((0.3, 0.7, 1.1, 1.5, 1.9),)]   # the points where 2.1's expression is evaluated
SQRT_CASES = [(2.0,), (9.0,), (0.5,), (1e6,)]


def at_points(expression, points):
    """2.1: a SymPy expression in x, observed by its values at ``points``."""
    import sympy  # a course dependency, imported once a SymPy answer is judged

    if not isinstance(expression, sympy.Basic):
        kind = "None" if expression is None else f"a {type(expression).__name__}"
        raise Wrong(f"it is {kind}, the exercise asks for a SymPy expression")
    extra = sorted(str(symbol) for symbol in expression.free_symbols if str(symbol) != "x")
    if extra:
        raise Wrong("it uses symbols the exercise does not: " + ", ".join(extra))
    x = sympy.Symbol("x")
    values = [complex(expression.evalf(subs={symbol: point for symbol in expression.free_symbols} or {x: point}))
              for point in points]
    if any(abs(v.imag) > 1e-12 * max(1.0, abs(v.real)) for v in values):
        raise Wrong("it has complex values where the exercise's expression is real")
    where = ", ".join(f"{point:g}" for point in points)
    return Slot(np.array([v.real for v in values]), f"at x = {where} its values are wrong: {{}}")
