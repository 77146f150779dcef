"""Boxes of a tensor: slice (the box itself), pad (its transpose: the tensor inside a bigger box) and split
(the tensor cut into boxes, one slice per piece).

Each is linear (pad with a constant other than 0 is affine): slice's transpose pads ``g`` with zeros back to
the input's shape, and pad's is a slice. A ``REFLECT`` or ``SYMMETRIC`` pad is a gather along each axis (of an
index map such as 2 1 0 1 2 1 0), so its gradient is gather's.

>>> [piece.numpy().tolist() for piece in split([1.0, 2.0, 3.0, 4.0], [1, -1])]
[[1.0], [2.0, 3.0, 4.0]]
"""

import builtins

import numpy as np

from ..primitive import Primitive, apply
from ..tensor import Tensor, convert_to_tensor
from .indexing import gather, integer_array, one_integer, one_tensor
from .axes import one_axis
from .exports import exported


# -- slice and its transpose, pad with a constant -------------------------------------------------
def _box(begin, size):
    return tuple(builtins.slice(b, b + s) for b, s in zip(begin, size))


def _padded(x, paddings, constant_values):
    if not paddings:  # a scalar has nothing to pad (and NumPy refuses an empty list of widths)
        return np.array(x)
    return np.pad(x, paddings, constant_values=constant_values)


_slice = Primitive(
    "slice", lambda x, begin, size, shape: x[_box(begin, size)], keeps="nothing", jvp="linear",
    vjp=[lambda g, ans, x, begin, size, shape: apply(_pad, (g,), {
        "paddings": tuple((b, n - b - s) for b, s, n in zip(begin, size, shape)), "constant_values": 0})])
# pad(x, c) is affine, not linear, when c is not 0: its tangent is pad(t, 0).
_pad = Primitive(
    "pad", _padded, keeps="nothing",
    vjp=[lambda g, ans, x, paddings, constant_values: apply(_slice, (g,), {
        "begin": tuple(lo for lo, _ in paddings),
        "size": tuple(n - lo - hi for n, (lo, hi) in zip(g.array.shape, paddings)), "shape": g.array.shape})],
    jvp=[lambda t, ans, x, paddings, constant_values: apply(_pad, (t,), {"paddings": paddings,
                                                                         "constant_values": 0})])


def _sliced(x, begin, size):
    return apply(_slice, (x,), {"begin": tuple(begin), "size": tuple(size), "shape": x.array.shape})


@exported("tf")
def slice(input_, begin, size, name=None):  # noqa: A001  (TensorFlow's name)
    """The box of ``input_`` that starts at ``begin`` and has shape ``size`` (-1: up to the end).

    >>> slice([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [0, 1], [2, -1]).numpy()
    array([[2., 3.],
           [5., 6.]], dtype=float32)
    """
    x = one_tensor("slice", input_)
    shape = x.array.shape
    begin = integer_array("slice", "begin", begin, ("int32", "int64"))
    size = integer_array("slice", "size", size, ("int32", "int64"))
    if begin.shape != (len(shape),) or size.shape != (len(shape),):
        raise ValueError(f"slice: begin and size need one entry per dimension of the input (shape {shape}), got "
                         f"{begin.tolist()} and {size.tolist()}")
    begin, size = begin.tolist(), size.tolist()
    for i, (b, s, n) in enumerate(zip(begin, size, shape)):
        if not 0 <= b <= n:
            raise ValueError(f"slice: begin[{i}] = {b} is not in [0, {n}], the range of dimension {i} (shape {shape})")
        size[i] = n - b if s == -1 else s
        if not 0 <= size[i] <= n - b:
            raise ValueError(f"slice: size[{i}] = {s} is not in [0, {n - b}]: dimension {i} has {n} elements and the "
                             f"box starts at {b}; use -1 to take everything up to the end")
    return _sliced(x, begin, size)


