"""Normalisation: l2_normalize, moments and batch_normalization, what a layer does to its activations. Each is
written with the ops it is made of, so its derivatives are theirs. (Dropout, which draws random numbers, is
TensorFlow's ``tf.nn.dropout`` in ``minitape/tensorflow/nn.py``.)"""


from ..dtypes import FLOATING
from .arguments import check_dtype, convert_inputs
from .elementwise import cast, maximum, reciprocal, sqrt
from .reductions import reduce_mean, reduce_sum, reduced_axes
from .shapes import squeeze
from .exports import exported


# -- l2_normalize, moments, batch_normalization ---------------------------------------------------------------

@exported("tf.math", "tf.nn")
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


@exported("tf.nn")
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


@exported("tf.nn")
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
