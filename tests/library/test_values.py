"""What a tensor holds cannot change behind the tape's back; every Variable read is a tensor of its own;
lists of tensors are packed; errors name the op the user called and the fix.

The TensorFlow fixtures (test_tf_fixtures.py) compare outcomes with TensorFlow's; these tests check what a
fixture cannot see: that a recorded value survives an array being changed in place, how reads appear on a
tape, and the words of the errors.
"""

import numpy as np
import pytest

import minitape as mt


# -- no shared memory --------------------------------------------------------------------------------------
def test_changing_the_source_array_after_recording_changes_nothing():
    a = np.array([1.0, 2.0], np.float32)
    x = mt.constant(a)
    b = np.array([3.0, 4.0], np.float32)
    index, mask = np.array([1, 0]), np.array([False, True])
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.reduce_sum(x * x * b) + mt.reduce_sum(mt.gather(x, index) * [1.0, 10.0]) + mt.reduce_sum(x[mask] * 100)
    a[:], b[:], index[:], mask[:] = 50.0, 50.0, 0, True  # the caller's arrays, changed after the ops ran
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2 * 1 * 3 + 10, 2 * 2 * 4 + 1 + 100])


def test_nothing_a_tensor_hands_out_can_change_it():
    x = mt.constant([1.0, 2.0]) * 1.0
    x.numpy()[0] = 100.0  # a copy, as in TensorFlow
    np.array(x)[0] = 100.0  # np.array copies
    view = np.asarray(x)  # a view, read-only as in TensorFlow
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 100.0
    assert x.numpy().flags.writeable and x.numpy().tolist() == [1.0, 2.0]
    assert np.asarray(x, dtype=np.float64).flags.writeable  # a conversion is a new array


def test_variables_copy_what_they_are_given_and_keep_each_recorded_value():
    a = np.array([1.0, 2.0], np.float32)
    v = mt.Variable(a)
    a[:] = 9.0
    assert v.numpy().tolist() == [1.0, 2.0]
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(v * v)
    b = np.array([5.0, 5.0], np.float32)
    v.assign(b)
    b[:] = 0.0
    assert v.numpy().tolist() == [5.0, 5.0]
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0]  # the value the op read


# -- Variable reads ------------------------------------------------------------------------------------
def test_every_read_is_a_tensor_of_its_own():
    v = mt.Variable(3.0)
    with mt.GradientTape(persistent=True) as tape:
        a, b = mt.convert_to_tensor(v), v.read_value()
        tape.watch([a, b])
        y = a * b * v
    assert a is not b and a.id != b.id != v.id
    assert [float(g) for g in tape.gradient(y, [a, b, v])] == [9.0, 9.0, 27.0]  # v: all three uses


def test_an_op_reads_a_variable_without_a_node_of_its_own():
    # pictures and op counts stay as they were: `v * 2.0` records one op, on the Variable itself
    v = mt.Variable(3.0)
    with mt.GradientTape() as tape, mt.autodiff.OpCounter() as count:
        y = v * 2.0
    assert [r.op.name for r in tape.records] == ["multiply"] and tape.records[0].inputs[0] == v.id
    assert count.total == 1 and float(tape.gradient(y, v)) == 2.0
    with mt.GradientTape() as tape:
        z = v.read_value() * 2.0
    assert [r.op.name for r in tape.records] == ["identity", "multiply"]  # an explicit read is an op
    assert float(tape.gradient(z, v)) == 2.0


def test_in_place_arithmetic_on_a_variable_says_what_to_write():
    w = mt.Variable([1.0, 2.0], name="w")
    lr, g = 0.1, mt.constant([1.0, 1.0])
    with pytest.raises(RuntimeError, match=r"`variable -= value`.*`variable.assign_sub\(value\)`"):
        w -= lr * g
    with pytest.raises(RuntimeError, match=r"variable.assign_add\(value\)"):
        w += g
    with pytest.raises(RuntimeError, match=r"variable.assign\(variable \* value\)"):
        w *= 2.0
    assert isinstance(w, mt.Variable) and w.numpy().tolist() == [1.0, 2.0]  # still the Variable, unchanged


