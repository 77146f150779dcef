"""The rules of linear algebra against their closed forms, batched, at singular matrices, and their errors.

tests/library/test_ops.py checks every rule against finite differences; here each
gradient is compared with the formula derived in its docstring, computed
with NumPy, so that a rule that is right only up to a transpose fails.
"""

import warnings

import numpy as np
import pytest

import minitape as mt

RNG = np.random.default_rng(23)
A = RNG.standard_normal((3, 3)) + 4.0 * np.eye(3)  # well conditioned, not symmetric
B = RNG.standard_normal((3, 2))
G = RNG.standard_normal((3, 3))  # an output gradient (the seed of a vector-Jacobian product)


def gradients(f, *values, output_gradients=None):
    xs = [mt.constant(v) for v in values]
    with mt.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return [g.numpy() for g in tape.gradient(y, xs, output_gradients=output_gradients)]


def test_inv_gradient_is_minus_the_inverse_transposed_on_both_sides():
    y = np.linalg.inv(A)
    (grad,) = gradients(mt.linalg.inv, A, output_gradients=G)
    np.testing.assert_allclose(grad, -y.T @ G @ y.T, rtol=1e-12)
    # adjoint=True: Y = A⁻ᵀ, dY = −Y dAᵀ Y, so Ā = −Y Ḡᵀ Y
    (grad,) = gradients(lambda a: mt.linalg.inv(a, adjoint=True), A, output_gradients=G)
    np.testing.assert_allclose(grad, -y.T @ G.T @ y.T, rtol=1e-12)


def test_solve_gradient_solves_the_transposed_system():
    x = np.linalg.solve(A, B)
    g = RNG.standard_normal(B.shape)
    grad_a, grad_b = gradients(mt.linalg.solve, A, B, output_gradients=g)
    b_bar = np.linalg.solve(A.T, g)
    np.testing.assert_allclose(grad_b, b_bar, rtol=1e-12)
    np.testing.assert_allclose(grad_a, -b_bar @ x.T, rtol=1e-12)
    # adjoint=True solves Aᵀ X = B: then B̄ = A⁻¹ X̄ and Ā = −X B̄ᵀ
    x = np.linalg.solve(A.T, B)
    grad_a, grad_b = gradients(lambda a, b: mt.linalg.solve(a, b, adjoint=True), A, B, output_gradients=g)
    b_bar = np.linalg.solve(A, g)
    np.testing.assert_allclose(grad_b, b_bar, rtol=1e-12)
    np.testing.assert_allclose(grad_a, -x @ b_bar.T, rtol=1e-12)


def test_the_gradient_of_a_solve_is_one_more_solve_with_no_inverse():
    a, b = mt.constant(A), mt.constant(B)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        x = mt.linalg.solve(a, b)
    with mt.autodiff.OpCounter() as count:
        tape.gradient(x, b)
    assert dict(count.by_op) == {"solve": 1}
    with mt.autodiff.OpCounter() as count:
        tape.gradient(x, a)
    assert count.by_op["solve"] == 1 and "inv" not in count.by_op


def test_det_gradient_is_jacobis_formula():
    (grad,) = gradients(mt.linalg.det, A)
    np.testing.assert_allclose(grad, np.linalg.det(A) * np.linalg.inv(A).T, rtol=1e-12)


def test_slogdet_gradient_is_the_inverse_transposed_and_the_sign_has_gradient_zero():
    negative = -A  # det < 0 for a 3 x 3
    (grad,) = gradients(lambda a: mt.linalg.slogdet(a).log_abs_determinant, negative)
    np.testing.assert_allclose(grad, np.linalg.inv(negative).T, rtol=1e-12)
    (grad,) = gradients(lambda a: mt.linalg.slogdet(a).sign, negative)
    np.testing.assert_array_equal(grad, np.zeros((3, 3)))  # zeros, as in TensorFlow, not None


def test_second_derivative_of_log_det_in_closed_form():
    # <∇ log|det A|, H> = tr(A⁻¹ H), whose gradient is −(A⁻¹ H A⁻¹)ᵀ: a Hessian-vector product through two tapes
    h = RNG.standard_normal((3, 3))
    a = mt.constant(A)
    with mt.GradientTape() as outer:
        outer.watch(a)
        with mt.GradientTape() as inner:
            inner.watch(a)
            y = mt.linalg.slogdet(a)[1]
        pairing = mt.reduce_sum(inner.gradient(y, a) * h)
    inverse = np.linalg.inv(A)
    np.testing.assert_allclose(outer.gradient(pairing, a).numpy(), -(inverse @ h @ inverse).T, rtol=1e-12)


def _symmetric(x):
    return (x + x.T) / 2


