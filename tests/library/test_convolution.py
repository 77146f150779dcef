"""Convolutions, pooling and dropout beyond their op cases and TensorFlow's recorded outcomes: a convolution against
its definition written as loops, higher derivatives of the three convolution primitives, dropout's statistics (its
draws cannot match TensorFlow's), and the errors that name a fix."""

import itertools

import numpy as np
import pytest

import minitape as mt


def conv2d_by_loops(x, w, stride, dilation, pads):
    """The definition, one element at a time: y[n, i, j] = sum of padded[n, i*s + a*r, j*s + b*r] @ w[a, b]."""
    padded = np.pad(x, [(0, 0), *pads, (0, 0)])
    (kh, kw, _, out), (s, r) = w.shape, (stride, dilation)
    rows = (padded.shape[1] - (kh - 1) * r - 1) // s + 1
    cols = (padded.shape[2] - (kw - 1) * r - 1) // s + 1
    y = np.zeros((x.shape[0], rows, cols, out))
    for n, i, j, o in itertools.product(range(x.shape[0]), range(rows), range(cols), range(out)):
        for a, b in itertools.product(range(kh), range(kw)):
            y[n, i, j, o] += padded[n, i * s + a * r, j * s + b * r, :] @ w[a, b, :, o]
    return y


@pytest.mark.parametrize(("stride", "dilation", "padding", "pads"), [
    (1, 1, "VALID", ((0, 0), (0, 0))),
    # 3 taps, stride 2: 5 rows give 3 outputs with 2 zeros (1 before, 1 after), 6 columns with 1 zero (after)
    (2, 1, "SAME", ((1, 1), (0, 1))),
    (1, 2, "SAME", ((2, 2), (2, 2))),
    (2, 1, [[0, 0], [1, 0], [2, 1], [0, 0]], ((1, 0), (2, 1))),
])
def test_conv2d_is_its_definition(stride, dilation, padding, pads):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 5, 6, 3)), rng.standard_normal((3, 3, 3, 2))
    y = mt.nn.conv2d(x, w, stride, padding, dilations=dilation)
    np.testing.assert_allclose(y.numpy(), conv2d_by_loops(x, w, stride, dilation, pads), rtol=1e-12)


def test_conv2d_transpose_is_the_input_gradient_of_conv2d():
    rng = np.random.default_rng(1)
    x, w = mt.constant(rng.standard_normal((1, 5, 4, 2))), mt.constant(rng.standard_normal((3, 2, 2, 3)))
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.nn.conv2d(x, w, 2, "SAME")
    g = mt.constant(rng.standard_normal(y.shape))
    expected = tape.gradient(y, x, output_gradients=g)
    np.testing.assert_allclose(mt.nn.conv2d_transpose(g, w, x.shape, 2, "SAME").numpy(), expected.numpy(),
                               rtol=1e-12)


def test_hessian_vector_products_of_conv2d_agree_in_forward_over_reverse_and_reverse_over_reverse():
    # d/de of the gradient at (x + e t, w + e u): forward over reverse runs the JVP rules of conv_transpose and
    # conv_filter_gradient, which the op cases (reverse over reverse, and forward mode of conv) do not
    rng = np.random.default_rng(2)
    x, w = mt.constant(rng.standard_normal((1, 4, 5, 2))), mt.constant(rng.standard_normal((2, 3, 2, 2)))
    t, u = mt.constant(rng.standard_normal(x.shape)), mt.constant(rng.standard_normal(w.shape))

    def gradient(x, w):
        with mt.GradientTape() as inner:
            inner.watch([x, w])
            y = mt.reduce_sum(mt.sin(mt.nn.conv2d(x, w, [1, 2], "SAME", dilations=1)))
        return inner.gradient(y, [x, w])

    with mt.autodiff.ForwardAccumulator([x, w], [t, u]) as acc:
        forward = acc.jvp(gradient(x, w))
    with mt.GradientTape() as outer:
        outer.watch([x, w])
        gx, gw = gradient(x, w)
        along = mt.reduce_sum(gx * t) + mt.reduce_sum(gw * u)
    reverse = outer.gradient(along, [x, w])  # the Hessian is symmetric: H (t, u) either way
    for f, r in zip(forward, reverse):
        np.testing.assert_allclose(f.numpy(), r.numpy(), rtol=1e-10, atol=1e-12)


