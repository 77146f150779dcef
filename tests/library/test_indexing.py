"""Indexing ops (gather, gather_nd, slice, split, pad, one_hot, embedding_lookup), einsum, softplus, elu, swish,
reduce_logsumexp, add_n, size and shape: their semantics, their gradients in closed form, and their errors."""

import numpy as np
import pytest

import minitape as mt

RNG = np.random.default_rng(7)


def gradient(f, value, output_gradients=None):
    x = mt.constant(value)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    if output_gradients is not None:  # of the target's dtype, as TensorFlow requires
        output_gradients = mt.constant(output_gradients, dtype=y.dtype)
    return tape.gradient(y, x, output_gradients=output_gradients).numpy()


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


def test_embedding_lookup_in_shards_is_a_lookup_in_their_concatenation():
    table = RNG.standard_normal((5, 2))
    ids = [[4, 0], [2, 3]]
    whole = mt.nn.embedding_lookup(table, ids).numpy()  # a NumPy array is one table
    shards = [mt.constant(table[:3]), mt.constant(table[3:])]  # TensorFlow's "div": 3 rows, then 2
    np.testing.assert_array_equal(mt.nn.embedding_lookup(shards, ids).numpy(), whole)
    with pytest.raises(ValueError, match=r"shards of \[2, 3\] rows are not TensorFlow's 'div' partition .* \[3, 2\]"):
        mt.nn.embedding_lookup([mt.constant(table[:2]), mt.constant(table[2:])], ids)


def test_embedding_lookup_max_norm_scales_long_embeddings_down_only():
    table = np.array([[3.0, 4.0], [0.3, 0.4]])
    np.testing.assert_allclose(mt.nn.embedding_lookup(table, [0, 1], max_norm=1.0).numpy(), [[0.6, 0.8], [0.3, 0.4]])


def test_einsum_gradients_are_the_matmul_gradients():
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))
    g = RNG.standard_normal((2, 4))
    np.testing.assert_allclose(gradient(lambda x: mt.einsum("ij,jk->ik", x, b), a, output_gradients=g), g @ b.T)
    np.testing.assert_allclose(gradient(lambda x: mt.einsum("ij,jk->ik", a, x), b, output_gradients=g), a.T @ g)


def test_einsum_gradient_of_a_diagonal_lies_on_the_diagonal():
    np.testing.assert_array_equal(gradient(lambda x: mt.einsum("ii->i", x), np.ones((2, 2)),
                                           output_gradients=np.array([2.0, 3.0])), [[2.0, 0.0], [0.0, 3.0]])


def test_einsum_of_a_broadcast_ellipsis_sums_the_gradient_back():
    grad = gradient(lambda x: mt.einsum("...ij,...jk->...ik", np.ones((3, 2, 2)), x), np.ones((1, 2, 4)))
    np.testing.assert_array_equal(grad, np.full((1, 2, 4), 6.0))


def test_reduce_logsumexp_is_stable_and_its_gradient_is_the_softmax():
    assert float(mt.reduce_logsumexp([10000.0, 10000.0])) == pytest.approx(10000.0 + np.log(2.0))
    assert float(mt.reduce_logsumexp([-np.inf, -np.inf])) == -np.inf
    assert mt.reduce_logsumexp(mt.zeros((2, 0)), axis=1).numpy().tolist() == [-np.inf, -np.inf]
    x = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0]])
    softmax = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(gradient(lambda t: mt.reduce_logsumexp(t, axis=1), x),
                               softmax / softmax.sum(axis=1, keepdims=True), rtol=1e-14)


def test_softplus_does_not_overflow_and_its_derivative_is_the_sigmoid():
    assert float(mt.nn.softplus(1000.0)) == 1000.0 and float(mt.math.softplus(-1000.0)) == 0.0
    x = np.array([-3.0, 0.0, 2.0])
    np.testing.assert_allclose(gradient(mt.nn.softplus, x), 1 / (1 + np.exp(-x)), rtol=1e-14)


def test_elu_has_slope_1_at_0_and_swish_learns_its_beta():
    np.testing.assert_allclose(gradient(mt.nn.elu, np.array([-1.0, 0.0, 1.0])), [np.exp(-1.0), 1.0, 1.0], rtol=1e-14)
    x, beta = mt.constant([1.0, -2.0], dtype=mt.float64), mt.Variable(1.5, dtype=mt.float64)
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(mt.nn.silu(x, beta=beta))
    s = 1 / (1 + np.exp(-1.5 * x.numpy()))
    assert float(tape.gradient(y, beta)) == pytest.approx(np.sum(x.numpy() ** 2 * s * (1 - s)), rel=1e-12)


def test_add_n_of_one_tensor_is_that_tensor_and_its_gradient_reaches_every_input():
    x = mt.constant([1.0, 2.0])
    assert mt.add_n([x]) is x
    grad = gradient(lambda t: mt.add_n([t, t * 2.0, t]), [1.0, 2.0])
    np.testing.assert_array_equal(grad, [4.0, 4.0])


def test_size_and_shape_take_an_out_type():
    assert mt.size(mt.ones((2, 3))).dtype == mt.int32 and int(mt.size(mt.ones((2, 3)))) == 6
    assert mt.size(mt.ones((2, 3)), out_type=mt.float32).dtype == mt.float32
    assert mt.shape(mt.ones((2, 3)), out_type=mt.int64).numpy().tolist() == [2, 3]


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
    (lambda: mt.einsum("ij,jk->ik", np.ones((2, 2)), np.ones((3, 2))), ValueError,
     r"label 'j' stands for dimensions of sizes 2 and 3"),
    (lambda: mt.einsum("ij,jk->ik", np.ones((2, 2))), ValueError, r"has 2 input\(s\), but 1 tensor\(s\)"),
    (lambda: mt.einsum("ij->k", np.ones((2, 2))), ValueError, r"output label 'k' .* is in no input"),
    (lambda: mt.einsum("ij->ii", np.ones((2, 2))), ValueError, r"appears more than once"),
    (lambda: mt.einsum("i1->i", np.ones((2, 2))), ValueError, r"incorrect format"),
    (lambda: mt.einsum("...ij->ij", np.ones((4, 2, 3))), ValueError, r"the output has no '\.\.\.'"),
    (lambda: mt.einsum("ijk->i", np.ones((2, 2))), ValueError, r"input 0 has the labels 'ijk' but shape \(2, 2\)"),
    (lambda: mt.add_n([]), ValueError, r"add_n: inputs must be a non-empty list"),
    (lambda: mt.add_n([mt.ones(2), mt.ones(3)]), ValueError, r"add_n does not broadcast"),
    (lambda: mt.reduce_logsumexp([1, 2]), TypeError, r"reduce_logsumexp: expected a floating-point tensor"),
    (lambda: mt.nn.swish([1, 2]), TypeError, r"swish: features must be floating-point"),
    (lambda: mt.nn.embedding_lookup([], [0]), ValueError, r"params is an empty list"),
    (lambda: mt.shape(mt.ones(2), out_type=mt.float32), TypeError, r"out_type must be mt\.int32 or mt\.int64"),
])
def test_errors_name_the_op_and_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()
