"""Neural-network building blocks: softmax, log-softmax, the cross-entropy losses, activations, normalisation.

Each is one primitive with a numerically stable forward (the largest logit is
subtracted before exponentiating) and a short gradient rule, rather than a
chain of exp/sum/log ops whose gradient would overflow for large logits.
"""

import numbers

import numpy as np

from ..dtypes import FLOATING, NUMBERS
from ..primitive import Primitive, apply, check_dtype, convert_inputs
from ..random import uniform
from ..tensor import Tensor, Variable, convert_to_tensor
from .elementwise import abs, cast, erfc, exp, maximum, pow, reciprocal, sigmoid, sqrt, tanh, where  # noqa: A004
from .indexing import gather, one_hot
from .norms import clip_by_norm
from .reductions import reduce_mean, reduce_sum, reduced_axes
from .shapes import concat, expand_dims, one_axis, squeeze


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


# -- activations: relu6, leaky_relu, selu, softsign, gelu -------------------------------------------------------------
# TensorFlow's rules (nn_grad.py): relu6's slope is 0 at both kinks, 0 and 6; leaky_relu's is alpha at 0.
_relu6_derivative = [lambda s, y, x: where(x > 0.0, where(x < 6.0, s, 0.0), 0.0)]
_relu6 = Primitive("relu6", lambda x: np.clip(x, 0, 6).astype(x.dtype), vjp=_relu6_derivative,
                   jvp=_relu6_derivative)


def relu6(features, name=None):
    """min(max(x, 0), 6): a relu capped at 6; its gradient is 0 at 0 and at 6.

    >>> relu6([-1.0, 3.0, 8.0]).numpy()
    array([0., 3., 6.], dtype=float32)
    """
    (x,) = convert_inputs("relu6", features)
    if x.array.dtype.kind != "f":
        check_dtype("relu6", x, NUMBERS)
    return apply(_relu6, (x,))


_leaky_relu_derivative = [lambda s, y, x, alpha: where(x > 0.0, s, s * alpha)]
_leaky_relu = Primitive("leaky_relu", lambda x, alpha: np.where(x > 0, x, x * x.dtype.type(alpha)),
                        vjp=_leaky_relu_derivative, jvp=_leaky_relu_derivative)


