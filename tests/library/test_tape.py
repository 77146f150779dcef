"""GradientTape behaves like tf.GradientTape: one test per rule of the tape."""

import gc
import threading
import warnings
import weakref

import numpy as np
import pytest

import minitape as mt


def test_seed_examples_give_tensorflows_numbers():
    x = mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = x * x * x
    assert tape.gradient(y, x).numpy() == np.float32(27.0)

    w = mt.Variable([[0.25], [0.15]])
    with mt.GradientTape() as tape:
        out = mt.linalg.matmul(mt.constant([[1.0, 2.0]]), w)
        loss = mt.math.squared_difference(0.75, out)
    grad = tape.gradient(loss, w).numpy()
    assert grad.dtype == np.float32
    np.testing.assert_array_equal(grad, np.array([[-0.39999998], [-0.79999995]], dtype=np.float32))


# 1. what is watched ----------------------------------------------------------------------------------
def test_trainable_variables_are_watched_constants_need_watch():
    v, c = mt.Variable(2.0), mt.constant(2.0)
    with mt.GradientTape() as tape:
        y = v * c
    assert tape.gradient(y, [v, c])[1] is None
    with mt.GradientTape() as tape:
        tape.watch(c)
        y = v * c
    assert [float(g) for g in tape.gradient(y, [v, c])] == [2.0, 2.0]


def test_watch_accessed_variables_false_and_non_trainable_variables():
    v, frozen = mt.Variable(2.0), mt.Variable(3.0, trainable=False)
    with mt.GradientTape(watch_accessed_variables=False) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with mt.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = v * v
    assert float(tape.gradient(y, v)) == 4.0
    with mt.GradientTape() as tape:
        y = frozen * v
    assert tape.gradient(y, frozen) is None
    assert tape.watched_variables() == (v,)


def test_watched_variables_in_creation_order_whatever_the_watch_order():
    # TensorFlow 2.21 gives a, b, c here
    a, b, c = mt.Variable(1.0, name="a"), mt.Variable(2.0, name="b"), mt.Variable(3.0, name="c")
    with mt.GradientTape() as tape:
        tape.watch(c)
        b * a + c * b
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "c:0"]


# 2. persistence ---------------------------------------------------------------------------------------
def test_non_persistent_tape_answers_once():
    x = mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = x * x
        z = y * y
    assert float(tape.gradient(z, x)) == 108.0
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.jacobian(y, x)


def test_persistent_tape_answers_many_times():
    x = mt.constant(3.0)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(z, x)) == 108.0
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 108.0
    assert float(tape.jacobian(z, x)) == 108.0


def test_non_persistent_tape_releases_its_records():
    x = mt.constant(np.arange(4.0))
    with mt.GradientTape() as tape:
        tape.watch(x)
        h = x * 2.0
        y = mt.reduce_sum(h * h)
    kept = weakref.ref(h)
    del h
    gc.collect()
    assert kept() is not None, "the tape keeps h: multiply's gradient needs its inputs"
    tape.gradient(y, x)
    gc.collect()
    assert kept() is None, "after its one gradient the tape must release what it recorded"
    assert len(tape) == 0


# 3. targets, sources and output_gradients -----------------------------------------------------------------
def test_non_scalar_target_gives_gradient_of_sum_and_target_lists_add():
    x = mt.constant([1.0, 2.0, 3.0], dtype=mt.float64)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = mt.sin(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 2 * x.numpy())
    np.testing.assert_allclose(tape.gradient([y, z], x).numpy(), 2 * x.numpy() + np.cos(x.numpy()))


def test_sources_structures_are_preserved():
    a, b, c = mt.Variable(1.0), mt.Variable(2.0), mt.Variable(3.0)
    with mt.GradientTape(persistent=True) as tape:
        y = a * b * c
    grads = tape.gradient(y, {"w": a, "rest": [b, (c,)]})
    assert set(grads) == {"w", "rest"}
    assert isinstance(grads["rest"], list) and isinstance(grads["rest"][1], tuple)
    assert [float(grads["w"]), float(grads["rest"][0]), float(grads["rest"][1][0])] == [6.0, 3.0, 2.0]
    assert isinstance(tape.gradient(y, (a, b)), tuple)
    assert float(tape.gradient(y, a)) == 6.0


