"""Normalisation and dropout: l2_normalize, moments, batch_normalization and dropout, what a layer does to
its activations. Each is written with the ops it is made of, so its derivatives are theirs."""

import numbers

from ..dtypes import FLOATING
from .arguments import check_dtype, convert_inputs
from ..random import uniform
from ..tensor import Tensor
from ..variable import Variable
from .elementwise import cast, maximum, reciprocal, sqrt, where
from .reductions import reduce_mean, reduce_sum, reduced_axes
from .shapes import squeeze


# -- l2_normalize, moments, batch_normalization ---------------------------------------------------------------

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


__all__ = []  # all are tf.nn's only, not at TensorFlow's top level: see ops/__init__.py
