"""Shapes and pieces: ``view``/``reshape``, ``t``/``T``/``transpose``/``permute``, ``unsqueeze``/``squeeze``,
``cat``/``stack``/``unbind``, ``expand``, ``flatten``, indexing (``x[0]``, ``x[1:, None]``, ``x[[0, 2]]``,
``x[mask]``) and writing into a tensor (``x[0] = 5``).

In PyTorch most of these are views that share their base's memory. Here each is a copy (minitape's
values never change), so an in-place change of one is refused rather than lost: change the base,
or ``clone()`` the piece.

>>> import minitape.torch as torch
>>> x = torch.arange(6.0).view(2, 3)
>>> x[1], x[:, 1:], x.t().shape
(tensor([3., 4., 5.]), tensor([[1., 2.],
        [4., 5.]]), torch.Size([3, 2]))
"""

import numpy as np

from .. import ops
from ..tensor import Tensor as Value
from . import scalar_types
from .pointwise import cast
from .torch_tensor import Tensor, run


def _sizes(shape):
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else tuple(shape)


def reshape(input, *shape):
    return run("ViewBackward0", lambda v: ops.reshape(v, list(_sizes(shape))), [input], view=True)


view = reshape


def flatten(input, start_dim=0, end_dim=-1):
    shape = list(input.shape)
    if not shape:
        return reshape(input, 1)
    end = end_dim % len(shape)
    return reshape(input, *shape[:start_dim], -1, *shape[end + 1:])


def transpose(input, dim0, dim1):
    order = list(range(input.dim()))
    order[dim0], order[dim1] = order[dim1], order[dim0]
    return run("TransposeBackward0", lambda v: ops.transpose(v, order), [input], view=True)


def t(input):
    if input.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    return run("TBackward0", lambda v: ops.transpose(v), [input], view=True) if input.dim() == 2 else input


def permute(input, *dims):
    return run("PermuteBackward0", lambda v: ops.transpose(v, list(_sizes(dims))), [input], view=True)


def movedim(input, source, destination):
    order = list(np.moveaxis(np.arange(input.dim()), source, destination))
    return permute(input, *order)


def unsqueeze(input, dim):
    return run("UnsqueezeBackward0", lambda v: ops.expand_dims(v, dim), [input], view=True)


def squeeze(input, dim=None):
    if dim is not None and input.shape[dim] != 1:
        return input
    return run("SqueezeBackward0" if dim is None else "SqueezeBackward1",
               lambda v: ops.squeeze(v, None if dim is None else [dim]), [input], view=True)


def expand(input, *sizes):
    sizes = _sizes(sizes)
    shape = tuple(old if new == -1 else new for old, new in zip((1,) * (len(sizes) - input.dim()) + input.shape,
                                                                sizes))
    return run("ExpandBackward0", lambda v: ops.broadcast_to(v, shape), [input], view=True)


def _common(tensors):
    d = scalar_types.promote(*[x.dtype for x in tensors])
    return d


def cat(tensors, dim=0):
    d = _common(tensors)
    return run("CatBackward0", lambda *vs: ops.concat([cast(v, d) for v in vs], axis=dim), list(tensors))


concat = cat


def stack(tensors, dim=0):
    d = _common(tensors)
    return run("StackBackward0", lambda *vs: ops.stack([cast(v, d) for v in vs], axis=dim), list(tensors))


def unbind(input, dim=0):
    return tuple(select(input, dim, i) for i in range(input.shape[dim]))


def select(input, dim, index):
    key = (slice(None),) * (dim % input.dim()) + (index,)
    return run("SelectBackward0", lambda v: ops.getitem(v, key), [input], view=True)


def _numpy_key(key):
    key = key if isinstance(key, tuple) else (key,)
    return tuple(np.asarray(k.value.array) if isinstance(k, Tensor) else np.asarray(k) if isinstance(k, list) else k
                 for k in key)


def _basic_name(key):
    """PyTorch's node for basic indexing: that of the last index that does something."""
    name = "AliasBackward0"
    for k in key:
        if isinstance(k, (int, np.integer)):
            name = "SelectBackward0"
        elif k is None:
            name = "UnsqueezeBackward0"
        elif isinstance(k, slice) and k != slice(None):
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero")
            name = "SliceBackward0"
    return name


def getitem(input, key):
    key = _numpy_key(key)
    advanced = [k for k in key if isinstance(k, np.ndarray)]
    if not advanced:
        return run(_basic_name(key), lambda v: ops.getitem(v, key), [input], view=True)
    if len(key) == 1 and key[0].dtype.kind == "b":
        return run("IndexBackward0", lambda v: ops.boolean_mask(v, key[0]), [input])
    if len(key) == 1 and key[0].dtype.kind in "iu":
        index = np.where(key[0] < 0, key[0] + input.shape[0], key[0])
        return run("IndexBackward0", lambda v: ops.gather(v, index, axis=0), [input])
    raise NotImplementedError("minitape.torch indexes with one integer or boolean tensor (or list) alone, or with "
                              "ints, slices, None and ...; index in two steps, e.g. x[idx][:, 1:]")


def setitem(input, key, value):
    """``input[key] = value``, an in-place change (``CopySlices``): a scatter of ``value`` into ``input``."""
    positions = np.arange(input.numel()).reshape(input.shape)[_numpy_key(key)]
    others = [value] if isinstance(value, Tensor) else []

    def scattered(v, *new):
        update = new[0] if new else Value(np.asarray(value, v.array.dtype))
        update = ops.reshape(ops.broadcast_to(cast(update, input.dtype), positions.shape), [-1])
        flat = ops.tensor_scatter_nd_update(ops.reshape(v, [-1]), positions.reshape(-1, 1), update)
        return ops.reshape(flat, list(input.shape))
    input._assign("torch::autograd::CopySlices", scattered, others)


def clone(input):
    return run("CloneBackward0", lambda v: ops.identity(v), [input])
