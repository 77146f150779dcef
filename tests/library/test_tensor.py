"""Tensors, Variables, dtypes and conversion follow TensorFlow; bad input gets a clear error."""

import numpy as np
import pytest

import minitape as mt


def test_python_numbers_get_tensorflows_default_dtypes_numpy_keeps_its_own():
    assert mt.constant(1.5).dtype == mt.float32
    assert mt.constant([1, 2]).dtype == mt.int32
    assert mt.constant(True).dtype == mt.bool
    assert mt.constant(np.array([1.0])).dtype == mt.float64
    assert mt.constant(np.float64(2.0)).dtype == mt.float64
    assert mt.constant(np.arange(3, dtype=np.int8)).dtype == mt.int8
    assert mt.constant(2 ** 40).dtype == mt.int64  # too big for int32
    assert mt.constant(-2 ** 31).dtype == mt.int32 and mt.constant(2 ** 31).dtype == mt.int64  # the edges
    assert mt.constant(1, dtype=mt.float64).numpy() == 1.0


def test_python_ints_become_any_integer_dtype_they_fit_in():
    # TensorFlow builds these; the fixture test compares the values and dtypes
    assert mt.constant([1, 2], dtype=mt.uint8).dtype == mt.uint8
    assert mt.Variable([1, 2], dtype=mt.uint8).dtype == mt.uint8
    assert mt.constant([-128, 127], dtype=mt.int8).numpy().tolist() == [-128, 127]
    assert mt.constant(np.array([0, 255]), dtype=mt.uint8).numpy().tolist() == [0, 255]
    v = mt.Variable([1, 2], dtype=mt.uint8)
    assert v.assign_add([3, 4]).numpy().tolist() == [4, 6]
    for dtype, top in [(mt.uint16, 2 ** 16 - 1), (mt.uint32, 2 ** 32 - 1), (mt.uint64, 2 ** 64 - 1)]:
        assert mt.constant([0, 1], dtype=dtype).numpy().tolist() == [0, 1]
        assert mt.constant(top, dtype=dtype).numpy() == top
        assert mt.constant(np.zeros(2, dtype=dtype.as_numpy_dtype)).dtype == dtype  # an array keeps its dtype
        assert mt.as_dtype(dtype.name) == dtype
        with pytest.raises(ValueError, match=f"cannot convert -1 to {dtype.name}"):
            mt.constant(-1, dtype=dtype)


def test_an_integer_out_of_its_dtypes_range_is_refused_not_wrapped():
    # TensorFlow would silently give 0 for 256 in uint8; the error names the range and the way out
    with pytest.raises(ValueError, match=r"cannot convert 256 to uint8: .* between 0 and 255.*mt\.cast"):
        mt.constant(256, dtype=mt.uint8)
    with pytest.raises(ValueError, match="between -128 and 127"):
        mt.Variable([1, 128], dtype=mt.int8)
    with pytest.raises(ValueError, match="between 0 and 255"):
        mt.Variable([1, 2], dtype=mt.uint8).assign([-1, 2])
    with pytest.raises(TypeError, match="without losing information"):
        mt.constant(1.5, dtype=mt.uint8)
    assert mt.convert_to_tensor(300, dtype_hint=mt.uint8).dtype == mt.int32  # a hint only: falls back


def test_float64_works_everywhere():
    x = mt.constant([0.5, 1.5], dtype=mt.float64)
    y = mt.nn.softmax(mt.matmul(mt.reshape(x, (1, 2)), mt.ones((2, 2), dtype=mt.float64)) * 0.5 + x)
    assert y.dtype == mt.float64 and (x * 2).dtype == mt.float64 and (2.0 * x).dtype == mt.float64


def test_dtype_objects():
    assert mt.float32.is_floating and not mt.int32.is_floating and mt.int64.is_integer and mt.bool.is_bool
    assert mt.float32 == np.float32 == mt.as_dtype("float32") and repr(mt.float64) == "mt.float64"
    with pytest.raises(TypeError, match="no dtype 'complex64'.*float32"):
        mt.as_dtype("complex64")


