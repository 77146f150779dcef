"""minitape against TensorFlow's recorded behaviour: values, shapes, dtypes, None-ness, error types.

The programs are in fixtures/tf_programs*.py; beside each module, a JSON file
(fixtures/record_tf_semantics.py names it) holds what TensorFlow made of them,
recorded by that script (which needs TensorFlow; this file does not).
"""

import importlib
import json
import pathlib
import warnings

import numpy as np
import pytest

import minitape as mt
from fixtures.record_tf_semantics import fixture_name, modules

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
MODULES = {name: importlib.import_module(f"fixtures.{name}") for name in modules()}
RECORDED = {name: json.loads((FIXTURES / fixture_name(name)).read_text()) for name in MODULES}
# program name -> (its module, TensorFlow's outcome); names are unique across modules
PROGRAMS = {program: (module, RECORDED[name]["programs"].get(program))
            for name, module in MODULES.items() for program in module.PROGRAMS}

# TensorFlow's kernels reject bad values with InvalidArgumentError; minitape raises the Python ValueError.
SAME_ERROR_IN_MINITAPE = {"InvalidArgumentError": "ValueError"}
# A kernel that has no version for a dtype (bool + bool) raises InvalidArgumentError or NotFoundError; the recording
# marks it "dtype", and minitape raises TypeError, as Python does for an operand of the wrong type.
DTYPE_ERROR_IN_MINITAPE = "TypeError"



def tensor(value, dtype):
    """The recorded outcome of a tensor holding ``value`` (a number or a list)."""
    return {"value": value, "shape": list(np.shape(value)), "dtype": dtype}


