"""Lesson 15's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

from classroom.lessons.lesson_15 import bump, layer_loss, mixed, pair, ripple, wave

HIDDEN_CASES = {
    # other points, every argument at once, an order that is neither sorted nor reversed, a lone last argument
    "15.1": [(bump, (-0.7,), 0), (wave, (np.array([1.1, 0.4, -0.6, 0.9]),), 0),
             (mixed, (np.array([0.2, -1.3]), np.array([0.9, 0.6]), np.array(-1.4)), (1, 2, 0)),
             (layer_loss, (np.array([-0.3, 0.8]), np.array([2.0, -0.5]), np.array(-0.6)), 2)],
    # other lengths, points and directions
    "15.2": [(ripple, np.linspace(-2.0, 0.5, 8), np.sin(np.arange(8.0))),
             (pair, np.array([-0.4, 1.5, 2.2]), np.array([1.0, -2.0, 0.3]))],
}
