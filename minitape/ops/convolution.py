"""Convolutions over the spatial axes of channels-last tensors: ``(batch, width, channels)`` for 1-D,
``(batch, height, width, channels)`` for 2-D. Channels-first data (``data_format="NCHW"``) is transposed to
channels-last, computed, and transposed back.

A convolution (in deep learning, a cross-correlation: the filters are not
flipped) slides its filters over the zero-padded input. In 2-D, with stride
``s`` and dilation ``r``::

    output[n, i, j, o] = sum over a, b, c of  input[n, i*s + a*r, j*s + b*r, c] * filters[a, b, c, o]

NumPy's ``sliding_window_view`` gives every window of the input as a view
(nothing is copied); a stride is a step between windows and a dilation a
step inside one; one ``tensordot`` then contracts each window with the
filters. The same code serves any number of spatial axes, so ``conv1d`` and
``conv2d`` are one primitive.

The output is bilinear in input and filters, and so are both gradients:

* the input's gradient spreads each output gradient back over the window it
  came from: a *transposed* convolution (``conv2d_transpose``), computed as a
  convolution of the stride-spread gradient with the flipped filters;
* the filters' gradient correlates the input with the output gradient.

These three ops (``conv``, ``conv_transpose``, ``conv_filter_gradient``)
are each other's derivatives, which is why every order of derivative works.

The windows and TensorFlow's arguments (strides, dilations, padding, data
formats) are read here for pooling too (:mod:`.pooling`).
"""


import numpy as np

from ..dtypes import FLOATING
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .shapes import concat, reshape, transpose
from .exports import exported

_CONV_DTYPES = FLOATING | {np.dtype(np.int32)}  # TensorFlow's Conv2D kernel's list


