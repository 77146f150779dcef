"""Lesson 05's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_05 import layer

W_2X5 = mt.constant(np.random.default_rng(505).normal(size=(2, 5)), dtype=mt.float64)


def tanh_of_W_x(x):
    """More inputs than outputs: a wide layer, tanh(W x) with W of shape (2, 5)."""
    return layer(W_2X5, x)


def four_outputs(x):
    """More outputs than inputs, and an output that depends on no input."""
    return mt.stack([x[0] ** 2 * x[1], mt.cos(x[1]), mt.log(x[0] ** 2 + 1.0), x[0] * 0.0 + 2.0])


# other shapes of Jacobian (2 × 5, 4 × 2), at other points: for the VJP (5.4a) and the rows built from it (5.4b)
JACOBIANS = [(tanh_of_W_x, np.array([0.3, -0.8, 1.1, 0.0, -2.0])), (tanh_of_W_x, np.array([-1.2, 0.4, 0.9, 2.5, 0.1])),
             (four_outputs, np.array([0.7, -1.4])), (four_outputs, np.array([-2.0, 0.25]))]

HIDDEN_CASES = {
    "5.4a": JACOBIANS,
    "5.4b": JACOBIANS,
    # other adjoints g and inputs a, a negative zero-crossing and a large input among them
    "5.5a": [(0.3, -0.4), (-1.5, 2.6), (4.0, 10.0)],
    "5.5b": [(0.3, -0.4), (-1.5, 2.6), (4.0, 10.0)],
}
