"""Max and average pooling over the 1, 2 or 3 spatial axes of channels-last tensors, with TensorFlow's
arguments (read as :mod:`.convolution` reads them).

Pooling is built from ops that exist: a max pool gathers the first largest
element of each window (so its gradient goes to that element, as
TensorFlow's does), an average pool is a convolution of each channel with a
window of ones, divided by how many input elements each window covers.
"""

import math

import numpy as np

from ..dtypes import FLOATING
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .convolution import (channels_last, conv, is_channels_first, output_sizes, pad_spatial, padding_pairs, per_axis,
                          sliding_windows)
from .indexing import gather
from .shapes import reshape, transpose
from .exports import exported


_MAX_POOL_DTYPES = FLOATING | {np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16)}


# -- pooling -----------------------------------------------------------------------------------------------------
def _pool(pool, op_name, input, ksize, strides, padding, data_format, d=None):
    """``pool`` (``_max_pool`` or ``_avg_pool``) of ``input``, its arguments checked; ``d`` spatial axes (None: as
    many as ``input`` has beyond batch and channels). Channels-first data is pooled channels-last: the channels
    moved to the end, and the output's back."""
    (x,) = convert_inputs(op_name, input)
    if d is None:
        d = x.array.ndim - 2
        if d not in (1, 2, 3):
            raise ValueError(f"{op_name}: input must have 3, 4 or 5 axes (batch, 1 to 3 spatial, channels), "
                             f"got shape {x.array.shape}")
    elif x.array.ndim != d + 2:
        raise ValueError(f"{op_name}: input must have {d + 2} axes (batch, {d} spatial, channels), got shape "
                         f"{x.array.shape}")
    if not is_channels_first(data_format, d, op_name):
        return pool(op_name, x, ksize, strides, padding, d)
    x = transpose(x, [0, *range(2, d + 2), 1])
    y = pool(op_name, x, channels_last(ksize, d), channels_last(strides, d), channels_last(padding, d), d)
    return transpose(y, [0, d + 1, *range(1, d + 1)])


def _pool_arguments(op_name, x, ksize, strides, padding, d, allowed, explicit):
    check_dtype(op_name, x, allowed)
    ksize, strides = per_axis(ksize, d, "ksize", op_name), per_axis(strides, d, "strides", op_name)
    sizes = x.array.shape[1:-1]
    pads = padding_pairs(padding, sizes, ksize, strides, op_name, explicit)
    output_sizes(sizes, ksize, strides, pads, op_name)
    return ksize, strides, pads


def _max_pool(op_name, x, ksize, strides, padding, d):
    """Each window's first largest element, gathered from ``input`` (so its gradient goes there alone).

    The windows are found in NumPy, on the values (padded with the lowest
    value of their dtype) and on their flat positions (padded with -1, a
    place no window may pick); "first" is in row-major order within the
    window, as TensorFlow picks among ties.
    """
    ksize, strides, pads = _pool_arguments(op_name, x, ksize, strides, padding, d, _MAX_POOL_DTYPES, explicit=True)
    values, ones = x.array, (1,) * d
    lowest = -np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).min
    padded = np.pad(values, [(0, 0), *pads, (0, 0)], constant_values=lowest)
    positions = np.pad(np.arange(values.size).reshape(values.shape), [(0, 0), *pads, (0, 0)], constant_values=-1)
    value_windows = sliding_windows(padded, ksize, strides, ones)
    position_windows = sliding_windows(positions, ksize, strides, ones)
    flat = (*value_windows.shape[:d + 2], math.prod(ksize))  # each window's taps in one row, in row-major order
    value_windows, position_windows = value_windows.reshape(flat), position_windows.reshape(flat)
    largest = np.max(value_windows, axis=-1, keepdims=True)
    # the first real element equal to the largest (a NaN, if the window holds one: np.max gives NaN then)
    first = np.argmax((position_windows >= 0) & ((value_windows == largest) | np.isnan(value_windows)), axis=-1)
    picked = np.take_along_axis(position_windows, first[..., None], -1)[..., 0]
    return gather(reshape(x, [-1]), picked)


