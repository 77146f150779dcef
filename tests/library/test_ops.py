"""Every op's derivatives: reverse mode (first and second order) and forward mode, against finite differences.

The finite-difference referee is mt.check_gradients (float64, central
differences), so these tests also exercise the checker the course teaches.
How many inputs hypothesis draws per case is the run's profile (conftest.py).
"""

import importlib
import pkgutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import minitape as mt
from minitape.primitive import Primitive
from op_cases import CASES

@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_first_and_second_derivatives_match_finite_differences(case):
    @given(case.inputs())
    def check(xs):
        mt.check_gradients(case.fn, *xs, order=case.order, rtol=case.rtol, atol=1e-6, delta=case.delta)

    check()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_forward_mode_equals_the_reverse_mode_jacobian_times_the_tangent(case):
    @given(case.inputs())
    def check(xs):
        primals = [mt.constant(x) for x in xs]
        rng = np.random.default_rng(len(xs))
        tangents = [mt.constant(rng.standard_normal(x.shape)) for x in xs]
        with mt.GradientTape() as tape:
            tape.watch(primals)
            with mt.autodiff.ForwardAccumulator(primals, tangents) as acc:
                y = case.fn(*primals)
        jvp = acc.jvp(y, unconnected_gradients="zero").numpy()
        expected = sum(np.tensordot(j.numpy(), t.numpy(), axes=t.ndim)
                       for j, t in zip(tape.jacobian(y, primals, unconnected_gradients="zero"), tangents))
        np.testing.assert_allclose(jvp, expected, rtol=case.jvp_rtol, atol=1e-12)
    check()


def ops_run_by(case):
    """The names of the ops a case's function runs on one input it draws (not those of its derivative rules)."""
    ops = set()

    @settings(max_examples=1, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case.inputs())
    def run_once(xs):
        with mt.autodiff.OpCounter() as counter:
            case.fn(*[mt.constant(x) for x in xs])
        ops.update(counter.by_op)
    run_once()
    return ops


def test_every_primitive_has_a_case():
    """A new op must come with a derivative test: the ops the cases run, on one input each, cover every op that a
    module of minitape.ops declares."""
    seen = set().union(*(ops_run_by(case) for case in CASES))
    families = [importlib.import_module(m.name) for m in pkgutil.walk_packages(mt.ops.__path__, "minitape.ops.")]
    defined = {obj.name for module in families for obj in vars(module).values() if isinstance(obj, Primitive)}
    defined |= {fn.primitive.name for module in families for fn in vars(module).values()
                if isinstance(getattr(fn, "primitive", None), Primitive)}
    # these run only inside derivative rules (and are checked there: product_of_others by reduce_prod's second
    # derivatives, spectral_direction by the spectral norm's, conv_filter_gradient by conv's)
    backward_only = {"scatter", "scatter_add", "unbroadcast", "spectral_direction", "singular_factor",
                     "product_of_others", "conv_filter_gradient"}
    assert defined - seen <= backward_only, f"ops without a derivative test: {defined - seen}"


def test_reduce_prod_gradient_at_zeros():
    # d/dx_i prod(x) = product of the others: no division, so exact where x has zeros
    for values, expected in [([0.0, 2.0, 3.0], [6.0, 0.0, 0.0]), ([0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
                             ([[2.0, 0.0], [4.0, 5.0]], [[0.0, 2.0], [5.0, 4.0]])]:
        x = mt.constant(values, dtype=mt.float64)
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = mt.reduce_prod(x, axis=-1)
        np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)


def test_reduce_prod_hessian_vector_product_at_a_zero():
    # prod(x) = x0 x1 x2: d/de of its gradient at x + e t is (t1 x2 + t2 x1, t0 x2 + t2 x0, t0 x1 + t1 x0)
    x, t = mt.constant([0.0, 2.0, 3.0], mt.float64), mt.constant([0.0, 1.0, 0.0], mt.float64)
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = mt.reduce_prod(x)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(outer.gradient(g, x, output_gradients=t).numpy(), [3.0, 0.0, 0.0])
    with mt.autodiff.ForwardAccumulator(x, t) as acc:  # forward over reverse gives the same
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = mt.reduce_prod(x)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(acc.jvp(g).numpy(), [3.0, 0.0, 0.0])


def test_reduce_prod_third_derivative_at_zeros():
    # d3/dx0 dx1 dx2 of x0 x1 x2 x3 is x3, whatever x0, x1, x2 are; at x = 0 every rule that divides fails
    x = mt.constant([0.0, 0.0, 0.0, 5.0], mt.float64)
    with mt.GradientTape() as t3:
        t3.watch(x)
        with mt.GradientTape() as t2:
            t2.watch(x)
            with mt.GradientTape() as t1:
                t1.watch(x)
                y = mt.reduce_prod(x)
            g = t1.gradient(y, x)[0]
        h = t2.gradient(g, x)[1]
    np.testing.assert_array_equal(t3.gradient(h, x).numpy(), [0.0, 0.0, 5.0, 0.0])


def test_spectral_norm_third_derivative_is_refused():
    x = mt.constant([[3.0, 1.0], [0.0, 2.0]], mt.float64)
    with mt.GradientTape() as t3:
        t3.watch(x)
        with mt.GradientTape() as t2:
            t2.watch(x)
            with mt.GradientTape() as t1:
                t1.watch(x)
                y = mt.norm(x, ord=2, axis=[0, 1])
            g = mt.reduce_sum(t1.gradient(y, x) * [[1.0, 2.0], [3.0, 4.0]])
        h = mt.reduce_sum(t2.gradient(g, x))
    with pytest.raises(NotImplementedError, match="first and second derivatives only"):
        t3.gradient(h, x)


def test_digamma_and_its_derivatives_against_closed_forms():
    # psi(1) = -gamma, psi(1/2) = -gamma - 2 ln 2, psi(-1/2) = psi(1/2) + 2, psi'(1) = pi**2 / 6, psi''(1) = -2 zeta(3)
    euler_gamma, zeta3 = 0.5772156649015329, 1.2020569031595942
    x = mt.constant([1.0, 0.5, -0.5], mt.float64)
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = mt.math.digamma(x)
        trigamma = inner.gradient(y, x)
    tetragamma = outer.gradient(trigamma, x)
    psi_half = -euler_gamma - 2 * np.log(2.0)
    np.testing.assert_allclose(y.numpy(), [-euler_gamma, psi_half, psi_half + 2.0], rtol=1e-14)
    np.testing.assert_allclose(trigamma.numpy()[:2], [np.pi ** 2 / 6, np.pi ** 2 / 2], rtol=1e-14)
    np.testing.assert_allclose(tetragamma.numpy()[0], -2 * zeta3, rtol=1e-13)
