"""mt.keras: the statistics of its random parts, the errors for what it lacks, and a training loop that learns.

Its numbers (update rules, losses, metrics, layers from fixed weights) are
compared with Keras 3's recorded outputs in test_tf_fixtures.py; what cannot
match TensorFlow's draws (initializers, Dropout's masks) is tested here by
its distribution.
"""

import re

import numpy as np
import pytest

import minitape as mt

keras = mt.keras


# -- initializers: their distributions ---------------------------------------------------------------------------
def test_glorot_uniform_is_uniform_within_its_limit():
    values = keras.initializers.GlorotUniform(seed=0)((200, 300)).numpy()
    limit = np.sqrt(6.0 / (200 + 300))
    assert values.dtype == np.float32 and np.abs(values).max() <= limit
    assert abs(values.mean()) < 0.01 * limit
    np.testing.assert_allclose(values.var(), limit ** 2 / 3, rtol=0.02)  # the variance of U(-a, a) is a²/3
    np.testing.assert_allclose(np.histogram(values, bins=4, range=(-limit, limit))[0] / values.size, 0.25, atol=0.01)


def test_he_normal_is_truncated_at_two_standard_deviations_with_variance_two_over_fan_in():
    values = keras.initializers.HeNormal(seed=0)((400, 250)).numpy()
    stddev = np.sqrt(2.0 / 400)
    assert np.abs(values).max() <= 2 * stddev / 0.87962566103423978 * (1 + 1e-6)
    np.testing.assert_allclose(values.std(), stddev, rtol=0.02)  # the truncation's correction makes it exact


def test_random_normal_has_its_mean_and_stddev_and_zeros_ones_their_values():
    values = keras.initializers.RandomNormal(mean=1.0, stddev=0.5, seed=0)((100_000,)).numpy()
    np.testing.assert_allclose([values.mean(), values.std()], [1.0, 0.5], rtol=0.01)
    assert (keras.initializers.Zeros()((2, 2)).numpy() == 0).all()
    assert keras.initializers.Ones()((3,), dtype="float64").numpy().tolist() == [1.0, 1.0, 1.0]


def test_truncated_normal_redraws_beyond_two_standard_deviations():
    values = mt.random.truncated_normal((100_000,), mean=3.0, stddev=2.0, seed=1).numpy()
    assert values.min() >= -1.0 and values.max() <= 7.0
    # Drawn again, not clipped: the band next to the edge holds what the normal curve gives it (2 * (Phi(2) -
    # Phi(1.95)) / 0.9545, about 0.6%), with no pile-up of the 4.6% beyond the edge on it.
    np.testing.assert_allclose((np.abs(values - 3.0) > 3.9).mean(), 0.006, atol=0.001)
    np.testing.assert_allclose(values.std(), 2.0 * 0.87962566103423978, rtol=0.01)


def test_seeded_initializers_repeat_and_unseeded_ones_follow_the_global_seed():
    seeded = keras.initializers.GlorotUniform(seed=5)
    np.testing.assert_array_equal(seeded((3, 3)).numpy(), seeded((3, 3)).numpy())
    unseeded = keras.initializers.HeNormal()
    mt.random.set_seed(7)
    first = [unseeded((4,)).numpy(), unseeded((4,)).numpy()]
    assert not np.array_equal(*first)
    mt.random.set_seed(7)
    np.testing.assert_array_equal(first[0], unseeded((4,)).numpy())


def test_fans_of_dense_and_convolution_kernels():
    assert keras.initializers.compute_fans((3, 5)) == (3, 5)
    assert keras.initializers.compute_fans((3, 3, 4, 8)) == (36, 72)


def test_constant_fills_the_shape_in_the_dtype_asked_for():
    assert keras.initializers.Constant(1)((2, 3)).numpy().tolist() == [[1.0] * 3] * 2
    assert keras.initializers.Constant(1)((2, 3)).dtype == mt.float32
    assert keras.initializers.Constant(7)((2,), dtype="int32").numpy().tolist() == [7, 7]
    np.testing.assert_array_equal(keras.initializers.Constant([1.0, 2.0])((2, 2)).numpy(), [[1, 2], [1, 2]])