# -- the NumPy forwards -----------------------------------------------------------------------------------------
def sliding_windows(x, taps, steps, dilations):
    """Every window of ``x`` (batch, spatial..., channels) as a view: ``taps`` elements ``dilations`` apart along
    each spatial axis, a window every ``steps``. Shape: (batch, window positions..., channels, taps...).

    >>> sliding_windows(np.arange(5).reshape(1, 5, 1), taps=[2], steps=[2], dilations=[1])[0, :, 0]
    array([[0, 1],
           [2, 3]])
    """
    spatial = tuple(range(1, len(taps) + 1))
    spans = [(k - 1) * r + 1 for k, r in zip(taps, dilations)]
    counts = [max((n - k) // s + 1, 0) for n, k, s in zip(x.shape[1:-1], spans, steps)]
    if 0 in counts:  # a window longer than the input: none fits
        return np.zeros((x.shape[0], *counts, x.shape[-1], *taps), x.dtype)
    view = np.lib.stride_tricks.sliding_window_view(x, spans, axis=spatial)
    every = [slice(None, None, s) for s in steps]
    inside = [slice(None, None, r) for r in dilations]
    return view[(slice(None), *every, slice(None), *inside)]


def pad_spatial(x, pads):
    """``x`` with zeros before and after each spatial axis, ``pads`` being one (before, after) pair per axis."""
    return np.pad(x, [(0, 0), *pads, (0, 0)])


def _correlate(x, w, strides, dilations, pads):
    d = w.ndim - 2
    windows = sliding_windows(pad_spatial(x, pads), w.shape[:d], strides, dilations)
    # contract each window's (channels, taps...) with the filters' (taps..., channels): (batch, positions..., out)
    return np.tensordot(windows, w, axes=(list(range(d + 1, 2 * d + 2)), [d, *range(d)]))


def _correlate_transposed(g, w, strides, dilations, pads, sizes):
    """The input gradient of ``_correlate``: each output gradient, times the filters, back where its window was.

    Along one axis, output i read padded input i*s + a*r for each tap a. So
    the padded input's gradient at p collects g[i] w[a] wherever p = i*s + a*r:
    put g's values s apart (zeros between), pad with (k-1)*r zeros in front,
    and correlate with the filters flipped along every spatial axis (and with
    in and out channels swapped), at stride 1; then drop the padding's places.
    """
    d = w.ndim - 2
    if g.size == 0:  # no output (or no example): nothing comes back
        return np.zeros((g.shape[0], *sizes, w.shape[-2]), g.dtype)
    spread = np.zeros((g.shape[0], *[(n - 1) * s + 1 for n, s in zip(g.shape[1:-1], strides)], g.shape[-1]), g.dtype)
    spread[(slice(None), *[slice(None, None, s) for s in strides])] = g
    padded = [n + before + after for n, (before, after) in zip(sizes, pads)]
    edges = [((k - 1) * r, p - n) for k, r, p, n in zip(w.shape[:d], dilations, padded, spread.shape[1:-1])]
    flipped = np.swapaxes(w[(slice(None, None, -1),) * d], -1, -2)
    full = _correlate(spread, flipped, (1,) * d, dilations, edges)
    return full[(slice(None), *[slice(before, before + n) for n, (before, _) in zip(sizes, pads)])]


def _correlate_for_filters(x, g, strides, dilations, pads, taps):
    """The filters' gradient: for tap a, the sum over batch and output positions i of input[i*s + a*r] * g[i].

    That is a correlation of the input with the output gradient, whose roles
    of stride and dilation are swapped: windows of g's size whose elements
    are s apart, one window every r (the first ``taps`` of them).
    """
    d = g.ndim - 2
    if g.size == 0:
        return np.zeros((*taps, x.shape[-1], g.shape[-1]), g.dtype)
    windows = sliding_windows(pad_spatial(x, pads), g.shape[1:-1], dilations, strides)
    windows = windows[(slice(None), *[slice(k) for k in taps])]
    return np.tensordot(windows, g, axes=([0, *range(d + 2, 2 * d + 2)], list(range(d + 1))))


# -- the three primitives, each other's derivatives --------------------------------------------------------------
def conv(x, w, strides, dilations, pads):
    return apply(conv_prim, (x, w), {"strides": strides, "dilations": dilations, "pads": pads})


def _conv_transpose(g, w, strides, dilations, pads, sizes):
    attrs = {"strides": strides, "dilations": dilations, "pads": pads, "sizes": sizes}
    return apply(conv_transpose_prim, (g, w), attrs)


def _conv_filter_gradient(x, g, strides, dilations, pads, taps):
    attrs = {"strides": strides, "dilations": dilations, "pads": pads, "taps": taps}
    return apply(conv_filter_gradient_prim, (x, g), attrs)


def _spatial(x):
    return x.array.shape[1:-1]


def _taps(w):
    return w.array.shape[:-2]


# y = conv(x, w) is linear in x and in w: its VJPs are the adjoints of those two linear maps (conv_transpose in x,
# conv_filter_gradient in w), and its JVP is conv of one tangent with the other, fixed, input.
conv_prim = Primitive(
    "conv", _correlate,
    vjp=[lambda g, y, x, w, **a: _conv_transpose(g, w, **a, sizes=_spatial(x)),
         lambda g, y, x, w, **a: _conv_filter_gradient(x, g, **a, taps=_taps(w))],
    jvp=[lambda t, y, x, w, **a: conv(t, w, **a),
         lambda t, y, x, w, **a: conv(x, t, **a)])

# dx = conv_transpose(g, w) is the adjoint of x -> conv(x, w): for a gradient h of dx, <h, dx> = <conv(h, w), g>,
# so g's gradient is conv(h, w) and w's is the filter gradient of conv at input h and output gradient g.
conv_transpose_prim = Primitive(
    "conv_transpose", _correlate_transposed,
    vjp=[lambda h, dx, g, w, sizes, **a: conv(h, w, **a),
         lambda h, dx, g, w, sizes, **a: _conv_filter_gradient(h, g, **a, taps=_taps(w))],
    jvp=[lambda t, dx, g, w, **a: _conv_transpose(t, w, **a),
         lambda t, dx, g, w, **a: _conv_transpose(g, t, **a)])

# dw = conv_filter_gradient(x, g) is the adjoint of w -> conv(x, w): for a gradient k of dw,
# <k, dw> = <conv(x, k), g>, so x's gradient is conv_transpose(g, k) and g's is conv(x, k).
conv_filter_gradient_prim = Primitive(
    "conv_filter_gradient", _correlate_for_filters,
    vjp=[lambda k, dw, x, g, taps, **a: _conv_transpose(g, k, **a, sizes=_spatial(x)),
         lambda k, dw, x, g, taps, **a: conv(x, k, **a)],
    jvp=[lambda t, dw, x, g, **a: _conv_filter_gradient(t, g, **a),
         lambda t, dw, x, g, **a: _conv_filter_gradient(x, t, **a)])


# -- TensorFlow's arguments: strides, dilations, window sizes and padding ----------------------------------------
def per_axis(value, d, what, op_name, default=1):
    """``value`` (an int, or a list of 1, d or d + 2 ints, as TensorFlow takes them) as d ints, one per spatial axis.

    >>> per_axis([1, 2, 3, 1], 2, "strides", "conv2d")
    (2, 3)
    """
    if value is None:
        return (default,) * d
    values = [int(v) for v in np.ravel(value.numpy() if isinstance(value, Tensor) else value)]
    if len(values) == 1:
        values = values * d
    elif len(values) == d + 2:
        if values[0] != 1 or values[-1] != 1:
            raise ValueError(f"{op_name}: {what} along the batch and channel axes must be 1, got {values}; give one "
                             f"value per spatial axis instead, e.g. {values[1:-1]}")
        values = values[1:-1]
    elif len(values) != d:
        raise ValueError(f"{what} should be of length 1, {d} or {d + 2}. Received: {what}={values} of length "
                         f"{len(values)}")
    if min(values) < 1:
        raise ValueError(f"{op_name}: {what} must be positive, got {values}")
    return tuple(values)


def padding_pairs(padding, sizes, spans, strides, op_name, explicit=False):
    """The zeros before and after each spatial axis, one pair per axis, for TensorFlow's ``padding``.

    "VALID" adds none; "SAME" adds just enough for ceil(size / stride)
    outputs, half before and the rest (one more, if odd) after, as
    TensorFlow splits it. Where ``explicit``, a list of (before, after)
    pairs, one per axis including batch and channels (these must be 0).

    >>> padding_pairs("SAME", sizes=[5], spans=[4], strides=[1], op_name="conv1d")
    ((1, 2),)
    """
    if isinstance(padding, str):
        if padding == "VALID":
            return tuple((0, 0) for _ in sizes)
        if padding == "SAME":
            totals = [max((-(-n // s) - 1) * s + k - n, 0) for n, k, s in zip(sizes, spans, strides)]
            return tuple((t // 2, t - t // 2) for t in totals)
        raise ValueError(f"{op_name}: padding must be 'SAME' or 'VALID' (in capitals), got {padding!r}")
    if not explicit:
        raise TypeError(f"{op_name}: padding must be the string 'SAME' or 'VALID', got {padding!r}")
    pairs = [tuple(int(p) for p in pair) for pair in padding]
    if len(pairs) != len(sizes) + 2:
        raise ValueError(f"When padding is a list, it must be of size {len(sizes) + 2}. Received: "
                         f"padding={padding} of size {len(pairs)}")
    if pairs[0] != (0, 0) or pairs[-1] != (0, 0) or any(p < 0 for pair in pairs for p in pair):
        raise ValueError(f"{op_name}: explicit padding must be [0, 0] for the batch and channel axes and not "
                         f"negative, got {padding}")
    return tuple(pairs[1:-1])


def is_channels_first(data_format, d, op_name, allowed=True):
    """Whether ``data_format`` puts the channels first (``NCHW``) rather than last (``NHWC``, the default)."""
    last, first = "N" + "DHW"[3 - d:] + "C", "NC" + "DHW"[3 - d:]
    if data_format is None or data_format == last:
        return False
    if data_format == first and allowed:
        return True
    expected = (f"{last!r} or {first!r}" if allowed else
                f"{last!r} (move the channels last first, e.g. mt.transpose(x, [0, 2, 3, 1]) for NCHW)")
    raise ValueError(f"{op_name}: data_format must be {expected}, got {data_format!r}")


def channels_last(values, d):
    """A list of d + 2 values (strides, dilations, paddings) given for channels-first data, reordered for
    channels-last; anything else as it is."""
    if isinstance(values, (list, tuple)) and len(values) == d + 2:
        return [values[0], *values[2:], values[1]]
    return values


def output_sizes(sizes, spans, strides, pads, op_name):
    """How many windows fit along each axis, counted as TensorFlow counts them: (room + stride) / stride, rounded
    toward zero, where the room is what the padded input has beyond one window. So a window a little longer than
    the input gives no output (an empty tensor), and one at least two strides longer is an error."""
    rooms = [n + before + after - k for n, k, (before, after) in zip(sizes, spans, pads)]
    outputs = [int((room + s) / s) for room, s in zip(rooms, strides)]
    if min(outputs, default=0) < 0:
        raise ValueError(f"{op_name}: a window spans {list(spans)} elements but the padded input has only "
                         f"{[n + a + b for n, (a, b) in zip(sizes, pads)]}; use padding='SAME' or a smaller window")
    return outputs


# -- convolutions ------------------------------------------------------------------------------------------------
def _convolve(op_name, input, filters, strides, padding, dilations, d, channels_first=False, explicit=False):
    x, w = convert_inputs(op_name, input, filters)
    check_dtype(op_name, x, _CONV_DTYPES)
    if w.array.ndim != d + 2 or x.array.ndim < d + 2:
        raise ValueError(f"{op_name}: input must have at least {d + 2} axes (batch, {d} spatial, channels) and "
                         f"filters exactly {d + 2} ({d} spatial, in channels, out channels); got shapes "
                         f"{x.array.shape} and {w.array.shape}")
    if channels_first:  # computed channels-last: the channels moved to the end, and the output's back
        c = x.array.ndim - d - 1
        x = transpose(x, [*range(c), *range(c + 1, c + d + 1), c])
        y = _convolve(op_name, x, w, channels_last(strides, d), channels_last(padding, d),
                      channels_last(dilations, d), d, explicit=explicit)
        return transpose(y, [*range(c), c + d, *range(c, c + d)])
    groups, remainder = divmod(x.array.shape[-1], w.array.shape[-2])
    if remainder or groups == 0 or w.array.shape[-1] % groups:
        raise ValueError(f"{op_name}: the input has {x.array.shape[-1]} channels but the filters take "
                         f"{w.array.shape[-2]} (their second-to-last axis): they must be equal, or divide them "
                         f"into groups that also divide the filters' {w.array.shape[-1]} outputs")
    strides = per_axis(strides, d, "strides", op_name)
    dilations = per_axis(dilations, d, "dilations", op_name)
    batch, sizes = x.array.shape[:-d - 1], x.array.shape[-d - 1:-1]
    spans = [(k - 1) * r + 1 for k, r in zip(_taps(w), dilations)]
    pads = padding_pairs(padding, sizes, spans, strides, op_name, explicit)
    outputs = output_sizes(sizes, spans, strides, pads, op_name)
    if len(batch) != 1:  # TensorFlow reads every axis before the spatial ones as the batch
        x = reshape(x, [-1, *x.array.shape[-d - 1:]])
    if groups == 1:
        y = conv(x, w, strides, dilations, pads)
    else:  # a grouped convolution: each group of input channels has its own filters, and its share of the outputs
        ins, outs = w.array.shape[-2], w.array.shape[-1] // groups
        y = concat([conv(x[..., g * ins:(g + 1) * ins], w[..., g * outs:(g + 1) * outs], strides, dilations, pads)
                    for g in range(groups)], axis=-1)
    return y if len(batch) == 1 else reshape(y, [*batch, *outputs, w.array.shape[-1]])


@exported("tf.nn")
def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None, name=None):
    """The convolution of ``input`` with ``filters`` over 1, 2 or 3 spatial axes, as many as ``filters`` has
    beyond its two channel axes (see :func:`conv2d`).

    >>> convolution([[[1.0], [2.0], [3.0]]], [[[1.0]], [[10.0]]]).numpy()[0, :, 0]
    array([21., 32.], dtype=float32)
    """
    x, w = convert_inputs("convolution", input, filters)
    d = w.array.ndim - 2
    if d not in (1, 2, 3):
        raise ValueError(f"convolution: filters must have 3, 4 or 5 axes (1 to 3 spatial, in and out channels), "
                         f"got {d + 2}")
    channels_first = is_channels_first(data_format, d, "convolution")
    return _convolve("convolution", x, w, strides, padding, dilations, d, channels_first)


@exported("tf.nn")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """The 1-D convolution of ``input`` (batch, width, in channels) with ``filters`` (width, in, out).

    ``stride`` and ``dilations`` are ints (or lists of 1 or 3, as TensorFlow
    takes them), ``padding`` is "VALID" or "SAME"; see :func:`conv2d`.

    >>> conv1d([[[1.0], [2.0], [3.0]]], [[[1.0]], [[10.0]]], stride=1, padding="SAME").numpy()[0, :, 0]
    array([21., 32.,  3.], dtype=float32)
    """
    channels_first = is_channels_first(data_format, 1, "conv1d")
    return _convolve("conv1d", input, filters, stride, padding, dilations, 1, channels_first)


@exported("tf.nn")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """The 2-D convolution of ``input`` (batch, height, width, in channels) with ``filters`` (height, width, in,
    out): ``output[n, i, j, o] = sum over a, b, c of padded[n, i*s + a*r, j*s + b*r, c] * filters[a, b, c, o]``.

    ``strides`` ``s`` and ``dilations`` ``r`` are an int or a list of 1, 2
    or 4 ints. ``padding="VALID"`` uses only whole windows; ``"SAME"`` pads
    with zeros so that there are ceil(size / stride) outputs along each axis,
    half the zeros before and the rest after (TensorFlow's split); or give
    explicit pairs ``[[0, 0], [top, bottom], [left, right], [0, 0]]``.
    Filters whose in-channels divide the input's make a grouped convolution,
    as in TensorFlow: each group of input channels has its own filters.
    The input's gradient is a transposed convolution (``conv2d_transpose``)
    of the output's gradient, the filters' gradient a correlation of the
    input with the output's gradient (see the module's docstring).

    >>> image = np.arange(9.0, dtype=np.float32).reshape(1, 3, 3, 1)
    >>> conv2d(image, np.ones((2, 2, 1, 1), np.float32), strides=1, padding="VALID").numpy()[0, :, :, 0]
    array([[ 8., 12.],
           [20., 24.]], dtype=float32)
    """
    channels_first = is_channels_first(data_format, 2, "conv2d")
    return _convolve("conv2d", input, filters, strides, padding, dilations, 2, channels_first, explicit=True)


@exported("tf.nn")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC", dilations=None,
                     name=None):
    """The transposed convolution: the input's gradient of the ``conv2d`` that maps a tensor of ``output_shape``
    to one of ``input``'s shape, with the gradient ``input``. Often used to upsample.

    ``filters`` are (height, width, out channels, in channels): those of that
    ``conv2d``, whose channels run the other way. ``output_shape`` is needed
    because with a stride above 1 several input sizes give the same output.

    >>> up = conv2d_transpose(np.ones((1, 2, 2, 1), np.float32), np.ones((2, 2, 1, 1), np.float32), [1, 4, 4, 1], 2)
    >>> up.numpy()[0, :, :, 0]
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.]], dtype=float32)
    """
    op_name = "conv2d_transpose"
    is_channels_first(data_format, 2, op_name, allowed=False)
    g, w = convert_inputs(op_name, input, filters)
    check_dtype(op_name, g, FLOATING)
    shape = [int(n) for n in np.ravel(output_shape.numpy() if isinstance(output_shape, Tensor) else output_shape)]
    if g.array.ndim != 4 or w.array.ndim != 4 or len(shape) != 4:
        raise ValueError(f"{op_name}: input, filters and output_shape must each have 4 axes (batch, height, width, "
                         f"channels), got shapes {g.array.shape}, {w.array.shape} and {shape}")
    strides, dilations = per_axis(strides, 2, "strides", op_name), per_axis(dilations, 2, "dilations", op_name)
    spans = [(k - 1) * r + 1 for k, r in zip(_taps(w), dilations)]
    pads = padding_pairs(padding, shape[1:3], spans, strides, op_name, explicit=True)
    expected = [shape[0], *output_sizes(shape[1:3], spans, strides, pads, op_name), w.array.shape[3]]
    if list(g.array.shape) != expected or shape[3] != w.array.shape[2]:
        raise ValueError(f"{op_name}: a conv2d of a {shape} tensor with filters of shape {list(w.array.shape)} "
                         f"(height, width, out, in) gives {expected}, but the input has shape {list(g.array.shape)}")
    return _conv_transpose(g, w, strides, dilations, pads, tuple(shape[1:3]))
