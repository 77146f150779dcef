"""The public, read-only view of a tape (named records, the adjoints of a sweep step by step) and the engine."""

import types

import numpy as np
import pytest

import minitape as mt
from minitape import engine, primitive
from minitape.ops import arguments
from minitape.viz.reading import sweep_steps


def small_tape():
    x = mt.Variable(2.0, name="x")
    c = mt.constant(3.0)
    with mt.GradientTape(persistent=True) as tape:
        y = mt.sin(x) * c
    return tape, x, c, y


def test_records_are_named_and_in_recording_order():
    tape, x, c, y = small_tape()
    sin, mul = tape.records
    assert isinstance(sin, engine.Record) and sin._fields == (
        "op", "inputs", "output", "saved_output", "saved_inputs", "attrs")
    assert (sin.op.name, sin.inputs, mul.op.name, mul.inputs, mul.output) == (
        "sin", (x.id,), "multiply", (sin.output, c.id), y.id)
    assert sin.saved_output is None and sin.saved_inputs[0].id == x.id  # sin's rule reads x, not sin(x)
    assert mul.saved_inputs[1] is c and mul.saved_output is None and mul.attrs == {}


def test_the_view_is_read_only():
    tape, x, c, y = small_tape()
    records = tape.records
    assert isinstance(records, tuple) and len(records) == len(tape) == 2
    with pytest.raises(AttributeError):
        records[0].op = None
    assert isinstance(tape.watched, types.MappingProxyType) and list(tape.watched.values()) == [x]
    with pytest.raises(TypeError):
        tape.watched[c.id] = c
    with mt.autodiff.ForwardAccumulator(x, 1.0) as acc:
        z = x * x
    assert isinstance(acc.tangents, types.MappingProxyType) and float(acc.tangents[z.id]) == 4.0
    with pytest.raises(TypeError):
        acc.tangents[x.id] = None


def test_adjoints_leave_the_tape_usable_and_sweep_steps_show_the_sweep_op_by_op():
    tape, x, c, y = small_tape()
    adjoints = tape.adjoints(y)
    np.testing.assert_allclose(float(adjoints[x.id]), 3.0 * np.cos(2.0), rtol=1e-6)
    steps = [(record.op.name, dict(adj)) for record, adj in sweep_steps(tape, y)]
    assert [name for name, _ in steps] == ["multiply", "sin"]
    assert float(steps[0][1][tape.records[0].output]) == 3.0  # d y / d sin(x) = c, after the first step
    assert x.id not in steps[0][1] and float(steps[1][1][x.id]) == pytest.approx(3.0 * np.cos(2.0))
    assert float(tape.gradient(y, x)) == pytest.approx(3.0 * np.cos(2.0))


def test_a_spent_tape_says_so():
    x = mt.Variable(1.0)
    with mt.GradientTape() as tape:
        y = x * x
    assert not tape.spent
    tape.gradient(y, x)
    assert tape.spent
    with pytest.raises(RuntimeError, match="released its records"):
        tape.records  # noqa: B018  (reading the property is what raises)
    with pytest.raises(RuntimeError, match="released its records"):
        tape.adjoints(y)


def test_sweep_is_lesson_11s_loop_on_the_records():
    tape, x, c, y = small_tape()
    records = list(tape.records)
    adjoints = engine.sweep(records, {y.id: mt.constant(1.0)}, needed={x.id, records[0].output})
    assert set(adjoints) == {x.id}  # adjoints are dropped once used, and c is not needed
    assert len(records) == 2  # without release, the records stay
    engine.sweep(records, {y.id: mt.constant(1.0)}, needed={x.id}, release=True)
    assert records == []


# --- the shortcuts of the loops that run on every op give the plain results ----------------------------------------

@pytest.mark.parametrize("value", [0.5, -0.0, 0.0, float("nan"), float("inf"), 1e-300, 3.0])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_a_shared_float_constant_is_the_plain_conversion(value, dtype):
    expected = np.array(value, dtype)
    for _ in range(2):  # made, then found again
        got = arguments.float_constant(value, np.dtype(dtype)).array
        assert got.dtype == expected.dtype and got.shape == ()
        np.testing.assert_array_equal(got, expected, strict=True)
        assert np.signbit(got) == np.signbit(expected)


def test_apply_runs_the_forward_on_any_number_of_inputs_with_and_without_attributes():
    xs = [mt.constant([1.0, 2.0]), mt.constant([3.0, 4.0]), mt.constant([5.0, 6.0])]
    summed = primitive.Primitive("sum_all", lambda *arrays, scale=1.0: scale * sum(arrays), vjp=None, jvp=None)
    with mt.autodiff.OpCounter() as counter:
        results = [primitive.apply(summed, xs[:n]) for n in (1, 2, 3)]
        results.append(primitive.apply(summed, xs[:2], {"scale": 2.0}))
    assert [r.numpy().tolist() for r in results] == [[1.0, 2.0], [4.0, 6.0], [9.0, 12.0], [8.0, 12.0]]
    assert counter.by_op == {"sum_all": 4}   # every run heard, however it was called


def test_two_adjoints_are_added_by_numpy_when_no_tape_listens_and_by_the_op_when_one_does():
    a, b = mt.constant([1.0, 2.0]), mt.constant([0.5, 0.25])
    with mt.autodiff.OpCounter() as counter:
        with_a_listener = engine.add(a, b)
    unheard = engine.add(a, b)
    assert counter.by_op == {"add": 1}
    np.testing.assert_array_equal(unheard.numpy(), with_a_listener.numpy(), strict=True)
    # the sum that a tape hears is what second derivatives need: x is used twice, so its adjoints are added
    x = mt.Variable(0.7, dtype=mt.float64)
    with mt.GradientTape() as outer:
        with mt.GradientTape() as inner:
            y = mt.sin(x) * mt.cos(x)
        dy = inner.gradient(y, x)
    np.testing.assert_allclose(float(outer.gradient(dy, x)), -2 * np.sin(2 * 0.7), rtol=1e-12)   # y = sin(2x)/2
