"""einsum: its gradients in closed form (the matmul's, a diagonal's, a broadcast ellipsis's) and the errors of its
equations."""

import numpy as np
import pytest

import minitape as mt
from tape_gradient import gradient

RNG = np.random.default_rng(7)


def test_einsum_gradients_are_the_matmul_gradients():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    g = RNG.standard_normal((2, 4))
    np.testing.assert_allclose(gradient(lambda x: mt.einsum("ij,jk->ik", x, b), a, output_gradients=g), g @ b.T)
    np.testing.assert_allclose(gradient(lambda x: mt.einsum("ij,jk->ik", a, x), b, output_gradients=g), a.T @ g)


def test_einsum_gradient_of_a_diagonal_lies_on_the_diagonal():
    np.testing.assert_array_equal(gradient(lambda x: mt.einsum("ii->i", x), np.ones((2, 2)),
                                           output_gradients=np.array([2.0, 3.0])), [[2.0, 0.0], [0.0, 3.0]])


def test_einsum_of_a_broadcast_ellipsis_sums_the_gradient_back():
    grad = gradient(lambda x: mt.einsum("...ij,...jk->...ik", np.ones((3, 2, 2)), x), np.ones((1, 2, 4)))
    np.testing.assert_array_equal(grad, np.full((1, 2, 4), 6.0))


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.einsum("ij,jk->ik", np.ones((2, 2)), np.ones((3, 2))), ValueError,
     r"label 'j' stands for dimensions of sizes 2 and 3"),
    (lambda: mt.einsum("ij,jk->ik", np.ones((2, 2))), ValueError, r"has 2 input\(s\), but 1 tensor\(s\)"),
    (lambda: mt.einsum("ij->k", np.ones((2, 2))), ValueError, r"output label 'k' .* is in no input"),
    (lambda: mt.einsum("ij->ii", np.ones((2, 2))), ValueError, r"appears more than once"),
    (lambda: mt.einsum("i1->i", np.ones((2, 2))), ValueError, r"incorrect format"),
    (lambda: mt.einsum("...ij->ij", np.ones((4, 2, 3))), ValueError, r"the output has no '\.\.\.'"),
    (lambda: mt.einsum("ijk->i", np.ones((2, 2))), ValueError, r"input 0 has the labels 'ijk' but shape \(2, 2\)"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()
