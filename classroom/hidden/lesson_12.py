"""Lesson 12's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

_RNG = np.random.default_rng(9012)


def _matmul_case(n, k, m):
    """(X, W, G) for Y = X W with X of shape (n, k), W of shape (k, m), G of Y's shape."""
    return _RNG.normal(size=(n, k)), _RNG.normal(size=(k, m)), _RNG.normal(size=(n, m))


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _classification(B, P):
    """(x, t, w): B examples of P features, labels ±1, weights of P numbers."""
    return _RNG.normal(size=(B, P)), _RNG.choice([-1.0, 1.0], size=B), _RNG.normal(size=P)


_G3 = _RNG.normal(size=(4, 2, 3))
HIDDEN_CASES = {
    # other shapes, two of them square (a wrong transpose keeps the shape), one a single row and column
    "12.1": [_matmul_case(3, 2, 5), _matmul_case(3, 3, 3), _matmul_case(1, 1, 4), _matmul_case(6, 4, 1)],
    # leading axes added, size-1 axes stretched, both at once, none at all, and a scalar
    "12.2": [(_G3, (2, 1)), (_G3, (4, 1, 3)), (_G3, (1, 1, 1)), (_G3[0], (2, 3)), (_G3[:, :, 0], (1,)),
             (_G3[0, 0], ()), (_G3, (3,))],
    # one softmax of other lengths, and batches of other shapes
    "12.4": [(_softmax(_RNG.normal(size=7)), _RNG.normal(size=7)),
             (_softmax(_RNG.normal(size=(4, 6))), _RNG.normal(size=(4, 6))),
             (_softmax(3.0 * _RNG.normal(size=(2, 2))), _RNG.normal(size=(2, 2)))],
    # other batch sizes (one example alone) and other numbers of features
    "12.5": [_classification(1, 3), _classification(9, 2), _classification(33, 5)],
}
