"""Lesson 07's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_07 import quartic, wavy


def ripple(x):
    """Another function of three numbers with a full Hessian."""
    return mt.reduce_sum(mt.exp(0.3 * x) * mt.cos(x)) + x[0] * x[1] * x[1] - x[1] * x[2]


HIDDEN_CASES = {
    "7.4": [(wavy, np.array([-0.4, 1.2, 0.9]), np.array([0.5, 0.5, -2.0])),
            (quartic, np.array([0.3, -1.1, 0.8, 2.0]), np.array([1.0, -1.0, 0.5, 0.0])),
            (ripple, np.array([0.2, -0.7, 1.5]), np.array([-1.0, 2.0, 0.3]))],
}