def test_max_pool_gives_a_tie_s_gradient_to_the_first_maximum_only():
    x = mt.constant([[[[2.0], [5.0], [5.0], [1.0]]]])  # one window of 4, holding 5 twice
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.nn.max_pool2d(x, [1, 4], 1, "VALID")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(), [0.0, 1.0, 0.0, 0.0])


def test_max_pool_never_picks_the_padding_even_below_zero():
    x = mt.constant([[[-3.0], [-1.0], [-2.0]]])
    np.testing.assert_array_equal(mt.nn.max_pool1d(x, 2, 2, "SAME").numpy().ravel(), [-1.0, -2.0])


# -- dropout: statistics, the gradient's mask, noise_shape ----------------------------------------------------------
def test_dropout_keeps_about_one_minus_rate_and_keeps_the_mean():
    x = mt.fill([400, 500], 2.0)
    y = mt.nn.dropout(x, 0.3, seed=0).numpy()
    assert set(np.unique(y).tolist()) == {0.0, np.float32(2.0 / 0.7)}
    np.testing.assert_allclose((y != 0).mean(), 0.7, atol=0.005)
    np.testing.assert_allclose(y.mean(), 2.0, rtol=0.01)


def test_dropout_gradient_is_the_same_mask_over_the_keep_probability():
    x = mt.constant(np.linspace(1.0, 2.0, 1000))
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.nn.dropout(x, 0.25, seed=5)
    gradient = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(gradient != 0, y.numpy() != 0)
    np.testing.assert_allclose(gradient[gradient != 0], 1 / 0.75, rtol=1e-15)


def test_dropout_is_repeatable_with_a_seed_and_not_without():
    x = mt.ones([50])
    np.testing.assert_array_equal(mt.nn.dropout(x, 0.5, seed=3).numpy(), mt.nn.dropout(x, 0.5, seed=3).numpy())
    assert not np.array_equal(mt.nn.dropout(x, 0.5).numpy(), mt.nn.dropout(x, 0.5).numpy())


def test_dropout_noise_shape_shares_one_draw_along_its_axes_of_size_one():
    y = mt.nn.dropout(mt.ones([6, 4, 8]), 0.5, noise_shape=[None, 1, 8], seed=2).numpy()
    assert (y == y[:, :1, :]).all() and 0 < (y == 0).mean() < 1


def test_dropout_with_a_tensor_rate_passes_the_gradient_to_the_rate():
    x, rate = mt.ones([1000], mt.float64), mt.constant(0.2, mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(rate)
        y = mt.nn.dropout(x, rate, seed=4)
        total = mt.reduce_sum(y)
    kept = int(np.count_nonzero(y.numpy()))
    # d/d rate of x / (1 - rate) at each kept element is 1 / (1 - rate)**2
    np.testing.assert_allclose(tape.gradient(total, rate).numpy(), kept / 0.8 ** 2, rtol=1e-12)


# -- errors that name the fix ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("call", "message"), [
    (lambda: mt.nn.conv2d(mt.ones([1, 4, 4, 3]), mt.ones([2, 2, 2, 1]), 1, "VALID"), "3 channels but the filters"),
    (lambda: mt.nn.conv2d(mt.ones([1, 4, 4, 4]), mt.ones([2, 2, 2, 3]), 1, "VALID"), "groups"),
    (lambda: mt.nn.conv2d(mt.ones([1, 2, 2, 1]), mt.ones([4, 4, 1, 1]), 1, "VALID"), "padding='SAME'"),
    (lambda: mt.nn.conv2d(mt.ones([1, 4, 4, 1]), mt.ones([2, 2, 1, 1]), 1, "VALID", data_format="NWHC"),
     "'NHWC' or 'NCHW'"),
    (lambda: mt.nn.conv2d_transpose(mt.ones([1, 1, 2, 2]), mt.ones([2, 2, 1, 1]), [1, 1, 4, 4], 2,
                                    data_format="NCHW"), "move the channels last"),
    (lambda: mt.nn.conv2d(mt.ones([1, 4, 4, 1]), mt.ones([2, 2, 1, 1]), [2, 1, 1, 1], "VALID"), "batch and channel"),
    (lambda: mt.nn.max_pool2d(mt.ones([4, 4, 1]), 2, 2, "VALID"), "4 axes"),
    (lambda: mt.nn.conv2d_transpose(mt.ones([1, 2, 2, 1]), mt.ones([2, 2, 1, 1]), [1, 6, 6, 1], 2, "VALID"),
     "gives [1, 3, 3, 1]"),
])
def test_bad_arguments_are_refused_with_a_message_that_names_them(call, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call()
