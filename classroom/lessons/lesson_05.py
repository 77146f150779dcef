"""Lesson 05's public test cases (reverse mode)."""
import numpy as np

import minitape as mt


def layer(W, x):
    return mt.tanh(mt.reshape(mt.matmul(W, mt.reshape(x, (-1, 1))), (-1,)))


W_3X4 = mt.constant(np.random.default_rng(1).normal(size=(3, 4)), dtype=mt.float64)


def tanh_of_W_x(x):
    return layer(W_3X4, x)


def three_outputs(x):
    return mt.stack([x[0] * x[1], mt.sin(x[2]), mt.exp(x[0]) + x[3]])


POINTS = [np.array([0.5, -1.0, 2.0, 0.1]), np.array([1.5, 0.2, -0.7, 3.0])]
JACOBIAN_CASES = [(fn, point) for fn in (tanh_of_W_x, three_outputs) for point in POINTS]
