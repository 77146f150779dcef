"""Reductions (sum, mean, max, min, prod over axes), cumulative sums and products, norms.

The gradient of a reduction spreads ``g`` back over the elements that were
reduced: every element of a sum gets all of ``g``, of a mean ``g / n``, of a
max only the largest elements (shared equally on a tie, as in TensorFlow),
of a product ``g`` times the product of the *other* elements.
"""

import numpy as np

from ..dtypes import FLOATING, NUMBERS
from ..fast import apply
from ..primitive import Primitive, check_dtype, convert_inputs
from ..tensor import Tensor
from .creation import zeros_like
from .elementwise import abs, cast, divide_no_nan, equal, exp, maximum, pow, sqrt, where  # noqa: A004
from .shapes import broadcast_to, expand_dims, integer_axes, one_axis, reshape, squeeze, transpose


def _axes(axis, ndim, op_name):
    """``axis`` (None, an int or a list of distinct ints) as a sorted tuple of non-negative axes.

    >>> _axes([1, -3], 3, "reduce_sum")
    (0, 1)
    """
    if axis is None:
        return tuple(range(ndim))
    axes = integer_axes(axis, op_name)
    if any(not -ndim <= a < ndim for a in axes):
        where = "a scalar has no axes" if ndim == 0 else f"use -{ndim} to {ndim - 1}"
        raise ValueError(f"{op_name}: axis {axis} is out of range for a tensor with {ndim} dimensions ({where})")
    positive = [int(a) % ndim for a in axes]
    if len(set(positive)) < len(positive):
        raise ValueError(f"{op_name}: axis {axis} names the same dimension twice; name each one once")
    return tuple(sorted(positive))


def _kept_shape(x, axes):
    """The shape of the reduction with keepdims=True: reduced axes become 1."""
    return tuple(1 if i in axes else d for i, d in enumerate(x.array.shape))


def _spread(g, x, axes, keepdims):
    """``g`` (the gradient of a reduction) broadcast back over the input's shape."""
    if not keepdims:
        g = reshape(g, _kept_shape(x, axes))
    return broadcast_to(g, x.array.shape)


def _count(x, axes):
    return int(np.prod([x.array.shape[a] for a in axes]))


def _numpy_sum(x, axis, keepdims):
    # Integers stay in their own dtype (NumPy would widen int32 to int64), as in TensorFlow.
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype if x.dtype.kind in "iu" else None)


