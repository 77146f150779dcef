"""Lesson 01's public test cases and tests (finite differences)."""
import numpy as np

import minitape as mt
from classroom.probes import call
from classroom.variants import variant


def rosenbrock(x):
    a = x[1:] - x[:-1] * x[:-1]
    b = 1 - x[:-1]
    return mt.reduce_sum(100 * a * a + b * b)


def _pair_distances(rng):
    """1.2: two different distances j < k, in halves from 0.5 to 4 (in units of h)."""
    j, k = sorted(rng.choice(np.arange(1, 9), size=2, replace=False) / 2)
    return {"near": float(j), "far": float(k)}


VARIANTS = {
    # 1.1: the forward difference of x² at point with step
    "1.1": variant(point=3.0, step=0.1,
                   draw=lambda rng: {"point": float(rng.integers(-100, 101) / 10),
                                     "step": float(rng.choice([0.05, 0.1, 0.2, 0.25, 0.5]))}),
    # 1.2: the weights of the pairs at distances near·h and far·h (the lesson's own: h and 2h)
    "1.2": variant(near=1.0, far=2.0, draw=_pair_distances),
}

X_CHECK = np.random.default_rng(1).normal(size=6)
GRADIENT_CASES = [(rosenbrock, X_CHECK, 1e-7)]


class Counted:
    """A function that counts its calls."""

    def __init__(self, f):
        self.f, self.calls = f, 0

    def __call__(self, x):
        self.calls += 1
        return self.f(x)


def calls_n_plus_one(fd_gradient):
    """1.4b: the forward-difference gradient calls f once at x and once per input."""
    counted = Counted(rosenbrock)
    call(fd_gradient, counted, X_CHECK.copy(), 1e-7)
    if counted.calls != X_CHECK.size + 1:
        return f"it called f {counted.calls} times for n = {X_CHECK.size} inputs, not n + 1"
    return None


def passes_gradient_check(q_fixed):
    """1.5: the custom derivative agrees with central finite differences at three points."""
    for point in (0.5, -1.7, 3.0):
        try:
            mt.check_gradients(q_fixed, point)
        except AssertionError as error:
            worst = str(error).split("relative error ")[-1].split(" ")[0]
            return (f"at x = {point} the tape's derivative differs from central finite differences "
                    f"(relative error {worst})")
    return None
