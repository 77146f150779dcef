"""Sliced assignment to Variables (``v[1:3].assign(...)``): what TensorFlow's recordings do not show.

fixtures/tf_programs_module.py compares values, refusals and gradients with
TensorFlow; here: a slice is one recorded op on the Variable, in reverse and
forward mode; an assign leaves the values a tape recorded alone; the errors
say what to write instead.
"""

import numpy as np
import pytest

import minitape as mt


def test_a_slice_is_one_getitem_on_the_variable():
    v = mt.Variable([1.0, 2.0, 3.0])
    with mt.GradientTape() as tape:
        s = v[1:]
    assert [record.op.name for record in tape.records] == ["getitem"]
    assert tape.watched_variables() == (v,)
    np.testing.assert_array_equal(tape.gradient(s, v).numpy(), [0.0, 1.0, 1.0])


def test_a_slice_has_a_tangent_in_forward_mode():
    v = mt.Variable([1.0, 2.0, 3.0])
    with mt.autodiff.ForwardAccumulator(v, mt.constant([10.0, 20.0, 30.0])) as acc:
        s = v[::2]
        y = s * s
    np.testing.assert_array_equal(acc.jvp(s).numpy(), [10.0, 30.0])
    np.testing.assert_array_equal(acc.jvp(y).numpy(), [20.0, 180.0])  # 2 s ds


def test_an_assign_after_a_read_leaves_the_recorded_value_alone():
    v = mt.Variable([1.0, 2.0, 3.0])
    with mt.GradientTape() as tape:
        y = v[1] * v[1]  # dy/dv[1] = 2 v[1] = 4, with the value read
    v[1].assign(100.0)
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [0.0, 4.0, 0.0])


def test_an_assign_writes_a_new_array_so_earlier_snapshots_keep_their_value():
    v = mt.Variable([1.0, 2.0])
    before = v.read_value()
    v[0].assign(5.0)
    np.testing.assert_array_equal(before.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [5.0, 2.0])


def test_assign_add_on_a_slice_says_how_to_write_it():
    v = mt.Variable([1.0, 2.0])
    with pytest.raises(AttributeError, match=r"v\[i\].assign\(v\[i\] \+ delta\)"):
        v[0].assign_add(1.0)
    with pytest.raises(AttributeError, match=r"v\[i\] - delta"):
        v[0].assign_sub(1.0)
    assert not hasattr(v[0], "assign_add")


def test_a_shape_that_does_not_broadcast_names_both_shapes():
    v = mt.Variable(np.zeros((2, 3), np.float32), name="grid")
    with pytest.raises(ValueError, match=r"grid:0: a value of shape \(2,\) cannot be assigned to a slice of shape "
                                         r"\(2, 1\)"):
        v[:, :1].assign([1.0, 2.0])


def test_a_float64_tensor_into_float32_says_to_cast():
    v = mt.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=r"mt.cast\(value, mt.float32\)"):
        v[0].assign(mt.constant(1.0, mt.float64))


def test_rows_met_by_iterating_a_variable_can_be_assigned():
    v = mt.Variable(np.zeros((2, 2), np.float32))
    for k, row in enumerate(v):
        row.assign([k, k + 1.0])
    np.testing.assert_array_equal(v.numpy(), [[0.0, 1.0], [1.0, 2.0]])


def test_an_assign_after_an_assign_add_of_a_scalar_variable():
    v = mt.Variable(1.0)
    v.assign_add(1.0)  # the value may now be a NumPy scalar, not an array
    v[...].assign(7.0)
    assert float(v) == 7.0
