"""Forward mode: ForwardAccumulator, Hessian-vector products, op counts, memory."""


import numpy as np
import pytest

import minitape as mt
from minitape.viz import read_tape


def f(x):
    """A smooth function of a vector with a dense Hessian."""
    return mt.reduce_sum(mt.sin(x) * x ** 2) + mt.reduce_prod(x) + mt.reduce_sum(mt.exp(x[:2] * x[1:]))


def test_jvp_structures_and_unconnected_values():
    a, b = mt.constant(2.0), mt.constant([1.0, 3.0])
    with mt.autodiff.ForwardAccumulator({"a": a, "b": b}, {"a": 1.0, "b": mt.constant([0.5, 0.0])}) as acc:
        y = a * b
        z = mt.constant(4.0) * 2.0
    jvps = acc.jvp({"y": y, "z": z})
    np.testing.assert_array_equal(jvps["y"].numpy(), [1 * 1 + 2 * 0.5, 3.0])
    assert jvps["z"] is None
    assert float(acc.jvp(z, unconnected_gradients="zero")) == 0.0


def test_tangent_must_match_its_primal():
    x = mt.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"tangent 0 has shape \(3,\), but its primal has shape \(2,\)"):
        mt.autodiff.ForwardAccumulator(x, mt.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="dtype float64, but its primal has dtype float32.*mt.cast"):
        mt.autodiff.ForwardAccumulator(x, mt.ones(2, dtype=mt.float64))
    with pytest.raises(ValueError, match=r"a list, but the primal is one tensor.*mt.constant\(\[1.0, 2.0\]\)"):
        mt.autodiff.ForwardAccumulator(x, [1.0, 2.0])  # TensorFlow wants the primals' structure exactly
    with pytest.raises(ValueError, match="one tangent per primal.*2 items"):
        mt.autodiff.ForwardAccumulator([x, mt.constant(1.0)], [x])
    with pytest.raises(ValueError, match="multiple times"):
        mt.autodiff.ForwardAccumulator([x, x], [x, x])
    # a NumPy array or a Python number takes the primal's dtype, as in TensorFlow
    with mt.autodiff.ForwardAccumulator(x, np.ones(2)) as acc:
        y = x * 2.0
    assert acc.jvp(y).dtype == mt.float32 and acc.jvp(y).numpy().tolist() == [2.0, 2.0]


def test_variables_as_primals():
    v = mt.Variable(3.0)
    with mt.autodiff.ForwardAccumulator(v, 1.0) as acc:
        y = v * v * v
    assert float(acc.jvp(y)) == 27.0


def _hessian_by_nested_tapes(x):
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x).numpy()


def test_forward_over_reverse_gives_hessian_vector_products():
    x = mt.constant([0.3, -1.2, 0.8], dtype=mt.float64)
    v = mt.constant([1.0, 2.0, -0.5], dtype=mt.float64)
    with mt.autodiff.ForwardAccumulator(x, v) as acc:
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    hessian = _hessian_by_nested_tapes(x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), hessian @ v.numpy(), rtol=1e-13)
    np.testing.assert_allclose(hessian, hessian.T, rtol=1e-13)


