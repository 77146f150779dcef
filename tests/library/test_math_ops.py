"""The ops of issue 31 say what is wrong, by name; and the elementwise functions NumPy lacks are accurate.

Their values, gradients and error classes against TensorFlow's are in fixtures/tf_programs_math.py; their
derivatives against finite differences in op_cases.py.
"""

import math

import numpy as np
import pytest

import minitape as mt

X = mt.constant([[1.0, 2.0, 4.0], [-3.0, 0.5, 0.5]])


@pytest.mark.parametrize("name, call", [
    ("reduce_variance", lambda: mt.math.reduce_variance(X, axis=2)),
    ("reduce_std", lambda: mt.math.reduce_std(X, axis=[0, -2])),
    ("reduce_euclidean_norm", lambda: mt.math.reduce_euclidean_norm(X, axis=-3)),
    ("reduce_any", lambda: mt.reduce_any([True], axis=1)),
    ("moments", lambda: mt.nn.moments(X, axes=[2])),
    ("l2_normalize", lambda: mt.nn.l2_normalize(X, axis=5)),
])
def test_a_bad_axis_is_named_by_the_op_given_it(name, call):
    with pytest.raises(ValueError, match=f"^{name}: axis"):
        call()


def test_sparse_cross_entropy_names_the_label_out_of_range_and_the_shapes():
    with pytest.raises(ValueError, match=r"label 3 is outside the valid range \[0, 3\)"):
        mt.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3], logits=X)
    with pytest.raises(ValueError, match=r"labels must have the shape of logits without its last axis, \(2,\)"):
        mt.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0, 1, 0], [1, 0, 0]], logits=X)
    with pytest.raises(TypeError, match="float32 tensors are not supported"):
        mt.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=X)


def test_scalar_mul_and_the_float_only_ops_say_what_to_do():
    with pytest.raises(ValueError, match=r"scalar must be a scalar \(shape \(\)\), got shape \(2,\); use mt.multiply"):
        mt.math.scalar_mul(mt.constant([2.0, 3.0]), X)
    with pytest.raises(TypeError, match=r"reduce_variance: the input must be floating-point, got int32"):
        mt.math.reduce_variance([1, 2])
    with pytest.raises(ValueError, match="gelu: features must be floating-point"):
        mt.nn.gelu([1, 2])
    with pytest.raises(ValueError, match="give axis or dim"):
        mt.nn.l2_normalize(X, axis=0, dim=0)


def test_erf_erfc_and_lgamma_agree_with_python_math_in_every_float_dtype():
    points = [-3.5, -0.5, 0.25, 2.0, 5.5]  # not a pole of lgamma (0, -1, ...), where math.lgamma raises
    for dtype in (mt.float16, mt.float32, mt.float64):
        x = mt.constant(points, dtype)
        for op, scalar in [(mt.math.erf, math.erf), (mt.math.erfc, math.erfc), (mt.math.lgamma, math.lgamma)]:
            y = op(x)
            assert y.dtype == dtype
            np.testing.assert_array_equal(y.numpy(), np.array([scalar(v) for v in x.numpy().astype(float)],
                                                              dtype.as_numpy_dtype))


def test_lgamma_and_digamma_at_the_poles():
    x = mt.constant([0.0, -1.0, -2.0], mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.math.lgamma(x)
    assert np.all(np.isposinf(y.numpy()))
    assert np.all(np.isnan(tape.gradient(y, x).numpy()))  # digamma is NaN there, as in TensorFlow


def test_digamma_is_accurate_far_from_1_and_on_the_negative_axis():
    # psi(n) = -gamma + sum_{k<n} 1/k; psi(x) = psi(1 - x) - pi / tan(pi x) (the reflection, checked at -2.5)
    euler_gamma = 0.5772156649015329
    harmonic = np.cumsum([0.0] + [1.0 / k for k in range(1, 40)])
    n = np.arange(1, 41, dtype=float)
    np.testing.assert_allclose(mt.math.digamma(n).numpy(), harmonic - euler_gamma, rtol=2e-15, atol=1e-15)
    psi_3_5 = -euler_gamma - 2 * math.log(2) + 2 * (1 + 1 / 3 + 1 / 5)  # psi(n + 1/2), n = 3
    np.testing.assert_allclose(float(mt.math.digamma(np.float64(-2.5))), psi_3_5 - math.pi / math.tan(-2.5 * math.pi),
                               rtol=1e-14)