def _numpy_mean(x, axis, keepdims):
    if x.dtype.kind in "iu":
        # TensorFlow's integer mean is an integer: the exact sum (no wrapping), divided and rounded toward zero
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64 if x.dtype.kind == "i" else np.uint64)
        count = total.dtype.type(max(int(np.prod([x.shape[a] for a in axis])), 1))
        return (np.sign(total) * (np.abs(total) // count)).astype(x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims)


def _numpy_extreme(numpy_fn, empty):
    """np.max or np.min; over no elements, the smallest (largest) value of the dtype, as in TensorFlow."""
    def forward(x, axis, keepdims):
        if x.size:
            return numpy_fn(x, axis=axis, keepdims=keepdims)
        limits = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        initial = {"min": -np.inf, "max": np.inf}[empty] if x.dtype.kind == "f" else getattr(limits, empty)
        return numpy_fn(x, axis=axis, keepdims=keepdims, initial=initial)
    return forward


def _extreme_vjp(g, y, x, axis, keepdims):
    """Gradient of max/min: to the elements equal to the result, shared equally among ties."""
    y, g = (y, g) if keepdims else (reshape(y, _kept_shape(x, axis)), reshape(g, _kept_shape(x, axis)))
    chosen = cast(equal(x, y), x.array.dtype)
    return chosen / reduce_sum(chosen, axis, keepdims=True) * g


def _extreme_jvp(t, y, x, axis, keepdims):
    kept_y = y if keepdims else reshape(y, _kept_shape(x, axis))
    chosen = cast(equal(x, kept_y), x.array.dtype)
    return reduce_sum(chosen * t, axis, keepdims) / reduce_sum(chosen, axis, keepdims)


def _product_of_others(x, axes):
    """For each element, the product of all *other* elements along ``axes`` (no division: safe at 0).

    The reduced axes are moved to the front and flattened into one axis of
    length n; an exclusive cumulative product from each end, multiplied,
    leaves out exactly the element itself.
    """
    if x.array.size == 0:
        return zeros_like(x)  # no elements, no others
    rest = tuple(a for a in range(x.array.ndim) if a not in axes)
    moved = transpose(x, axes + rest)
    flat = reshape(moved, (_count(x, axes), -1))
    others = cumprod(flat, axis=0, exclusive=True) * cumprod(flat, axis=0, exclusive=True, reverse=True)
    return transpose(reshape(others, moved.array.shape), np.argsort(axes + rest))


_reduce_sum = Primitive("reduce_sum", _numpy_sum,
                        vjp=[lambda g, y, x, axis, keepdims: _spread(g, x, axis, keepdims)],
                        jvp="linear")
_reduce_mean = Primitive("reduce_mean", _numpy_mean,
                         vjp=[lambda g, y, x, axis, keepdims: _spread(g, x, axis, keepdims) / float(_count(x, axis))],
                         jvp="linear")
# Over no elements (an empty axis), max is the dtype's smallest value (-inf for floats), min its largest.
_reduce_max = Primitive("reduce_max", _numpy_extreme(np.max, "min"), keeps="both", vjp=[_extreme_vjp],
                        jvp=[_extreme_jvp])
_reduce_min = Primitive("reduce_min", _numpy_extreme(np.min, "max"), keeps="both", vjp=[_extreme_vjp],
                        jvp=[_extreme_jvp])
_reduce_prod = Primitive(
    "reduce_prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    vjp=[lambda g, y, x, axis, keepdims: _spread(g, x, axis, keepdims) * _product_of_others(x, axis)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * _product_of_others(x, axis), axis, keepdims)])


def _reduction(name, prim, what):
    def op(input_tensor, axis=None, keepdims=False):
        (x,) = convert_inputs(name, input_tensor)
        if x.array.dtype.kind != "f":  # every float is allowed: only others are looked up
            check_dtype(name, x, NUMBERS)
        axes = _axes(axis, x.array.ndim, name)
        return apply(prim, (x,), {"axis": axes, "keepdims": bool(keepdims)})

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"The {what} of the elements along ``axis`` (all of them by default).\n\n"
                  f"    ``keepdims=True`` keeps each reduced dimension with size 1.")
    op.primitive = prim
    return op


reduce_sum = _reduction("reduce_sum", _reduce_sum, "sum")
reduce_mean = _reduction("reduce_mean", _reduce_mean, "mean")
reduce_max = _reduction("reduce_max", _reduce_max, "maximum")
reduce_min = _reduction("reduce_min", _reduce_min, "minimum")
reduce_prod = _reduction("reduce_prod", _reduce_prod, "product")


# -- cumulative sums and products ---------------------------------------------------------------
def _cumulative(numpy_fn, identity):
    def forward(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = numpy_fn(x, axis=axis, dtype=x.dtype)
        if exclusive and out.shape[axis]:  # shift by one: element i gets the result of elements before i
            out = np.concatenate([np.full_like(np.take(out, [0], axis), identity),
                                  np.take(out, np.arange(out.shape[axis] - 1), axis)], axis)
        return np.flip(out, axis) if reverse else out
    return forward


_cumsum = Primitive("cumsum", _cumulative(np.cumsum, 0), keeps="nothing",
                    vjp=[lambda g, y, x, axis, exclusive, reverse: cumsum(g, axis, exclusive, not reverse)],
                    jvp="linear")
# d/dx_j of prod_{i<=k} x_i is prod / x_j. Like TensorFlow's, the rule divides with divide_no_nan,
# which gives 0 where x_j is 0: the true derivative there is the product of the other factors,
# so at an exact 0 the gradient is TensorFlow's 0, not the slope. reduce_prod's own first
# derivative never divides, and is exact at zeros.
_cumprod = Primitive(
    "cumprod", _cumulative(np.cumprod, 1), keeps="both",
    vjp=[lambda g, y, x, axis, exclusive, reverse: divide_no_nan(cumsum(y * g, axis, exclusive, not reverse), x)],
    jvp=[lambda t, y, x, axis, exclusive, reverse: y * cumsum(divide_no_nan(t, x), axis, exclusive, reverse)])


def cumsum(x, axis=0, exclusive=False, reverse=False):
    """Running sums along ``axis``: [a, b, c] gives [a, a+b, a+b+c].

    ``exclusive`` leaves each element out of its own sum ([0, a, a+b]);
    ``reverse`` sums from the end.
    """
    (x,) = convert_inputs("cumsum", x)
    check_dtype("cumsum", x, NUMBERS)
    return apply(_cumsum, (x,), {"axis": one_axis(axis, x.array.ndim, "cumsum"),
                                "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumprod(x, axis=0, exclusive=False, reverse=False):
    """Running products along ``axis``: [a, b, c] gives [a, ab, abc] (options as in :func:`cumsum`)."""
    (x,) = convert_inputs("cumprod", x)
    check_dtype("cumprod", x, NUMBERS)
    return apply(_cumprod, (x,), {"axis": one_axis(axis, x.array.ndim, "cumprod"),
                                 "exclusive": bool(exclusive), "reverse": bool(reverse)})


# -- the spectral norm ------------------------------------------------------------------------
# The largest singular value s of a matrix X = sum_i s_i u_i v_i^T changes by u^T dX v when X changes by dX
# (u, v: its singular vectors), so its gradient is g u v^T and its tangent u^T T v. The direction u v^T is
# computed with NumPy's SVD, so its own derivative (the spectral norm's second derivative) is not available.
def _top_singular_direction(x):
    u, _, vh = np.linalg.svd(x)
    return u[..., :, :1] @ vh[..., :1, :]


def _no_second_derivative(*args, **attrs):
    raise NotImplementedError("norm(ord=2) over two axes (the spectral norm): minitape has its first derivative "
                              "only; for second derivatives use the Frobenius norm (ord='fro') or "
                              "mt.sqrt of the largest eigenvalue you compute yourself")


_spectral_direction = Primitive("spectral_direction", _top_singular_direction, keeps="nothing",
                                vjp=[_no_second_derivative], jvp=[_no_second_derivative])
_spectral_norm = Primitive(
    "spectral_norm", lambda x: np.linalg.svd(x, compute_uv=False)[..., 0],
    vjp=[lambda g, y, x: expand_dims(expand_dims(g, -1), -1) * apply(_spectral_direction, (x,))],
    jvp=[lambda t, y, x: reduce_sum(t * apply(_spectral_direction, (x,)), axis=[-2, -1])])


# -- built from the ops above --------------------------------------------------------------------
_MATRIX_ORDS, _VECTOR_ORDS = ("euclidean", "fro", 1, 2, np.inf), ("euclidean", 1, 2, np.inf)


def _norm_order(ord, matrix):
    """``ord`` checked as TensorFlow checks it: matrix norms 'euclidean', 'fro', 1, 2 and inf; vector p-norms
    for any p > 0 (and 'euclidean')."""
    if matrix:
        if not any(ord == o and type(ord) is not bool for o in _MATRIX_ORDS):
            raise ValueError(f"norm: ord={ord!r} is not a matrix norm minitape (or TensorFlow) has; use "
                             f"'euclidean' (or 'fro'), 1, 2 or np.inf over two axes")
    elif isinstance(ord, str) or isinstance(ord, bool) or not ord > 0:
        if ord not in _VECTOR_ORDS:
            raise ValueError(f"norm: ord={ord!r} is not a vector norm; use 'euclidean', np.inf or a number p > 0 "
                             f"(the p-norm); 'fro' is for matrices (two axes)")


def norm(tensor, ord="euclidean", axis=None, keepdims=False):
    """The norm of ``tensor``: a vector norm along one axis (or over all elements), a matrix norm over two.

    Vector norms: ``"euclidean"`` (or 2), 1, ``np.inf``, or any p > 0
    (``(sum |x|**p) ** (1/p)``). Matrix norms (``axis`` a pair): the
    Frobenius norm (``"euclidean"`` or ``"fro"``), 1 (the largest column
    sum), ``np.inf`` (the largest row sum) and 2 (the largest singular
    value), as in TensorFlow.

    The Euclidean norm has no slope at 0: its gradient there is NaN, as in
    TensorFlow, unless no gradient arrives (``g = 0``, e.g. through a
    ``where`` that masks the norm out), which gives 0. So a norm whose
    gradient at 0 is 0 is ``where(n2 > 0, sqrt(n2), 0.0)`` with
    ``n2 = reduce_sum(x * x)``.

    >>> norm([[1.0, -2.0], [3.0, 4.0]], ord=1, axis=[0, 1]).numpy()  # the largest column sum
    np.float32(6.0)
    """
    (x,) = convert_inputs("norm", tensor)
    check_dtype("norm", x, FLOATING)
    matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if matrix:
        axes = _axes(axis, x.array.ndim, "norm")  # also refuses the same axis twice
        axis = tuple(int(a) % x.array.ndim for a in axis)  # in the caller's order: it matters for 1 and inf
    elif axis is not None and (isinstance(axis, (tuple, list)) or np.ndim(axis) != 0):
        raise ValueError(f"norm: axis must be None, an integer, or a pair of distinct integers, got {axis!r}")
    else:
        axes = _axes(axis, x.array.ndim, "norm")
    _norm_order(ord, matrix)
    if ord in ("euclidean", "fro") or (ord == 2 and not matrix):
        return sqrt(reduce_sum(x * x, axes, keepdims))
    if not matrix:
        if ord == 1:
            return reduce_sum(abs(x), axes, keepdims)
        if ord == np.inf:
            return reduce_max(abs(x), axes, keepdims)
        return pow(reduce_sum(pow(abs(x), float(ord)), axes, keepdims), 1.0 / ord)  # a p-norm
    if ord == 2:  # the spectral norm: the two axes last, then the largest singular value of each matrix
        rest = tuple(a for a in range(x.array.ndim) if a not in axis)
        largest = apply(_spectral_norm, (transpose(x, rest + axis),))
        return reshape(largest, _kept_shape(x, axes)) if keepdims else largest
    # 1: the largest sum of |x| down axis[0]; inf: the largest sum along axis[1] (column and row sums of a matrix)
    inner, outer = (axis[0], axis[1]) if ord == 1 else (axis[1], axis[0])
    result = reduce_max(reduce_sum(abs(x), inner, keepdims=True), outer, keepdims=True)
    return result if keepdims else squeeze(result, axes)


def clip_by_norm(t, clip_norm, axes=None):
    """``t`` scaled down so that its Euclidean norm (over ``axes``) is at most ``clip_norm``.

    A zero ``t`` stays zero, with a finite gradient: the norm is taken only
    where the sum of squares is positive. A negative ``clip_norm`` is taken
    as 0, as in TensorFlow.

    >>> clip_by_norm([3.0, 4.0], 1.0).numpy()
    array([0.6, 0.8], dtype=float32)
    """
    (t,) = convert_inputs("clip_by_norm", t)
    check_dtype("clip_by_norm", t, FLOATING)
    if isinstance(clip_norm, (int, float)):
        clip_norm = float(max(clip_norm, 0))
    else:
        clip_norm = maximum(cast(convert_inputs("clip_by_norm", clip_norm)[0], t.dtype), 0.0)
    sum_sq = reduce_sum(t * t, axes, keepdims=True)
    positive = sum_sq > 0
    l2 = where(positive, sqrt(where(positive, sum_sq, 1.0)), sum_sq)
    return t * clip_norm / maximum(l2, clip_norm)


# -- log-sum-exp ------------------------------------------------------------------------------------
def _logsumexp(x, axis, keepdims):
    """log(sum(exp(x))) without overflow: the largest element m is taken out, log(sum(exp(x - m))) + m.

    An infinite or NaN maximum (or none, for an empty tensor) is replaced by 0,
    so that -inf - -inf is never computed: all -inf gives -inf, an inf gives inf.
    """
    m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):  # log(0) = -inf is the answer
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis)


def _softmax_weights(x, axis):
    """exp(x - m) / sum(exp(x - m)) along ``axis``: the derivative of log-sum-exp, the softmax of ``x``.

    ``m``, the largest element (0 if it is not finite), is a constant: it
    cancels out, and keeps exp from overflowing. (exp(x - y) with the result
    ``y`` is the same number, but ``y`` rounded to float32 can be off by more
    than the weights' own precision when it is large.)
    """
    m = np.max(x.array, axis=axis, keepdims=True, initial=-np.inf)
    e = exp(x - Tensor(np.where(np.isfinite(m), m, 0).astype(x.array.dtype)))
    return e / reduce_sum(e, axis, keepdims=True)


_reduce_logsumexp = Primitive(
    "reduce_logsumexp", _logsumexp,
    vjp=[lambda g, y, x, axis, keepdims: _spread(g, x, axis, keepdims) * _softmax_weights(x, axis)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * _softmax_weights(x, axis), axis, keepdims)])


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) along ``axis`` (all of them by default), computed without overflow.

    Its gradient is ``exp(x - y)``: the softmax of ``x`` along the reduced
    axes. An empty reduction gives ``-inf``, as in TensorFlow.

    >>> float(reduce_logsumexp([1000.0, 1000.0]))  # 1000 + log 2; exp(1000) alone overflows
    1000.6931762695312
    """
    (x,) = convert_inputs("reduce_logsumexp", input_tensor)
    if x.array.dtype.kind != "f":
        raise TypeError(f"reduce_logsumexp: expected a floating-point tensor, got {x.dtype.name}; convert it "
                        f"first, e.g. mt.cast(x, mt.float32)")
    return apply(_reduce_logsumexp, (x,), {"axis": _axes(axis, x.array.ndim, "reduce_logsumexp"),
                                           "keepdims": bool(keepdims)})


__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "cumsum", "cumprod", "norm",
           "clip_by_norm", "reduce_logsumexp"]