def test_repr_and_str_look_like_tensorflows():
    assert repr(mt.constant([1.0, 2.0])) == \
        "<mt.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    assert repr(mt.constant(27.0)) == "<mt.Tensor: shape=(), dtype=float32, numpy=27.0>"
    assert str(mt.constant(27.0)) == "mt.Tensor(27.0, shape=(), dtype=float32)"
    assert str(mt.constant([18.0, 18.0])) == "mt.Tensor([18. 18.], shape=(2,), dtype=float32)"
    assert repr(mt.Variable(3.0, name="w")) == "<mt.Variable 'w:0' shape=() dtype=float32, numpy=3.0>"
    assert f"{mt.constant(2.0 / 3.0):.3f}" == "0.667"


def test_numpy_interop():
    t = mt.constant([[1.0, 2.0]])
    assert isinstance(t.numpy(), np.ndarray) and isinstance(mt.constant(2.0).numpy(), np.float32)
    np.testing.assert_array_equal(np.asarray(t), [[1.0, 2.0]])
    assert isinstance(np.ones(2) * mt.constant([1.0, 2.0], dtype=mt.float64), mt.Tensor)  # Tensor wins
    assert isinstance(np.sin(t), np.ndarray)  # a NumPy function leaves minitape
    assert float(mt.constant(2.5)) == 2.5 and int(mt.constant(3)) == 3 and list(range(mt.constant(2))) == [0, 1]
    assert t.shape == (1, 2) and t.shape.as_list() == [1, 2] and t.ndim == 2 and len(t) == 1
    assert [r.numpy().tolist() for r in mt.constant([[1, 2], [3, 4]])] == [[1, 2], [3, 4]]


def test_operators():
    a, b = mt.constant([1.0, 4.0]), mt.constant([2.0, 2.0])
    for result, expected in [(a + b, [3, 6]), (a - b, [-1, 2]), (a * b, [2, 8]), (a / b, [0.5, 2]),
                             (a ** b, [1, 16]), (-a, [-1, -4]), (abs(-a), [1, 4]), (1 - a, [0, -3]),
                             (2 / b, [1, 1]), (2 ** b, [4, 4]), (a[1:], [4])]:
        np.testing.assert_array_equal(result.numpy(), expected)
    assert (mt.constant([[1.0, 2.0]]) @ mt.constant([[3.0], [4.0]])).numpy() == 11.0
    np.testing.assert_array_equal((a < b).numpy(), [True, False])
    np.testing.assert_array_equal((a == 4.0).numpy(), [False, True])
    np.testing.assert_array_equal((a != b).numpy(), [True, True])
    assert (a >= b).dtype == mt.bool


def test_tensors_are_unhashable_but_have_refs():
    t = mt.constant(1.0)
    with pytest.raises(TypeError, match="ref"):
        {t: 1}  # noqa: B018  (building the dict is what raises)
    refs = {t.ref(): "t"}
    assert refs[t.ref()] == "t" and t.ref().deref() is t


def test_is_tensor_and_convert_to_tensor():
    v = mt.Variable(1.0)
    assert mt.is_tensor(mt.constant(1.0)) and mt.is_tensor(v) and not mt.is_tensor(np.ones(1))
    t = mt.constant(1.0)
    assert mt.convert_to_tensor(t) is t
    assert mt.convert_to_tensor([1.0], dtype_hint=mt.float64).dtype == mt.float64
    assert mt.convert_to_tensor(np.ones(1, np.float32), dtype_hint=mt.float64).dtype == mt.float32
    with pytest.raises(ValueError, match="requested dtype float64 for a tensor of dtype float32"):
        mt.convert_to_tensor(t, dtype=mt.float64)
    with pytest.raises(TypeError, match="numbers or booleans"):
        mt.constant("text")


