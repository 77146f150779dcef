"""``jax.random``: keys passed explicitly, split rather than reused, as in JAX; minitape's own numbers.

A key is a uint32 array of shape (2,), as JAX's ``PRNGKey`` (``PRNGKey(0)`` is ``[0, 0]`` in both). The numbers
drawn from a key are NumPy's (a ``Generator`` seeded by the key), not JAX's Threefry: the same key gives the same
numbers every time, but not the numbers JAX gives.

>>> key = PRNGKey(0)
>>> key
Array([0, 0], dtype=uint32)
>>> a, b = split(key)
>>> bool((normal(a, (3,)) == normal(a, (3,))).all()), bool((normal(a, (3,)) == normal(b, (3,))).any())
(True, False)
"""

import numpy as np

from .arrays import Array, canonical, default_float


def PRNGKey(seed):
    """The key of an integer seed."""
    seed = int(seed)
    return Array(np.array([(seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF], dtype=np.uint32))


key = PRNGKey


def _generator(key):
    words = np.asarray(key, dtype=np.uint32)
    if words.shape != (2,):
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); got "
                        f"shape={words.shape}")
    return np.random.default_rng([int(w) for w in words])


def split(key, num=2):
    """``num`` new keys from ``key`` (an array of shape (num, 2)); ``key`` itself should not be used again."""
    return Array(_generator(key).integers(0, 2 ** 32, size=(num, 2), dtype=np.uint32))


def fold_in(key, data):
    return Array(np.random.default_rng([int(w) for w in np.asarray(key)] + [int(data)])
                 .integers(0, 2 ** 32, size=2, dtype=np.uint32))


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def normal(key, shape=(), dtype=None):
    """Standard normal numbers of ``shape``."""
    dtype = canonical(dtype if dtype is not None else default_float())
    return Array(_generator(key).standard_normal(_shape(shape)).astype(dtype))


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Uniform numbers in ``[minval, maxval)`` of ``shape``."""
    dtype = canonical(dtype if dtype is not None else default_float())
    return Array(_generator(key).uniform(minval, maxval, _shape(shape)).astype(dtype))


def randint(key, shape, minval, maxval, dtype=None):
    dtype = canonical(dtype if dtype is not None else np.int64)
    return Array(_generator(key).integers(minval, maxval, _shape(shape)).astype(dtype))


def permutation(key, x):
    if isinstance(x, int):
        return Array(_generator(key).permutation(x).astype(canonical(np.int64)))
    return Array(_generator(key).permutation(np.asarray(x)))
