"""Lesson 10's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

HIDDEN_CASES = {
    # (theta, actions, rewards) as the public cases: other numbers of actions, negative and zero rewards, one action
    # never taken, repeated samples, and logits far beyond where e^theta overflows, of both signs
    "10.2": [
        ([0.3, -1.2, 0.8, 0.0], np.array([3, 3, 1, 0, 3, 2]), np.array([0.5, 1.5, -1.0, 2.0, 0.0, 4.0])),
        ([-2.5, 2.5], np.array([0, 0, 0]), np.array([1.0, 2.0, -0.5])),
        ([0.1, 0.2, 0.3, 0.4, 0.5], np.array([4, 0]), np.array([-2.5, 7.0])),
        ([-900.0, -901.5, -899.0], np.array([1, 2, 2, 0]), np.array([2.0, 0.5, -1.0, 3.0])),
        ([720.0, 0.0], np.array([1, 0, 1]), np.array([1.0, 1.0, -4.0])),
    ],
}