def leaky_relu(features, alpha=0.2, name=None):
    """``x`` for ``x > 0``, ``alpha * x`` otherwise; integers become float32, as in TensorFlow.

    >>> leaky_relu([-1.0, 2.0]).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    (x,) = convert_inputs("leaky_relu", features)
    if x.array.dtype.kind in "iu":
        x = cast(x, "float32")
    return apply(_leaky_relu, (_float_features("leaky_relu", x),), {"alpha": float(alpha)})


# selu(x) = scale * x for x > 0, scale * alpha * (e**x - 1) otherwise, with the constants that keep a layer's
# mean and variance fixed (Klambauer et al., 2017). For x < 0 the slope scale * alpha * e**x is y + scale * alpha.
_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717
_selu_derivative = [lambda s, y, x: where(y < 0.0, s * (y + _SELU_SCALE * _SELU_ALPHA), s * _SELU_SCALE)]
_selu = Primitive(
    "selu", lambda x: (_SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(np.minimum(x, 0)))).astype(x.dtype),
    keeps="output", vjp=_selu_derivative, jvp=_selu_derivative)


def selu(features, name=None):
    """The scaled exponential linear unit: ``scale * x`` for x > 0, ``scale * alpha * (e**x - 1)`` otherwise.

    >>> selu([0.0, 1.0]).numpy()
    array([0.      , 1.050701], dtype=float32)
    """
    return apply(_selu, (_float_features("selu", features),))


_softsign_derivative = [lambda s, y, x: s * reciprocal((1.0 + abs(x)) * (1.0 + abs(x)))]
_softsign = Primitive("softsign", lambda x: x / (1 + np.abs(x)), vjp=_softsign_derivative,
                      jvp=_softsign_derivative)


def softsign(features, name=None):
    """x / (1 + |x|): like tanh, between -1 and 1, but approaching them slowly.

    >>> softsign([-1.0, 3.0]).numpy()
    array([-0.5 ,  0.75], dtype=float32)
    """
    return apply(_softsign, (_float_features("softsign", features),))


def gelu(features, approximate=False, name=None):
    """The Gaussian error linear unit, ``x`` times the normal distribution's CDF at x: ``x/2 erfc(-x/sqrt 2)``.

    With ``approximate=True``, TensorFlow's tanh approximation,
    ``x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3)))``. Written with the ops
    it is made of, as TensorFlow writes it: its derivatives are theirs.

    >>> gelu([-1.0, 0.0, 1.0]).numpy()
    array([-0.15865526,  0.        ,  0.8413447 ], dtype=float32)
    """
    (x,) = convert_inputs("gelu", features)
    if x.array.dtype.kind != "f":
        raise ValueError(f"gelu: features must be floating-point, got {x.dtype.name}; convert them first, e.g. "
                         f"mt.cast(x, mt.float32)")
    if approximate:
        return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * pow(x, 3.0))))
    return 0.5 * x * erfc(-x * 0.7071067811865476)


# -- the sparse cross-entropy, l2_normalize, moments, batch_normalization -----------------------------------------
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


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """``x`` divided by its Euclidean norm along ``axis`` (all of it by default), or by sqrt(epsilon) if larger.

    ``epsilon`` keeps a zero ``x`` at zero, with a finite gradient. ``dim``
    is TensorFlow's old name for ``axis``.

    >>> l2_normalize([3.0, 4.0]).numpy()
    array([0.6, 0.8], dtype=float32)
    """
    if dim is not None:
        if axis is not None:
            raise ValueError("l2_normalize: give axis or dim (its old name), not both")
        axis = dim
    (x,) = convert_inputs("l2_normalize", x)
    check_dtype("l2_normalize", x, FLOATING)
    square_sum = reduce_sum(x * x, reduced_axes(axis, x.array.ndim, "l2_normalize"), keepdims=True)
    return x * reciprocal(sqrt(maximum(square_sum, epsilon)))


def moments(x, axes, shift=None, keepdims=False, name=None):
    """The mean and the (population) variance of ``x`` along ``axes``, as a pair.

    As in TensorFlow, float16 is computed in float32, integers give integers
    (rounded toward zero), and ``shift`` is accepted and unused. TensorFlow stops the variance's gradient at the mean,
    since that part of the first derivative is 0 (the deviations from the
    mean sum to 0); but the second derivative then misses the mean's share.
    Here the gradient flows through the mean: first derivatives are
    TensorFlow's, second derivatives are exact.

    >>> mean, variance = moments([1.0, 2.0, 3.0, 4.0], axes=[0])
    >>> float(mean), float(variance)
    (2.5, 1.25)
    """
    (x,) = convert_inputs("moments", x)
    axes = reduced_axes(axes, x.array.ndim, "moments")
    y = cast(x, "float32") if x.dtype.name == "float16" else x
    mean = reduce_mean(y, axes, keepdims=True)
    deviations = y - mean
    variance = reduce_mean(deviations * deviations, axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return (cast(mean, x.dtype), cast(variance, x.dtype)) if x.dtype != y.dtype else (mean, variance)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """``scale * (x - mean) / sqrt(variance + variance_epsilon) + offset`` (``offset`` and ``scale`` may be None).

    Computed as TensorFlow does, ``x * inv + (offset - mean * inv)`` with
    ``inv = scale / sqrt(variance + variance_epsilon)``: one multiply and one
    add per element of ``x``.

    >>> batch_normalization([1.0, 3.0], mean=2.0, variance=1.0, offset=None, scale=None,
    ...                     variance_epsilon=0.0).numpy()
    array([-1.,  1.], dtype=float32)
    """
    x, mean, variance = convert_inputs("batch_normalization", x, mean, variance)
    inv = reciprocal(sqrt(variance + variance_epsilon))
    if scale is not None:
        inv = inv * scale
    return x * inv + (-mean * inv if offset is None else offset - mean * inv)

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


# -- dropout ----------------------------------------------------------------------------------------------------
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Each element of ``x`` set to 0 with probability ``rate``; the others are divided by ``1 - rate``.

    The division keeps each element's expected value, so a network trained
    with dropout is used without it, unchanged. An element is kept where a
    draw of ``mt.random.uniform`` in [0, 1) is at least ``rate``; ``seed``
    makes the draws repeatable (they cannot match TensorFlow's). The draws
    have ``noise_shape``, which broadcasts against ``x``'s shape: a 1 there
    shares one draw along that axis, None stands for ``x``'s size. The
    gradient is the same mask, divided by ``1 - rate``. ``rate`` may be a
    scalar tensor of ``x``'s dtype (its gradient flows).

    >>> dropout([1.0, 1.0, 1.0, 1.0], rate=0.5, seed=1).numpy()
    array([2., 2., 0., 2.], dtype=float32)
    """
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError(f"dropout: rate must be a scalar tensor or a float in the range [0, 1), got rate={rate}")
    (x,) = convert_inputs("dropout", x)
    if x.array.dtype.kind != "f":
        raise ValueError(f"dropout: x must be floating-point, since the kept values are scaled; got {x.dtype.name}. "
                         f"Convert it first, e.g. mt.cast(x, mt.float32)")
    if isinstance(rate, numbers.Real):
        if rate == 0:
            return x
        kept = x * (1.0 / (1.0 - rate))
    elif isinstance(rate, (Tensor, Variable)):
        (rate,) = convert_inputs("dropout", rate)
        if rate.array.ndim != 0:
            raise ValueError(f"dropout: rate must be a scalar, got a tensor of shape {rate.array.shape}")
        if rate.dtype != x.dtype:
            raise ValueError(f"dropout: rate has dtype {rate.dtype.name} but x {x.dtype.name}; cast the rate: "
                             f"mt.cast(rate, mt.{x.dtype.name})")
        kept = x / (1.0 - rate)
    else:
        raise ValueError(f"dropout: rate must be a number or a scalar tensor, got {rate!r}")
    shape = x.array.shape
    if noise_shape is not None:
        noise_shape = list(noise_shape)
        if len(noise_shape) == len(shape):
            noise_shape = [size if n is None else n for n, size in zip(noise_shape, shape)]
        shape = noise_shape
    keep = uniform(shape, dtype=x.dtype, seed=seed) >= rate
    return where(keep, kept, 0.0)


# elu, swish, silu and embedding_lookup are tf.nn's only, not at TensorFlow's top level: see ops/__init__.py.
__all__ = ["softmax", "log_softmax", "sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits"]
# Also tf.nn's only: relu6, leaky_relu, selu, softsign, gelu, sparse_softmax_cross_entropy_with_logits,
# l2_normalize, moments, batch_normalization, dropout (mt.nn has them).