def test_random_uniform_and_truncated_normal_have_their_ranges_and_spreads():
    uniform = keras.initializers.RandomUniform(minval=-1.0, maxval=3.0, seed=0)((100_000,)).numpy()
    assert uniform.dtype == np.float32 and uniform.min() >= -1.0 and uniform.max() < 3.0
    np.testing.assert_allclose([uniform.mean(), uniform.var()], [1.0, 16 / 12], rtol=0.02)
    truncated = keras.initializers.TruncatedNormal(mean=1.0, stddev=0.5, seed=0)((100_000,)).numpy()
    assert truncated.min() >= 0.0 and truncated.max() <= 2.0  # within two stddev of the mean
    np.testing.assert_allclose([truncated.mean(), truncated.std()], [1.0, 0.5 * 0.87962566103423978], rtol=0.01)


@pytest.mark.parametrize("name, initializer, stddev", [
    ("glorot_normal", keras.initializers.GlorotNormal, np.sqrt(2.0 / (200 + 300))),
    ("lecun_normal", keras.initializers.LecunNormal, np.sqrt(1.0 / 200)),
    ("he_uniform", keras.initializers.HeUniform, np.sqrt(2.0 / 200)),
    ("lecun_uniform", keras.initializers.LecunUniform, np.sqrt(1.0 / 200)),
])
def test_variance_scaling_family_has_the_variance_of_its_fans(name, initializer, stddev):
    values = initializer(seed=0)((200, 300)).numpy()
    np.testing.assert_allclose(values.std(), stddev, rtol=0.02)
    if name.endswith("uniform"):  # uniform on [-limit, limit] with limit = sqrt(3) * stddev
        assert np.abs(values).max() <= np.sqrt(3.0) * stddev
    else:  # truncated at two standard deviations of the normal before the cut
        assert np.abs(values).max() <= 2 * stddev / 0.87962566103423978 * (1 + 1e-6)
    assert type(keras.initializers.get(name)) is initializer
    assert type(keras.initializers.get(initializer.__name__)) is initializer


def test_identity_and_orthogonal_matrices():
    np.testing.assert_array_equal(keras.initializers.Identity()((3, 2)).numpy(), np.eye(3, 2))
    with pytest.raises(ValueError, match="only be used for 2D matrices"):
        keras.initializers.Identity()((2, 2, 2))
    for shape in [(4, 4), (3, 5), (5, 3), (2, 3, 4)]:
        q = keras.initializers.Orthogonal(gain=2.0, seed=1)(shape).numpy().reshape(-1, shape[-1])
        assert q.dtype == np.float32
        small = q.T @ q if q.shape[0] >= q.shape[1] else q @ q.T  # the fewer vectors are orthogonal, of norm 2
        np.testing.assert_allclose(small, 4.0 * np.eye(min(q.shape)), atol=1e-5)
    with pytest.raises(ValueError, match="at least two-dimensional"):
        keras.initializers.Orthogonal()((3,))
    np.testing.assert_array_equal(keras.initializers.Orthogonal(seed=3)((3, 3)).numpy(),
                                  keras.initializers.Orthogonal(seed=3)((3, 3)).numpy())


def test_initializers_by_name_wherever_one_is_accepted():
    dense = keras.layers.Dense(2, kernel_initializer="identity", bias_initializer="constant")
    dense(np.ones((1, 2), np.float32))
    np.testing.assert_array_equal(dense.kernel.numpy(), np.eye(2))
    np.testing.assert_array_equal(dense.bias.numpy(), [0.0, 0.0])
    dense = keras.layers.Dense(3, kernel_initializer=keras.initializers.Constant(0.5),
                               bias_initializer=keras.initializers.Constant(-1.0))
    assert dense(np.ones((1, 2), np.float32)).numpy().tolist() == [[0.0, 0.0, 0.0]]
    for name in ["random_uniform", "truncated_normal", "orthogonal", "Orthogonal", "GlorotNormal", "zeros"]:
        assert keras.initializers.get(name)((2, 2)).shape == (2, 2)
    with pytest.raises(ValueError, match="glorot_normal"):
        keras.initializers.get("glorot_gaussian")


# -- Dropout: its statistics and its identity at inference ----------------------------------------------------
def test_dropout_drops_about_rate_and_scales_the_rest_so_the_mean_is_kept():
    x = np.ones((500, 400), np.float32)
    out = keras.layers.Dropout(0.3, seed=0)(x, training=True).numpy()
    assert set(np.unique(out).tolist()) == {0.0, np.float32(1 / 0.7)}
    np.testing.assert_allclose((out == 0).mean(), 0.3, atol=0.005)
    np.testing.assert_allclose(out.mean(), 1.0, atol=0.01)


def test_dropout_passes_its_input_through_unless_training():
    x = mt.constant([[1.0, 2.0, 3.0]])
    dropout = keras.layers.Dropout(0.9)
    assert dropout(x) is x and dropout(x, training=False) is x