def test_output_gradients_seed_a_vector_jacobian_product():
    x = mt.constant([1.0, 2.0], dtype=mt.float64)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=np.array([3.0, -1.0])).numpy(), [6.0, -4.0])
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=3.0).numpy(), [6.0, 12.0])  # broadcast
    with pytest.raises(ValueError, match=r"shape \(3,\) but its target has shape \(2,\)"):
        tape.gradient(y, x, output_gradients=mt.constant([1.0, 2.0, 3.0], dtype=mt.float64))
    with pytest.raises(TypeError, match=r"dtype float32 but its target is float64.*mt.cast"):
        tape.gradient(y, x, output_gradients=mt.constant([1.0, 2.0]))
    # a list of numbers is one gradient per target (TensorFlow would silently use the first number)
    with pytest.raises(ValueError, match=r"2 item\(s\) for 1 target\(s\).*mt.constant"):
        tape.gradient(y, x, output_gradients=[3.0, -1.0])
    np.testing.assert_allclose(tape.gradient([y, y], x, output_gradients=[1.0, 2.0]).numpy(), [6.0, 12.0])


# 4. intermediate values -----------------------------------------------------------------------------------
def test_gradient_with_respect_to_an_intermediate_value():
    x = mt.ones((2,)) * 3.0
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    np.testing.assert_array_equal(tape.gradient(z, y).numpy(), [18.0, 18.0])


# 5. unconnected sources -------------------------------------------------------------------------------------
def test_unconnected_sources_give_none_or_zeros():
    x, y = mt.Variable(2.0), mt.Variable([3.0, 4.0])
    with mt.GradientTape(persistent=True) as tape:
        z = x * x
    assert tape.gradient(z, y) is None
    for mode in ("zero", mt.UnconnectedGradients.ZERO):
        g = tape.gradient(z, y, unconnected_gradients=mode)
        assert g.shape == (2,) and g.dtype == mt.float32 and not g.numpy().any()
    assert tape.gradient(z, y, unconnected_gradients="none") is None
    with pytest.raises(ValueError, match="'zeros'.*ZERO"):
        tape.gradient(z, x, unconnected_gradients="zeros")


# 6. integers and booleans ----------------------------------------------------------------------------------------
def test_integer_targets_and_sources_give_none_with_a_warning():
    x, y = mt.Variable(1), mt.Variable(2)
    with mt.GradientTape() as tape:
        z = x + y
    with pytest.warns(UserWarning, match="must be floating.*got int32"):
        assert tape.gradient(z, [x, y]) == [None, None]

    f = mt.constant([3.9, 4.1])
    with mt.GradientTape() as tape:
        tape.watch(f)
        k = mt.cast(mt.cast(f, mt.int32), mt.float32)
        out = k * k
    assert tape.gradient(out, f) is None  # the cast to int cut the path: None, not a wrong number

    with mt.GradientTape() as tape:
        with pytest.warns(UserWarning, match="watched tensor must be floating.*bool"):
            tape.watch(mt.constant([True]))


# 7. leaving minitape cuts the tape -----------------------------------------------------------------------------------
@pytest.mark.parametrize("leave", [lambda t: t.numpy(), np.asarray, float, lambda t: np.sin(t)])
def test_values_that_leave_minitape_come_back_as_constants(leave):
    x = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        y = mt.constant(leave(x * x))
        z = y * 3.0
    assert tape.gradient(z, x) is None


# 8. Python control flow -----------------------------------------------------------------------------------------------
def test_control_flow_is_recorded_as_executed():
    def f(x, y):
        output = 1.0
        for i in range(y):
            if 1 < i < 5:
                output = mt.multiply(output, x)
        return output

    def grad(x, y):
        with mt.GradientTape() as tape:
            tape.watch(x)
            out = f(x, y)
        return float(tape.gradient(out, x))

    x = mt.convert_to_tensor(2.0)
    assert [grad(x, 6), grad(x, 5), grad(x, 4)] == [12.0, 12.0, 4.0]


