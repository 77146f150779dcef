"""Lesson 09's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

HIDDEN_CASES = {
    # other weights of shape (2, 1): the target hit exactly, negative and large weights
    "9.1a": [(np.array([[0.75], [0.0]]),), (np.array([[-2.5], [0.4]]),), (np.array([[10.0], [-3.25]]),),
             (np.array([[0.0], [0.0]]),)],
}