def test_cholesky_tangent_along_a_symmetric_direction_is_the_derivative():
    spd = A @ A.T + np.eye(3)
    direction = _symmetric(RNG.standard_normal((3, 3)))
    step = 1e-6
    numeric = (np.linalg.cholesky(spd + step * direction) - np.linalg.cholesky(spd - step * direction)) / (2 * step)
    x = mt.constant(spd)
    with mt.autodiff.ForwardAccumulator(x, mt.constant(direction)) as acc:
        factor = mt.linalg.cholesky(x)
    np.testing.assert_allclose(acc.jvp(factor).numpy(), numeric, rtol=1e-7, atol=1e-9)


def test_cholesky_gradient_is_symmetric_and_transposes_the_tangent():
    spd = A @ A.T + np.eye(3)
    l_bar = RNG.standard_normal((3, 3))
    (grad,) = gradients(mt.linalg.cholesky, spd, output_gradients=l_bar)
    np.testing.assert_allclose(grad, grad.T, rtol=1e-12)
    direction = _symmetric(RNG.standard_normal((3, 3)))
    x = mt.constant(spd)
    with mt.autodiff.ForwardAccumulator(x, mt.constant(direction)) as acc:
        factor = mt.linalg.cholesky(x)
    # <L̄, dL> = <Ā, dA>: the VJP is the transpose of the JVP
    np.testing.assert_allclose(np.sum(l_bar * acc.jvp(factor).numpy()), np.sum(grad * direction), rtol=1e-10)
    # Murray's formula, Ā = sym(L⁻ᵀ Φ(Lᵀ L̄) L⁻¹), in NumPy
    factor = np.linalg.cholesky(spd)
    phi = np.tril(factor.T @ l_bar) - 0.5 * np.diag(np.diag(factor.T @ l_bar))
    inverse = np.linalg.inv(factor)
    np.testing.assert_allclose(grad, _symmetric(inverse.T @ phi @ inverse), rtol=1e-10)


def test_cholesky_of_one_number_is_its_square_root():
    (grad,) = gradients(mt.linalg.cholesky, [[4.0]])
    np.testing.assert_allclose(grad, [[0.25]])  # d sqrt(a)/da = 1 / (2 sqrt a)


@pytest.mark.parametrize("op", ["inv", "det", "log_abs_det", "cholesky", "solve"])
def test_a_batch_is_differentiated_matrix_by_matrix(op):
    batch = np.stack([A, A.T + np.eye(3), 2.0 * A])
    if op == "cholesky":
        batch = batch @ np.swapaxes(batch, -1, -2)
    f = {"inv": mt.linalg.inv, "det": mt.linalg.det, "log_abs_det": lambda a: mt.linalg.slogdet(a)[1],
         "cholesky": mt.linalg.cholesky,
         "solve": lambda a: mt.linalg.solve(a, mt.ones(a.shape[:-1] + (2,), dtype=mt.float64))}[op]
    (together,) = gradients(lambda a: mt.reduce_sum(mt.sin(f(a))), batch)
    for k, matrix in enumerate(batch):
        (alone,) = gradients(lambda a: mt.reduce_sum(mt.sin(f(a))), matrix)
        np.testing.assert_allclose(together[k], alone, rtol=1e-10)


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])


def test_a_singular_matrix_has_no_inverse_or_solution_as_in_tensorflow():
    with pytest.raises(ValueError, match=r"linalg\.inv: the matrix is not invertible \(it is singular"):
        mt.linalg.inv(SINGULAR)
    with pytest.raises(ValueError, match=r"linalg\.inv: the matrix is not invertible"):
        mt.linalg.inv(np.stack([np.eye(2), SINGULAR]))  # one singular matrix in a batch
    with pytest.raises(ValueError, match=r"linalg\.solve: the matrix is not invertible"):
        mt.linalg.solve(SINGULAR, [[1.0], [1.0]])
    with pytest.raises(ValueError, match="not invertible"):
        mt.linalg.inv([[np.nan, 0.0], [0.0, 1.0]])


def test_a_singular_determinant_is_zero_but_its_gradient_needs_the_inverse_and_says_so():
    assert float(mt.linalg.det(SINGULAR)) == 0.0
    sign, log_abs = mt.linalg.slogdet(SINGULAR)
    assert float(sign) == 0.0 and float(log_abs) == -np.inf
    for name, f in [("det", mt.linalg.det), ("slogdet", lambda a: mt.linalg.slogdet(a)[1])]:
        with pytest.raises(ValueError, match=rf"the gradient of linalg\.{name} \(A⁻ᵀ\): the matrix is not invertible"):
            gradients(f, SINGULAR)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_nan_with_a_warning():
    with pytest.warns(UserWarning, match="not symmetric positive definite; its factor is NaN, as in TensorFlow"):
        factors = mt.linalg.cholesky([[[4.0, 2.0], [2.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]]]).numpy()
    np.testing.assert_allclose(factors[0], [[2.0, 0.0], [1.0, 1.0]])  # the good matrix of the batch is factored
    assert np.isnan(factors[1][np.tril_indices(2)]).all() and (factors[1][0, 1] == 0.0)