# 9. higher derivatives ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("x0, first, second", [(1.0, 3.0, 6.0), (5.0, 75.0, 30.0)])
def test_nested_tapes_give_second_derivatives(x0, first, second):
    x = mt.Variable(x0)
    with mt.GradientTape() as outer:
        with mt.GradientTape() as inner:
            y = x * x * x
        dy_dx = inner.gradient(y, x)
    assert (float(dy_dx), float(outer.gradient(dy_dx, x))) == (first, second)


def test_third_derivative():
    x = mt.constant(0.7, dtype=mt.float64)
    with mt.GradientTape() as t3:
        t3.watch(x)
        with mt.GradientTape() as t2:
            t2.watch(x)
            with mt.GradientTape() as t1:
                t1.watch(x)
                y = mt.exp(x) * mt.sin(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = float(t3.gradient(d2, x))
    # (e^x sin x)''' = 2 e^x (cos x - sin x)
    assert d3 == pytest.approx(2 * np.exp(0.7) * (np.cos(0.7) - np.sin(0.7)), rel=1e-14)


# 10. stop_recording, reset, gradient inside the context ---------------------------------------------------------------
def test_stop_recording_and_reset():
    x = mt.constant(4.0)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x ** 2
        z = x * 3.0
    assert tape.gradient(y, x) is None and float(tape.gradient(z, x)) == 3.0
    with pytest.raises(RuntimeError, match="not recording"):
        with tape.stop_recording():
            pass

    with mt.GradientTape() as tape:
        tape.watch(x)
        lost = x * x
        tape.reset()
        tape.watch(x)
        kept = x * 5.0
        total = lost + kept
    assert float(tape.gradient(total, x)) == 5.0  # only what was recorded after reset


def test_gradient_inside_the_context():
    x = mt.Variable(3.0)
    with mt.GradientTape(persistent=True) as tape:
        y = x * x
        with pytest.warns(UserWarning, match="inside its context"):
            dy = tape.gradient(y, x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with tape.stop_recording():
                tape.gradient(y, x)
    assert float(tape.gradient(dy, x)) == 2.0  # the gradient's own ops were recorded: d(2x)/dx

    with mt.GradientTape() as tape:  # a non-persistent tape just stops recording, as in TF
        y = x * x
        assert float(tape.gradient(y, x)) == 6.0
        z = y * x
    assert len(tape) == 0 and z.numpy() == 27.0


# 11. threads ----------------------------------------------------------------------------------------------------------
def test_each_thread_has_its_own_tapes():
    barrier = threading.Barrier(2)
    results = {}

    def work(name, factor):
        x = mt.Variable(1.0)
        with mt.GradientTape() as tape:
            barrier.wait()  # both tapes are recording now
            y = x
            for _ in range(200):
                y = y * factor
            barrier.wait()
        results[name] = (float(tape.gradient(y, x)), len(tape.watched_variables()), tape)

    threads = [threading.Thread(target=work, args=("a", 1.001)), threading.Thread(target=work, args=("b", 0.999))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["a"][0] == pytest.approx(1.001 ** 200, rel=1e-4)
    assert results["b"][0] == pytest.approx(0.999 ** 200, rel=1e-4)
    assert results["a"][1] == results["b"][1] == 1


# 12. no recursion -----------------------------------------------------------------------------------------------------
def test_a_chain_of_20000_ops_differentiates_without_recursion():
    # 20 times Python's default recursion limit: a sweep that recursed once per record would stop here
    x = mt.Variable(1.0, dtype=mt.float64)
    with mt.GradientTape() as tape:
        y = x
        for _ in range(20_000):
            y = y * 1.00001
    assert float(tape.gradient(y, x)) == pytest.approx(1.00001 ** 20_000, rel=1e-9)


# 13. keeping only what the rule needs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("op", [mt.exp, mt.tanh, mt.sigmoid, mt.nn.relu])
def test_output_only_ops_do_not_keep_their_input(op):
    a = mt.constant(np.linspace(-1.0, 1.0, 5))
    with mt.GradientTape() as tape:
        tape.watch(a)
        h = a * 2.0  # an intermediate value, used only by op
        y = op(h)
    h_alive, y_alive = weakref.ref(h), weakref.ref(y)
    del h, y
    gc.collect()
    assert h_alive() is None, f"{op.__name__} kept its input, but its gradient needs only its output"
    assert y_alive() is not None, f"{op.__name__} must keep its output for its gradient"


# errors ---------------------------------------------------------------------------------------------------------------
def test_bad_sources_and_targets_are_explained():
    x = mt.Variable(1.0)
    with mt.GradientTape(persistent=True) as tape:
        y = x * x
    with pytest.raises(TypeError, match="source must be a tensor or Variable, got float"):
        tape.gradient(y, 3.0)
    with pytest.raises(TypeError, match="target must be a minitape tensor.*ndarray.*NumPy"):
        tape.gradient(np.ones(2), x)
    with pytest.raises(ValueError, match="expected a tensor or Variable, got float"):
        tape.watch([[1.0]])
    assert float(tape.gradient(y, x)) == 2.0  # the errors did not spoil the tape


def test_entering_a_tape_twice_is_an_error():
    tape = mt.GradientTape()
    with tape:
        with pytest.raises(ValueError, match="already recording"):
            tape.__enter__()


def test_spent_tape_can_record_again_in_a_new_block():
    x = mt.Variable(2.0)
    tape = mt.GradientTape()
    with tape:
        y = x * x
    tape.gradient(y, x)
    with tape:
        y = x * x * x
    assert float(tape.gradient(y, x)) == 12.0


def test_variable_reads_are_snapshots():
    v = mt.Variable(2.0)
    with mt.GradientTape(persistent=True) as tape:
        y = v * v
    v.assign(10.0)
    assert float(tape.gradient(y, v)) == 4.0  # the value the op read, as in TensorFlow


def test_tape_length_counts_recorded_ops():
    x = mt.Variable(1.0)
    c = mt.constant(2.0)
    with mt.GradientTape() as tape:
        mt.sin(x) * x
        unrelated = c * c
    assert len(tape) == 2 and unrelated.numpy() == 4.0


def test_a_failing_gradient_rule_spends_the_tape_instead_of_corrupting_it():
    @mt.custom_gradient
    def bad(x):
        return x * 1.0, lambda dy: (dy, dy)  # two gradients for one input

    x = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        y = bad(x) * x
    with pytest.raises(ValueError, match=r"returned 2 gradient\(s\), but bad has 1 input\(s\)"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="failed while answering"):
        tape.gradient(y, x)  # never a gradient from a half-swept tape


def test_the_core_needs_only_numpy():
    # without graphviz a gradient works and a tape shows as text; mt.viz says what to install
    import subprocess
    import sys
    code = ("import sys; sys.modules['graphviz'] = None\n"  # as if graphviz were not installed
            "import minitape as mt\n"
            "x = mt.Variable(1.0)\n"
            "with mt.GradientTape() as t:\n    y = x * x\n"
            "print(repr(t), float(t.gradient(y, x)))\n"
            "try:\n    mt.viz\nexcept ImportError as error:\n    print(error)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["<GradientTape: 1 ops> 2.0",
                                "minitape.viz draws tapes with the graphviz package, which is not installed: pip "
                                "install 'minitape[viz]' (and Graphviz's dot program, e.g. apt install graphviz)"]


def test_a_training_step_leaves_no_reference_cycles():
    # Memory must come back by reference counting alone: cyclic garbage would keep gradients
    # and activations alive until the cycle collector happens to run.
    w, b = mt.Variable(np.ones((3, 2))), mt.Variable(np.zeros(2))
    x = mt.constant(np.arange(6.0).reshape(2, 3))

    def step():
        with mt.GradientTape() as tape:
            loss = mt.reduce_mean(mt.tanh(mt.matmul(x, w) + b) ** 2)
        grads = tape.gradient(loss, {"w": w, "b": b})
        w.assign_sub(0.1 * grads["w"])

    step()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        step()
        gc.collect()
        leftovers = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert leftovers == [], f"a training step left reference cycles: {leftovers}"
