"""tape.jacobian and tape.batch_jacobian: shapes and values in closed form, unconnected sources, and the errors of
TensorFlow's."""

import numpy as np
import pytest

import minitape as mt


def test_jacobian_shapes_and_values():
    x = mt.constant(np.arange(6.0).reshape(2, 3))
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = mt.matmul(x, mt.transpose(x))  # (2, 2)
        z = x * x
    jac = tape.jacobian(y, x)
    assert jac.shape == (2, 2, 2, 3)
    # d(x x^T)[i, j] / dx[k, l] = delta_ik x[j, l] + delta_jk x[i, l]
    xv, expected = x.numpy(), np.zeros((2, 2, 2, 3))
    for i in range(2):
        for j in range(2):
            expected[i, j, i] += xv[j]
            expected[i, j, j] += xv[i]
    np.testing.assert_allclose(jac.numpy(), expected)
    bj = tape.batch_jacobian(z, x)
    assert bj.shape == (2, 3, 3)
    np.testing.assert_allclose(bj.numpy(), np.stack([np.diag(2 * r) for r in xv]))
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(2, 2\) and source shape \(3, 1\)"):
        tape.batch_jacobian(y, mt.constant(np.ones((3, 1))))
    with pytest.raises(ValueError, match=r"Shape \(3,\) must have rank at least 2"):
        tape.batch_jacobian(z, x[0])
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank at least 2"):   # a target of rank 1, as TF
        tape.batch_jacobian(mt.reduce_sum(z, axis=1), x)
    with pytest.raises(RuntimeError, match="persistent=True.*experimental_use_pfor=False"):
        with mt.GradientTape() as once:
            once.watch(x)
            w = x * x
        once.jacobian(w, x, experimental_use_pfor=False)


def test_jacobian_of_unconnected_source():
    x, u = mt.Variable([1.0, 2.0]), mt.Variable([[1.0]])
    with mt.GradientTape(persistent=True) as tape:
        y = x * 2.0
    assert tape.jacobian(y, u) is None
    assert tape.jacobian(y, u, unconnected_gradients="zero").shape == (2, 1, 1)
