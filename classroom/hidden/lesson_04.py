"""Lesson 04's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

HIDDEN_CASES = {
    "4.2": [(2.0, -1.0, 3.0, 0.5), (-0.5, 4.0, 1.5, -2.0), (5.0, 0.0, -0.25, 1.0)],
    "4.4a": [(np.array([-2.5, -0.1, 0.7, 1.9]),), (np.linspace(-3.0, 0.5, 7),)],
}
