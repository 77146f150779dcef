"""Elementwise ops beyond their op cases and TensorFlow's recordings: add_n, its gradient and its errors."""

import numpy as np
import pytest

import minitape as mt
from tape_gradient import gradient


def test_add_n_of_one_tensor_is_that_tensor_and_its_gradient_reaches_every_input():
    x = mt.constant([1.0, 2.0])
    assert mt.add_n([x]) is x
    grad = gradient(lambda t: mt.add_n([t, t * 2.0, t]), [1.0, 2.0])
    np.testing.assert_array_equal(grad, [4.0, 4.0])


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.add_n([]), ValueError, r"add_n: inputs must be a non-empty list"),
    (lambda: mt.add_n([mt.ones(2), mt.ones(3)]), ValueError, r"add_n does not broadcast"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()
