"""Indexing ops (gather, gather_nd, slice, split, pad, one_hot): their semantics, their gradients in closed form,
and their errors."""

import numpy as np
import pytest

import minitape as mt
from tape_gradient import gradient

RNG = np.random.default_rng(7)


def test_gather_with_batch_dims_gathers_each_example_from_its_own_params():
    params, indices = RNG.standard_normal((2, 3, 4)), np.array([[3, 1, 1], [0, 2, 0]])
    out = mt.gather(params, indices, axis=2, batch_dims=1).numpy()
    for b in range(2):
        np.testing.assert_array_equal(out[b], np.take(params[b], indices[b], axis=1))


def test_gather_gradient_adds_up_where_an_index_repeats():
    g = RNG.standard_normal((4, 2))
    grad = gradient(lambda x: mt.gather(x, [2, 0, 2, 2]), np.ones((3, 2)), output_gradients=g)
    np.testing.assert_allclose(grad, [g[1], np.zeros(2), g[0] + g[2] + g[3]])


def test_gather_nd_gradient_adds_up_where_an_index_vector_repeats():
    grad = gradient(lambda x: mt.gather_nd(x, [[1, 0], [1, 0], [0, 1]]), np.ones((2, 2)),
                    output_gradients=np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(grad, [[0.0, 3.0], [3.0, 0.0]])


def test_gather_and_its_transpose_give_every_order_of_derivative():
    x = mt.constant([1.0, 2.0, 3.0])
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = mt.reduce_sum(mt.gather(x, [0, 0, 2]) ** 3.0)
        g = inner.gradient(y, x)
    np.testing.assert_array_equal(g.numpy(), [6.0, 0.0, 27.0])  # 3x² per read: x0 is read twice
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), [12.0, 0.0, 18.0])


def test_slice_and_pad_are_each_others_transpose():
    grad = gradient(lambda x: mt.slice(x, [1, 0], [1, -1]), np.ones((3, 2)), output_gradients=np.array([[4.0, 5.0]]))
    np.testing.assert_array_equal(grad, [[0.0, 0.0], [4.0, 5.0], [0.0, 0.0]])
    grad = gradient(lambda x: mt.pad(x, [[1, 2]], constant_values=7.0), [1.0, 2.0],
                    output_gradients=np.arange(5.0))
    np.testing.assert_array_equal(grad, [1.0, 2.0])


def test_a_reflected_pad_folds_its_gradient_back():
    # x = [a, b, c] padded by 2 on both sides reflects to [c, b, a, b, c, b, a]
    grad = gradient(lambda x: mt.pad(x, [[2, 2]], mode="REFLECT"), [1.0, 2.0, 3.0], output_gradients=np.arange(7.0))
    np.testing.assert_array_equal(grad, [2.0 + 6.0, 1.0 + 3.0 + 5.0, 0.0 + 4.0])
    grad = gradient(lambda x: mt.pad(x, [[2, 2]], mode="SYMMETRIC"), [1.0, 2.0, 3.0], output_gradients=np.arange(7.0))
    np.testing.assert_array_equal(grad, [1.0 + 2.0, 0.0 + 3.0 + 6.0, 4.0 + 5.0])  # [b, a, a, b, c, c, b]


def test_pad_constant_values_get_no_gradient_as_in_tensorflow():
    x, c = mt.Variable([1.0, 2.0]), mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(mt.pad(x, [[1, 1]], constant_values=c))
    grad_x, grad_c = tape.gradient(y, [x, c])
    assert grad_c is None and grad_x.numpy().tolist() == [1.0, 1.0]


def test_split_pieces_send_their_gradients_to_their_own_place():
    def f(x):
        a, b, c = mt.split(x, [1, -1, 2], axis=1)
        return mt.concat([a * 1.0, b * 2.0, c * 3.0], axis=1)
    grad = gradient(f, np.ones((2, 5)), output_gradients=np.ones((2, 5)))
    np.testing.assert_array_equal(grad, [[1.0, 2.0, 2.0, 3.0, 3.0]] * 2)


