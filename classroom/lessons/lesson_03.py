"""Lesson 03's public test cases and each student's own numbers (the chain rule)."""
from classroom.variants import variant


def _signed(rng, low, high, scale):
    """A number of magnitude low/scale to high/scale, either sign."""
    return float(rng.choice([-1, 1]) * rng.integers(low, high + 1) / scale)


def _graph_inputs(rng):
    """3.2: x1, x2 with x1 x2 > 1 (so that ln(x1 x2) > 0 and the square root is real), x4 > 0, x6."""
    x1, x2 = (float(rng.integers(11, 41) / 10) for _ in range(2))
    return {"inputs": (x1, x2, float(rng.integers(5, 41) / 10), float(rng.integers(2, 21) / 10))}


VARIANTS = {
    # 3.1: y = (exp(cos x))² at point
    "3.1": variant(point=0.7, draw=lambda rng: {"point": _signed(rng, 10, 800, 200)}),
    # 3.2: the chain x3 = ln(x1 x2), x5 = sqrt(x3 x4), y = sin(x5 x6) at inputs (x1, x2, x4, x6)
    "3.2": variant(inputs=(3.0, 0.5, 2.5, 0.8), draw=_graph_inputs),
    # 3.3: f(x1, x2) = ln x1 + x1 x2 - sin x2 at point
    "3.3": variant(point=(2.0, 5.0),
                   draw=lambda rng: {"point": (float(rng.integers(1, 41) / 4), _signed(rng, 1, 40, 4))}),
}

STAGES_CASES = [(1.0, 1), (1.0, 5), (2.5, 3), (0.3, 30)]
