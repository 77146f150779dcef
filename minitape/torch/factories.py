"""Making tensors: ``torch.tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``linspace``, ``eye``,
the ``*_like`` functions, and random ones.

Python floats make float32 tensors (the default dtype), Python ints int64, bools bool; a NumPy
array keeps its dtype. ``rand``/``randn`` draw from minitape's own generator (NumPy's PCG64,
seeded by ``manual_seed``): the same seed gives the same numbers run after run, but not the
numbers PyTorch's generator gives.

>>> tensor([1, 2]).dtype, tensor([1.0, 2]).dtype, tensor(np.zeros(2)).dtype
(torch.int64, torch.float32, torch.float64)
>>> arange(3), linspace(0, 1, 3)
(tensor([0, 1, 2]), tensor([0.0000, 0.5000, 1.0000]))
"""

import warnings

import numpy as np

from ..tensor import Tensor as Value
from . import scalar_types
from .torch_tensor import Tensor


def _plain(data):
    """``data`` with every tensor inside it replaced by its numbers."""
    if isinstance(data, Tensor):
        return np.asarray(data.value.array)
    if isinstance(data, (list, tuple)):
        return [_plain(d) for d in data]
    return data


def _inferred(data):
    """The dtype PyTorch gives to ``data``: a NumPy array's own, else from the kinds of its Python numbers."""
    if isinstance(data, np.ndarray | np.generic):
        return scalar_types.of(data.dtype)
    array = np.asarray(data)
    if array.dtype.kind == "b":
        return scalar_types.bool
    if array.dtype.kind in "iu":
        return scalar_types.int64
    if array.dtype.kind == "f":
        return scalar_types.get_default_dtype()
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


def _make(array, dtype, requires_grad):
    t = Tensor(Value(np.asarray(array, dtype=dtype.numpy)))
    if requires_grad:
        t.requires_grad_(True)
    return t


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data`` (a number, a nested list, a NumPy array or a tensor)."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
    data = _plain(data)
    if isinstance(data, list) and any(isinstance(d, np.ndarray) for d in data):
        data = np.stack([np.asarray(d) for d in data])
    return _make(np.array(data), dtype or _inferred(data), requires_grad)


def as_tensor(data, dtype=None, device=None):
    return data if isinstance(data, Tensor) and dtype in (None, data.dtype) else tensor(data, dtype=dtype)


from_numpy = as_tensor


def _shape(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else tuple(size)


def zeros(*size, dtype=None, requires_grad=False, device=None):
    return _make(np.zeros(_shape(size)), dtype or scalar_types.get_default_dtype(), requires_grad)


def ones(*size, dtype=None, requires_grad=False, device=None):
    return _make(np.ones(_shape(size)), dtype or scalar_types.get_default_dtype(), requires_grad)


def empty(*size, dtype=None, requires_grad=False, device=None):
    """Like ``zeros``: minitape gives zeros where PyTorch leaves the memory as it was."""
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False, device=None):
    return _make(np.full(tuple(size), fill_value), dtype or _inferred(fill_value), requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False, device=None):
    if end is None:
        start, end = 0, start
    return _make(np.arange(start, end, step), dtype or scalar_types.promote(start, end, step), requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False, device=None):
    return _make(np.linspace(start, end, steps), dtype or scalar_types.get_default_dtype(), requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False, device=None):
    return _make(np.eye(n, m), dtype or scalar_types.get_default_dtype(), requires_grad)


def _like(function):
    def like(input, dtype=None, requires_grad=False, device=None):
        return _make(function(np.shape(input.value.array)), dtype or input.dtype, requires_grad)
    like.__name__ = function.__name__ + "_like"
    like.__doc__ = f"``{function.__name__}`` of the shape of ``input``, of its dtype unless ``dtype`` is given."
    return like


zeros_like, ones_like, empty_like = _like(np.zeros), _like(np.ones), _like(np.zeros)


def full_like(input, fill_value, dtype=None, requires_grad=False, device=None):
    return _make(np.full(np.shape(input.value.array), fill_value), dtype or input.dtype, requires_grad)


# -- random numbers: minitape's own generator --------------------------------------------------
_generator = [np.random.default_rng(0)]


def manual_seed(seed):
    """Seed minitape's generator (NumPy's PCG64): its numbers repeat, but differ from PyTorch's."""
    _generator[0] = np.random.default_rng(seed)


seed = manual_seed


def rand(*size, dtype=None, requires_grad=False, device=None):
    """Uniform on [0, 1), from minitape's generator (see :func:`manual_seed`)."""
    return _make(_generator[0].random(_shape(size)), dtype or scalar_types.get_default_dtype(), requires_grad)


def randn(*size, dtype=None, requires_grad=False, device=None):
    """Standard normal, from minitape's generator (see :func:`manual_seed`)."""
    return _make(_generator[0].standard_normal(_shape(size)), dtype or scalar_types.get_default_dtype(), requires_grad)


def randint(low, high=None, size=(), dtype=None, device=None):
    if high is None:
        low, high = 0, low
    return _make(_generator[0].integers(low, high, tuple(size)), dtype or scalar_types.int64, False)


def rand_like(input, dtype=None, requires_grad=False, device=None):
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, dtype=None, requires_grad=False, device=None):
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def normal_(t, mean=0.0, std=1.0):
    """Fill ``t`` in place with normal numbers (``Tensor.normal_``)."""
    draw = _generator[0].normal(mean, std, np.shape(t.value.array))
    return t._assign("NormalBackward1", lambda v: Value(draw.astype(v.array.dtype)))


def uniform_(t, a=0.0, b=1.0):
    draw = _generator[0].uniform(a, b, np.shape(t.value.array))
    return t._assign("UniformBackward0", lambda v: Value(draw.astype(v.array.dtype)))

