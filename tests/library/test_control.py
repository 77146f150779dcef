"""Eager control flow (cond, while_loop, map_fn), mt.function, recompute_grad, get_static_value, mt.nest and
TensorShape compatibility."""

import collections

import numpy as np
import pytest

import minitape as mt


# -- recompute_grad ----------------------------------------------------------------------------------------
def chain(x):
    """Twenty ops, each keeping its input or output for the backward pass."""
    for _ in range(10):
        x = mt.sin(x) * 1.5
    return mt.reduce_sum(x)


def saved_bytes(tape):
    """The bytes of every value the tape keeps for its VJP rules."""
    kept = [t for r in tape.records for t in ([r.saved_output] if r.saved_output is not None else [])
            + list(r.saved_inputs or [])]
    return sum(t.numpy().nbytes for t in kept)


def test_recompute_grad_records_one_op_keeps_no_intermediate_and_gives_the_same_gradient():
    x = mt.constant(np.linspace(-1.0, 1.0, 1000))
    with mt.GradientTape(persistent=True) as plain:
        plain.watch(x)
        y = chain(x)
    with mt.GradientTape(persistent=True) as checkpointed:
        checkpointed.watch(x)
        y_checkpointed = mt.recompute_grad(chain)(x)
    assert len(plain.records) == 21 and len(checkpointed.records) == 1
    assert saved_bytes(plain) >= 20 * 8000 and saved_bytes(checkpointed) == 0
    assert float(y_checkpointed) == float(y)
    np.testing.assert_array_equal(checkpointed.gradient(y_checkpointed, x).numpy(), plain.gradient(y, x).numpy())


def test_recompute_grad_runs_the_forward_twice_once_more_in_the_backward_pass():
    x = mt.constant([1.0, 2.0])
    with mt.GradientTape() as tape:
        tape.watch(x)
        with mt.autodiff.OpCounter() as forward:
            y = mt.recompute_grad(chain)(x)
    with mt.autodiff.OpCounter() as backward:
        tape.gradient(y, x)
    assert forward.by_op["sin"] == 10  # the forward runs, unseen by the tape but counted
    assert backward.by_op["sin"] == 10 and backward.by_op["cos"] == 10  # recomputed, then differentiated


def test_recompute_grad_differentiates_the_variables_read_inside():
    w = mt.Variable([0.5, -1.0], dtype=mt.float64)
    x = mt.constant([1.0, 2.0], dtype=mt.float64)

    def block(x):
        return mt.reduce_sum(mt.sin(x * w) * w)

    with mt.GradientTape() as tape:
        tape.watch(x)
        expected = tape.gradient(block(x), [x, w])
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.recompute_grad(block)(x)
    assert [v.name for v in tape.watched_variables()] == [w.name]
    for got, want in zip(tape.gradient(y, [x, w]), expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-14)


def test_recompute_grad_gives_second_derivatives_and_forward_mode():
    x = mt.constant([0.3, -0.7], dtype=mt.float64)
    block = mt.recompute_grad(lambda t: mt.reduce_sum(mt.sin(t) * t))
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = block(x)
        g = inner.gradient(y, x)
    v = x.numpy()
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), 2 * np.cos(v) - v * np.sin(v), rtol=1e-14)
    with mt.autodiff.ForwardAccumulator(x, mt.constant([1.0, 0.0], dtype=mt.float64)) as acc:
        y = block(x)
    np.testing.assert_allclose(float(acc.jvp(y)), np.sin(v[0]) + v[0] * np.cos(v[0]), rtol=1e-14)


