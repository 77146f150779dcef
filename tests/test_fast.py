"""The fast path gives the plain path's numbers, to the last bit.

The library runs ``minitape.fast.apply`` and ``minitape.fast.sweep``; the
definitions a student reads are ``minitape.primitive.apply`` and
``minitape.engine.sweep``. Here every op's value, gradient and second
derivative is computed both ways and compared exactly.
"""

import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import minitape as mt
from minitape import engine, fast, primitive
from op_cases import CASES


def plain(monkeypatch):
    """Make every module that runs the fast twins run the plain definitions instead; returns how many it changed."""
    changed = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("minitape") or module is fast:
            continue
        for attribute, fast_one, plain_one in (("apply", fast.apply, primitive.apply),
                                               ("sweep", fast.sweep, engine.sweep)):
            if getattr(module, attribute, None) is fast_one:
                monkeypatch.setattr(module, attribute, plain_one)
                changed += 1
    return changed


def one_input(case):
    """The first input hypothesis draws for ``case`` (the same on every run)."""
    drawn = []

    @settings(max_examples=1, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case.inputs())
    def draw(xs):
        drawn.append(xs)
    draw()
    return drawn[0]


def value_and_derivatives(case, xs):
    """The case's value, its gradient and (for order 2) the gradient of the gradient's sum, as NumPy arrays."""
    sources = [mt.constant(x) for x in xs]
    with mt.GradientTape() as outer:
        outer.watch(sources)
        with mt.GradientTape() as inner:
            inner.watch(sources)
            y = case.fn(*sources)
        grads = inner.gradient(y, sources, unconnected_gradients="zero")
        total = mt.add_n([mt.reduce_sum(g) for g in grads])
    results = [y, *grads]
    if case.order >= 2:
        results += outer.gradient(total, sources, unconnected_gradients="zero")
    return [r.numpy() for r in results]


def test_the_library_runs_the_fast_twins_and_plain_can_swap_them(monkeypatch):
    assert mt.GradientTape.gradient.__globals__["sweep"] is fast.sweep
    assert plain(monkeypatch) >= 8  # the op modules, custom_gradient, the tape and the jacobians
    assert mt.GradientTape.gradient.__globals__["sweep"] is engine.sweep


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_op_gives_the_same_bits_on_the_fast_and_the_plain_path(case, monkeypatch):
    xs = one_input(case)
    fast_results = value_and_derivatives(case, xs)
    plain(monkeypatch)
    plain_results = value_and_derivatives(case, xs)
    assert len(fast_results) == len(plain_results)
    for f, p in zip(fast_results, plain_results):
        np.testing.assert_array_equal(f, p, strict=True)


def test_a_jacobian_and_a_non_persistent_tape_agree_too(monkeypatch):
    def run():
        x = mt.constant([0.3, -1.2, 2.0], dtype=mt.float64)
        with mt.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = mt.sin(x) * x + x  # x is used three times: adjoints are added
            z = mt.reduce_sum(y * y)
        jacobian = tape.jacobian(y, x).numpy()
        with mt.GradientTape() as once:
            once.watch(x)
            w = mt.reduce_prod(mt.exp(x) * x)
        return jacobian, tape.gradient(z, x).numpy(), once.gradient(w, x).numpy()

    fast_results = run()
    plain(monkeypatch)
    for f, p in zip(fast_results, run()):
        np.testing.assert_array_equal(f, p, strict=True)


@pytest.mark.parametrize("value", [0.5, -0.0, 0.0, float("nan"), float("inf"), 1e-300, 3.0])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_a_shared_float_constant_is_the_plain_conversion(value, dtype):
    expected = np.array(value, dtype)
    for _ in range(2):  # made, then found again
        got = fast.float_constant(value, np.dtype(dtype)).array
        assert got.dtype == expected.dtype and got.shape == ()
        np.testing.assert_array_equal(got, expected, strict=True)
        assert np.signbit(got) == np.signbit(expected)
