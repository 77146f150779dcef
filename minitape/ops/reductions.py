"""Reductions (sum, mean, max, min, prod, log-sum-exp, variance, any, all over axes), cumulative sums and
products. The norms, built on them, are in :mod:`.norms`.

The gradient of a reduction spreads ``g`` back over the elements that were
reduced: every element of a sum gets all of ``g``, of a mean ``g / n``, of a
max only the largest elements (shared equally on a tie, as in TensorFlow),
of a product ``g`` times the product of the *other* elements.
"""

import numpy as np

from ..dtypes import NUMBERS
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs, float_input
from ..tensor import Tensor
from .creation import zeros_like
from .comparisons import BOOL, equal
from .elementwise import cast, divide_no_nan, exp, sqrt, where
from .shapes import expand_dims, reshape, transpose
from .broadcasting import broadcast_to
from .axes import integer_axes, one_axis
from .exports import export, exported


def reduced_axes(axis, ndim, op_name):
    """``axis`` (None, an int or a list of distinct ints) as a sorted tuple of non-negative axes.

    >>> reduced_axes([1, -3], 3, "reduce_sum")
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


def kept_shape(x, axes):
    """The shape of the reduction with keepdims=True: reduced axes become 1."""
    return tuple(1 if i in axes else d for i, d in enumerate(x.array.shape))


def spread(g, x, axes, keepdims):
    """``g`` (the gradient of a reduction) broadcast back over the input's shape."""
    if not keepdims:
        g = reshape(g, kept_shape(x, axes))
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
    y, g = (y, g) if keepdims else (reshape(y, kept_shape(x, axis)), reshape(g, kept_shape(x, axis)))
    chosen = cast(equal(x, y), x.array.dtype)
    return chosen / reduce_sum(chosen, axis, keepdims=True) * g


def _extreme_jvp(t, y, x, axis, keepdims):
    kept_y = y if keepdims else reshape(y, kept_shape(x, axis))
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
                        vjp=[lambda g, y, x, axis, keepdims: spread(g, x, axis, keepdims)],
                        jvp="linear")
_reduce_mean = Primitive("reduce_mean", _numpy_mean,
                         vjp=[lambda g, y, x, axis, keepdims: spread(g, x, axis, keepdims) / float(_count(x, axis))],
                         jvp="linear")
# Over no elements (an empty axis), max is the dtype's smallest value (-inf for floats), min its largest.
_reduce_max = Primitive("reduce_max", _numpy_extreme(np.max, "min"), keeps="both", vjp=[_extreme_vjp],
                        jvp=[_extreme_jvp])
_reduce_min = Primitive("reduce_min", _numpy_extreme(np.min, "max"), keeps="both", vjp=[_extreme_vjp],
                        jvp=[_extreme_jvp])
_reduce_prod = Primitive(
    "reduce_prod", lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    vjp=[lambda g, y, x, axis, keepdims: spread(g, x, axis, keepdims) * _product_of_others(x, axis)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * _product_of_others(x, axis), axis, keepdims)])


def reduction(name, prim, what):
    def op(input_tensor, axis=None, keepdims=False):
        (x,) = convert_inputs(name, input_tensor)
        if x.array.dtype.kind != "f":  # every float is allowed: only others are looked up
            check_dtype(name, x, NUMBERS)
        axes = reduced_axes(axis, x.array.ndim, name)
        return apply(prim, (x,), {"axis": axes, "keepdims": bool(keepdims)})

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"The {what} of the elements along ``axis`` (all of them by default).\n\n"
                  f"    ``keepdims=True`` keeps each reduced dimension with size 1.")
    op.primitive = prim
    return op


reduce_sum = export(reduction("reduce_sum", _reduce_sum, "sum"), ("tf", "tf.math"))
reduce_mean = export(reduction("reduce_mean", _reduce_mean, "mean"), ("tf", "tf.math"))
reduce_max = export(reduction("reduce_max", _reduce_max, "maximum"), ("tf", "tf.math"))
reduce_min = export(reduction("reduce_min", _reduce_min, "minimum"), ("tf", "tf.math"))
reduce_prod = export(reduction("reduce_prod", _reduce_prod, "product"), ("tf", "tf.math"))


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