def test_recompute_grad_gives_each_argument_its_own_partial_derivative():
    x = mt.constant([2.0], dtype=mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.recompute_grad(lambda a, b: a * b * b)(x, x)
    assert float(tape.gradient(y, x)[0]) == 12.0  # d(x³)/dx = 3x², not twice a partial


def test_recompute_grad_refuses_several_outputs_and_names_itself():
    with pytest.raises(TypeError, match="recompute_grad: <lambda> must return a single tensor, got tuple"):
        mt.recompute_grad(lambda x: (x, x))(mt.constant(1.0))


# -- function --------------------------------------------------------------------------------------------
def test_function_runs_the_python_function_on_every_call_in_each_form():
    calls = []

    def f(x):
        calls.append(x)
        return x * 2.0

    for decorated in [mt.function(f), mt.function()(f), mt.function(jit_compile=True)(f),
                      mt.function(f, reduce_retracing=True, autograph=False)]:
        assert float(decorated(mt.constant(1.0))) == 2.0
        assert decorated.python_function is f and decorated.__name__ == "f"
    assert len(calls) == 4


def test_function_returns_tensors_and_checks_its_input_signature():
    @mt.function(input_signature=[mt.TensorSpec(shape=[None, 2], dtype=mt.float64)])
    def total(x):
        return [mt.reduce_sum(x), 1.0, None]

    s, one, nothing = total([[1.0, 2.0]])  # the list becomes a float64 tensor
    assert s.dtype == mt.float64 and one.dtype == mt.float32 and nothing is None
    with pytest.raises(TypeError, match=r"total: an input of shape \(2,\) and dtype float64 does not match its "
                                        r"input_signature TensorSpec\(shape=\(None, 2\), dtype=mt\.float64"):
        total(np.ones(2))
    with pytest.raises(TypeError, match="total: binding inputs to the function failed: too many positional"):
        total(np.ones((1, 2)), np.ones((1, 2)))


def test_a_decorated_method_binds_self_before_its_signature():
    class Scale:
        def __init__(self):
            self.w = mt.Variable(3.0)

        @mt.function(input_signature=[mt.TensorSpec([], mt.float32)])
        def __call__(self, x):
            return self.w * x

    model = Scale()
    with mt.GradientTape() as tape:
        y = model(2.0)
    assert float(y) == 6.0 and float(tape.gradient(y, model.w)) == 2.0


# -- cond, while_loop, map_fn ---------------------------------------------------------------------------------
def test_cond_records_only_the_branch_taken():
    x = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        y = mt.cond(x > 0, lambda: x * x, lambda: mt.sin(x) * mt.cos(x))
    assert [r.op.name for r in tape.records] == ["multiply"]
    assert float(tape.gradient(y, x)) == 4.0
    with pytest.raises(ValueError, match=r"cond: pred must be a single boolean, got shape \(2,\)"):
        mt.cond(mt.constant([True, False]), lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match="'false_fn' argument required"):
        mt.cond(True, lambda: 1.0)


def test_while_loop_differentiates_every_iteration_and_keeps_the_loop_structure():
    x = mt.Variable(1.5, dtype=mt.float64)
    with mt.GradientTape() as tape:
        i, y = mt.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * x), (0, mt.constant(1.0, dtype=mt.float64)))
    assert int(i) == 4 and float(tape.gradient(y, x)) == pytest.approx(4 * 1.5 ** 3, rel=1e-14)
    assert isinstance(mt.while_loop(lambda i: i < 0, lambda i: (i + 1,), [7]), list)  # no iteration: as given
    (n,) = mt.while_loop(lambda i: i < 100, lambda i: (i + 1,), (0,), maximum_iterations=5)
    assert int(n) == 5 and n.dtype == mt.int32


def test_while_loop_says_what_its_body_must_return():
    with pytest.raises(TypeError, match=r"body must return the loop variables as a list or tuple.*\(i \+ 1,\)"):
        mt.while_loop(lambda i: i < 3, lambda i: i + 1, [0])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        mt.while_loop(lambda i: i < 3, lambda i: (i + 1, i), [0])
    with pytest.raises(ValueError, match=r"while_loop: 'loop_vars' must be provided"):
        mt.while_loop(lambda i: i < 3, lambda i: (i + 1,), 0)


