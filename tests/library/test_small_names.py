"""mt.print, mt.TensorArray, mt.py_function, mt.IndexedSlices, formatting and complex numbers: beyond the recordings.

fixtures/tf_programs_module.py compares what they give with TensorFlow; here:
where the output goes, the differences minitape keeps on purpose, and the
errors that say what to do.
"""

import sys

import numpy as np
import pytest

import minitape as mt


def test_print_writes_to_stderr_unless_told_otherwise(capsys):
    mt.print(mt.constant([1.0, 2.0]))
    mt.print("step", 3, output_stream=sys.stdout)
    captured = capsys.readouterr()
    assert (captured.err, captured.out) == ("[1 2]\n", "step 3\n")


def test_print_refuses_a_string_that_is_not_a_file_url():
    with pytest.raises(ValueError, match="file://<path>"):
        mt.print(1, output_stream="stdout")


def test_star_import_keeps_pythons_print():
    namespace = {}
    exec("from minitape import *", namespace)
    assert "print" not in namespace and namespace["TensorArray"] is mt.TensorArray


def test_a_tensor_array_read_twice_says_how_to_allow_it():
    ta = mt.TensorArray(mt.float32, size=1).write(0, 1.0)
    ta.read(0)
    with pytest.raises(ValueError, match="clear_after_read=False"):
        ta.read(0)


def test_writing_past_the_end_says_how_to_grow():
    with pytest.raises(IndexError, match="dynamic_size=True"):
        mt.TensorArray(mt.float32, size=1).write(1, 1.0)


def test_a_tensor_array_without_a_size_asks_for_one():
    with pytest.raises(ValueError, match="size=0 with dynamic_size=True"):
        mt.TensorArray(mt.float32)


def test_reading_an_unwritten_element_of_unknown_shape_says_what_to_give():
    with pytest.raises(ValueError, match="element_shape"):
        mt.TensorArray(mt.float32, size=2).read(0)


def test_py_function_differentiates_a_variable_it_reads_unlike_tensorflow():
    # TensorFlow differentiates a py_function with respect to its inputs only (None here); minitape records the
    # ops the function runs, so the Variable it reads gets its gradient.
    x = mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = mt.py_function(lambda: x * x, [], Tout=mt.float32)
    assert float(tape.gradient(y, x)) == 6.0


def test_py_function_with_numpy_inside_has_no_gradient():
    x = mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = mt.py_function(lambda a: np.square(a.numpy()), [x], Tout=mt.float32)
    assert float(y) == 9.0 and tape.gradient(y, x) is None


def test_py_function_counts_its_results():
    with pytest.raises(ValueError, match="returned 1 value"):
        mt.py_function(lambda a: a, [1.0], Tout=[mt.float32, mt.float32])


def test_indexed_slices_repr_shows_its_parts():
    rows = mt.IndexedSlices(mt.constant([[1.0, 2.0]]), mt.constant([1]), dense_shape=mt.constant([3, 2]))
    assert repr(rows) == ("IndexedSlices(indices=mt.Tensor([1], shape=(1,), dtype=int32), values=mt.Tensor([[1. 2.]], "
                          "shape=(1, 2), dtype=float32), dense_shape=mt.Tensor([3 2], shape=(2,), dtype=int32))")


def test_gradients_of_gather_are_dense():
    v = mt.Variable([[1.0, 2.0], [3.0, 4.0]])
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(mt.gather(v, [1]))
    assert not isinstance(tape.gradient(y, v), mt.IndexedSlices)


def test_formatting_a_vector_with_a_spec_says_how():
    with pytest.raises(TypeError, match=r"only a scalar takes a format spec"):
        f"{mt.constant([1.0, 2.0]):.2f}"
    with pytest.raises(TypeError, match=r"v.numpy\(\):.2f"):
        f"{mt.Variable(1.5):.2f}"


def test_str_and_repr_are_unchanged_by_format():
    t = mt.constant([0.5])
    assert str(t) == "mt.Tensor([0.5], shape=(1,), dtype=float32)"
    assert f"{t}" == "[0.5]" and f"{t!s}" == str(t)


def test_complex_numbers_are_refused_with_the_reason():
    with pytest.raises(TypeError, match="minitape has no complex tensors"):
        mt.Variable([5 + 4j, 6 + 1j])
    with pytest.raises(TypeError, match="real and imaginary parts"):
        mt.constant(np.array([1j]))


def test_set_shape_of_a_variable_checks_too():
    v = mt.Variable([1.0, 2.0])
    v.set_shape([None])
    with pytest.raises(ValueError, match="not compatible"):
        v.set_shape([3])