def test_seeded_dropout_draws_a_new_mask_each_call_and_the_same_sequence_each_time():
    x = np.ones((10, 10), np.float32)
    first, second = keras.layers.Dropout(0.5, seed=3), keras.layers.Dropout(0.5, seed=3)
    a = [first(x, training=True).numpy() for _ in range(2)]
    b = [second(x, training=True).numpy() for _ in range(2)]
    assert not np.array_equal(a[0], a[1])
    np.testing.assert_array_equal(a, b)


def test_dropout_noise_shape_drops_whole_features():
    out = keras.layers.Dropout(0.5, noise_shape=(None, 1, 6), seed=1)(np.ones((4, 5, 6), np.float32),
                                                                      training=True).numpy()
    assert (out == out[:, :1, :]).all()  # one draw per example and feature, shared along axis 1
    assert 0 < (out == 0).mean() < 1


def test_dropout_gradient_is_its_mask_over_the_keep_probability():
    x = mt.constant(np.ones((50, 50), np.float32))
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = keras.layers.Dropout(0.2, seed=0)(x, training=True)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), y.numpy())  # y = x * mask / 0.8 with x = 1


def test_training_reaches_inner_layers_and_an_explicit_value_wins():
    class Net(keras.Model):
        def __init__(self, inner_training=None):
            super().__init__()
            self.dropout = keras.layers.Dropout(0.5, seed=0)
            self.inner_training = inner_training

        def call(self, x):  # no training argument of its own: Keras passes it on through the call context
            return self.dropout(x, training=self.inner_training)

    x = np.ones((20, 20), np.float32)
    assert (Net()(x, training=True).numpy() == 0).any()
    assert (Net()(x).numpy() == 1).all()
    assert (Net(inner_training=False)(x, training=True).numpy() == 1).all()


# -- layers and models: weights, names, errors -----------------------------------------------------------------
def test_layer_weights_are_in_keras_order_not_sorted_by_attribute_name():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.z_first = keras.layers.Dense(2)
            self.a_second = keras.layers.Dense(3)
            self.plain = mt.Variable(1.0)  # as in Keras 3, a Variable made directly is not a layer weight

        def call(self, x):
            return self.a_second(self.z_first(x)) * self.plain

    net = Net()
    net(mt.ones((1, 4)))
    assert [tuple(w.shape) for w in net.trainable_variables] == [(4, 2), (2,), (2, 3), (3,)]
    assert net.layers == [net.z_first, net.a_second]
    assert isinstance(net, mt.Module) and len(net.submodules) == 2


def test_layer_names_are_unique_and_scope_their_weights():
    first, second = keras.layers.Dense(1), keras.layers.Dense(1)
    assert first.name != second.name
    assert all(re.fullmatch(r"dense(_\d+)?", layer.name) for layer in (first, second))
    assert keras.layers.Dense(1, name="out").name == "out"
    second(mt.ones((1, 2)))
    assert second.kernel.name == f"{second.name}/kernel:0"


def test_sequential_add_pop_and_layers():
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])
    last = model.pop()
    assert isinstance(last, keras.layers.Dense) and len(model.layers) == 1
    model.add(keras.layers.Flatten())
    assert model(mt.ones((2, 5))).shape == (2, 3)


def test_model_has_no_fit_and_no_functional_api_and_says_what_to_write():
    model = keras.Sequential([keras.layers.Dense(1)])
    with pytest.raises(AttributeError, match="write the loop"):
        model.fit(np.ones((1, 1)), np.ones((1, 1)))
    with pytest.raises(TypeError, match="subclass mt.keras.Model"):
        keras.Model(keras.Input((3,)), keras.layers.Dense(1))
    with pytest.raises(TypeError, match="functional model.*mt.keras.Sequential"):
        keras.layers.Dense(64, activation="relu")(keras.Input(shape=(784,), name="digits"))  # the guide's first line


def test_optimizers_have_no_minimize_and_say_how_to_apply_a_tapes_gradient():
    with pytest.raises(AttributeError, match=r"apply_gradients\(zip\(grads"):
        keras.optimizers.Adam().minimize(lambda: 0.0, var_list=[])


@pytest.mark.parametrize("path, existing", [("layers.Conv2D", "Dense"), ("callbacks", "Sequential"),
                                            ("optimizers.Lion", "Adagrad"), ("losses.Hinge", "Huber"),
                                            ("metrics.Accuracy", "SparseCategoricalAccuracy"),
                                            ("activations.sparsemax", "relu"), ("initializers.STFT", "HeNormal")])
