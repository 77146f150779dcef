"""``mt.nn``: TensorFlow's ``tf.nn``, the ops whose declarations list ``"tf.nn"`` (``minitape/ops/exports.py``), and
``dropout``, which draws its mask from ``mt.random``.
"""

import numbers

from ..ops import where
from ..ops.arguments import convert_inputs
from ..ops.exports import names
from ..tensor import Tensor
from ..variable import Variable
from .random import uniform

globals().update(names("tf.nn"))


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


__all__ = [*names("tf.nn"), "dropout"]
