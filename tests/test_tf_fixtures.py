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
}


def run_minitape(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # integer sources warn, in TensorFlow too
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


@pytest.mark.parametrize("name", sorted(DELIBERATE))
def test_deliberate_differences_from_tensorflow(name):
    assert PROGRAMS[name][1] != DELIBERATE[name], f"{name}: TensorFlow now agrees; move it out of DELIBERATE"
    assert run_minitape(name) == DELIBERATE[name]
