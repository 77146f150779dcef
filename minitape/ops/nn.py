"""Neural-network building blocks: softmax, log-softmax and the two cross-entropy losses.

Each is one primitive with a numerically stable forward (the largest logit is
subtracted before exponentiating) and a short gradient rule, rather than a
chain of exp/sum/log ops whose gradient would overflow for large logits.
"""

import numpy as np

from ..dtypes import FLOATING
from ..fast import apply
from ..primitive import Primitive, check_dtype, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .elementwise import cast, exp, sigmoid, where
from .indexing import gather
from .reductions import clip_by_norm, reduce_sum
from .shapes import concat, expand_dims, one_axis


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


def softmax(logits, axis=-1):
    """exp(x) / sum(exp(x)) along ``axis``: turns scores into probabilities that sum to 1.

    >>> softmax([0.0, 0.0]).numpy()
    array([0.5, 0.5], dtype=float32)
    """
    x, axis = _float_logits("softmax", logits, axis)
    return apply(_softmax_prim, (x,), {"axis": axis})


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


# -- activations: elu and swish -------------------------------------------------------------------------
def _float_features(op_name, features):
    (x,) = convert_inputs(op_name, features)
    if x.array.dtype.kind != "f":
        raise TypeError(f"{op_name}: features must be floating-point, got {x.dtype.name}; convert them first, "
                        f"e.g. mt.cast(x, mt.float32)")
    return x


# For x < 0, elu's slope e**x is y + 1; at 0 the slope is 1, as in TensorFlow.
_elu_derivative = [lambda s, y, x: where(y < 0, s * (y + 1.0), s)]
_elu = Primitive("elu", lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))), keeps="output",
                 vjp=_elu_derivative, jvp=_elu_derivative)


def elu(features, name=None):
    """The exponential linear unit: ``x`` for ``x > 0``, ``e**x - 1`` otherwise.

    >>> elu([-1.0, 0.0, 2.0]).numpy()
    array([-0.63212055,  0.        ,  2.        ], dtype=float32)
    """
    return apply(_elu, (_float_features("elu", features),))


def swish(features, beta=1.0):
    """``x * sigmoid(beta * x)`` (also called SiLU); ``beta`` may be a tensor that learns.

    >>> swish([0.0, 2.0]).numpy()
    array([0.      , 1.761594], dtype=float32)
    """
    x = _float_features("swish", features)
    return x * sigmoid(beta * x)


silu = swish


# -- embedding_lookup -------------------------------------------------------------------------------------
def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of ``params`` at ``ids``: ``gather(params, ids)``, the embedding of each id.

    A Python list ``params`` is a list of shards, as in TensorFlow's "div"
    strategy: shard ``p`` holds the next block of consecutive ids, the first
    shards one row more when the rows do not divide evenly. With ``max_norm``,
    each embedding longer than ``max_norm`` is scaled down to that length.
    The gradient of ``params`` is a dense tensor here (TensorFlow gives
    ``IndexedSlices``, which ``convert_to_tensor`` makes dense).

    >>> table = convert_to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> embedding_lookup(table, [2, 0]).numpy()
    array([[5., 6.],
           [1., 2.]], dtype=float32)
    """
    if isinstance(params, list):
        if not params:
            raise ValueError("embedding_lookup: params is an empty list; give a tensor, or a list of shards")
        shards = convert_inputs("embedding_lookup", *params)
        if len(shards) > 1:
            _check_div_shards([s.array.shape[0] if s.array.ndim else 0 for s in shards])
        params = concat(list(shards), 0) if len(shards) > 1 else shards[0]
    looked_up = gather(params, ids)
    if max_norm is None:
        return looked_up
    embedding_axes = list(range(np.ndim(convert_to_tensor(ids).array), looked_up.array.ndim))
    return clip_by_norm(looked_up, max_norm, axes=embedding_axes)


def _check_div_shards(rows):
    total, n = sum(rows), len(rows)
    expected = [total // n + (1 if p < total % n else 0) for p in range(n)]
    if rows != expected:
        raise ValueError(f"embedding_lookup: shards of {rows} rows are not TensorFlow's 'div' partition of {total} "
                         f"ids into {n} shards, which is {expected}; concatenate them and look up in one tensor")


# elu, swish, silu and embedding_lookup are tf.nn's only, not at TensorFlow's top level: see ops/__init__.py.
__all__ = ["softmax", "log_softmax", "sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits"]
