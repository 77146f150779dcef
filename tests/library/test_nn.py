"""Activations (softplus, elu, swish) and embedding_lookup: their semantics, their gradients in closed form, and their
errors."""

import numpy as np
import pytest

import minitape as mt
from tape_gradient import gradient

RNG = np.random.default_rng(7)


def test_embedding_lookup_in_shards_is_a_lookup_in_their_concatenation():
    table = RNG.standard_normal((5, 2))
    ids = [[4, 0], [2, 3]]
    whole = mt.nn.embedding_lookup(table, ids).numpy()  # a NumPy array is one table
    shards = [mt.constant(table[:3]), mt.constant(table[3:])]  # TensorFlow's "div": 3 rows, then 2
    np.testing.assert_array_equal(mt.nn.embedding_lookup(shards, ids).numpy(), whole)
    with pytest.raises(ValueError, match=r"shards of \[2, 3\] rows are not TensorFlow's 'div' partition .* \[3, 2\]"):
        mt.nn.embedding_lookup([mt.constant(table[:2]), mt.constant(table[2:])], ids)


def test_embedding_lookup_max_norm_scales_long_embeddings_down_only():
    table = np.array([[3.0, 4.0], [0.3, 0.4]])
    np.testing.assert_allclose(mt.nn.embedding_lookup(table, [0, 1], max_norm=1.0).numpy(), [[0.6, 0.8], [0.3, 0.4]])


def test_softplus_does_not_overflow_and_its_derivative_is_the_sigmoid():
    assert float(mt.nn.softplus(1000.0)) == 1000.0 and float(mt.math.softplus(-1000.0)) == 0.0
    x = np.array([-3.0, 0.0, 2.0])
    np.testing.assert_allclose(gradient(mt.nn.softplus, x), 1 / (1 + np.exp(-x)), rtol=1e-14)


def test_elu_has_slope_1_at_0_and_swish_learns_its_beta():
    np.testing.assert_allclose(gradient(mt.nn.elu, np.array([-1.0, 0.0, 1.0])), [np.exp(-1.0), 1.0, 1.0], rtol=1e-14)
    x, beta = mt.constant([1.0, -2.0], dtype=mt.float64), mt.Variable(1.5, dtype=mt.float64)
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(mt.nn.silu(x, beta=beta))
    s = 1 / (1 + np.exp(-1.5 * x.numpy()))
    assert float(tape.gradient(y, beta)) == pytest.approx(np.sum(x.numpy() ** 2 * s * (1 - s)), rel=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.nn.swish([1, 2]), TypeError, r"swish: features must be floating-point"),
    (lambda: mt.nn.embedding_lookup([], [0]), ValueError, r"params is an empty list"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()
