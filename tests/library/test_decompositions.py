"""eigh, svd, qr and the solvers built on them: their gradients against the closed forms of their docstrings,
computed with NumPy, what they do at repeated eigenvalues, and their errors.

tests/library/test_ops.py checks every rule against finite differences, and tests/library/test_tf_fixtures.py against
TensorFlow; here a rule that is right only up to a transpose, or on the wrong triangle, fails.
"""

import numpy as np
import pytest

import minitape as mt
from test_linalg import gradients

RNG = np.random.default_rng(31)
A = RNG.standard_normal((3, 3))  # eigh reads its lower triangle
TALL = RNG.standard_normal((4, 3))


def lower_gradient(g):
    """Φ(G + Gᵀ): the gradient of the lower triangle that eigh reads, from a full symmetric matrix's ``G``."""
    s = g + g.T
    return np.tril(s) - 0.5 * np.diag(np.diag(s))


def gaps(values):
    d = values[None, :] - values[:, None]
    return np.where(d == 0, 0.0, 1.0 / np.where(d == 0, 1.0, d))


def test_eigh_reads_the_lower_triangle_and_its_gradients_are_the_closed_forms_there():
    e, v = np.linalg.eigh(np.tril(A) + np.tril(A, -1).T)
    ours_e, ours_v = mt.linalg.eigh(A + np.triu(np.full((3, 3), 50.0), 1))  # the upper triangle is not read
    np.testing.assert_allclose(ours_e.numpy(), e, rtol=1e-12)
    e_bar, v_bar = RNG.standard_normal(3), RNG.standard_normal((3, 3))
    (grad,) = gradients(lambda a: mt.linalg.eigvalsh(a), A, output_gradients=mt.constant(e_bar))
    np.testing.assert_allclose(grad, lower_gradient(v @ np.diag(e_bar) @ v.T), rtol=1e-12, atol=1e-14)
    assert np.all(np.triu(grad, 1) == 0.0)
    (grad,) = gradients(lambda a: mt.linalg.eigh(a)[1], A, output_gradients=mt.constant(v_bar))
    v = ours_v.numpy()  # v̄ is paired with the eigenvectors minitape returned, signs included
    np.testing.assert_allclose(grad, lower_gradient(v @ (gaps(e) * (v.T @ v_bar)) @ v.T), rtol=1e-10, atol=1e-14)


def test_at_a_repeated_eigenvalue_the_eigenvectors_part_is_zero_as_in_tensorflow():
    # eigh of 2 I: any basis is one of eigenvectors; TensorFlow drops 1 / (e_j - e_i) at the tie (F = 0)
    (grad,) = gradients(lambda a: mt.reduce_sum(mt.linalg.eigh(a)[1] * [[1.0, 2.0], [3.0, 4.0]]) +
                        mt.reduce_sum(mt.linalg.eigvalsh(a) * [5.0, 7.0]), 2.0 * np.eye(2))
    np.testing.assert_array_equal(grad, np.diag([5.0, 7.0]))


def test_svd_returns_s_u_v_in_tensorflows_order_and_its_gradients_are_townsends():
    u, s, vt = np.linalg.svd(TALL, full_matrices=False)
    ours_s, ours_u, ours_v = mt.linalg.svd(TALL)
    np.testing.assert_allclose(ours_s.numpy(), s, rtol=1e-12)
    np.testing.assert_allclose((ours_u.numpy() * s) @ ours_v.numpy().T, TALL, atol=1e-12)
    u, v = ours_u.numpy(), ours_v.numpy()
    s_bar, u_bar, v_bar = RNG.standard_normal(3), RNG.standard_normal((4, 3)), RNG.standard_normal((3, 3))
    (grad,) = gradients(lambda a: mt.linalg.svd(a, compute_uv=False), TALL, output_gradients=mt.constant(s_bar))
    np.testing.assert_allclose(grad, u @ np.diag(s_bar) @ v.T, rtol=1e-12)
    f = gaps(s * s)
    j = f * (u.T @ u_bar)
    expected_u = (u @ (j + j.T) @ np.diag(s) + (np.eye(4) - u @ u.T) @ u_bar @ np.diag(1 / s)) @ v.T
    (grad,) = gradients(lambda a: mt.linalg.svd(a)[1], TALL, output_gradients=mt.constant(u_bar))
    np.testing.assert_allclose(grad, expected_u, rtol=1e-10, atol=1e-13)
    k = f * (v.T @ v_bar)
    (grad,) = gradients(lambda a: mt.linalg.svd(a)[2], TALL, output_gradients=mt.constant(v_bar))
    np.testing.assert_allclose(grad, u @ np.diag(s) @ (k + k.T) @ v.T, rtol=1e-10, atol=1e-13)


def test_the_nuclear_norm_has_its_gradient_u_vt_even_where_singular_values_repeat():
    q = np.linalg.qr(RNG.standard_normal((3, 3)))[0]  # every singular value of q is 1
    (grad,) = gradients(lambda a: mt.reduce_sum(mt.linalg.svd(a, compute_uv=False)), q)
    np.testing.assert_allclose(grad, q, rtol=1e-12)  # U Vᵀ = q itself