@exported("tf", "tf.math")
def cumsum(x, axis=0, exclusive=False, reverse=False):
    """Running sums along ``axis``: [a, b, c] gives [a, a+b, a+b+c].

    ``exclusive`` leaves each element out of its own sum ([0, a, a+b]);
    ``reverse`` sums from the end.
    """
    (x,) = convert_inputs("cumsum", x)
    check_dtype("cumsum", x, NUMBERS)
    return apply(_cumsum, (x,), {"axis": one_axis(axis, x.array.ndim, "cumsum"),
                                "exclusive": bool(exclusive), "reverse": bool(reverse)})


@exported("tf", "tf.math")
def cumprod(x, axis=0, exclusive=False, reverse=False):
    """Running products along ``axis``: [a, b, c] gives [a, ab, abc] (options as in :func:`cumsum`)."""
    (x,) = convert_inputs("cumprod", x)
    check_dtype("cumprod", x, NUMBERS)
    return apply(_cumprod, (x,), {"axis": one_axis(axis, x.array.ndim, "cumprod"),
                                 "exclusive": bool(exclusive), "reverse": bool(reverse)})


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
    vjp=[lambda g, y, x, axis, keepdims: spread(g, x, axis, keepdims) * _softmax_weights(x, axis)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * _softmax_weights(x, axis), axis, keepdims)])


@exported("tf", "tf.math")
def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) along ``axis`` (all of them by default), computed without overflow.

    Its gradient is ``exp(x - y)``: the softmax of ``x`` along the reduced
    axes. An empty reduction gives ``-inf``, as in TensorFlow.

    >>> float(reduce_logsumexp([1000.0, 1000.0]))  # 1000 + log 2; exp(1000) alone overflows
    1000.6931762695312
    """
    x = float_input("reduce_logsumexp", input_tensor)
    return apply(_reduce_logsumexp, (x,), {"axis": reduced_axes(axis, x.array.ndim, "reduce_logsumexp"),
                                           "keepdims": bool(keepdims)})


# -- variance, standard deviation, any and all ---------------------------------------------------------------
@exported("tf.math")
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean of the squared deviations from the mean along ``axis`` (the population variance, divided by n).

    Written with the ops it is made of, as TensorFlow writes it: its derivatives are theirs.

    >>> reduce_variance([1.0, 2.0, 3.0, 4.0]).numpy()
    np.float32(1.25)
    """
    x = float_input("reduce_variance", input_tensor)
    axes = reduced_axes(axis, x.array.ndim, "reduce_variance")
    deviations = x - reduce_mean(x, axes, keepdims=True)
    return reduce_mean(deviations * deviations, axes, keepdims)


@exported("tf.math")
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The square root of :func:`reduce_variance`: the population standard deviation along ``axis``.

    Where every element is the same the standard deviation is 0 and has no slope: its gradient there is
    NaN, as in TensorFlow.

    >>> reduce_std([1.0, 3.0]).numpy()
    np.float32(1.0)
    """
    x = float_input("reduce_std", input_tensor)
    return sqrt(reduce_variance(x, reduced_axes(axis, x.array.ndim, "reduce_std"), keepdims))


def _logical_reduction(name, numpy_fn, what):
    def op(input_tensor, axis=None, keepdims=False, name=None):
        (x,) = convert_inputs(op.__name__, input_tensor)
        check_dtype(op.__name__, x, BOOL)
        return Tensor(numpy_fn(x.array, axis=reduced_axes(axis, x.array.ndim, op.__name__), keepdims=bool(keepdims)))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"Whether {what} element along ``axis`` (all of them by default) is true; booleans only, "
                  f"no gradient.")
    return op


reduce_any = export(_logical_reduction("reduce_any", np.any, "any"), ("tf", "tf.math"))
reduce_all = export(_logical_reduction("reduce_all", np.all, "every"), ("tf", "tf.math"))
