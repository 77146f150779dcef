"""Lesson 01's public test cases and tests (finite differences)."""
import numpy as np

import minitape as mt
from minitape import numeric
from classroom.probes import call


def runge(x):
    return 1 / (1 + x * x)


def runge_derivative(x):
    return -2 * x / ((1 + x * x) * (1 + x * x))


FIVE_POINT_CASES = [(runge, 0.5, 1e-2), (runge, -2.0, 0.1), (np.cos, 1.0, 0.5)]


def beats_central(five_point):
    """1.2b: a hundred times more accurate than the central difference at h = 1e-2, on Runge's function."""
    error = abs(call(five_point, runge, 0.5, 1e-2) - runge_derivative(0.5))
    central = abs(numeric.central_difference(runge, 0.5, h=1e-2) - runge_derivative(0.5))
    if not error < central / 100:
        return (f"at h = 1e-2 its error on Runge's function is {error:.1e}, not a hundred times smaller than "
                f"the central difference's {central:.1e}")
    return None


def rosenbrock(x):
    a = x[1:] - x[:-1] * x[:-1]
    b = 1 - x[:-1]
    return mt.reduce_sum(100 * a * a + b * b)


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
