"""Lesson 00's public part: each student's own numbers for its graded exercises (welcome)."""
from classroom.variants import variant

VARIANTS = {
    # 0.1: the derivative of x**power at point, by the power rule
    "0.1": variant(power=3, point=2.0,
                   draw=lambda rng: {"power": int(rng.integers(2, 7)),
                                     "point": float(rng.choice([-1, 1]) * rng.integers(1, 101) / 10)}),
    # 0.2: the same with a tape
    "0.2": variant(power=3, point=2.0,
                   draw=lambda rng: {"power": int(rng.integers(2, 5)),
                                     "point": float(rng.choice([-1, 1]) * rng.integers(1, 201) / 10)}),
}