# Where minitape differs from TensorFlow on purpose (the README lists these): program -> minitape's outcome.
DELIBERATE = {
    # TensorFlow wraps an integer that does not fit (256 becomes 0); minitape refuses it.
    "uint8_from_256": {"error": "ValueError"},
    "uint8_from_minus_one": {"error": "ValueError"},
    "int8_from_128": {"error": "ValueError"},
    # A float axis is a TypeError in every minitape op; TensorFlow truncates it in some ops
    # (squeeze, stack) and fails with other errors in others.
    "float_axis_squeeze": {"error": "TypeError"},
    "float_axis_stack": {"error": "TypeError"},
    "float_axis_softmax": {"error": "TypeError"},
    "float_axis_log_softmax": {"error": "TypeError"},
    "float_axis_softmax_cross_entropy_with_logits": {"error": "TypeError"},
    "float_axis_norm": {"error": "TypeError"},
    "float_axis_in_a_list": {"error": "TypeError"},
    # TensorFlow fails with an IndexError from inside its code; minitape names the axis out of range.
    "stack_of_an_empty_list_on_axis_1": {"error": "ValueError"},
    # TensorFlow returns the gradient of shape (5,) for an input of shape (2,); minitape refuses it.
    "custom_gradient_of_the_wrong_shape": {"error": "ValueError"},
    # TensorFlow wraps a Python int that does not fit the tensor's dtype (int8 + 300 adds 44); minitape refuses
    # it, as it refuses constant(256, dtype=uint8).
    "int8_tensor_plus_a_python_int_out_of_range": {"error": "ValueError"},
    "uint8_tensor_times_a_negative_python_int": {"error": "ValueError"},
    "list_of_an_int8_tensor_and_a_too_big_int": {"error": "ValueError"},
    # TensorFlow truncates a float NumPy array to an int tensor's dtype ([1, 2] + [0.5, 0.5] is [1, 2]);
    # minitape refuses to lose the fractions silently.
    "int_tensor_plus_numpy_float_array": {"error": "TypeError"},
    # TensorFlow keeps a NumPy argument's memory: changing the array after `x * a` changes the recorded op and
    # so the gradient ([100, 100]); minitape copies it, so the gradient uses the value the op used.
    "numpy_array_argument_of_an_op_is_copied": tensor([3.0, 4.0], "float32"),
    # minitape tensors hold numbers and booleans, not text.
    "constant_of_a_string": {"error": "TypeError"},
    "reshape_a_string": {"error": "TypeError"},
    # TensorFlow fails from inside its own code (AttributeError, AbortedError, InternalError) where minitape
    # raises an error that names the problem.
    "index_of_a_float_scalar": {"error": "TypeError"},
    "round_builtin_of_a_scalar": {"error": "TypeError"},
    "softmax_of_a_scalar": {"error": "ValueError"},
    "gradient_of_a_python_float": {"error": "TypeError"},
    "gradient_with_respect_to_a_python_float": {"error": "TypeError"},
    "jacobian_of_a_list_of_targets": {"error": "TypeError"},
    "batch_jacobian_with_two_sources": {"error": "TypeError"},
    "batch_jacobian_of_a_list_of_targets": {"error": "TypeError"},
    "primal_that_is_a_python_float": {"error": "TypeError"},
    "tape_outside_two_accumulators": [tensor(12.0, "float32"), tensor(6.0, "float32")],
    # TensorFlow reads a list of numbers as one output gradient per target and silently uses the first number
    # for a single target ([2, 4] instead of [2, 8]); minitape asks for one tensor per target.
    "output_gradients_python_list_for_one_target": {"error": "ValueError"},
    # In forward mode a constant has no tangent at all; TensorFlow gives it a zero tangent, so 0 * inf = NaN
    # where a partial derivative is infinite (the tangent of x / 0.0 is inf in minitape, NaN in TensorFlow).
    "jvp_of_a_division_by_zero_constant": tensor(float("inf"), "float32"),
    # TensorFlow hands back what grad_fn returns as it is (a Python 0.5, a float32 gradient for a float64 input,
    # an int32 gradient); minitape makes a Python number a tensor of the input's dtype and refuses a tensor of
    # another dtype, since gradients of two dtypes cannot be added up.
    "tf_test_custom_gradient_of_output_gradient": [tensor(2.0, "float32"), tensor(2.1, "float32"),
                                                    tensor(2.2, "float32"), tensor(3.1, "float32")],
    "grad_fn_returns_a_python_float_for_float64": tensor(0.5, "float64"),
    "grad_fn_returns_a_python_float_for_float32": tensor(0.5, "float32"),
    "grad_fn_returns_a_python_int_for_float32": tensor(2.0, "float32"),
    "grad_fn_returns_a_numpy_float64_for_float32": tensor(0.5, "float32"),
    "grad_fn_returns_float32_for_float64": {"error": "TypeError"},
    "grad_fn_returns_float64_for_float32": {"error": "TypeError"},
    "grad_fn_returns_an_int_tensor_for_float32": {"error": "TypeError"},
    # custom_gradient functions return one tensor.
    "custom_gradient_returns_two_results": {"error": "TypeError"},
    # Forward mode through custom_gradient uses the custom gradient (its transpose): TensorFlow takes the tangent
    # of the forward computation whenever its ops give one, so a rule that clips or fixes a NaN applies in
    # reverse mode only there, and forward and reverse mode disagree (6 against 100).
    "custom_gradient_forward_mode_with_a_differentiable_forward": tensor(100.0, "float32"),
    "custom_gradient_forward_mode_of_a_stable_log1pexp": tensor(1.0, "float32"),
    "custom_gradient_reverse_over_forward": [tensor(100.0, "float32"), {"none": True}],
    # A wrong dtype is a TypeError in every minitape op (float indices, paddings or sizes; integer matrices; two
    # dtypes in one op; an index dtype outside the op's list, e.g. int8 for gather); TensorFlow raises
    # InvalidArgumentError for these.
    **{name: {"error": "TypeError"} for name in [
        "gather_with_float_indices", "gather_with_int8_indices", "gather_nd_with_float_indices",
        "slice_with_float_begin", "slice_with_int16_begin", "split_by_float_sizes", "pad_with_float_paddings",
        "pad_with_a_float64_constant", "one_hot_of_float_indices", "one_hot_of_int16_indices", "einsum_of_two_dtypes",
        "softplus_of_integers", "elu_of_integers", "swish_of_integers", "reduce_logsumexp_of_integers",
        "add_n_of_two_dtypes", "add_n_of_a_python_int_and_float", "inv_of_integers", "det_of_integers",
        "cholesky_of_integers", "solve_with_two_dtypes", "solve_with_integers", "embedding_lookup_of_float_ids",
        "shape_float32"]},
    # TensorFlow's einsum fails on Python lists (AttributeError: 'list' object has no attribute 'shape'); minitape
    # converts them, as every other op does.
    "einsum_of_python_lists": {"value": [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]], "shape": [2, 3], "dtype": "float32"},
    # mt.function runs the Python function on every call (minitape always runs eagerly); TensorFlow runs it once,
    # to trace it, and then runs the graph.
    "function_runs_python_on_every_call": {"value": 2, "shape": [], "dtype": "int32"},
    # TensorFlow's cross kernel refuses vectors that are not 3-vectors with FailedPreconditionError; minitape raises
    # ValueError, as for every bad argument.
    "cross_of_two_element_vectors": {"error": "ValueError"},
    # recompute_grad is built on custom_gradient, whose functions return one tensor in minitape.
    "recompute_grad_of_two_outputs": {"error": "TypeError"},
    # TensorFlow's recompute_grad refuses forward mode (NotImplementedError); minitape's gives the JVP.
    "recompute_grad_in_forward_mode": {"value": 1094.0, "shape": [], "dtype": "float32"},
    # tf.Module, sliced assignment and small names (issue 31): an index past the end of a TensorArray is Python's
    # IndexError (TensorFlow's OutOfRangeError); minitape has no complex tensors.
    "tensor_array_of_fixed_size_written_past_its_end": {"error": "IndexError"},
    "tensor_array_written_at_a_negative_index": {"error": "IndexError"},
    "tensor_array_read_out_of_range": {"error": "IndexError"},
    "variable_of_complex_numbers": {"error": "TypeError"},
    # lstsq(fast=False) is pinv(matrix) @ rhs in minitape, with pinv's gradient; TensorFlow's has none (ValueError).
    "lstsq_not_fast_gradient": [tensor([[0.5], [0.0]], "float32")],
    # Convolutions (issue 31) take Python lists, as every other op does; TensorFlow's conv2d fails on them inside
    # its own code (AttributeError).
    "conv2d_of_python_lists": tensor([[[[21.0]], [[43.0]]]], "float32"),
    # Keras 3's initializers.get("constant") fails inside Keras (KeyError: 'value'); minitape gives Constant(0.0), as
    # Keras 2 did, so that kernel_initializer="constant" works.
    "keras_constant_initializer_by_name": tensor([0.0, 0.0], "float32"),
}


