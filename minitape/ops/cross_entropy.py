"""Softmax, log-softmax and the cross-entropy losses (sigmoid, softmax and sparse softmax).

Each is one primitive with a numerically stable forward (the largest logit is
subtracted before exponentiating) and a short gradient rule, rather than a
chain of exp/sum/log ops whose gradient would overflow for large logits.
"""


import numpy as np

from ..dtypes import FLOATING
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .elementwise import cast, exp
from .indexing import one_hot
from .reductions import reduce_sum
from .shapes import expand_dims
from .axes import one_axis
from .transcendental import sigmoid
from .exports import exported


def _log_softmax(x, axis):
    if x.size == 0:  # no logits (a (2, 0) batch): nothing to normalise
        return x
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _softmax(x, axis):
    if x.size == 0:
        return x
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


_softmax_prim = Primitive(
    "softmax", _softmax, keeps="output",
    vjp=[lambda g, y, x, axis: (g - reduce_sum(g * y, axis, keepdims=True)) * y],
    jvp=[lambda t, y, x, axis: (t - reduce_sum(t * y, axis, keepdims=True)) * y])
_log_softmax_prim = Primitive(
    "log_softmax", _log_softmax, keeps="output",
    vjp=[lambda g, y, x, axis: g - reduce_sum(g, axis, keepdims=True) * exp(y)],
    jvp=[lambda t, y, x, axis: t - reduce_sum(t * exp(y), axis, keepdims=True)])


def _float_logits(op_name, logits, axis):
    (x,) = convert_inputs(op_name, logits)
    if x.array.dtype.kind != "f":
        check_dtype(op_name, x, FLOATING)
    if x.array.ndim == 0:
        raise ValueError(f"{op_name}: the logits are a scalar; give them at least one axis to normalise over, "
                         f"e.g. mt.reshape(logits, [1])")
    return x, one_axis(-1 if axis is None else axis, x.array.ndim, op_name)  # axis=None is the last, as in TF


