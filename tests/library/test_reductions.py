"""Reductions beyond their op cases and TensorFlow's recordings: reduce_logsumexp, stable, with the softmax as its
gradient."""

import numpy as np
import pytest

import minitape as mt
from tape_gradient import gradient


def test_reduce_logsumexp_is_stable_and_its_gradient_is_the_softmax():
    assert float(mt.reduce_logsumexp([10000.0, 10000.0])) == pytest.approx(10000.0 + np.log(2.0))
    assert float(mt.reduce_logsumexp([-np.inf, -np.inf])) == -np.inf
    assert mt.reduce_logsumexp(mt.zeros((2, 0)), axis=1).numpy().tolist() == [-np.inf, -np.inf]
    x = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0]])
    softmax = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(gradient(lambda t: mt.reduce_logsumexp(t, axis=1), x),
                               softmax / softmax.sum(axis=1, keepdims=True), rtol=1e-14)


def test_reduce_logsumexp_refuses_integers():
    with pytest.raises(TypeError, match=r"reduce_logsumexp: the input must be floating-point"):
        mt.reduce_logsumexp([1, 2])
