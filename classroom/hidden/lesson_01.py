"""Lesson 01's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_01 import rosenbrock


def wave(x):
    """A smooth function whose partial derivatives all differ: sum of x_i sin(i x_i)."""
    return mt.reduce_sum(x * mt.sin(np.arange(1.0, x.shape[0] + 1.0) * x))


def log_sum_exp(x):
    return mt.math.log(mt.reduce_sum(mt.exp(x)))


HIDDEN_CASES = {
    "1.4a": [(rosenbrock, np.array([0.3, -0.8, 1.4, 0.05]), 1e-7),
             (wave, np.random.default_rng(7).normal(size=5), 1e-6),
             (log_sum_exp, np.array([0.5, -1.0, 2.0]), 1e-5)],
}