def test_variables_assign_in_place_and_keep_their_identity():
    v = mt.Variable([1.0, 2.0], name="w")
    assert v.name == "w:0" and v.trainable and mt.Variable(1.0).name == "Variable:0"
    same = v.assign([3.0, 4.0]).assign_add([1.0, 1.0]).assign_sub(mt.constant([0.5, 0.5]))
    assert same is v
    np.testing.assert_array_equal(v.numpy(), [3.5, 4.5])
    v.numpy()[0] = 100.0  # numpy() is a copy for a Variable: the Variable does not change
    assert v.numpy()[0] == 3.5
    assert mt.Variable(lambda: mt.zeros((2,))).shape == (2,)
    assert not mt.Variable(1.0, trainable=False).trainable


def test_assign_errors_leave_the_variable_untouched():
    v = mt.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=r"shape \(3,\).*shape \(2,\)"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="float64 but the Variable is float32.*mt.cast"):  # as in TensorFlow
        v.assign_add(mt.constant([1.0, 1.0], dtype=mt.float64))
    with pytest.raises(TypeError, match="without losing information"):
        mt.Variable([1, 2]).assign([1.5, 2.5])
    with pytest.raises(ValueError, match="shape=.2, 2. was given"):
        mt.Variable([1.0, 2.0], shape=(2, 2))
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_op_errors_name_the_shapes_and_dtypes():
    with pytest.raises(ValueError, match=r"add: shapes \(2,\) and \(3,\) cannot be broadcast"):
        mt.constant([1.0, 2.0]) + mt.constant([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"matmul: shapes \(2, 3\) and \(2, 3\).*inner dimensions 3 and 2"):
        mt.matmul(mt.ones((2, 3)), mt.ones((2, 3)))
    with pytest.raises(ValueError, match="at least 2 dimensions.*reshape"):
        mt.matmul(mt.ones((3,)), mt.ones((3, 1)))
    with pytest.raises(TypeError, match="same dtype, got float32 and float64.*mt.cast"):
        mt.constant(1.0) * mt.constant(1.0, dtype=mt.float64)
    # casting the float to the integer dtype would drop the fractions: the hint casts the integer
    cast_the_integer = r"Convert the int32 input first: mt.cast\(x, mt.float32\)"
    with pytest.raises(TypeError, match=r"got int32 and float32\. " + cast_the_integer):
        mt.multiply(mt.constant([1, 2]), mt.constant([0.5, 0.5]))
    with pytest.raises(TypeError, match=r"got float32 and int32\. " + cast_the_integer):
        mt.multiply(mt.constant([0.5, 0.5]), mt.constant([1, 2]))
    with pytest.raises(TypeError, match=r"exp: int32 tensors are not supported; it works on floating-point.*mt.cast"):
        mt.exp(mt.constant(1))
    with pytest.raises(TypeError, match="multiply:.*2.5.*without losing"):
        mt.constant(2) * 2.5
    with pytest.raises(ValueError, match=r"reshape: cannot reshape a tensor of shape \(2, 3\)"):
        mt.reshape(mt.ones((2, 3)), (4,))
    with pytest.raises(ValueError, match="labels and logits must have the same shape"):
        mt.nn.softmax_cross_entropy_with_logits(labels=mt.ones((2, 3)), logits=mt.ones((3, 2)))
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        mt.reduce_sum(mt.ones((2, 2)), axis=2)
    with pytest.raises(ValueError, match=r"broadcast_to: a tensor of shape \(3,\) cannot be broadcast to \(1,\)"):
        mt.broadcast_to(mt.ones((3,)), (1,))
    with pytest.raises(ValueError, match=r"matmul \(batch dimensions\): shapes \(2,\) and \(3,\)"):
        mt.matmul(mt.ones((2, 1, 1)), mt.ones((3, 1, 1)))


def test_creation_ops():
    assert mt.zeros((2, 3)).dtype == mt.float32 and mt.ones((2,), dtype=mt.int32).numpy().tolist() == [1, 1]
    assert mt.zeros_like(mt.constant([1, 2])).dtype == mt.int32
    np.testing.assert_array_equal(mt.fill([2, 2], 7.0).numpy(), np.full((2, 2), 7.0))
    assert mt.range(5).dtype == mt.int32 and mt.range(1.0, 2.0, 0.5).numpy().tolist() == [1.0, 1.5]
    assert mt.range(2, 8, 3).numpy().tolist() == [2, 5]
    np.testing.assert_allclose(mt.linspace(0.0, 1.0, 5).numpy(), [0, 0.25, 0.5, 0.75, 1])
    np.testing.assert_array_equal(mt.eye(2).numpy(), np.eye(2))
    assert mt.constant(0.0, shape=(2, 3)).shape == (2, 3)


def test_random_is_reproducible():
    mt.random.set_seed(1)
    a = mt.random.normal((3,), mean=1.0, stddev=0.1).numpy()
    b = mt.random.uniform((2, 2), minval=-1, maxval=1).numpy()
    mt.random.set_seed(1)
    np.testing.assert_array_equal(a, mt.random.normal((3,), mean=1.0, stddev=0.1).numpy())
    np.testing.assert_array_equal(b, mt.random.uniform((2, 2), minval=-1, maxval=1).numpy())
    assert a.dtype == np.float32 and np.all((-1 <= b) & (b < 1))
    ints = mt.random.uniform((100,), minval=0, maxval=3, dtype=mt.int32).numpy()
    assert set(ints.tolist()) == {0, 1, 2}
    np.testing.assert_array_equal(mt.random.normal((2,), seed=7).numpy(), mt.random.normal((2,), seed=7).numpy())


def test_ops_with_numpy_conventions():
    x = mt.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert mt.reduce_max(x).numpy() == 6.0 and mt.reduce_min(x, axis=1).numpy().tolist() == [1.0, 2.0]
    assert mt.argmax(x, axis=1).numpy().tolist() == [1, 2] and mt.argmax(x).dtype == mt.int64
    assert mt.reduce_sum(mt.constant([1, 2], dtype=mt.int32)).dtype == mt.int32
    assert mt.reduce_mean(mt.constant([1, 2])).numpy() == 1  # integer mean, as in TensorFlow
    np.testing.assert_array_equal(mt.where(x > 2.5).numpy(), [[0, 1], [0, 2], [1, 0], [1, 2]])
    assert mt.round(mt.constant([0.5, 1.5, 2.6])).numpy().tolist() == [0.0, 2.0, 3.0]
    np.testing.assert_array_equal(mt.stop_gradient(x).numpy(), x.numpy())
    np.testing.assert_allclose(mt.clip_by_norm(mt.zeros((2,)), 1.0).numpy(), [0.0, 0.0])
    np.testing.assert_allclose(mt.cumsum([1.0, 2.0, 3.0], exclusive=True).numpy(), [0.0, 1.0, 3.0])
    np.testing.assert_allclose(mt.cumprod([1.0, 2.0, 3.0], reverse=True).numpy(), [6.0, 6.0, 3.0])
    assert mt.shape(x).numpy().tolist() == [2, 3]


def test_python_float_constants_keep_their_dtype_and_sign():
    x64, x32 = mt.constant([2.0], dtype=mt.float64), mt.constant([2.0])
    assert (x64 * 0.5).dtype == mt.float64 and (x32 * 0.5).dtype == mt.float32
    assert np.signbit((x32 * -0.0).numpy()[0]) and not np.signbit((x32 * 0.0).numpy()[0])
    assert np.isnan((x32 * float("nan")).numpy()[0])
    assert (x64 * 0.1).numpy()[0] == 2.0 * 0.1  # 0.1 converted in float64, not via float32
