"""The ops of issue 31's shape, ordering and scatter families, beyond what TensorFlow's recorded outcomes show:
what their errors say, how they treat float axes, Variables and a training loop's list of gradients."""

import numpy as np
import pytest

import minitape as mt

X = mt.constant([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
AXIS_OPS = {
    "sort": lambda a: mt.sort(X, axis=a),
    "argsort": lambda a: mt.argsort(X, axis=a),
    "unstack": lambda a: mt.stack(mt.unstack(X, axis=a)),
    "reverse": lambda a: mt.reverse(X, [a]),
    "roll": lambda a: mt.roll(X, 1, a),
    "repeat": lambda a: mt.repeat(X, 2, axis=a),
    "boolean_mask": lambda a: mt.boolean_mask(X, [True, False, True], axis=a),
}


@pytest.mark.parametrize("op", sorted(AXIS_OPS))
def test_a_float_axis_is_a_type_error_never_truncated(op):
    with pytest.raises(TypeError, match="axis must be"):
        AXIS_OPS[op](1.0)
    assert AXIS_OPS[op](np.int64(1)).shape == AXIS_OPS[op](-1).shape


@pytest.mark.parametrize("call, message", [
    (lambda: mt.math.top_k(X, 4), r"top_k: k=4 must be between 0 and 3"),
    (lambda: mt.math.top_k(X, 1.5), r"top_k: k must be a single integer"),
    (lambda: mt.sort(X, direction="down"), r"direction must be 'ASCENDING' or 'DESCENDING'"),
    (lambda: mt.math.segment_sum([1.0, 2.0], [1, 0]), r"never decrease.*mt.math.unsorted_segment_sum"),
    (lambda: mt.math.unsorted_segment_sum([1.0, 2.0], [0, 3], 2), r"segment id 3 is out of range \[0, 2\)"),
    (lambda: mt.scatter_nd([[1]], [[1.0, 2.0, 3.0]], [3, 2]), r"updates must have shape \(1, 2\)"),
    (lambda: mt.tensor_scatter_nd_update(X, [[2]], [[1.0, 2.0, 3.0]]), r"indices\[0\] = \[2\] does not index"),
    (lambda: mt.tensordot(X, X, 1), r"axis 1 of a .* has size 3 but axis 0 of b .* has size 2"),
    (lambda: mt.linalg.cross([1.0, 2.0], [3.0, 4.0]), r"3-element vectors"),
    (lambda: mt.linalg.matvec(X, [1.0, 2.0]), r"shape \(2, 3\) times a vector of length 2: the vector needs 3"),
    (lambda: mt.linalg.matvec(X, [1.0, 2.0], transpose_a=True, adjoint_a=True), r"linalg.matvec: only one of"),
    (lambda: mt.linalg.set_diag(X, [1.0, 2.0, 3.0]), r"diagonal 0 of matrices of shape \(2, 3\) needs shape \(2,\)"),
    (lambda: mt.repeat([1, 2], [1, 2, 3], axis=0), r"one count or one count per slice \(2 along axis 0\)"),
    (lambda: mt.reverse(X, [0, -2]), r"names the same dimension more than once"),
    (lambda: mt.linalg.global_norm(X), r"t_list must be a list .* for one tensor write \[t\]"),
    (lambda: mt.vectorized_map(lambda r: r, mt.zeros((0, 2))), r"no rows.*mt.map_fn with fn_output_signature"),
])
def test_errors_say_what_is_wrong(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_boolean_mask_of_the_right_shape_is_accepted_where_a_wrong_one_is_refused():
    assert mt.boolean_mask(X, [True, False]).shape == (1, 3)
    with pytest.raises(ValueError, match=r"mask of shape \(4,\) does not fit tensor of shape \(2, 3\) at axis 0"):
        mt.boolean_mask(X, [True, False, True, True])


def test_top_k_unsorted_gives_the_sorted_order():
    # TensorFlow leaves the order of sorted=False unspecified (the recorded fixture compares the values as a set)
    values, indices = mt.math.top_k([5.0, 9.0, 1.0, 7.0], 3, sorted=False)
    assert values.numpy().tolist() == [9.0, 7.0, 5.0] and indices.numpy().tolist() == [1, 3, 0]


def test_sort_gradient_follows_each_value_and_its_second_derivative_too():
    x = mt.constant([3.0, 1.0, 2.0], dtype=mt.float64)
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = mt.reduce_sum(mt.sort(x) ** 3 * mt.constant([1.0, 2.0, 3.0], dtype=mt.float64))
        g = inner.gradient(y, x)  # 3 x² times the weight of x's place: places 3, 1, 2
    np.testing.assert_allclose(g.numpy(), [3 * 9 * 3, 3 * 1 * 1, 3 * 4 * 2])
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [6 * 3 * 3, 6 * 1 * 1, 6 * 2 * 2])


def test_clip_by_global_norm_clips_a_training_loops_gradients_together():
    w, b, unused = mt.Variable([[3.0], [0.0]]), mt.Variable([4.0]), mt.Variable(1.0)
    with mt.GradientTape() as tape:
        loss = mt.reduce_sum(w * [[1.0], [0.0]]) + 4.0 * mt.reduce_sum(b)
    grads = tape.gradient(loss, [w, b, unused])  # [[1], [0]], [4], None
    clipped, norm = mt.clip_by_global_norm(grads, 1.0)
    assert clipped[2] is None and isinstance(clipped, list)
    np.testing.assert_allclose(float(norm), np.sqrt(17.0), rtol=1e-6)
    np.testing.assert_allclose(clipped[0].numpy(), [[1.0 / np.sqrt(17.0)], [0.0]], rtol=1e-6)
    np.testing.assert_allclose(float(mt.linalg.global_norm(clipped)), 1.0, rtol=1e-6)


def test_tensor_scatter_nd_update_reads_a_variable_and_sends_it_the_gradient_off_the_updates():
    v = mt.Variable([1.0, 2.0, 3.0])
    with mt.GradientTape() as tape:
        y = mt.tensor_scatter_nd_update(v, [[1]], [10.0]) * [1.0, 2.0, 3.0]
    assert y.numpy().tolist() == [1.0, 20.0, 9.0]
    assert tape.gradient(y, v).numpy().tolist() == [1.0, 0.0, 3.0]


def test_new_names_live_where_tensorflow_has_them():
    for name in ["sort", "argsort", "reverse", "roll", "repeat", "unstack", "meshgrid", "tensordot", "searchsorted",
                 "scatter_nd", "tensor_scatter_nd_add", "tensor_scatter_nd_update", "boolean_mask", "vectorized_map",
                 "clip_by_global_norm"]:
        assert callable(getattr(mt, name)), name
    for module, names in [(mt.math, ["top_k", "segment_sum", "unsorted_segment_sum"]), (mt.nn, ["top_k"]),
                          (mt.linalg, ["tensordot", "matvec", "cross", "band_part", "set_diag", "adjoint",
                                       "global_norm", "normalize"]), (mt.image, ["total_variation"])]:
        for name in names:
            assert callable(getattr(module, name)), f"{module.__name__}.{name}"
    assert not hasattr(mt, "top_k") and not hasattr(mt, "segment_sum")  # tf.math's only, as in TensorFlow
