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
    # recompute_grad is built on custom_gradient, whose functions return one tensor in minitape.
    "recompute_grad_of_two_outputs": {"error": "TypeError"},
    # TensorFlow's recompute_grad refuses forward mode (NotImplementedError); minitape's gives the JVP.
    "recompute_grad_in_forward_mode": {"value": 1094.0, "shape": [], "dtype": "float32"},
}


def run_minitape(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # integer sources warn, in TensorFlow too
        return PROGRAMS[name][0].run(mt, name)


def assert_same(ours, theirs, where):
    assert ours.keys() == theirs.keys(), f"{where}: minitape {ours}, TensorFlow {theirs}"
    if "list" in theirs:
        assert len(ours["list"]) == len(theirs["list"]), where
        for k, (o, t) in enumerate(zip(ours["list"], theirs["list"])):
            assert_same(o, t, f"{where}[{k}]")
    elif "value" in theirs:
        assert (ours["shape"], ours["dtype"]) == (theirs["shape"], theirs["dtype"]), where
        np.testing.assert_allclose(np.array(ours["value"]), np.array(theirs["value"]), rtol=1e-6, err_msg=where)
    elif "error" in theirs:
        assert ours["error"] == SAME_ERROR_IN_MINITAPE.get(theirs["error"], theirs["error"]), where
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


@pytest.mark.parametrize("name", sorted(DELIBERATE))
def test_deliberate_differences_from_tensorflow(name):
    assert PROGRAMS[name][1] != DELIBERATE[name], f"{name}: TensorFlow now agrees; move it out of DELIBERATE"
    assert run_minitape(name) == DELIBERATE[name]