# -- packing ----------------------------------------------------------------------------------------------
def test_lists_of_tensors_are_packed_with_their_gradients():
    a, b = mt.constant(1.0), mt.constant(3.0)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        total = mt.reduce_sum([a, b * b])
        row = mt.matmul([[a, b]], mt.constant([[2.0], [5.0]]))
    assert float(total) == 10.0 and [float(g) for g in tape.gradient(total, [a, b])] == [1.0, 6.0]
    assert [float(g) for g in tape.gradient(row, [a, b])] == [2.0, 5.0]
    with pytest.raises(ValueError, match=r"reduce_sum: the list's items have different shapes \[\(\), \(2,\)\]"):
        mt.reduce_sum([a, mt.constant([1.0, 2.0])])
    with pytest.raises(TypeError, match="convert_to_tensor: the list mixes tensors of dtypes float32 and float64"):
        mt.convert_to_tensor([a, mt.constant(1.0, dtype=mt.float64)])
    with pytest.raises(ValueError, match=r"constant: the list holds tensors.*mt.stack.*mt.convert_to_tensor"):
        mt.constant([a, b])


# -- errors name the op and the fix ----------------------------------------------------------------------
@pytest.mark.parametrize("call, error, words", [
    (lambda: mt.concat([], 0), ValueError, r"concat: the list of tensors is empty"),
    (lambda: mt.concat([mt.constant(1.0), mt.constant(2.0)], 0), ValueError, r"concat: .*scalars.*mt.stack"),
    (lambda: mt.clip_by_norm(mt.constant([3, 4]), 1.0), TypeError,
     r"clip_by_norm: int32 tensors are not supported.*mt.cast\(x, mt.float32\)"),
    (lambda: mt.reshape("abc", (1,)), TypeError, r"^reshape: .*not text"),
    (lambda: mt.cumsum(mt.constant(1.0)), ValueError, r"cumsum: axis 0 is out of range: the tensor is a scalar"),
    (lambda: mt.reduce_sum(mt.constant(1.0), axis=0), ValueError, r"reduce_sum: axis 0 is out of range.*scalar"),
    (lambda: mt.reduce_sum(mt.ones((2, 3)), axis=[1, -1]), ValueError, r"reduce_sum: .*same dimension twice"),
    (lambda: mt.constant([1.0, 2.0, 3.0])[[0, 1]], ValueError, r"getitem: .*x\[\[0, 1\]\] is x\[0, 1\].*mt.gather"),
    (lambda: mt.constant([1.0, 2.0])[5], ValueError, r"getitem: index \(5,\) is out of range.*between -n and n - 1"),
    (lambda: mt.constant([1.0, 2.0])[1.0], TypeError, r"getitem: 1.0 is not a valid index"),
    (lambda: mt.constant([1.0, 2.0])[np.array([0, 1])], TypeError,
     r"getitem: an integer array or tensor of shape \(2,\) is not an index.*mt.gather\(x, indices, axis=...\)"),
    (lambda: mt.ones((2, 2))[0, mt.constant([1, 0])], TypeError, r"getitem: an integer array or tensor.*mt.gather"),
    (lambda: mt.ones((2, 2))[0, mt.constant([True, False])], TypeError,
     r"getitem: a boolean mask must be the whole index"),
    (lambda: mt.constant(None), ValueError, r"cannot convert None to a tensor"),
    (lambda: mt.constant([[1.0], [2.0, 3.0]]), ValueError, r"nested lists have different lengths"),
    (lambda: mt.constant(2 ** 70), ValueError, r"fit in 64 bits"),
    (lambda: mt.constant([True]) + mt.constant([False]), TypeError,
     r"add: bool tensors are not supported.*mt.cast\(x, mt.int32\)"),
    (lambda: -mt.constant([1], dtype=mt.uint8), TypeError, r"negative: uint8 tensors are not supported.*signed"),
    (lambda: mt.matmul(mt.ones((1, 1), dtype=mt.int8), mt.ones((1, 1), dtype=mt.int8)), TypeError,
     r"matmul: int8 tensors are not supported.*int32"),
    (lambda: mt.add(1, 0.5), TypeError, r"add: cannot convert 0.5.*to int32"),
    (lambda: mt.constant([7]) // mt.constant([0]), ValueError, r"integer division by zero"),
    (lambda: mt.norm(mt.ones((2, 2)), ord=0), ValueError, r"norm: ord=0 is not a vector norm"),
    (lambda: mt.norm(mt.ones((2, 2)), ord="nuc", axis=[0, 1]), ValueError, r"norm: ord='nuc' is not a matrix norm"),
    (lambda: mt.fill([2], mt.constant([1.0, 2.0])), ValueError, r"fill: value must be a scalar.*broadcast_to"),
    (lambda: mt.zeros((2.5,)), TypeError, r"zeros: shape must be an integer or a list of integers"),
    (lambda: mt.tile(mt.ones((2,)), [2.5]), TypeError, r"tile: multiples must be an integer or a list of integers"),
    (lambda: mt.tile(mt.ones((2,)), [-1]), ValueError, r"tile: multiples \(-1,\) must not be negative"),
    (lambda: mt.transpose(mt.ones((2, 2)), [0.5, 1]), TypeError, r"transpose: perm must be an integer"),
    (lambda: mt.broadcast_to(mt.ones((2,)), (2.5, 2)), TypeError, r"broadcast_to: shape must be an integer"),
    (lambda: mt.unbroadcast(mt.ones((2, 2)), (3,)), ValueError, r"unbroadcast: .* not a broadcast of shape \(3,\)"),
    (lambda: mt.constant([2]) ** mt.constant([-1]), ValueError, r"pow: an integer to a negative power.*mt.cast"),
    (lambda: mt.ones((2,))["a"], TypeError, r"getitem: 'a' is not a valid index"),
    (lambda: mt.cast(mt.ones((2,)), "complex64"), TypeError, r"cast: minitape has no dtype 'complex64'"),
    (lambda: mt.linspace(0.0, 1.0, 3.0), TypeError, r"linspace: num must be an integer"),
    (lambda: mt.nn.softmax(mt.constant(1.0)), ValueError, r"softmax: the logits are a scalar"),
    (lambda: mt.argmax(mt.zeros((0,))), ValueError, r"argmax: axis 0 of the tensor of shape \(0,\) is empty"),
    (lambda: bool(mt.constant([1.0, 2.0])), ValueError, r"truth value of a tensor of shape \(2,\) is ambiguous"),
    (lambda: mt.int8.max and mt.bool.max, TypeError, r"mt.bool has no maximum value"),
])
def test_errors_name_the_op_and_the_fix(call, error, words):
    with pytest.raises(error, match=words) as caught:
        call()
    for internal in ("op:", "take from an empty", "zero-size array", "(use -0", "where:"):
        assert internal not in str(caught.value)


def test_empty_tensors_reduce_as_in_tensorflow():
    empty = mt.zeros((0, 3))
    assert mt.reduce_max(empty, axis=0).numpy().tolist() == [-np.inf] * 3
    assert mt.reduce_min(mt.zeros((0,), dtype=mt.int8)).numpy() == 127
    assert mt.reduce_prod(empty, axis=0).numpy().tolist() == [1.0] * 3
    assert mt.cumsum(empty, axis=0, exclusive=True).shape == (0, 3)
    assert mt.nn.softmax(mt.zeros((2, 0))).shape == (2, 0)
    assert mt.reshape(empty, (0, -1)).shape == (0, 3)
    with mt.GradientTape() as tape:
        tape.watch(empty)
        y = mt.reduce_prod(empty)
    assert float(y) == 1.0 and tape.gradient(y, empty).shape == (0, 3)
