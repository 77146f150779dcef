"""Derivatives at singular points (sqrt at 0, log at 0, a division by 0, cumprod at a zero...) match TensorFlow's.

TensorFlow 2.21's numbers were recorded once into fixtures/tf_singular_points.json by
fixtures/record_tf_singular_points.py, which also computes them here, with minitape: each case
is a program, a point, and the first derivative, the second derivative (nested tapes) and the
forward-mode derivative, each for a zero and a nonzero seed.
"""

import json
import pathlib

import numpy as np
import pytest

import minitape as mt
from fixtures.record_tf_singular_points import derivatives

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_singular_points.json").read_text())
CASES = FIXTURE["cases"]
INF, NAN = float("inf"), float("nan")

# TensorFlow computes a forward-mode tangent by transposing the op's gradient, so a constant input
# takes part with a zero tangent: 0 times an infinite partial derivative makes NaN. In minitape a
# constant has no tangent, and takes no part. These are the only places where that matters.
FORWARD_MODE_DIFFERS = {  # (program, point, seed): minitape's tangent (TensorFlow's is NaN there)
    ("m.divide(x, 0.0)", (0.0,), "one"): [INF],
    ("m.divide(x, 0.0)", (1.0,), "one"): [INF],
    ("m.divide(1.0, x)", (0.0,), "one"): [-INF],
    ("m.pow(x, -1.0)", (0.0,), "one"): [-INF],
    ("m.pow(0.0, x)", (-1.0, 0.5, 2.0), "zero"): [NAN, 0.0, 0.0],
    ("m.pow(0.0, x)", (-1.0, 0.5, 2.0), "one"): [NAN, 0.0, 0.0],
}

# TensorFlow's second derivative of reduce_prod divides by x (its gradient is built from cumprods), and so gives 0
# where an element is 0; minitape's never divides and gives the true value, as JAX does. For prod(x) the gradient
# of sum(gradient) is (x1 + x2, x0 + x2, x0 + x1).
SECOND_DERIVATIVE_EXACT = {  # (program, point, seed): minitape's second derivative
    ("m.reduce_prod(x)", (0.0, 2.0, 3.0), "one"): [5.0, 3.0, 2.0],
    ("m.reduce_prod(x)", (0.0, 0.0, 3.0), "one"): [3.0, 3.0, 0.0],
}


def assert_same(actual, expected):
    if expected is None:
        assert actual is None
    else:  # NaN matches NaN and infinities must match in sign; 0.0 and -0.0 are equal
        np.testing.assert_allclose(np.asarray(actual, float), np.asarray(expected, float), rtol=1e-12, atol=0)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['program']} at {c['x']}" for c in CASES])
def test_derivatives_at_singular_points_match_tensorflow(case):
    with np.errstate(all="ignore"):  # the values themselves are inf or NaN here, as in TensorFlow
        ours = derivatives(mt, case["program"], case["x"])
    for kind in ("grad", "grad2", "jvp"):
        for seed in ("zero", "one"):
            expected = case[kind][seed]
            key = (case["program"], tuple(case["x"]), seed)
            differs = FORWARD_MODE_DIFFERS.get(key) if kind == "jvp" else None
            if differs is not None:
                assert np.all(np.isnan(expected) | np.isclose(expected, differs)), "TensorFlow changed"
                expected = differs
            if kind == "grad2" and key in SECOND_DERIVATIVE_EXACT:
                assert not np.allclose(expected, SECOND_DERIVATIVE_EXACT[key]), "TensorFlow changed: remove the entry"
                expected = SECOND_DERIVATIVE_EXACT[key]
            try:
                assert_same(ours[kind][seed], expected)
            except AssertionError as e:
                raise AssertionError(f"{kind}, seed of {seed}s: minitape {ours[kind][seed]}, "
                                     f"TensorFlow {case[kind][seed]}") from e


def test_the_fixture_was_recorded_with_tensorflow_2_21():
    assert FIXTURE["tensorflow"].startswith("2.21.")
    assert {key for key, _, _ in FORWARD_MODE_DIFFERS | SECOND_DERIVATIVE_EXACT} <= {c["program"] for c in CASES}


def test_where_masks_sqrt_without_nan():
    # the untaken branch's infinite slope meets a zero gradient, giving 0
    x = mt.constant([-1.0, 0.0, 4.0])
    with np.errstate(all="ignore"):  # sqrt(-1) is NaN and 0.5 / sqrt(0) is inf, in the untaken branch
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = mt.reduce_sum(mt.where(x > 0, mt.sqrt(x), 0.0))
        grad = tape.gradient(y, x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0, 0.25])


def test_safe_norm_pattern_has_gradient_zero_at_zero():
    x = mt.Variable([0.0, 0.0])
    with np.errstate(divide="ignore"):
        with mt.GradientTape() as tape:
            n2 = mt.reduce_sum(x * x)
            n = mt.where(n2 > 0, mt.sqrt(n2), 0.0)
        grad = tape.gradient(n, x)
    np.testing.assert_array_equal(grad.numpy(), [0.0, 0.0])


def test_no_nan_ops_compute_without_warnings():
    # pyproject.toml turns RuntimeWarnings into errors: inf * 0 and 1 / 0 must not even be computed
    np.testing.assert_array_equal(mt.math.multiply_no_nan([INF, NAN, 2.0], [0.0, 0.0, 3.0]).numpy(), [0, 0, 6])
    np.testing.assert_array_equal(mt.math.divide_no_nan([1.0, 0.0, 3.0], [0.0, 0.0, 2.0]).numpy(), [0, 0, 1.5])
    np.testing.assert_array_equal(mt.math.divide_no_nan([[1.0], [2.0]], [0.0, 4.0]).numpy(), [[0, 0.25], [0, 0.5]])


def test_no_nan_ops_take_the_dtypes_tensorflow_takes():
    with pytest.raises(TypeError, match="multiply_no_nan: int32 tensors are not supported.*floating-point.*mt.cast"):
        mt.math.multiply_no_nan(mt.constant([1, 2]), mt.constant([0, 1]))
    # divide_no_nan divides integers as `/` does: into float32 for 8- and 16-bit integers, float64 for others
    quotient = mt.math.divide_no_nan(mt.constant([1, 2], dtype=mt.int8), mt.constant([0, 4], dtype=mt.int8))
    assert quotient.dtype == mt.float32 and quotient.numpy().tolist() == [0.0, 0.5]