def test_float16_matrices_are_computed_in_float32_and_returned_in_float16():
    inverse = mt.linalg.inv(mt.constant([[2.0, 1.0], [0.0, 4.0]], dtype=mt.float16))
    assert inverse.dtype == mt.float16
    np.testing.assert_array_equal(inverse.numpy(), np.array([[0.5, -0.125], [0.0, 0.25]], np.float16))


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.linalg.inv(np.ones((2, 3))), ValueError, r"linalg\.inv: the matrix must be square, got shape \(2, 3\)"),
    (lambda: mt.linalg.det([1.0, 2.0]), ValueError, r"linalg\.det: expected a matrix or a batch of matrices"),
    (lambda: mt.linalg.cholesky([[1, 0], [0, 1]]), TypeError, r"linalg\.cholesky: expected floating-point matrices"),
    (lambda: mt.linalg.solve(np.eye(2), [1.0, 2.0]), ValueError, r"write a vector b as mt\.reshape\(b, \(-1, 1\)\)"),
    (lambda: mt.linalg.solve(np.eye(2), np.ones((3, 1))), ValueError, r"it needs 2 rows"),
    (lambda: mt.linalg.solve(np.stack([np.eye(2)] * 2), np.ones((1, 2, 1))), ValueError,
     r"the same batch dimensions \(2,\)"),
    (lambda: mt.linalg.solve(mt.eye(2), mt.ones((2, 1), dtype=mt.float64)), TypeError,
     r"linalg\.solve: matrix and rhs must have the same dtype"),
    (lambda: mt.matmul(mt.eye(2), mt.eye(2), transpose_a=True, adjoint_a=True), ValueError,
     r"only one of transpose_a and adjoint_a"),
    (lambda: mt.matmul(mt.eye(2), mt.eye(2), output_type=mt.float64), TypeError, r"output_type=float64"),
    (lambda: mt.linalg.diag_part(np.ones((2, 3)), k=3), ValueError, r"k=3 is out of range .* \(use -1 to 2\)"),
    (lambda: mt.linalg.diag_part(np.ones((2, 3)), k=(0, 1)), ValueError, r"one diagonal at a time"),
    (lambda: mt.linalg.diag([1.0, 2.0], num_rows=3), ValueError, r"square matrices padded with 0 only"),
    (lambda: mt.linalg.tensor_diag_part(np.ones((2, 3))), ValueError, r"must be s \+ s"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_matmul_adjoint_is_the_transpose_for_real_numbers_and_int8_can_multiply_into_int32():
    a, b = RNG.standard_normal((3, 2)), RNG.standard_normal((4, 3))
    np.testing.assert_allclose(mt.matmul(a, b, adjoint_a=True, adjoint_b=True).numpy(), a.T @ b.T)
    product = mt.matmul(mt.constant([[100]], dtype=mt.int8), mt.constant([[100]], dtype=mt.int8),
                        output_type=mt.int32)
    assert product.dtype == mt.int32 and int(product[0, 0]) == 10000


def test_logdet_and_trace():
    spd = A @ A.T + np.eye(3)
    np.testing.assert_allclose(float(mt.linalg.logdet(spd)), np.linalg.slogdet(spd)[1], rtol=1e-12)
    (grad,) = gradients(mt.linalg.logdet, spd)
    np.testing.assert_allclose(grad, np.linalg.inv(spd), rtol=1e-10)  # symmetric: A⁻ᵀ = A⁻¹
    np.testing.assert_allclose(float(mt.linalg.trace(A)), np.trace(A))


def test_the_namespaces_hold_the_linear_algebra_ops_where_tensorflow_does():
    for name in ["inv", "solve", "det", "slogdet", "logdet", "cholesky", "diag", "diag_part", "trace", "tensor_diag",
                 "tensor_diag_part", "einsum", "matmul"]:
        assert getattr(mt.linalg, name) is getattr(mt.ops, name)
    assert not hasattr(mt, "inv") and not hasattr(mt, "cholesky")  # tf.linalg only, as in TensorFlow
    assert mt.einsum is mt.linalg.einsum and not hasattr(mt, "trace")  # tf.linalg.trace only, as in TensorFlow


def test_no_warning_for_ordinary_matrices():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mt.linalg.cholesky(A @ A.T + np.eye(3))
