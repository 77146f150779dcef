"""``mt.keras.initializers``: the starting values of a layer's weights.

An initializer is called with a shape (and a dtype, float32 by default) and
returns a tensor. A ``seed`` makes it give the same values at every call, as
in Keras; without one, each call draws from ``mt.random``'s generator, so
``mt.random.set_seed`` makes a whole model reproducible. The draws are
minitape's own (NumPy's generator), so they cannot match TensorFlow's: only
their distributions do.

Wherever Keras takes an initializer (``kernel_initializer=``,
``bias_initializer=``, ``add_weight(initializer=)``) it takes its name too:
``"glorot_normal"``, ``"constant"``, or the class name ``"GlorotNormal"``.

>>> GlorotUniform(seed=0)((2, 3)).shape
TensorShape([2, 3])
>>> Zeros()((2,)).numpy()
array([0., 0.], dtype=float32)
>>> Constant(0.5)((2,)).numpy()
array([0.5, 0.5], dtype=float32)
"""

import math

import numpy as np

from ..dtypes import as_dtype
from ..ops import cast, ones, reshape, zeros
from ..tensorflow.module import _snake_case
from ..tensorflow.random import normal, truncated_normal, uniform
from .backend import floatx
from .namespace import missing_names


class Initializer:
    """What every initializer is: ``initializer(shape, dtype=None)`` gives a tensor of that shape."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(shape, dtype=None)")


def _float_dtype(dtype, name):
    dtype = as_dtype(dtype or floatx())
    if not dtype.is_floating:
        raise ValueError(f"{name} gives floating-point values; dtype {dtype.name} is not one. Give dtype='float32'")
    return dtype


class Zeros(Initializer):
    """All zeros (the default for biases)."""

    def __call__(self, shape, dtype=None):
        return zeros(shape, dtype=as_dtype(dtype or floatx()))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None):
        return ones(shape, dtype=as_dtype(dtype or floatx()))


class Constant(Initializer):
    """Every value ``value`` (a number, or an array that broadcasts to the shape).

    >>> Constant(3)((2, 2), dtype="int32").numpy()
    array([[3, 3],
           [3, 3]], dtype=int32)
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dtype = as_dtype(dtype or floatx())
        return cast(np.asarray(self.value), dtype) * ones(shape, dtype=dtype)


class RandomNormal(Initializer):
    """Samples of the normal distribution N(mean, stddev²).

    >>> float(RandomNormal(stddev=0.0, mean=3.0)(()))
    3.0
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return normal(shape, self.mean, self.stddev, _float_dtype(dtype, "RandomNormal"), self.seed)


class RandomUniform(Initializer):
    """Samples of the uniform distribution on ``[minval, maxval)``.

    >>> values = RandomUniform(minval=2.0, maxval=3.0, seed=0)((1000,)).numpy()
    >>> bool(values.min() >= 2.0 and values.max() < 3.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return uniform(shape, self.minval, self.maxval, _float_dtype(dtype, "RandomUniform"), self.seed)


class TruncatedNormal(Initializer):
    """Samples of N(mean, stddev²) within two standard deviations of the mean (others are drawn again).

    The cut makes the spread of the values about 0.88 ``stddev``, as in Keras:
    ``stddev`` is the normal curve's, before the cut.
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return truncated_normal(shape, self.mean, self.stddev, _float_dtype(dtype, "TruncatedNormal"), self.seed)


class Identity(Initializer):
    """``gain`` times the identity matrix (ones on the diagonal of a 2-D shape, which may be wide or tall).

    >>> Identity(gain=2.0)((2, 3)).numpy()
    array([[2., 0., 0.],
           [0., 2., 0.]], dtype=float32)
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        dtype = _float_dtype(dtype, "Identity")
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. Received: "
                             f"shape={tuple(shape)} of rank {len(shape)}.")
        return cast(self.gain * np.eye(*shape), dtype)


