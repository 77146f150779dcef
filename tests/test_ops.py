"""Every op's derivatives: reverse mode (first and second order) and forward mode, against finite differences.

The finite-difference referee is mt.check_gradients (float64, central
differences), so these tests also exercise the checker the course teaches.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import minitape as mt
from op_cases import CASES

CHECK = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                           HealthCheck.too_slow])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_first_and_second_derivatives_match_finite_differences(case):
    @CHECK
    @given(case.inputs())
    def check(xs):
        mt.check_gradients(case.fn, *xs, order=case.order, rtol=case.rtol, atol=1e-6, delta=case.delta)

    check()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_forward_mode_equals_the_reverse_mode_jacobian_times_the_tangent(case):
    @CHECK
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
    """A new op must come with a derivative test: the ops the cases run, on one input each, cover every op."""
    seen = set().union(*(ops_run_by(case) for case in CASES))
    from minitape.ops import creation, elementwise, indexing, linalg, nn, reductions, shapes, sorting
    from minitape.primitive import Primitive
    defined = {obj.name for module in (creation, elementwise, indexing, linalg, nn, reductions, shapes, sorting)
               for obj in vars(module).values() if isinstance(obj, Primitive)}
    defined |= {fn.primitive.name for module in (elementwise, reductions)
                for fn in vars(module).values() if hasattr(fn, "primitive")}
    # scatter, scatter_add, unbroadcast and spectral_direction run only inside derivative rules
    backward_only = {"scatter", "scatter_add", "unbroadcast", "spectral_direction"}
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