def test_map_fn_stacks_the_rows_and_their_gradients():
    x = mt.constant([[1.0, 2.0], [3.0, 4.0]], dtype=mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = mt.map_fn(lambda row: mt.reduce_sum(row * row), x)
    assert y.numpy().tolist() == [5.0, 25.0]
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), 2 * x.numpy())
    pairs = mt.map_fn(lambda ab: (ab[1], ab[0] * 2.0), (mt.constant([1.0, 2.0]), mt.constant([3.0, 4.0])))
    assert isinstance(pairs, tuple) and pairs[1].numpy().tolist() == [2.0, 4.0]
    empty = mt.map_fn(lambda row: row, mt.zeros((0, 3)), fn_output_signature=mt.TensorSpec([3], mt.float32))
    assert empty.shape == (0, 3)


def test_map_fn_says_when_the_results_do_not_fit_the_signature():
    with pytest.raises(ValueError, match=r"map_fn: fn returned .* but the output signature says float32; give the "
                                         r"dtype fn returns as fn_output_signature"):
        mt.map_fn(lambda v: mt.cast(v, mt.int32), mt.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="results of different shapes"):
        mt.map_fn(lambda v: mt.range(v), mt.constant([1, 2]))
    with pytest.raises(ValueError, match=r"map_fn: elements in elems must be 1\+ dimensional"):
        mt.map_fn(lambda v: v, [1.0, 2.0])  # a list is a structure of two scalars, as in TensorFlow


# -- get_static_value, nest, TensorShape ------------------------------------------------------------------------
def test_get_static_value_is_a_copy_a_variable_has_none_and_the_rest_passes_through():
    t = mt.constant([1.0, 2.0])
    value = mt.get_static_value(t)
    value[0] = 9.0
    assert t.numpy().tolist() == [1.0, 2.0]
    assert mt.get_static_value(mt.Variable(1.0)) is None
    assert mt.get_static_value([1, 2]) == [1, 2]
    assert type(mt.get_static_value(mt.constant(1.0))) is np.float32


def test_nest_orders_dict_leaves_by_key_and_keeps_each_dicts_own_order():
    assert mt.nest.flatten({"b": 1, "a": 2}) == [2, 1]
    rebuilt = mt.nest.pack_sequence_as({"b": 0, "a": 0}, ["A", "B"])
    assert list(rebuilt.items()) == [("b", "B"), ("a", "A")]
    w, b = mt.Variable(2.0), mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = w * b
    grads = tape.gradient(y, {"w": w, "b": b})
    assert list(grads) == ["w", "b"] and float(grads["w"]) == 3.0 and float(grads["b"]) == 2.0


def test_nest_map_structure_checks_structures_like_tensorflow():
    Pair = collections.namedtuple("Pair", "first second")
    assert mt.nest.map_structure(lambda a, b: a * b, Pair(1, [2]), Pair(3, [4])) == Pair(3, [8])
    with pytest.raises(TypeError, match="a list where the other has a tuple"):
        mt.nest.map_structure(lambda a, b: a, [1], (1,))
    assert mt.nest.map_structure(lambda a, b: a + b, [1], (2,), check_types=False) == [3]
    with pytest.raises(ValueError, match="a list of 2 items where the other has 1"):
        mt.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(ValueError, match="check_types and expand_composites"):
        mt.nest.map_structure(lambda a: a, [1], check=True)
    with pytest.raises(TypeError, match="keys must be sortable"):
        mt.nest.flatten({1: "a", "b": 2})


def test_tensor_shape_compatibility():
    shape = mt.ones((2, 3)).shape
    assert shape.is_compatible_with([2, None]) and shape.is_compatible_with(None)
    assert not shape.is_compatible_with([2]) and not shape.is_compatible_with((2, 4))
    shape.assert_is_compatible_with(mt.TensorShape([None, 3]))
    with pytest.raises(ValueError, match=r"Shapes \(2, 3\) and \[2, 4\] are incompatible"):
        shape.assert_is_compatible_with([2, 4])
