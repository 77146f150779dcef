"""Ops check their non-tensor arguments (axes, list lengths, steps, labels) and say what is wrong."""

import numpy as np
import pytest

import minitape as mt

X = mt.ones((2, 3))
AXIS_OPS = {
    "reduce_sum": lambda a: mt.reduce_sum(X, axis=a),
    "reduce_mean": lambda a: mt.reduce_mean(X, axis=a),
    "reduce_max": lambda a: mt.reduce_max(X, axis=a),
    "reduce_min": lambda a: mt.reduce_min(X, axis=a),
    "reduce_prod": lambda a: mt.reduce_prod(X, axis=a),
    "cumsum": lambda a: mt.cumsum(X, axis=a),
    "cumprod": lambda a: mt.cumprod(X, axis=a),
    "expand_dims": lambda a: mt.expand_dims(X, axis=a),
    "squeeze": lambda a: mt.squeeze(mt.ones((2, 1)), axis=a),
    "concat": lambda a: mt.concat([X, X], axis=a),
    "stack": lambda a: mt.stack([X, X], axis=a),
    "linspace": lambda a: mt.linspace([0.0, 1.0], [1.0, 2.0], 3, axis=a),
    "softmax": lambda a: mt.nn.softmax(X, axis=a),
    "log_softmax": lambda a: mt.nn.log_softmax(X, axis=a),
    "softmax_cross_entropy_with_logits": lambda a: mt.nn.softmax_cross_entropy_with_logits(X, X, axis=a),
}


@pytest.mark.parametrize("op", sorted(AXIS_OPS))
def test_a_float_axis_is_a_type_error_in_every_op_never_truncated(op):
    for axis in (1.9, 1.0, np.float32(1.0), [1.0], mt.constant(1.0)):
        with pytest.raises(TypeError, match="axis must be"):
            AXIS_OPS[op](axis)
    for axis in (1, np.int64(1), mt.constant(1)):  # integers of every kind still work
        assert AXIS_OPS[op](axis).shape == AXIS_OPS[op](1).shape


def test_the_axis_error_names_the_op_and_the_axis():
    with pytest.raises(TypeError, match=r"reduce_sum: axis must be an integer or a list of integers, got 1\.9"):
        mt.reduce_sum(X, axis=1.9)
    with pytest.raises(ValueError, match=r"concat: axis 2 is out of range for tensors with 2 dimensions"):
        mt.concat([X, X], axis=2)


def test_stack_of_nothing_is_an_empty_float32_vector_as_in_tensorflow():
    empty = mt.stack([])
    assert empty.shape == (0,) and empty.dtype == mt.float32
    with pytest.raises(ValueError, match="stack: axis 1 is out of range"):
        mt.stack([], axis=1)


def test_range_with_a_zero_step_is_a_clear_value_error():
    for args in [(0, 5, 0), (0.0, 5.0, 0.0), (0, 5, mt.constant(0))]:
        with pytest.raises(ValueError, match="range: delta must not be 0"):
            mt.range(*args)
    assert mt.range(5, 0, -2).numpy().tolist() == [5, 3, 1]


def test_range_whose_delta_points_away_from_limit_is_refused_as_in_tensorflow():
    # TensorFlow 2.21: "Requires start <= limit when delta > 0: 5/0" (and the mirror case)
    with pytest.raises(ValueError, match=r"range: delta 1 counts up, but limit 0 is on the other side of start 5"):
        mt.range(5, 0, 1)
    with pytest.raises(ValueError, match=r"range: delta -1 counts down, but limit 5 .* start 0"):
        mt.range(0, 5, -1)
    with pytest.raises(ValueError, match=r"limit 2 is on the other side of start 5"):  # no unsigned wrap-around
        mt.range(mt.constant(5, dtype=mt.uint8), mt.constant(2, dtype=mt.uint8))
    assert mt.range(mt.constant(2, dtype=mt.uint8), mt.constant(5, dtype=mt.uint8)).numpy().tolist() == [2, 3, 4]
    assert mt.range(3, 3, 1).shape == (0,)  # start == limit is an empty range in both directions
    assert mt.range(3, 3, -1).shape == (0,)


def test_reshape_refuses_a_float_shape_instead_of_truncating_it():
    # TensorFlow 2.21 refuses it too: "Value for attr 'Tshape' of float is not in the list of allowed values"
    for shape in [(2.0, 3.0), (2.5, 3), [6.0], mt.constant([2.0, 3.0])]:
        with pytest.raises(TypeError, match=r"reshape: shape must be integers"):
            mt.reshape(mt.ones(6), shape)
    for shape in [(2, 3), np.array([3, 2], dtype=np.int64), mt.constant([2, 3]), mt.ones((2, 3)).shape]:
        assert mt.reshape(mt.ones(6), shape).numpy().size == 6
    assert mt.reshape(mt.ones(1), ()).shape == ()


def test_softmax_cross_entropy_casts_integer_labels_like_tensorflow_sigmoid_says_to_cast_the_labels():
    logits = mt.constant([[0.0, 1.0]])
    loss = mt.nn.softmax_cross_entropy_with_logits(labels=mt.constant([[0, 1]]), logits=logits)
    assert loss.dtype == mt.float32
    np.testing.assert_allclose(loss.numpy(), [np.log1p(np.exp(-1.0))], rtol=1e-6)
    # TensorFlow refuses integer labels here; the hint must say to cast the labels, not the logits
    with pytest.raises(TypeError, match=r"labels have dtype int32 but logits float32; cast the labels: "
                                        r"mt\.cast\(labels, mt\.float32\)"):
        mt.nn.sigmoid_cross_entropy_with_logits(labels=mt.constant([0, 1]), logits=mt.constant([0.0, 0.0]))