def run_minitape(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # integer sources warn, in TensorFlow too
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns of inf and NaN; TensorFlow gives them silently
        return PROGRAMS[name][0].run(mt, name)


def minitape_error(theirs):
    """The error minitape raises where TensorFlow raised the recorded one."""
    if theirs.get("dtype"):
        return {"error": DTYPE_ERROR_IN_MINITAPE}
    return {"error": SAME_ERROR_IN_MINITAPE.get(theirs["error"], theirs["error"])}


def assert_same(ours, theirs, where):
    if "error" in theirs:
        assert ours == minitape_error(theirs), f"{where}: minitape {ours}, TensorFlow {theirs}"
        return
    assert ours.keys() == theirs.keys(), f"{where}: minitape {ours}, TensorFlow {theirs}"
    if "list" in theirs:
        assert len(ours["list"]) == len(theirs["list"]), where
        for k, (o, t) in enumerate(zip(ours["list"], theirs["list"])):
            assert_same(o, t, f"{where}[{k}]")
    elif "dict" in theirs:
        assert ours["dict"].keys() == theirs["dict"].keys(), where
        for k in theirs["dict"]:
            assert_same(ours["dict"][k], theirs["dict"][k], f"{where}[{k!r}]")
    elif "value" in theirs:
        assert (ours["shape"], ours["dtype"]) == (theirs["shape"], theirs["dtype"]), where
        if np.dtype(theirs["dtype"]).kind == "f":  # float16 keeps about 3 significant digits, float32 about 7
            rtol = 1e-3 if theirs["dtype"] == "float16" else 1e-6
            np.testing.assert_allclose(np.array(ours["value"]), np.array(theirs["value"]), rtol=rtol, err_msg=where)
        else:  # integers and booleans: exactly
            np.testing.assert_array_equal(np.array(ours["value"]), np.array(theirs["value"]), err_msg=where)
    elif "number" in theirs:
        np.testing.assert_allclose(ours["number"], theirs["number"], rtol=1e-6, err_msg=where)
    else:
        assert ours == theirs, where


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_fixture_names_its_tensorflow_version_and_every_program(module):
    assert RECORDED[module]["tensorflow_version"].startswith("2.")
    assert RECORDED[module]["programs"].keys() == MODULES[module].PROGRAMS.keys()


def test_program_names_are_unique_across_modules():
    assert len(PROGRAMS) == sum(len(module.PROGRAMS) for module in MODULES.values())


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in DELIBERATE])
def test_minitape_does_what_tensorflow_did(name):
    assert_same(run_minitape(name), PROGRAMS[name][1], name)


def _outcome(expected):
    """A DELIBERATE entry as a recorded outcome: a list of outcomes is recorded as {"list": [...]}."""
    return {"list": [_outcome(e) for e in expected]} if isinstance(expected, list) else expected


@pytest.mark.parametrize("name", sorted(DELIBERATE))
def test_deliberate_differences_from_tensorflow(name):
    with pytest.raises(AssertionError):  # TensorFlow did something else (else: move it out of DELIBERATE)
        assert_same(_outcome(DELIBERATE[name]), PROGRAMS[name][1], name)
    assert_same(run_minitape(name), _outcome(DELIBERATE[name]), name)
