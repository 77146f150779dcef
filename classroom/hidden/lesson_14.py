"""Lesson 14's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np


def _back_step_case(n, seed):
    """(W, h_next, g_next) as the public cases: W orthogonal, h_next = tanh(W h) for a random h."""
    rng = np.random.default_rng(seed)
    W = np.linalg.qr(rng.normal(size=(n, n)))[0]
    return W, np.tanh(W @ rng.normal(0.0, 0.8, size=(n, 1))), rng.normal(size=(n, 1))


HIDDEN_CASES = {
    # other sizes and other orthogonal matrices, including one of size 1 (W = ±1) and a wide one
    "14.1": [_back_step_case(1, 9140), _back_step_case(3, 9141), _back_step_case(7, 9142),
             _back_step_case(24, 9143)],
    # other right-hand sides a and other adjoints y_bar for the notebook's W: the fixed point moves with a
    "14.2": [(np.array([-0.3, 0.8, 1.1]), np.array([1.0, 0.0, 0.0])),
             (np.array([0.05, -0.05, 0.0]), np.array([0.3, -1.7, 0.6])),
             (np.array([-1.8, -0.6, 2.4]), np.array([-0.4, 0.9, 2.2]))],
    # other points on both sides of the switch at 20, and far into float32's overflow of exp
    "14.4": [([-45.5, -9.25, -0.75, 1.5, 6.0, 12.75, 19.75, 21.0, 44.0, 88.5, 89.0, 250.0, 3.0e4],),
             ([-2.0, 0.25, 17.5, 23.5, 75.0],)],
}
