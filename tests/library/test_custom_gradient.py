"""mt.custom_gradient: a function's own backward pass, under one tape and nested tapes, and the errors that name a
broken contract (its function, the input and the shapes)."""

import numpy as np
import pytest

import minitape as mt


@mt.custom_gradient
def clip_gradients(y):
    def backward(dy):
        return mt.clip_by_norm(dy, 0.5)
    return y, backward


def test_custom_gradient_clips_the_backward_pass():
    v = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        output = clip_gradients(v * v)
    assert float(tape.gradient(output, v)) == 2.0


def test_custom_gradient_under_nested_tapes():
    @mt.custom_gradient
    def log1pexp(x):
        e = mt.exp(x)
        return mt.math.log(1.0 + e), lambda upstream: upstream * (1.0 - 1.0 / (1.0 + e))

    x = mt.constant(0.3, dtype=mt.float64)
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        dy = inner.gradient(y, x)
    sig = 1 / (1 + np.exp(-0.3))
    assert float(dy) == pytest.approx(sig, rel=1e-15)
    assert float(outer.gradient(dy, x)) == pytest.approx(sig * (1 - sig), rel=1e-14)


def _gradient_through(custom_fn, x):
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = custom_fn(x)
    return tape.gradient(y, x)


def test_custom_gradient_contract_errors_name_the_function_the_input_and_the_shapes():
    # each mistake is named, instead of failing deep inside NumPy
    @mt.custom_gradient
    def wrong_shape(x):
        return x * 2.0, lambda upstream: mt.ones((5,))

    @mt.custom_gradient
    def two_for_one(x):
        return x * 2.0, lambda upstream: (upstream, upstream)

    @mt.custom_gradient
    def forgets_grad_fn(x):
        return x * 2.0

    x = mt.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"grad_fn of wrong_shape returned a gradient of shape \(5,\) for "
                                         r"input 0 \(x\), which has shape \(2,\)"):
        _gradient_through(wrong_shape, x)
    with pytest.raises(ValueError, match=r"grad_fn of two_for_one returned 2 gradient\(s\), but two_for_one has "
                                         r"1 input\(s\): input 0 \(x\)"):
        _gradient_through(two_for_one, x)
    with pytest.raises(TypeError, match=r"forgets_grad_fn must return a pair \(y, grad_fn\).*a single Tensor"):
        _gradient_through(forgets_grad_fn, x)