class Orthogonal(Initializer):
    """``gain`` times a random orthogonal matrix: its rows (or its columns, whichever are fewer) are orthonormal.

    A shape of more than two axes is treated as a matrix of
    ``prod(shape[:-1])`` rows and ``shape[-1]`` columns. The matrix is the Q
    of the QR decomposition of a matrix of standard normal draws, with the
    signs of its columns set so that R's diagonal is positive: that makes it
    uniformly distributed over the orthogonal matrices (Mezzadri, 2007).

    >>> q = Orthogonal(seed=0)((3, 3)).numpy()
    >>> bool(np.allclose(q @ q.T, np.eye(3), atol=1e-6))
    True
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def __call__(self, shape, dtype=None):
        dtype = _float_dtype(dtype, "Orthogonal")
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        rows, columns = math.prod(shape[:-1]), shape[-1]
        draws = normal((max(rows, columns), min(rows, columns)), 0.0, 1.0, "float64", self.seed).numpy()
        q, r = np.linalg.qr(draws)
        q = q * np.sign(np.diag(r))
        if rows < columns:
            q = q.T
        return reshape(cast(self.gain * q, dtype), shape)


def compute_fans(shape):
    """(fan_in, fan_out): how many inputs feed each output unit, and how many outputs each input feeds.

    A Dense kernel of shape (inputs, units) has fans (inputs, units); a
    convolution kernel (..., in_channels, out_channels) multiplies both by
    its window's size; a vector's fans are its length.

    >>> compute_fans((3, 4)), compute_fans((5,)), compute_fans((2, 2, 3, 4))
    ((3, 4), (5, 5), (12, 16))
    """
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    window = math.prod(shape[:-2])
    return shape[-2] * window, shape[-1] * window


# The standard deviation of the unit normal cut at ±2 stddev: a truncated draw is divided by it, so that its
# variance is the one asked for.
_TRUNCATED_STDDEV = 0.87962566103423978


class VarianceScaling(Initializer):
    """Weights whose variance is ``scale / n``, ``n`` the fan-in, the fan-out or their mean (``mode``).

    Keeping the variance at ``scale / n`` keeps the size of a signal about
    the same from layer to layer. ``distribution`` is ``"truncated_normal"``
    (normal, cut at two standard deviations), ``"untruncated_normal"`` or
    ``"uniform"`` (on ``[-limit, limit]`` with ``limit = sqrt(3 * scale / n)``).
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}; give 'fan_in', 'fan_out' or 'fan_avg'")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}; give 'truncated_normal', "
                             f"'untruncated_normal' or 'uniform'")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def __call__(self, shape, dtype=None):
        dtype = _float_dtype(dtype, type(self).__name__)
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            return truncated_normal(shape, 0.0, math.sqrt(variance) / _TRUNCATED_STDDEV, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return normal(shape, 0.0, math.sqrt(variance), dtype, self.seed)
        limit = math.sqrt(3.0 * variance)
        return uniform(shape, -limit, limit, dtype, self.seed)


class GlorotUniform(VarianceScaling):
    """Uniform on ``[-limit, limit]``, ``limit = sqrt(6 / (fan_in + fan_out))`` (Glorot and Bengio, 2010).

    The default for Dense kernels: the variance ``2 / (fan_in + fan_out)``
    keeps signals the same size forwards and gradients the same size backwards.
    """

    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class HeNormal(VarianceScaling):
    """Truncated normal with standard deviation ``sqrt(2 / fan_in)`` (He et al., 2015), for ReLU layers.

    ReLU zeroes half of its inputs, halving the variance; the 2 makes up for it.
    """

    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class GlorotNormal(VarianceScaling):
    """Truncated normal with standard deviation ``sqrt(2 / (fan_in + fan_out))`` (Glorot and Bengio, 2010)."""

    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    """Uniform on ``[-limit, limit]``, ``limit = sqrt(6 / fan_in)`` (He et al., 2015): He's variance, uniformly."""

    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    """Truncated normal with standard deviation ``sqrt(1 / fan_in)`` (LeCun et al., 1998), for SELU networks."""

    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    """Uniform on ``[-limit, limit]``, ``limit = sqrt(3 / fan_in)`` (LeCun et al., 1998)."""

    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


_CLASSES = [Zeros, Ones, Constant, RandomNormal, RandomUniform, TruncatedNormal, Identity, Orthogonal,
            VarianceScaling, GlorotUniform, GlorotNormal, HeNormal, HeUniform, LecunNormal, LecunUniform]
# Keras's names: the class name in snake case ("glorot_normal"), and the class name itself ("GlorotNormal").
_BY_NAME = {**{_snake_case(c.__name__): c for c in _CLASSES}, **{c.__name__: c for c in _CLASSES}}


def get(identifier):
    """The initializer called ``identifier`` (``"glorot_uniform"``, ``"zeros"``, ...); an initializer or any
    function of ``(shape, dtype)`` is returned as it is.

    >>> type(get("he_normal")).__name__
    'HeNormal'
    """
    if callable(identifier):
        return identifier
    if identifier not in _BY_NAME:
        names = [name for name in _BY_NAME if name.islower()]
        raise ValueError(f"Could not interpret initializer identifier: {identifier!r}; minitape's Keras has "
                         f"{', '.join(names)} (or their class names), or pass an initializer")
    return _BY_NAME[identifier]()


__all__ = ["Initializer", *(c.__name__ for c in _CLASSES), "get"]
__getattr__ = missing_names("mt.keras.initializers", __all__)