@exported("tf", "tf.nn")
def softmax(logits, axis=-1):
    """exp(x) / sum(exp(x)) along ``axis``: turns scores into probabilities that sum to 1.

    >>> softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x, axis = _float_logits("softmax", logits, axis)
    return apply(_softmax_prim, (x,), {"axis": axis})


@exported("tf", "tf.nn")
def log_softmax(logits, axis=-1):
    """log(softmax(x)), computed without overflow or log(0)."""
    x, axis = _float_logits("log_softmax", logits, axis)
    return apply(_log_softmax_prim, (x,), {"axis": axis})


def _check_same_shape(op_name, labels, logits):
    if labels.array.shape != logits.array.shape:
        raise ValueError(f"{op_name}: labels and logits must have the same shape, got labels "
                         f"{labels.array.shape} and logits {logits.array.shape}")


# max(x, 0) - x z + log(1 + e^-|x|) equals -z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x))
# but never overflows; its derivative in x is simply sigmoid(x) - z.
_sigmoid_xent = Primitive(
    "sigmoid_cross_entropy_with_logits",
    lambda z, x: np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x))),
    vjp=[lambda g, ans, z, x: g * -x, lambda g, ans, z, x: g * (sigmoid(x) - z)],
    jvp=[lambda t, ans, z, x: t * -x, lambda t, ans, z, x: t * (sigmoid(x) - z)])


@exported("tf", "tf.nn")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None):
    """Elementwise binary cross-entropy between ``labels`` (probabilities) and ``sigmoid(logits)``.

    >>> float(sigmoid_cross_entropy_with_logits(labels=1.0, logits=0.0))  # log 2
    0.6931471824645996
    """
    op_name = "sigmoid_cross_entropy_with_logits"
    if isinstance(labels, Tensor) and isinstance(logits, Tensor) and labels.dtype != logits.dtype:
        raise TypeError(f"{op_name}: labels have dtype {labels.dtype.name} but logits {logits.dtype.name}; "
                        f"cast the labels: mt.cast(labels, mt.{logits.dtype.name})")
    z, x = convert_inputs(op_name, labels, logits)
    _check_same_shape(op_name, z, x)
    return apply(_sigmoid_xent, (z, x))


def _softmax_xent_forward(z, x, axis):
    return -np.sum(z * _log_softmax(x, axis), axis=axis)


# d/dx of -sum(z * log_softmax(x)) is softmax(x) * sum(z) - z; it is the familiar
# softmax(x) - z when the labels sum to 1 (TensorFlow assumes that; we do not need to).
_softmax_xent = Primitive(
    "softmax_cross_entropy_with_logits", _softmax_xent_forward,
    vjp=[lambda g, ans, z, x, axis: expand_dims(g, axis) * -log_softmax(x, axis),
         lambda g, ans, z, x, axis: expand_dims(g, axis) * (softmax(x, axis) * reduce_sum(z, axis, True) - z)],
    jvp=[lambda t, ans, z, x, axis: reduce_sum(t * -log_softmax(x, axis), axis),
         lambda t, ans, z, x, axis: reduce_sum(t * (softmax(x, axis) * reduce_sum(z, axis, True) - z), axis)])


@exported("tf", "tf.nn")
def softmax_cross_entropy_with_logits(labels=None, logits=None, axis=-1):
    """Cross-entropy -sum(labels * log(softmax(logits))) along ``axis`` (one value per example).

    >>> softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[0.0, 0.0]]).numpy()
    array([0.6931472], dtype=float32)

    As in TensorFlow, labels of another dtype (integer class indicators, say)
    are cast to the logits' dtype.
    """
    op_name = "softmax_cross_entropy_with_logits"
    x, axis = _float_logits(op_name, logits, axis)
    z = convert_to_tensor(labels, dtype_hint=x.dtype)
    if z.dtype != x.dtype:
        z = cast(z, x.dtype)
    _check_same_shape(op_name, z, x)
    return apply(_softmax_xent, (z, x), {"axis": axis})


# -- the sparse cross-entropy: labels as class indices ---------------------------------------------
def _sparse_softmax_xent_forward(labels, x):
    log_p = _log_softmax(x, -1)
    return -np.take_along_axis(log_p, labels[..., None].astype(np.int64), -1)[..., 0]


def _softmax_minus_one_hot(labels, x):
    """softmax(x) - one_hot(labels): the derivative of -log softmax(x)[label], as for the dense loss."""
    return softmax(x) - one_hot(labels, x.array.shape[-1], dtype=x.dtype)


# The labels are class indices: they have no gradient (None, as in TensorFlow).
_sparse_softmax_xent = Primitive(
    "sparse_softmax_cross_entropy_with_logits", _sparse_softmax_xent_forward,
    vjp=[None, lambda g, ans, z, x: expand_dims(g, -1) * _softmax_minus_one_hot(z, x)],
    jvp=[None, lambda t, ans, z, x: reduce_sum(t * _softmax_minus_one_hot(z, x), -1)])


@exported("tf.nn")
def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """Cross-entropy -log(softmax(logits)[label]) for class indices ``labels`` (one value per example).

    ``labels`` are int32 or int64, of the shape of ``logits`` without its
    last axis, each in ``[0, number of classes)``; it is the dense loss of
    ``one_hot(labels)``, without building the one-hot matrix.

    >>> sparse_softmax_cross_entropy_with_logits(labels=[1], logits=[[0.0, 0.0]]).numpy()
    array([0.6931472], dtype=float32)
    """
    op_name = "sparse_softmax_cross_entropy_with_logits"
    (z,) = convert_inputs(op_name, labels)
    check_dtype(op_name, z, _LABEL_DTYPES)
    x, _ = _float_logits(op_name, logits, -1)
    if z.array.shape != x.array.shape[:-1]:
        raise ValueError(f"{op_name}: labels must have the shape of logits without its last axis, "
                         f"{x.array.shape[:-1]}, got {z.array.shape}")
    classes = x.array.shape[-1]
    if z.array.size and (z.array.min() < 0 or z.array.max() >= classes):
        bad = z.array[(z.array < 0) | (z.array >= classes)].flat[0]
        raise ValueError(f"{op_name}: label {bad} is outside the valid range [0, {classes}): there are {classes} "
                         f"classes")
    return apply(_sparse_softmax_xent, (z, x))


_LABEL_DTYPES = frozenset({np.dtype(np.int32), np.dtype(np.int64)})


# sparse_softmax_cross_entropy_with_logits is tf.nn's only, not at TensorFlow's top level: see ops/__init__.py.
