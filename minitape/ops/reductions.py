"""Reductions (sum, mean, max, min, prod, variance, any, all over axes), cumulative sums and products, norms.

The gradient of a reduction spreads ``g`` back over the elements that were
reduced: every element of a sum gets all of ``g``, of a mean ``g / n``, of a
max only the largest elements (shared equally on a tie, as in TensorFlow),
of a product ``g`` times the product of the *other* elements.
"""

import numpy as np

from ..dtypes import FLOATING, NUMBERS
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor
from .creation import zeros_like
from .elementwise import _BOOL as BOOL
from .elementwise import abs, cast, divide_no_nan, equal, exp, maximum, pow, sqrt, where  # noqa: A004
from .axes import integer_axes, one_axis
from .broadcasting import broadcast_to
from .shapes import expand_dims, reshape, squeeze, transpose


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


def _others_along_axis_0(x):
    """For each element, the product of the other elements along axis 0: an exclusive product from each end."""
    before = np.cumprod(np.concatenate([np.ones_like(x[:1]), x[:-1]]), axis=0)
    after = np.flip(np.cumprod(np.concatenate([np.ones_like(x[:1]), np.flip(x, 0)[:-1]]), axis=0), 0)
    return before * after


def _others_derivative(s, y, x):
    """How ``others_i`` (the product of every x_k but x_i) moves when x moves by ``s``: sum over j != i of s_j
    times the product of every x_k but x_i and x_j. The same function is the JVP and the VJP: this Jacobian,
    the Hessian of the product, is symmetric.

    Those products of all but two are again products of others: of ``x`` with x_i replaced by 1, one copy per
    i (``replaced[j, i] = 1 if j == i else x_j``). So the rule is this primitive again, on a tensor n times
    larger, and its own rule likewise: every order is exact at zeros, and none divides.
    """
    n = x.array.shape[0]
    diagonal = np.eye(n, dtype=bool).reshape((n, n) + (1,) * (x.array.ndim - 1))
    replaced = where(diagonal, 1.0, expand_dims(x, 1))
    all_but_two = apply(_others, (replaced,))  # [j, i]: the product of every x_k but x_i and x_j (j != i)
    return reduce_sum(where(diagonal, 0.0, all_but_two) * expand_dims(s, 1), 0)


_others = Primitive("product_of_others", _others_along_axis_0, vjp=[_others_derivative], jvp=[_others_derivative])


def _product_of_others(x, axes):
    """For each element, the product of all *other* elements along ``axes``: the gradient of their product.

    The reduced axes are moved to the front and flattened into one axis;
    :data:`_others` takes the products there, without dividing, so every
    derivative is exact where x has zeros.
    """
    if x.array.size == 0:
        return zeros_like(x)  # no elements, no others
    rest = tuple(a for a in range(x.array.ndim) if a not in axes)
    moved = transpose(x, axes + rest)
    others = apply(_others, (reshape(moved, (_count(x, axes), -1)),))
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
# so at an exact 0 the gradient is TensorFlow's 0, not the slope. reduce_prod's derivatives never
# divide, and are exact at zeros to every order.
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
# The largest singular value s_1 of a matrix X = sum_j s_j u_j v_j^T changes by u_1^T dX v_1 when X changes by dX,
# so its gradient is the matrix D = u_1 v_1^T, and its tangent u_1^T T v_1.
#
# D's own derivative (the spectral norm's second) comes from X v_1 = s_1 u_1 and X^T u_1 = s_1 v_1. Moved by dX,
# with P = U^T dX V (P_j1 = u_j^T dX v_1, P_1j = u_1^T dX v_j), these give for j != 1
#   du_1 = sum_j u_j (s_1 P_j1 + s_j P_1j) / (s_1^2 - s_j^2) + (I - U U^T) dX v_1 / s_1,
#   dv_1 = sum_j v_j (s_j P_j1 + s_1 P_1j) / (s_1^2 - s_j^2) + (I - V V^T) dX^T u_1 / s_1,
# (the last terms: the parts outside the thin U's or V's columns, for a matrix that is not square) and
# dD = du_1 v_1^T + u_1 dv_1^T. That map is the Hessian of s_1, a symmetric one: it is both the JVP and the VJP.
# It needs s_1 to be apart from s_2 (else u_1 and v_1 are not defined), as does the gradient itself.
def _top_singular_direction(x):
    u, _, vh = np.linalg.svd(x)
    return u[..., :, :1] @ vh[..., :1, :]


def _no_third_derivative(*args, **attrs):
    raise NotImplementedError("norm(ord=2) over two axes (the spectral norm): minitape has its first and second "
                              "derivatives only; for more, use the Frobenius norm (ord='fro')")


# The thin SVD's factors U, s, V^T, read by the rule below. Their own derivatives would be the spectral norm's
# third derivative: it raises, rather than treat them as constants.
_singular_factor = Primitive("singular_factor", lambda x, part: np.linalg.svd(x, full_matrices=False)[part],
                             keeps="nothing", vjp=[_no_third_derivative], jvp=[_no_third_derivative])


def _times(a, x):
    """The matrix-vector product ``a x`` (over the last two axes of ``a``, for a batch of matrices)."""
    return reduce_sum(a * expand_dims(x, -2), -1)


