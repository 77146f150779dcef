"""Lesson 17's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_17 import sine_step, tanh_step


def leaky_step(W, h, x, y):
    """A leaky integrator: h_t = ½ h_(t-1) + ½ tanh(W h_(t-1) + x_t), with a squared loss on its first entries."""
    h = 0.5 * h + 0.5 * mt.tanh(mt.linalg.matvec(W, h) + x)
    return h, mt.reduce_sum(mt.square(h[:2] - y[:2]))


def _sequence(step, width, steps, gain, seed, k1, k2):
    rng = np.random.default_rng(seed)
    W = gain * rng.normal(size=(width, width)) / np.sqrt(width)   # not orthogonal, unlike the public cases
    return step, W, rng.normal(size=(steps, width)), rng.normal(size=(steps, width)), k1, k2


HIDDEN_CASES = {
    # other widths, lengths and gains, (k1, k2) with k2 not a multiple of k1, k1 = k2 = 1, k2 longer than the
    # sequence, and a third recurrence whose loss reads only part of the state
    "17.3": [_sequence(tanh_step, 6, 15, 1.3, 1701, 3, 7), _sequence(tanh_step, 2, 8, 2.0, 1702, 1, 1),
             _sequence(sine_step, 5, 14, 1.0, 1703, 7, 9), _sequence(sine_step, 3, 9, 1.4, 1704, 3, 20),
             _sequence(leaky_step, 4, 16, 1.1, 1705, 4, 6), _sequence(leaky_step, 3, 10, 0.7, 1706, 5, 10)],
}