def test_qr_gradient_is_the_formula_tensorflow_uses():
    q, r = (t.numpy() for t in mt.linalg.qr(TALL))
    np.testing.assert_allclose(q @ r, TALL, atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-12)
    assert np.all(np.tril(r, -1) == 0.0)
    q_bar, r_bar = RNG.standard_normal(q.shape), RNG.standard_normal(r.shape)
    grads = gradients(lambda a: mt.reduce_sum(mt.linalg.qr(a)[0] * q_bar) + mt.reduce_sum(mt.linalg.qr(a)[1] * r_bar),
                      TALL)
    qdq = q.T @ q_bar  # TensorFlow's _QrGradSquareAndDeepMatrices, in NumPy
    expected = q @ (r_bar + np.tril(qdq - qdq.T + r @ r_bar.T - r_bar @ r.T) @ np.linalg.inv(r).T) + \
        (q_bar - q @ qdq) @ np.linalg.inv(r).T
    np.testing.assert_allclose(grads[0], expected, rtol=1e-10)


def test_triangular_solve_reads_one_triangle_and_its_gradient_stays_on_it():
    lower = np.tril(A) + 4.0 * np.eye(3)
    b = RNG.standard_normal((3, 2))
    x = mt.linalg.triangular_solve(lower + np.triu(np.full((3, 3), 9.0), 1), b)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(lower, b), rtol=1e-12)
    g = RNG.standard_normal((3, 2))
    grad_a, grad_b = gradients(mt.linalg.triangular_solve, lower, b, output_gradients=mt.constant(g))
    b_bar = np.linalg.solve(lower.T, g)
    np.testing.assert_allclose(grad_b, b_bar, rtol=1e-12)
    np.testing.assert_allclose(grad_a, np.tril(-b_bar @ x.numpy().T), rtol=1e-12)
    upper_x = mt.linalg.triangular_solve(lower.T, b, lower=False, adjoint=True)  # (Lᵀ)ᵀ X = B
    np.testing.assert_allclose(upper_x.numpy(), np.linalg.solve(lower, b), rtol=1e-12)


def test_cholesky_solve_pinv_and_lstsq_against_numpy():
    spd = TALL.T @ TALL + np.eye(3)
    b = RNG.standard_normal((3, 2))
    np.testing.assert_allclose(mt.linalg.cholesky_solve(mt.linalg.cholesky(spd), b).numpy(),
                               np.linalg.solve(spd, b), rtol=1e-10)
    np.testing.assert_allclose(mt.linalg.pinv(TALL).numpy(), np.linalg.pinv(TALL), rtol=1e-10)
    rhs = RNG.standard_normal((4, 2))
    np.testing.assert_allclose(mt.linalg.lstsq(TALL, rhs).numpy(), np.linalg.lstsq(TALL, rhs)[0], rtol=1e-10)
    np.testing.assert_allclose(mt.linalg.lstsq(TALL, rhs, l2_regularizer=0.5).numpy(),
                               np.linalg.solve(TALL.T @ TALL + 0.5 * np.eye(3), TALL.T @ rhs), rtol=1e-10)
    wide, rhs = TALL.T, RNG.standard_normal((3, 1))  # fewer equations than unknowns: the solution of least norm
    for fast in (True, False):
        np.testing.assert_allclose(mt.linalg.lstsq(wide, rhs, fast=fast).numpy(), np.linalg.pinv(wide) @ rhs,
                                   rtol=1e-10)


def test_the_names_live_in_mt_linalg_only_as_in_tensorflow():
    for name in ["eigh", "eigvalsh", "svd", "qr", "pinv", "lstsq", "triangular_solve", "cholesky_solve"]:
        assert callable(getattr(mt.linalg, name)), name
        assert not hasattr(mt, name), name


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.linalg.eigh(mt.constant([[1.0]], dtype=mt.float16)), TypeError, r"linalg.eigh: float16 .*mt.cast"),
    (lambda: mt.linalg.svd([1.0, 2.0]), ValueError, r"linalg.svd: expected a matrix"),
    (lambda: mt.linalg.triangular_solve([[1.0, 0.0], [1.0, 1.0]], [1.0, 2.0]), ValueError,
     r"rhs of shape \(2,\) does not fit .* mt.reshape\(b, \(-1, 1\)\)"),
    (lambda: mt.linalg.lstsq(TALL, np.ones((3, 1))), ValueError, r"linalg.lstsq: rhs of shape \(3, 1\) .* 4 rows"),
    (lambda: mt.linalg.triangular_solve(np.eye(2), np.ones((2, 1), np.float32)), TypeError, r"same dtype"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("op, matrix", [(lambda a: mt.linalg.svd(a, full_matrices=True)[2], TALL.T[:2]),
                                        (lambda a: mt.linalg.qr(a, full_matrices=True)[0], TALL)])
def test_the_extra_columns_of_full_matrices_have_no_derivative(op, matrix):
    # svd: V of a 2 x 4 matrix has 2 extra columns, which can turn among themselves; qr: Q of a tall matrix
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        gradients(op, matrix)
