"""``mt.random``: random tensors from one seeded NumPy generator.

>>> import minitape as mt
>>> mt.random.set_seed(0)
>>> a = mt.random.normal((2,)).numpy()
>>> mt.random.set_seed(0)
>>> (a == mt.random.normal((2,)).numpy()).all()
np.True_
"""

import numpy as np

from ..dtypes import as_dtype
from ..tensor import Tensor

_generator = np.random.default_rng()


def set_seed(seed):
    """Restart the global generator from ``seed``: what follows is reproducible."""
    global _generator
    _generator = np.random.default_rng(seed)


def _rng(seed):
    # An op-level seed gives its own generator: the same numbers at every call.
    return _generator if seed is None else np.random.default_rng(seed)


def normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None):
    """Samples from the normal distribution N(mean, stddev²)."""
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"random.normal: dtype must be floating, got {dtype.name}")
    return Tensor(_rng(seed).normal(mean, stddev, size=tuple(shape)).astype(dtype.as_numpy_dtype))


def uniform(shape, minval=0, maxval=None, dtype="float32", seed=None):
    """Samples spread evenly over [minval, maxval); maxval defaults to 1 for floats."""
    dtype = as_dtype(dtype)
    if maxval is None:
        if not dtype.is_floating:
            raise ValueError(f"random.uniform: give maxval for the integer dtype {dtype.name}")
        maxval = 1
    if dtype.is_integer:
        values = _rng(seed).integers(minval, maxval, size=tuple(shape))
    else:
        values = _rng(seed).uniform(minval, maxval, size=tuple(shape))
    return Tensor(values.astype(dtype.as_numpy_dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype="float32", seed=None):
    """Samples from N(mean, stddev²) that lie within two standard deviations of the mean.

    A sample further out is drawn again (it is not clipped), so the values
    follow the normal curve cut at ±2 stddev, as TensorFlow's do.

    >>> bool(abs(truncated_normal((1000,), seed=0)).numpy().max() <= 2.0)
    True
    """
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"random.truncated_normal: dtype must be floating, got {dtype.name}")
    generator = _rng(seed)
    values = generator.standard_normal(size=tuple(shape))
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = generator.standard_normal(size=int(outside.sum()))
        outside = np.abs(values) > 2.0
    return Tensor((mean + stddev * values).astype(dtype.as_numpy_dtype))
