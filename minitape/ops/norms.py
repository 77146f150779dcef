"""Norms: vector and matrix norms (the spectral norm with its second derivative), the Euclidean norm of a
reduction, the global norm of a list of tensors, and clipping and normalizing by them."""

import numpy as np

from ..dtypes import FLOATING
from ..primitive import Primitive, apply
from .arguments import check_dtype, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .elementwise import abs, add_n, cast, maximum, pow, sqrt, where  # noqa: A004
from .reductions import kept_shape, reduce_max, reduce_sum, reduced_axes, reduction, spread
from .shapes import expand_dims, reshape, squeeze, transpose
from .exports import export, exported


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


# -- norm and clip_by_norm, built from the reductions ------------------------------------------------
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


@exported("tf", "tf.linalg")
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
        axes = reduced_axes(axis, x.array.ndim, "norm")  # also refuses the same axis twice
        axis = tuple(int(a) % x.array.ndim for a in axis)  # in the caller's order: it matters for 1 and inf
    elif axis is not None and (isinstance(axis, (tuple, list)) or np.ndim(axis) != 0):
        raise ValueError(f"norm: axis must be None, an integer, or a pair of distinct integers, got {axis!r}")
    else:
        axes = reduced_axes(axis, x.array.ndim, "norm")
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
        return reshape(largest, kept_shape(x, axes)) if keepdims else largest
    # 1: the largest sum of |x| down axis[0]; inf: the largest sum along axis[1] (column and row sums of a matrix)
    inner, outer = (axis[0], axis[1]) if ord == 1 else (axis[1], axis[0])
    result = reduce_max(reduce_sum(abs(x), inner, keepdims=True), outer, keepdims=True)
    return result if keepdims else squeeze(result, axes)


@exported("tf")
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


# -- the Euclidean norm, a reduction -----------------------------------------------------------------
# sqrt(sum x**2): its gradient is x / norm, g x / y (TensorFlow's rule: NaN where the norm is 0).
_reduce_euclidean_norm = Primitive(
    "reduce_euclidean_norm",
    lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims)).astype(x.dtype),
    keeps="both",
    vjp=[lambda g, y, x, axis, keepdims: spread(g, x, axis, keepdims) * x / spread(y, x, axis, keepdims)],
    jvp=[lambda t, y, x, axis, keepdims: reduce_sum(t * x, axis, keepdims) / y])
reduce_euclidean_norm = export(reduction("reduce_euclidean_norm", _reduce_euclidean_norm, "Euclidean norm (the square "
                                   "root of the sum of squares; for integers, rounded down as in TensorFlow)"),
       ("tf.math",))


# -- the norm of a list of tensors, and clipping by it -----------------------------------------------------
def _tensor_list(op_name, t_list):
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"{op_name}: t_list must be a list (or tuple) of tensors, such as a list of gradients, got "
                        f"{type(t_list).__name__}; for one tensor write [t]")
    return t_list


@exported("tf.linalg")
def global_norm(t_list, name=None):
    """The Euclidean norm of all the elements of the tensors in ``t_list`` together; ``None`` entries are skipped.

    ``sqrt(sum of every reduce_sum(t * t))``: the norm of a model's whole
    gradient, which :func:`clip_by_global_norm` limits. Like any Euclidean
    norm ``n``, its gradient is ``t / n`` for each tensor ``t`` (NaN at ``n = 0``).

    >>> float(global_norm([[3.0], None, [[4.0]]]))
    5.0
    """
    tensors = [t for t in _tensor_list("linalg.global_norm", t_list) if t is not None]
    if not tensors:
        return Tensor(np.array(0.0, np.float32))
    tensors = convert_inputs("linalg.global_norm", *tensors)
    check_dtype("linalg.global_norm", tensors[0], FLOATING)
    return sqrt(add_n([reduce_sum(t * t) for t in tensors]))


@exported("tf")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """The tensors of ``t_list`` scaled together so that their :func:`global_norm` is at most ``clip_norm``.

    Returns ``(list_clipped, global_norm)``, as TensorFlow: every tensor is
    multiplied by ``clip_norm / max(global_norm, clip_norm)`` (``None``
    entries stay ``None``), which keeps the direction of the whole gradient,
    where clipping each tensor by its own norm would not. ``use_norm`` is a
    global norm already computed. An infinite or NaN norm makes every entry
    NaN, as in TensorFlow, so that a broken gradient shows.

    >>> clipped, norm = clip_by_global_norm([[3.0], None, [4.0]], 1.0)
    >>> [None if t is None else t.numpy() for t in clipped], float(norm)
    ([array([0.6], dtype=float32), None, array([0.8], dtype=float32)], 5.0)
    """
    t_list = _tensor_list("clip_by_global_norm", t_list)
    (use_norm,) = convert_inputs("clip_by_global_norm", global_norm(t_list) if use_norm is None else use_norm)
    limit = convert_to_tensor(clip_norm, dtype=use_norm.dtype)
    scale = limit / maximum(use_norm, limit)
    scale = scale + (use_norm - use_norm)  # adds 0 for a finite norm; NaN for inf or NaN, which then shows everywhere
    return [None if t is None else t * scale for t in t_list], use_norm


@exported("tf.linalg")
def normalize(tensor, ord="euclidean", axis=None, name=None):
    """``tensor`` divided by its :func:`norm` (over ``axis``), and that norm:
    ``(normalized, norm)``, the norm with its reduced dimensions kept (size 1).

    >>> normalized, n = normalize([[3.0, 4.0]], axis=1)
    >>> normalized.numpy(), n.numpy()
    (array([[0.6, 0.8]], dtype=float32), array([[5.]], dtype=float32))
    """
    (x,) = convert_inputs("linalg.normalize", tensor)
    n = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / n, n
