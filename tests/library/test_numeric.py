"""Finite differences, the complex step, the step-size trade-off and the gradient checker."""

import numpy as np
import pytest

import minitape as mt
from minitape import numeric


def test_difference_formulas_and_their_orders():
    x, exact = 1.0, np.cos(1.0)
    h = 1e-3
    fwd = numeric.forward_difference(np.sin, x, h)
    bwd = numeric.backward_difference(np.sin, x, h)
    ctr = numeric.central_difference(np.sin, x, h)
    # truncation: forward/backward err ~ h/2 |f''|, central ~ h^2/6 |f'''|
    assert abs(fwd - exact) == pytest.approx(h / 2 * np.sin(1.0), rel=1e-2)
    assert abs(bwd - exact) == pytest.approx(h / 2 * np.sin(1.0), rel=1e-2)
    assert abs(ctr - exact) == pytest.approx(h * h / 6 * np.cos(1.0), rel=1e-2)
    assert numeric.second_difference(np.sin, x) == pytest.approx(-np.sin(1.0), rel=1e-6)
    assert numeric.complex_step(np.sin, x) == exact  # no round-off: exact to the last bit here
    assert numeric.central_difference(lambda t: mt.sin(t), mt.constant(1.0, dtype=mt.float64)) == \
        pytest.approx(exact, rel=1e-10)


def test_bad_steps_and_functions_are_refused():
    for h in (0.0, -1e-3, np.inf, np.nan):
        with pytest.raises(ValueError, match="positive finite"):
            numeric.central_difference(np.sin, 1.0, h)
    with pytest.raises(ValueError, match="single number.*shape \\(2,\\)"):
        numeric.forward_difference(lambda x: np.array([x, x]), 1.0)
    with pytest.raises(ValueError, match="dropped the imaginary part"):
        numeric.complex_step(lambda x: np.abs(x) ** 2, 1.0)
    with pytest.raises(ValueError, match="single number"):
        numeric.gradient(lambda v: v * 2, np.ones(3))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("method, power", [("forward", 1 / 2), ("central", 1 / 3)])
def test_best_step_is_near_the_theory(dtype, method, power):
    curve = numeric.error_curve(np.exp, np.exp, 1.0, method=method, dtype=dtype)
    theory = np.finfo(dtype).eps ** power
    assert theory / 30 < curve.best_step < theory * 30
    # both sides of the V: the error grows for much larger and much smaller steps
    best = curve.errors.min()
    assert curve.errors[curve.steps > theory * 100].min() > 10 * best
    assert curve.errors[curve.steps < theory / 100].min() > 10 * best


def test_error_curve_in_float16_skips_steps_it_cannot_hold():
    curve = numeric.error_curve(np.exp, np.exp, 1.0, "central", dtype="float16")
    assert np.all(np.float16(curve.steps) > 0) and 1e-3 < curve.best_step < 1.0
    assert curve.errors.min() < 1e-2  # float16 keeps about 3 digits


def test_jacobian_and_gradient_of_array_functions_and_their_cost():
    calls = []

    def f(v):
        calls.append(1)
        return np.array([v[0] * v[1], np.sin(v[2])])

    x = np.array([1.0, 2.0, 0.5])
    jac = numeric.difference_jacobian(f, x)
    np.testing.assert_allclose(jac, [[2.0, 1.0, 0.0], [0.0, 0.0, np.cos(0.5)]], rtol=1e-9, atol=1e-10)
    assert len(calls) == 2 * 3  # central: two calls per input
    calls.clear()
    numeric.difference_jacobian(f, x, method="forward")
    assert len(calls) == 3 + 1  # forward: one per input plus the base point
    np.testing.assert_allclose(numeric.gradient(lambda v: (v ** 3).sum(), x), 3 * x ** 2, rtol=1e-9)


def test_compute_gradient_has_tensorflows_meaning():
    theoretical, numerical = mt.test.compute_gradient(lambda x: x * x, [1.0])
    assert theoretical[0].dtype == np.float32 and theoretical[0].tolist() == [[2.0]]
    assert numerical[0].tolist() == [[np.float32(2.000004)]]
    a, b = np.ones((2, 3)), np.arange(3.0)
    t, n = mt.test.compute_gradient(lambda a, b: a * b, [a, b], delta=1e-6)
    assert [j.shape for j in t] == [(6, 6), (6, 3)]
    np.testing.assert_allclose(t[1], n[1], rtol=1e-8)
    with pytest.raises(ValueError, match="list or tuple"):
        mt.test.compute_gradient(lambda x: x, 1.0)


def test_check_gradients_passes_quietly_and_explains_failures():
    mt.check_gradients(lambda x, y: mt.sin(x) * y, [0.1, 0.2], 3.0, order=2)

    @mt.custom_gradient
    def wrong_square(x):
        return x * x, lambda dy: dy * 2.1 * x  # a 5% error in the gradient

    with pytest.raises(AssertionError) as info:
        mt.check_gradients(wrong_square, [1.0, 2.0])
    message = str(info.value)
    assert "argument 0 (shape (2,))" in message and "d output[1] / d input[1]" in message
    assert "tape 4.2" in message and "finite differences 4" in message and "relative error 0.05" in message
    assert "(absolute 0.2)" in message

    @mt.custom_gradient
    def round_through(x):  # a straight-through estimator: gradient 1 where the true derivative is 0
        return mt.round(x), lambda dy: dy

    with pytest.raises(AssertionError, match=r"tape 1, finite differences 0, relative error inf \(absolute 1\)"):
        mt.check_gradients(round_through, 0.3)

    @mt.custom_gradient
    def wrong_second_derivative(x):  # right first derivative, its own derivative is wrong
        return x * x * x, lambda dy: dy * 3.0 * mt.stop_gradient(x) * x

    mt.check_gradients(wrong_second_derivative, 1.5)
    with pytest.raises(AssertionError, match="second derivatives"):
        mt.check_gradients(wrong_second_derivative, 1.5, order=2)


def test_check_gradients_names_a_function_that_returns_no_tensor():
    # a clear error, not "cannot convert None" from inside convert_to_tensor
    def forgets_to_return(x):
        x * x

    with pytest.raises(TypeError, match=r"the function <lambda>, defined at .*test_numeric\.py:\d+, returned "
                                        r"NoneType \(None\) instead of a tensor"):
        mt.check_gradients(lambda x: None, 1.0)
    with pytest.raises(TypeError, match=r"forgets_to_return.*did it forget a `return`\?"):
        mt.check_gradients(forgets_to_return, 1.0)


def test_check_gradients_refuses_float32_unless_told():
    with pytest.raises(ValueError, match="float32.*round-off"):
        mt.check_gradients(mt.sin, mt.constant([0.5]))
    mt.check_gradients(mt.sin, mt.constant([0.5]), allow_float32=True, delta=1e-2, rtol=1e-3, atol=1e-3)
    with pytest.raises(ValueError, match="order must be 1 or 2"):
        mt.check_gradients(mt.sin, 0.5, order=3)