def _transpose_times(a, y):
    """``a^T y``."""
    return reduce_sum(a * expand_dims(y, -1), -2)


def _spectral_direction_derivative(s, d, x):
    """dD for a change ``s`` of ``x`` (both rules of :data:`_spectral_direction`; derived above)."""
    u, sv = apply(_singular_factor, (x,), {"part": 0}), apply(_singular_factor, (x,), {"part": 1})
    ndim = x.array.ndim
    v = transpose(apply(_singular_factor, (x,), {"part": 2}), tuple(range(ndim - 2)) + (ndim - 1, ndim - 2))
    u1, v1, s1 = u[..., 0], v[..., 0], sv[..., :1]
    s_v1, s_u1 = _times(s, v1), _transpose_times(s, u1)  # dX v_1 and dX^T u_1
    column, row = _transpose_times(u, s_v1), _transpose_times(v, s_u1)  # P_j1 and P_1j
    first = np.arange(sv.array.shape[-1]) == 0  # j = 1 takes no part: u_1 and v_1 stay unit vectors
    gaps = where(first, 1.0, s1 * s1 - sv * sv)
    a = where(first, 0.0, (s1 * column + sv * row) / gaps)
    b = where(first, 0.0, (sv * column + s1 * row) / gaps)
    du = _times(u, a) + (s_v1 - _times(u, column)) / s1
    dv = _times(v, b) + (s_u1 - _times(v, row)) / s1
    return expand_dims(du, -1) * expand_dims(v1, -2) + expand_dims(u1, -1) * expand_dims(dv, -2)


_spectral_direction = Primitive("spectral_direction", _top_singular_direction, vjp=[_spectral_direction_derivative],
                                jvp=[_spectral_direction_derivative])
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


def _float_input(op_name, input_tensor):
    """``input_tensor`` as a tensor, if it is floating-point (the ops below take no integers); else a TypeError."""
    (x,) = convert_inputs(op_name, input_tensor)
    if x.array.dtype.kind != "f":
        raise TypeError(f"{op_name}: expected a floating-point tensor, got {x.dtype.name}; convert it first, e.g. "
                        f"mt.cast(x, mt.float32)")
    return x


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) along ``axis`` (all of them by default), computed without overflow.

    Its gradient is ``exp(x - y)``: the softmax of ``x`` along the reduced
    axes. An empty reduction gives ``-inf``, as in TensorFlow.

    >>> float(reduce_logsumexp([1000.0, 1000.0]))  # 1000 + log 2; exp(1000) alone overflows
    1000.6931762695312
    """
    x = _float_input("reduce_logsumexp", input_tensor)
    return apply(_reduce_logsumexp, (x,), {"axis": _axes(axis, x.array.ndim, "reduce_logsumexp"),
                                           "keepdims": bool(keepdims)})


# -- variance, standard deviation, Euclidean norm, any and all ---------------------------------------------------
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean of the squared deviations from the mean along ``axis`` (the population variance, divided by n).

    Written with the ops it is made of, as TensorFlow writes it: its derivatives are theirs.

    >>> reduce_variance([1.0, 2.0, 3.0, 4.0]).numpy()
    np.float32(1.25)
    """
    x = _float_input("reduce_variance", input_tensor)
    axes = _axes(axis, x.array.ndim, "reduce_variance")
    deviations = x - reduce_mean(x, axes, keepdims=True)
    return reduce_mean(deviations * deviations, axes, keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The square root of :func:`reduce_variance`: the population standard deviation along ``axis``.

    Where every element is the same the standard deviation is 0 and has no slope: its gradient there is
    NaN, as in TensorFlow.

    >>> reduce_std([1.0, 3.0]).numpy()
    np.float32(1.0)
    """
    x = _float_input("reduce_std", input_tensor)
    return sqrt(reduce_variance(x, _axes(axis, x.array.ndim, "reduce_std"), keepdims))


# sqrt(sum x**2): its gradient is x / norm, g x / y (TensorFlow's rule: NaN where the norm is 0).
_reduce_euclidean_norm = Primitive(
    "reduce_euclidean_norm",
    lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims)).astype(x.dtype),
    keeps="both",
    vjp=[lambda g, y, x, axis, keepdims: _spread(g, x, axis, keepdims) * x / _spread(y, x, axis, keepdims)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * x, axis, keepdims) / y])
reduce_euclidean_norm = _reduction("reduce_euclidean_norm", _reduce_euclidean_norm, "Euclidean norm (the square "
                                   "root of the sum of squares; for integers, rounded down as in TensorFlow)")


def _logical_reduction(name, numpy_fn, what):
    def op(input_tensor, axis=None, keepdims=False, name=None):
        (x,) = convert_inputs(op.__name__, input_tensor)
        check_dtype(op.__name__, x, BOOL)
        return Tensor(numpy_fn(x.array, axis=_axes(axis, x.array.ndim, op.__name__), keepdims=bool(keepdims)))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"Whether {what} element along ``axis`` (all of them by default) is true; booleans only, "
                  f"no gradient.")
    return op


reduce_any = _logical_reduction("reduce_any", np.any, "any")
reduce_all = _logical_reduction("reduce_all", np.all, "every")


__all__ = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "cumsum", "cumprod", "norm",
           "clip_by_norm", "reduce_logsumexp", "reduce_any", "reduce_all"]  # the others are tf.math's only