def test_reverse_over_forward():
    x = mt.constant([0.3, -1.2, 0.8], dtype=mt.float64)
    v = mt.constant([1.0, 2.0, -0.5], dtype=mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        with mt.autodiff.ForwardAccumulator(x, v) as acc:
            y = f(x)
        directional = acc.jvp(y)  # grad f . v
    np.testing.assert_allclose(tape.gradient(directional, x).numpy(), _hessian_by_nested_tapes(x) @ v.numpy(),
                               rtol=1e-13)


def test_custom_gradient_in_forward_mode_uses_its_transpose():
    @mt.custom_gradient
    def cube(x):
        return x * x * x, lambda dy: dy * 3.0 * x * x

    x = mt.constant([1.0, 2.0], dtype=mt.float64)
    with mt.autodiff.ForwardAccumulator(x, mt.constant([1.0, -1.0], dtype=mt.float64)) as acc:
        y = cube(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [3.0, -12.0])


def test_op_counts_show_one_pass_per_input_forward_and_per_output_reverse():
    # f: R^n -> R^m; a full Jacobian takes n forward passes or m backward passes
    def jacobian_cost(n, m):
        w = mt.constant(np.random.default_rng(0).standard_normal((m, n)))
        fn = lambda x: mt.tanh(mt.matmul(w, mt.reshape(x, (n, 1))))  # noqa: E731
        x = mt.constant(np.ones(n))
        with mt.autodiff.OpCounter() as fwd:
            for i in range(n):
                with mt.autodiff.ForwardAccumulator(x, mt.constant(np.eye(n)[i])) as acc:
                    acc.jvp(fn(x))
        with mt.autodiff.OpCounter() as rev:
            with mt.GradientTape() as tape:
                tape.watch(x)
                y = fn(x)
            tape.jacobian(y, x)
        return fwd.total, rev.total

    fwd_1, rev_1 = jacobian_cost(1, 8)
    fwd_8, rev_8 = jacobian_cost(8, 8)
    fwd_8b, rev_8b = jacobian_cost(8, 1)
    assert fwd_8 == 8 * fwd_1 and fwd_1 < rev_1  # forward mode: cost grows with the inputs
    assert rev_8b < rev_8 and rev_8b < fwd_8b  # reverse mode: cost grows with the outputs


def test_forward_mode_keeps_no_history():
    # only the tangents of values still alive are kept: memory does not grow with the computation
    x = mt.constant(np.ones(1000))
    with mt.autodiff.ForwardAccumulator(x, mt.constant(np.ones(1000))) as acc:
        y = x
        for _ in range(200):
            y = mt.sin(y)
        held = len(acc.tangents)
    assert held <= 3, f"{held} tangents kept for a chain of 200 ops"
    np.testing.assert_allclose(acc.jvp(y).numpy()[0], np.prod(np.cos(_sin_chain(1.0, 200))), rtol=1e-12)


def _held(accumulator):
    """How many entries each of the accumulator's containers holds."""
    return {name: len(v) for name, v in vars(accumulator).items() if isinstance(v, (list, dict, set))}


def test_an_accumulator_alive_over_20_000_ops_holds_what_it_held_after_1000():
    x = mt.constant(1.0, dtype=mt.float64)
    with mt.autodiff.ForwardAccumulator(x, mt.constant(1.0, dtype=mt.float64)) as acc:
        y = x
        for k in range(20_000):
            y = y * 0.999999
            if k == 999:
                early = _held(acc)
        late = _held(acc)
    assert late == early, f"after 1,000 ops {early}, after 20,000 {late}"
    assert float(acc.jvp(y)) == pytest.approx(0.999999 ** 20_000, rel=1e-9)


def test_a_reading_of_a_tape_leaves_out_the_tangent_arithmetic_of_an_accumulator_inside_it():
    # a tape outside an accumulator records the ops of its JVP rules too (reverse over forward); a reading of
    # the tape with the accumulator tells them from the function's own ops by what they compute from
    x = mt.Variable(2.0, name="x")
    acc = mt.autodiff.ForwardAccumulator(x, mt.constant(1.0))
    with acc:
        with mt.GradientTape() as inside:
            mt.sin(x) * x  # a tape inside the accumulator does not see its arithmetic (as in TensorFlow)
    assert [r.op.name for r in inside.records] == ["sin", "multiply"]
    with mt.GradientTape(persistent=True) as tape:
        with acc:
            y = mt.exp(mt.sin(x)) * x
    assert len(tape) > 3  # sin's rule t * cos(x), exp's t * exp(u), the product rule: all recorded
    assert [op.name for op in read_tape(tape, acc).ops] == ["sin", "exp", "multiply"]
    assert [op.name for op in read_tape(tape).ops][:3] == ["sin", "cos", "multiply"]
    assert float(acc.jvp(y)) == pytest.approx(np.exp(np.sin(2.0)) * (np.cos(2.0) * 2.0 + 1.0), rel=1e-6)


def test_nested_accumulators_see_only_the_arithmetic_of_those_inside_them():
    # as in TensorFlow (forwardprop_test.testGradPureForward): outer over inner gives a second derivative,
    # while the inner accumulator never sees the outer one's tangents
    x = mt.constant(1.1, dtype=mt.float64)
    with mt.autodiff.ForwardAccumulator(x, mt.constant(1.0, dtype=mt.float64)) as outer:
        with mt.autodiff.ForwardAccumulator(x, mt.constant(1.0, dtype=mt.float64)) as inner:
            y = x ** 3.5
    assert float(outer.jvp(inner.jvp(y))) == pytest.approx(3.5 * 2.5 * 1.1 ** 1.5, rel=1e-12)
    assert inner.jvp(outer.jvp(y)) is None


def test_integer_primals_keep_their_tangent_but_carry_none():
    i = mt.constant([1, 2])
    with mt.autodiff.ForwardAccumulator(i, mt.constant([1, 1])) as acc:
        y = mt.cast(i, mt.float32) * 2.0
    assert acc.jvp(i).numpy().tolist() == [1, 1] and acc.jvp(y) is None


def _sin_chain(x, n):
    """The points where sin's derivative is taken along x, sin x, sin sin x, ..."""
    points = []
    for _ in range(n):
        points.append(x)
        x = np.sin(x)
    return points
