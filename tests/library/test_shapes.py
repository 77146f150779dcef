"""size and shape: their out_type, and the error that names the dtypes it may be."""

import pytest

import minitape as mt


def test_size_and_shape_take_an_out_type():
    assert mt.size(mt.ones((2, 3))).dtype == mt.int32 and int(mt.size(mt.ones((2, 3)))) == 6
    assert mt.size(mt.ones((2, 3)), out_type=mt.float32).dtype == mt.float32
    assert mt.shape(mt.ones((2, 3)), out_type=mt.int64).numpy().tolist() == [2, 3]


def test_shape_refuses_an_out_type_that_is_not_an_integer_dtype():
    with pytest.raises(TypeError, match=r"out_type must be mt\.int32 or mt\.int64"):
        mt.shape(mt.ones(2), out_type=mt.float32)