def test_one_hot_is_a_constant_of_tensorflows_dtype():
    assert mt.one_hot([0, 1], 2).dtype == mt.float32
    assert mt.one_hot([0, 1], 2, on_value=3).dtype == mt.int32
    assert mt.one_hot([0, 1], 2, off_value=0.5, dtype=mt.float64).dtype == mt.float64
    on = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        y = mt.one_hot([0, 1], 2, on_value=on)
    assert "one_hot" not in [r.op.name for r in tape.records] and tape.gradient(y, on) is None


@pytest.mark.parametrize("call, error, message", [
    (lambda: mt.gather([1.0, 2.0], [-1]), ValueError, r"gather: indices\[0\] = -1 is not in \[0, 2\)"),
    (lambda: mt.gather([[1.0, 2.0]], [[5]], axis=1), ValueError, r"gather: indices\[0, 0\] = 5 is not in \[0, 2\)"),
    (lambda: mt.gather([1.0, 2.0], [0.0]), TypeError, r"gather: indices must be integers \(int16, int32, int64\)"),
    (lambda: mt.gather(1.0, [0]), ValueError, r"gather: params must have at least 1 dimension"),
    (lambda: mt.gather(np.ones((2, 3)), [[0], [1]], axis=0, batch_dims=1), ValueError,
     r"axis 0 comes before the 1 batch dimension"),
    (lambda: mt.gather(np.ones((2, 3)), [[0], [1], [0]], batch_dims=1), ValueError,
     r"must share their first 1 dimension"),
    (lambda: mt.gather_nd(np.ones((2, 3)), [[2, 0]]), ValueError,
     r"gather_nd: indices\[0\] = \[2, 0\] does not index into params of shape \(2, 3\)"),
    (lambda: mt.gather_nd(np.ones((2, 3)), [[0, 0, 0]]), ValueError, r"each index vector has 3 entries"),
    (lambda: mt.gather_nd(np.ones((2, 3)), 1), ValueError, r"indices must be at least a vector"),
    (lambda: mt.slice(np.ones((2, 3)), [0, 1], [2, 3]), ValueError,
     r"slice: size\[1\] = 3 is not in \[0, 2\].*use -1 to take everything up to the end"),
    (lambda: mt.slice(np.ones((2, 3)), [0], [1]), ValueError, r"one entry per dimension"),
    (lambda: mt.split(mt.range(6.0), 4), ValueError,
     r"6 elements along axis 0 cannot be cut into 4 equal pieces; .* num_or_size_splits=\[2, 2, 1, 1\]"),
    (lambda: mt.split(mt.range(6.0), [1, 2]), ValueError, r"sizes \[1, 2\] add up to 3, but axis 0 has 6"),
    (lambda: mt.split(mt.range(6.0), [-1, -1]), ValueError, r"more than one -1"),
    (lambda: mt.split(mt.range(6.0), [-2, 8]), ValueError, r"size -2 .* is negative"),
    (lambda: mt.split(mt.constant(1.0), 1), ValueError, r"cannot split a scalar"),
    (lambda: mt.split(mt.range(6.0), []), ValueError, r"num_or_size_splits is empty"),
    (lambda: mt.pad(np.ones((2, 3)), [[2, 0], [0, 0]], mode="REFLECT"), ValueError,
     r"a REFLECT pad of dimension 0 can be at most 1"),
    (lambda: mt.pad(np.ones((2, 3)), [[1, 0]]), ValueError, r"one pair \[before, after\] per dimension"),
    (lambda: mt.pad(np.ones(2), [[1, 0]], mode="wrap"), ValueError, r'mode must be "CONSTANT", "REFLECT"'),
    (lambda: mt.pad(mt.constant([1, 2]), [[1, 0]], constant_values=1.5), TypeError,
     r"constant_values has dtype float32 but the tensor int32"),
    (lambda: mt.one_hot([0], -1), ValueError, r"depth must not be negative"),
    (lambda: mt.one_hot([0], 3, axis=2), ValueError, r"axis must be -1 or between 0 and 1"),
    (lambda: mt.one_hot([0], 3, on_value=5, off_value=0.5), TypeError, r"on_value has dtype int32 but off_value"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()
