"""Lesson 04's public test cases, probe and test, and each student's own numbers (forward mode)."""
import numpy as np

import minitape as mt
from classroom.probes import Slot, Wrong, call
from classroom.variants import variant
from minitape import dual


def _point(rng):
    """4.1: a point in [-3, 3] where h(x) = x exp(-x²) and h'(x) differ (they agree at 0.5 and -1) and h' is not 0."""
    while True:
        a = float(rng.integers(-600, 601) / 200)
        if abs(1 - 2 * a * a - a) > 0.1 and abs(1 - 2 * a * a) > 0.1:
            return {"point": a}


VARIANTS = {
    # 4.1: h'(point) for h(x) = x exp(-x²), by dual numbers worked by hand
    "4.1": variant(point=1.5, draw=_point),
}

# 4.2: (a + bε) / (c + dε) for these (a, b, c, d)
QUOTIENTS = [(1.0, 1.0, 2.0, 0.0), (3.0, 0.5, -2.0, 1.5), (0.0, 2.0, 4.0, -1.0), (-1.5, 2.5, 0.5, 3.0)]


def quotient(divide, a, b, c, d):
    """4.2: the value and tangent parts of divide(Dual(a, b), Dual(c, d)), on the lesson's own Dual class."""
    Dual = getattr(divide, "__globals__", {}).get("Dual", dual.Dual)
    what = f"divide(Dual({a}, {b}), Dual({c}, {d}))"
    q = call(divide, Dual(a, b), Dual(c, d), what=what)
    if not (hasattr(q, "value") and hasattr(q, "tangent")):
        raise Wrong(f"divide should return a Dual (a value and a tangent), not {type(q).__name__}")
    try:
        value_part, tangent_part = float(q.value), float(q.tangent)
    except (TypeError, ValueError):
        raise Wrong("the value and tangent of the Dual that divide returns should be plain numbers") from None
    return [Slot(value_part, f"for {what} the value part (the number without ε) is wrong; it should not depend "
                             f"on the tangents at all"),
            Slot(tangent_part, f"for {what} the tangent part (the ε part) is wrong: {{}}")]


DIAGONAL_CASES = [(np.linspace(-1.0, 1.0, 5),), (np.array([0.3, 2.0, -4.0]),)]


def one_pass(diagonal_in_one_pass):
    """4.4b: g is evaluated once (one exp), in one forward pass."""
    with mt.autodiff.OpCounter() as count:
        call(diagonal_in_one_pass, np.linspace(-1.0, 1.0, 5))
    evaluations = count.by_op.get("exp", 0)
    if evaluations == 0:
        return "g was never evaluated with minitape ops inside your function: compute g(x) in the accumulator's block"
    if evaluations > 1:
        return f"g was evaluated {evaluations} times; one forward pass evaluates it once"
    return None
