"""Lesson 02's public test cases and probe (symbolic vs automatic differentiation)."""
import numpy as np

from classroom.probes import Slot, Wrong

POINTS = (0.3, 0.7, 1.1, 1.5, 1.9)
EXPRESSION_CASES = [()]
SQRT_CASES = [(2.0,), (9.0,), (0.5,), (1e6,)]


def at_points(expression):
    """2.1: a SymPy expression in x, observed by its values at a few points."""
    import sympy  # a course dependency, imported once a SymPy answer is judged

    if not isinstance(expression, sympy.Basic):
        kind = "None" if expression is None else f"a {type(expression).__name__}"
        raise Wrong(f"it is {kind}, the exercise asks for a SymPy expression")
    extra = sorted(str(symbol) for symbol in expression.free_symbols if str(symbol) != "x")
    if extra:
        raise Wrong("it uses symbols the exercise does not: " + ", ".join(extra))
    x = sympy.Symbol("x")
    values = [complex(expression.evalf(subs={symbol: point for symbol in expression.free_symbols} or {x: point}))
              for point in POINTS]
    if any(abs(v.imag) > 1e-12 * max(1.0, abs(v.real)) for v in values):
        raise Wrong("it has complex values where the exercise's expression is real")
    return Slot(np.array([v.real for v in values]), "at x = 0.3, 0.7, 1.1, 1.5 and 1.9 its values are wrong: {}")