def _avg_pool(op_name, x, ksize, strides, padding, d):
    """Each window's mean over the input elements it covers (padding is not counted, as in TensorFlow).

    The sums are a convolution of each channel on its own (channels moved
    into the batch) with a window of ones: linear, so every derivative is
    the convolution's.
    """
    ksize, strides, pads = _pool_arguments(op_name, x, ksize, strides, padding, d, FLOATING, explicit=False)
    n, *sizes, c = x.array.shape
    one_per_channel = reshape(transpose(x, [0, d + 1, *range(1, d + 1)]), [n * c, *sizes, 1])
    ones = Tensor(np.ones((*ksize, 1, 1), x.array.dtype))
    sums = conv(one_per_channel, ones, strides, (1,) * d, pads)
    outputs = sums.array.shape[1:-1]
    sums = transpose(reshape(sums, [n, c, *outputs]), [0, *range(2, d + 2), 1])
    counts = sliding_windows(pad_spatial(np.ones((1, *sizes, 1), x.array.dtype), pads), ksize, strides, (1,) * d)
    return sums / Tensor(counts.sum(axis=tuple(range(d + 2, 2 * d + 2))))


@exported("tf.nn")
def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """The largest element of each window (``ksize``), every ``strides``, over the 1, 2 or 3 spatial axes of
    ``input`` (channels last); ``padding`` is "VALID", "SAME" or explicit pairs, as for ``conv2d``.

    >>> max_pool([[[1.0], [3.0], [2.0], [0.0]]], ksize=2, strides=2, padding="VALID").numpy()[0, :, 0]
    array([3., 2.], dtype=float32)
    """
    return _pool(_max_pool, "max_pool", input, ksize, strides, padding, data_format)


@exported("tf.nn")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """:func:`max_pool` over the width of ``input`` (batch, width, channels).

    >>> max_pool1d([[[1.0], [3.0], [2.0]]], ksize=2, strides=1, padding="VALID").numpy()[0, :, 0]
    array([3., 3.], dtype=float32)
    """
    return _pool(_max_pool, "max_pool1d", input, ksize, strides, padding, data_format, d=1)


@exported("tf.nn")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """:func:`max_pool` over the height and width of ``input`` (batch, height, width, channels).

    Where a window holds its largest value twice, the gradient goes to the
    first one (row by row), as TensorFlow's does.

    >>> max_pool2d(np.ones((1, 3, 3, 1)), ksize=2, strides=2, padding="SAME").shape
    TensorShape([1, 2, 2, 1])
    """
    return _pool(_max_pool, "max_pool2d", input, ksize, strides, padding, data_format, d=2)


@exported("tf.nn")
def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """The mean of each window (``ksize``), every ``strides``, over the 1, 2 or 3 spatial axes of ``input``
    (channels last). With ``padding="SAME"``, a window at the border averages only the input it covers.

    >>> avg_pool([[[1.0], [3.0], [2.0]]], ksize=2, strides=2, padding="SAME").numpy()[0, :, 0]
    array([2., 2.], dtype=float32)
    """
    return _pool(_avg_pool, "avg_pool", input, ksize, strides, padding, data_format)


@exported("tf.nn")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """:func:`avg_pool` over the width of ``input`` (batch, width, channels).

    >>> avg_pool1d([[[1.0], [3.0], [2.0]]], ksize=2, strides=1, padding="VALID").numpy()[0, :, 0]
    array([2. , 2.5], dtype=float32)
    """
    return _pool(_avg_pool, "avg_pool1d", input, ksize, strides, padding, data_format, d=1)


@exported("tf.nn")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """:func:`avg_pool` over the height and width of ``input`` (batch, height, width, channels).

    >>> avg_pool2d(np.arange(4.0).reshape(1, 2, 2, 1), ksize=2, strides=2, padding="VALID").numpy().ravel()
    array([1.5])
    """
    return _pool(_avg_pool, "avg_pool2d", input, ksize, strides, padding, data_format, d=2)