@exported("tf")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Cut ``value`` along ``axis`` into pieces: ``n`` equal ones, or one per entry of a list of sizes.

    One size may be -1: whatever is left. Returns a list of tensors; each
    piece is a :func:`slice`, so the gradient of a piece goes back to its place.

    >>> [piece.numpy().tolist() for piece in split([[1.0, 2.0, 3.0, 4.0]], 2, axis=1)]
    [[[1.0, 2.0]], [[3.0, 4.0]]]
    """
    x = one_tensor("split", value)
    shape = x.array.shape
    if not shape:
        raise ValueError("split: cannot split a scalar; the value needs at least one dimension")
    axis = one_axis(axis, len(shape), "split")
    n = shape[axis]
    scalar = np.asarray(num_or_size_splits.array if isinstance(num_or_size_splits, Tensor) else num_or_size_splits)
    if scalar.ndim == 0:
        if scalar.dtype.kind not in "iu":
            raise ValueError(f"split: num_or_size_splits must be an integer (the number of pieces) or a list of "
                             f"sizes, got {num_or_size_splits!r}")
        pieces = int(scalar)
        if pieces < 1:
            raise ValueError(f"split: num_or_size_splits={pieces}: there must be at least one piece")
        if n % pieces:
            raise ValueError(f"split: {n} elements along axis {axis} cannot be cut into {pieces} equal pieces; give "
                             f"the sizes instead, e.g. num_or_size_splits={_example_sizes(n, pieces)}")
        sizes = [n // pieces] * pieces
    else:
        sizes = _split_sizes(num_or_size_splits, n, axis)
    if num is not None and one_integer("split", "num", num) != len(sizes):
        raise ValueError(f"split: num={num} but num_or_size_splits gives {len(sizes)} pieces")
    begin, pieces = [0] * len(shape), []
    for s in sizes:
        size = list(shape)
        size[axis] = s
        pieces.append(_sliced(x, begin, size))
        begin = list(begin)
        begin[axis] += s
    return pieces


def _example_sizes(n, pieces):
    """Sizes for ``pieces`` pieces of ``n`` elements, as even as can be: 6 in 4 gives [2, 2, 1, 1]."""
    return [n // pieces + (1 if i < n % pieces else 0) for i in range(pieces)]


def _split_sizes(sizes, n, axis):
    if not isinstance(sizes, Tensor) and np.size(sizes) == 0:
        raise ValueError("split: num_or_size_splits is empty; give the number of pieces or at least one size")
    sizes = integer_array("split", "the sizes", sizes, ("int8", "int32", "int64"))
    if sizes.ndim != 1 or sizes.size == 0:
        raise ValueError(f"split: num_or_size_splits must be an integer or a non-empty list of sizes, got "
                         f"{sizes.tolist()}")
    sizes = sizes.tolist()
    if sizes.count(-1) > 1:
        raise ValueError(f"split: sizes {sizes} have more than one -1; only one piece can take what is left")
    for i, s in enumerate(sizes):
        if s < -1:
            raise ValueError(f"split: size {s} (entry {i} of {sizes}) is negative; sizes are at least 0, or -1 for "
                             f"what is left")
    known = sum(s for s in sizes if s != -1)
    if -1 in sizes and known <= n:
        sizes[sizes.index(-1)] = n - known
    if sum(sizes) != n or -1 in sizes:
        raise ValueError(f"split: sizes {sizes} add up to {known}, but axis {axis} has {n} elements; make them add "
                         f"up to {n}, or let one size be -1")
    return sizes


_MIRROR_MODES = {"REFLECT": ("reflect", 1), "SYMMETRIC": ("symmetric", 0)}  # NumPy's name, and how much a pad
# must leave of the dimension: a reflection does not repeat the edge, so it can reach at most n - 1 elements away


@exported("tf")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tensor`` with ``paddings[i] = [before, after]`` elements added on each side of dimension ``i``.

    ``mode`` (any case): ``"CONSTANT"`` fills with ``constant_values``;
    ``"REFLECT"`` mirrors the tensor without repeating its edge (3 2 | 1 2 3 |
    2 1); ``"SYMMETRIC"`` mirrors it with its edge (2 1 | 1 2 3 | 3 2). As in
    TensorFlow, ``constant_values`` gets no gradient.

    >>> pad([1.0, 2.0, 3.0], [[2, 1]], mode="REFLECT").numpy()
    array([3., 2., 1., 2., 3., 2.], dtype=float32)
    """
    x = one_tensor("pad", tensor)
    shape = x.array.shape
    upper = str(mode).upper()
    if upper not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f'pad: mode must be "CONSTANT", "REFLECT" or "SYMMETRIC", got {mode!r}')
    widths = integer_array("pad", "paddings", paddings, ("int32", "int64"))
    if widths.shape != (len(shape), 2):
        raise ValueError(f"pad: paddings must have one pair [before, after] per dimension of the tensor (shape "
                         f"{shape}), got {widths.tolist()}")
    if (widths < 0).any():
        raise ValueError(f"pad: paddings must not be negative, got {widths.tolist()}")
    widths = tuple((int(lo), int(hi)) for lo, hi in widths)
    if upper == "CONSTANT":
        return apply(_pad, (x,), {"paddings": widths, "constant_values": _pad_value(x, constant_values)})
    numpy_mode, keep = _MIRROR_MODES[upper]
    out = x
    for axis, (n, (lo, hi)) in enumerate(zip(shape, widths)):
        if max(lo, hi) > n - keep:
            raise ValueError(f"pad: a {upper} pad of dimension {axis} can be at most {n - keep} (its size is {n}"
                             f"{', less 1' if keep else ''}), got {[lo, hi]}")
        if lo or hi:
            out = gather(out, np.pad(np.arange(n), (lo, hi), mode=numpy_mode), axis=axis)
    return out


def _pad_value(x, constant_values):
    value = convert_to_tensor(constant_values, dtype_hint=x.dtype)
    if value.dtype != x.dtype:
        raise TypeError(f"pad: constant_values has dtype {value.dtype.name} but the tensor {x.dtype.name}; convert "
                        f"it: mt.cast(constant_values, mt.{x.dtype.name})")
    if value.array.ndim != 0:
        raise ValueError(f"pad: constant_values must be a scalar, got shape {value.array.shape}")
    return value.array[()]
