"""Lesson 13's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

_RNG = np.random.default_rng(1313)


def _normal(*shape):
    return _RNG.normal(size=shape)


HIDDEN_CASES = {
    # broadcasting along other axes: a row against a column, a stack against a matrix, a scalar on the right
    "13.1b": [((_normal(2, 5), _normal(2, 5)), ()), ((_normal(3, 1), _normal(1, 4)), ()),
              ((_normal(2, 3, 4), _normal(3, 4)), ()), ((_normal(5, 2), _normal()), ())],
    # other sizes, a vector-shaped matrix, and a stack of three
    "13.2": [((_normal(3, 5), _normal(5, 2)), ()), ((_normal(6, 1), _normal(1, 6)), ()),
             ((_normal(3, 2, 3), _normal(3, 5)), ())],
    # every axis of a three-axis array, and a reduction to a scalar
    "13.3a": [((_normal(2, 3, 4),), ()), ((_normal(2, 3, 4),), (0,)), ((_normal(2, 3, 4),), (1,)),
              ((_normal(2, 3, 4),), (2,)), ((_normal(6, 1),), (1,))],
    "13.3b": [((_normal(2, 3, 4),), ()), ((_normal(2, 3, 4),), (0,)), ((_normal(2, 3, 4),), (1,)),
              ((_normal(2, 3, 4),), (2,)), ((_normal(6, 1),), (1,))],
    # large logits of both signs beside ordinary ones, with labels of both kinds
    "13.4": [((np.array([[-900.0, 2.5], [0.1, 750.0], [-0.3, -40.0]]),),
              (np.array([[0.0, 1.0], [1.0, 1.0], [0.0, 1.0]]),)),
             ((_normal(9),), ((_normal(9) > 0).astype(float),))],
    # layers of other sizes on other batches: (activation, inputs, outputs or hidden units, seed of the batch)
    "13.5a": [(None, 4, 3, 11), ("tanh", 2, 5, 12)],
    "13.5b": [(3, 4, 13), (1, 6, 14)],
}