def test_names_outside_the_subset_raise_an_error_that_lists_what_exists(path, existing):
    namespace, _, name = f"keras.{path}".rpartition(".")
    module = mt
    for part in namespace.split("."):
        module = getattr(module, part)
    with pytest.raises(AttributeError, match=rf"mt\.{namespace}\.{name} is not in minitape's Keras.*\b{existing}\b"):
        getattr(module, name)
    assert not hasattr(module, name)


def test_a_loss_subclass_writes_call_and_gets_the_reduction():
    class Absolute(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return mt.reduce_mean(mt.abs(y_true - y_pred), axis=-1)

    y_true, y_pred = mt.constant([[1, 2], [3, 4]]), mt.constant([[1.5, 2.0], [3.0, 2.0]])  # integer labels: cast
    assert float(Absolute()(y_true, y_pred)) == pytest.approx((0.25 + 1.0) / 2)
    assert float(Absolute(reduction="sum")(y_true, y_pred)) == pytest.approx(1.25)


def test_activations_remember_their_logits_only_while_the_output_lives():
    logits = mt.constant([[1.0, 2.0]])
    probabilities = keras.activations.softmax(logits)
    assert keras.activations.logits_behind(probabilities) is logits
    key = probabilities.id
    del probabilities
    assert key not in keras.activations._LOGITS


# -- the training loop of TensorFlow's "Writing a training loop from scratch" -------------------------------------
def test_the_guides_training_loop_learns_a_small_classification():
    mt.random.set_seed(0)
    rng = np.random.default_rng(0)
    centers = np.array([[2.0, 0.0], [-2.0, 1.0], [0.0, -2.0]], np.float32)
    labels = rng.integers(0, 3, size=400).astype(np.int32)
    points = (centers[labels] + rng.normal(0.0, 0.7, size=(400, 2))).astype(np.float32)
    (points, x_val), (labels, y_val) = np.split(points, [300]), np.split(labels, [300])

    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.Dropout(0.1), keras.layers.Dense(3)])
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()

    @mt.function  # the guide's train_step, as it writes it with tf.function
    def train_step(x, y):
        with mt.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        return loss_value

    epoch_losses, epoch_accuracies = [], []
    for _epoch in range(5):
        mean_loss = keras.metrics.Mean()
        for start in range(0, 300, 30):
            mean_loss.update_state(train_step(points[start:start + 30], labels[start:start + 30]))
        epoch_losses.append(float(mean_loss.result()))
        epoch_accuracies.append(float(train_acc_metric.result()))
        train_acc_metric.reset_state()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric.update_state(y_val, model(x_val, training=False))
    assert epoch_losses[-1] < 0.5 * epoch_losses[0]
    assert epoch_accuracies[-1] > 0.9 and float(val_acc_metric.result()) > 0.9
    assert int(optimizer.iterations) == 50


def test_a_metric_subclass_keeps_its_state_in_add_variable():
    class Largest(keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="largest")
            self.largest = self.add_variable(shape=(), initializer="zeros", name="largest")

        def update_state(self, values):
            self.largest.assign(mt.maximum(self.largest, mt.reduce_max(values)))

        def result(self):
            return self.largest.read_value()

    metric = Largest()
    metric.update_state(mt.constant([1.0, 4.0]))
    assert float(metric(mt.constant([2.0]))) == 4.0
    metric.reset_state()
    assert float(metric.result()) == 0.0
    assert len(metric.variables) == 1 and metric.variables[0] is metric.largest


def test_a_model_that_forgets_super_init_is_told_to_call_it():
    class Forgetful(keras.Model):
        def __init__(self):
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    with pytest.raises(RuntimeError, match=r"forgot to call `super\(\).__init__\(\)`"):
        Forgetful()(mt.ones((1, 2)))


def test_a_model_of_two_inputs_gets_them_as_they_were_given():
    class Sum(keras.Model):
        def call(self, inputs):
            first, second = inputs["a"], inputs["b"]
            return first + 2.0 * second

    a, b = np.ones((2, 3)), np.full((2, 3), 5.0)  # float64 arrays: each becomes a float32 tensor
    out = Sum()({"a": a, "b": b})
    assert out.dtype == mt.float32 and (out.numpy() == 11.0).all()
    assert keras.layers.Dense(1)([[1.0, 2.0]]).shape == (1, 1)  # a nested list of numbers is one batch
