"""Triangular solves and what is built on them: triangular_solve, cholesky_solve, qr (whose rules are
triangular solves), and pinv and lstsq, composed of :func:`~minitape.ops.decompositions.svd` and
:func:`~minitape.ops.inverses.cholesky`.

As in :mod:`.inverses`, ``ᵀ`` swaps the last two dimensions, so every rule serves a batch of matrices.
"""

import collections

import numpy as np

from ..primitive import Primitive, apply
from .arguments import broadcast_shape
from ..tensor import convert_to_tensor
from .decompositions import full_precision, svd
from .diagonals import band_part
from .elementwise import where
from .inverses import cholesky, lapack, matrices
from .products import matmul, matrix_transpose
from .reductions import reduce_max
from .shapes import concat, expand_dims
from .broadcasting import Broadcasting
from .exports import exported


# -- triangular_solve and cholesky_solve -------------------------------------------------------------------
def _substitute(a, b, lower, adjoint):
    """``X`` with ``T X = B`` for the triangle ``T`` of ``a`` (``Tᵀ X = B`` if ``adjoint``), one row at a time.

    A lower triangle is solved from the top down (row ``i`` needs the rows
    above it), an upper one from the bottom up. A zero on the diagonal gives
    ``inf`` or NaN, as in TensorFlow, which does not check for it.
    """
    if adjoint:  # the transpose of a lower triangle is an upper one
        a, lower = np.swapaxes(a, -1, -2), not lower
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:], dtype=b.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n) if lower else range(n - 1, -1, -1):
            known = slice(0, i) if lower else slice(i + 1, n)
            rest = b[..., i, :] - np.matmul(a[..., i:i + 1, known], x[..., known, :])[..., 0, :]
            x[..., i, :] = rest / a[..., i, i:i + 1]
    return x


def _triangle(x, lower):
    return band_part(x, -1, 0) if lower else band_part(x, 0, -1)


def _triangular_solve_vjp_matrix(g, x, a, b, lower, adjoint):
    b_bar = triangular_solve(a, g, lower=lower, adjoint=not adjoint)
    if adjoint:  # X = T⁻ᵀ B: Ā = −X B̄ᵀ, on the triangle
        return _triangle(-matmul(x, b_bar, transpose_b=True), lower)
    return _triangle(-matmul(b_bar, x, transpose_b=True), lower)  # X = T⁻¹ B: Ā = −B̄ Xᵀ


_triangular_solve = Broadcasting(
    "triangular_solve", _substitute, keeps="both",
    vjp=[_triangular_solve_vjp_matrix,
         lambda g, x, a, b, lower, adjoint: triangular_solve(a, g, lower=lower, adjoint=not adjoint)],
    jvp=[lambda t, x, a, b, lower, adjoint: -triangular_solve(
        a, matmul(_triangle(t, lower), x, transpose_a=adjoint), lower=lower, adjoint=adjoint),
         lambda t, x, a, b, lower, adjoint: triangular_solve(a, t, lower=lower, adjoint=adjoint)])


@exported("tf.linalg")
def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``X = T⁻¹ B`` for the lower (``lower=True``) or upper triangle ``T`` of ``matrix``; ``Tᵀ`` if ``adjoint``.

    Only that triangle is read. Batch dimensions broadcast, as in
    TensorFlow. The rules are :func:`~minitape.ops.inverses.solve`'s
    (``dX = T⁻¹ (dB − dT X)``, so ``B̄ = T⁻ᵀ X̄`` and ``T̄ = −B̄ Xᵀ``),
    with ``T̄`` kept on the triangle that was read: the other elements do
    not move ``X``. A zero on the diagonal gives ``inf`` or NaN, as in
    TensorFlow (no error).

    >>> triangular_solve([[2.0, 0.0], [1.0, 1.0]], [[2.0], [3.0]]).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    a = full_precision("linalg.triangular_solve", matrices("linalg.triangular_solve", matrix))
    b = _right_hand_side("linalg.triangular_solve", a, rhs)
    return apply(_triangular_solve, (a, b), {"lower": bool(lower), "adjoint": bool(adjoint)})


def _right_hand_side(op_name, a, rhs):
    """``rhs`` as matrices with as many rows as ``a``, of ``a``'s dtype, whose batch dimensions broadcast."""
    b = convert_to_tensor(rhs, dtype_hint=a.dtype)
    if b.dtype != a.dtype:
        raise TypeError(f"{op_name}: matrix and rhs must have the same dtype, got {a.dtype.name} and {b.dtype.name}; "
                        f"convert one: mt.cast(rhs, mt.{a.dtype.name})")
    sa, sb = a.array.shape, b.array.shape
    if len(sb) < 2 or sb[-2] != sa[-2]:
        raise ValueError(f"{op_name}: rhs of shape {sb} does not fit the matrix of shape {sa}: it must be a matrix "
                         f"(one column per system) with {sa[-2]} rows; write a vector b as mt.reshape(b, (-1, 1))")
    broadcast_shape(f"{op_name} (batch dimensions)", sa[:-2], sb[:-2])
    return b


@exported("tf.linalg")
def cholesky_solve(chol, rhs, name=None):
    """``X = A⁻¹ B`` for ``A = L Lᵀ``, given its Cholesky factor ``chol = L`` (from :func:`cholesky`).

    Two triangular solves, ``L Y = B`` and then ``Lᵀ X = Y``, so the
    derivatives are :func:`triangular_solve`'s, as in TensorFlow.

    >>> cholesky_solve([[2.0, 0.0], [1.0, 1.0]], [[4.0], [3.0]]).numpy()  # A = [[4, 2], [2, 2]]
    array([[0.5],
           [1. ]], dtype=float32)
    """
    factor = full_precision("linalg.cholesky_solve", matrices("linalg.cholesky_solve", chol))
    b = _right_hand_side("linalg.cholesky_solve", factor, rhs)
    return triangular_solve(factor, triangular_solve(factor, b, lower=True), lower=True, adjoint=True)


# -- qr -------------------------------------------------------------------------------------------------------
def _qr_forward(a, part, full_matrices):
    return lapack(lambda x: np.linalg.qr(x, "complete" if full_matrices else "reduced")[part], a)


def _qr_refused(full_matrices):
    if full_matrices:
        raise NotImplementedError("linalg.qr: a matrix with more rows than columns and full_matrices=True has no "
                                  "derivative, in TensorFlow too (the extra columns of Q are not unique); use "
                                  "full_matrices=False")


def _times_inverse_transposed(x, r):
    """``X R⁻ᵀ`` for an upper-triangular ``R``: the transpose of ``R⁻¹ Xᵀ``."""
    return matrix_transpose(triangular_solve(r, matrix_transpose(x), lower=False))


def _qr_vjp(g, ans, a, part, full_matrices):
    _qr_refused(full_matrices)
    q, r = apply(_qr, (a,), {"part": 0, "full_matrices": False}), apply(_qr, (a,), {"part": 1, "full_matrices": False})
    if part == 0:  # M = Qᵀ Q̄: Ā = Q tril(M − Mᵀ) R⁻ᵀ + (Q̄ − Q M) R⁻ᵀ
        m = matmul(q, g, transpose_a=True)
        return _times_inverse_transposed(matmul(q, band_part(m - matrix_transpose(m), -1, 0)) + g - matmul(q, m), r)
    m = matmul(r, g, transpose_b=True)  # M = R R̄ᵀ: Ā = Q (R̄ + tril(M − Mᵀ) R⁻ᵀ)
    return matmul(q, g + _times_inverse_transposed(band_part(m - matrix_transpose(m), -1, 0), r))


def _qr_jvp(t, ans, a, part, full_matrices):
    _qr_refused(full_matrices)
    q, r = apply(_qr, (a,), {"part": 0, "full_matrices": False}), apply(_qr, (a,), {"part": 1, "full_matrices": False})
    t_r = matrix_transpose(triangular_solve(r, matrix_transpose(t), lower=False, adjoint=True))  # dA R⁻¹
    c = matmul(q, t_r, transpose_a=True)  # Qᵀ dA R⁻¹ = Qᵀ dQ + dR R⁻¹
    below = band_part(c, -1, 0) - band_part(c, 0, 0)
    upper = c - below + matrix_transpose(below)  # C − Ω = dR R⁻¹, with Ω = Qᵀ dQ
    return t_r - matmul(q, upper) if part == 0 else matmul(upper, r)  # dQ = dA R⁻¹ − Q (C − Ω); dR = (C − Ω) R


_qr = Primitive("qr", _qr_forward, keeps="inputs", vjp=[_qr_vjp], jvp=[_qr_jvp])

Qr = collections.namedtuple("Qr", ["q", "r"])  # TensorFlow's name for the pair


@exported("tf.linalg")
def qr(input, full_matrices=False, name=None):
    """The QR decomposition ``A = Q R`` of each matrix: ``(q, r)`` (fields ``.q`` and ``.r``), ``Q`` with
    orthonormal columns, ``R`` upper triangular.

    For ``m x n`` and ``k = min(m, n)``, ``Q`` is ``m x k`` and ``R`` is
    ``k x n`` (``full_matrices=True``: ``m x m`` and ``m x n``). Each column
    of ``Q`` and row of ``R`` is unique up to a common sign: compare ``Q R``,
    ``|Q|``, ``|R|``.

    The rules (Walter and Lehmann 2018; Roberts and Roberts 2020, "QR and LQ
    decomposition matrix backpropagation algorithms", which TensorFlow
    cites), for ``m ≥ n``: ``dA = dQ R + Q dR``, so
    ``C = Qᵀ dA R⁻¹ = Qᵀ dQ + dR R⁻¹``. ``Ω = Qᵀ dQ`` is antisymmetric (from
    ``QᵀQ = I``) and ``dR R⁻¹`` upper triangular, so ``Ω`` is the strictly
    lower part of ``C`` minus its transpose, ``dR = (C − Ω) R`` and
    ``dQ = dA R⁻¹ − Q (C − Ω)``. The trace trick gives
    ``Ā = Q (R̄ + tril(R R̄ᵀ − R̄ Rᵀ) R⁻ᵀ)`` from ``R`` and
    ``Ā = [Q tril(M − Mᵀ) + Q̄ − Q M] R⁻ᵀ`` with ``M = Qᵀ Q̄`` from ``Q``.
    They need ``R`` invertible (``A`` of full rank). A wide matrix
    ``[X Y]`` (``m < n``) is ``X = Q U`` and ``R = [U  Qᵀ Y]``, so its rules
    follow from the square case, as in TensorFlow; a tall one with
    ``full_matrices=True`` has no derivative, in TensorFlow too.

    >>> q, r = qr([[3.0, 1.0], [4.0, 2.0]])
    >>> abs(r.numpy()).round(2)
    array([[5. , 2.2],
           [0. , 0.4]], dtype=float32)
    """
    a = matrices("linalg.qr", input, square=False)
    m, n = a.array.shape[-2:]
    if m < n:
        x, y = a[..., :m], a[..., m:]
        q, u = qr(x)
        return Qr(q, concat([u, matmul(q, y, transpose_a=True)], axis=-1))
    full = bool(full_matrices) and m > n  # for a square matrix both are the same
    return Qr(*(apply(_qr, (a,), {"part": part, "full_matrices": full}) for part in (0, 1)))


# -- built from the decompositions: pinv, lstsq -----------------------------------------------------------
@exported("tf.linalg")
def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse ``A⁺ = V S⁺ Uᵀ`` of each matrix, from its :func:`svd`.

    ``S⁺`` inverts the singular values above ``rcond`` times the largest
    and sets the others to 0 (by dividing by ``inf``, which keeps the
    gradient finite), as TensorFlow does; ``rcond`` defaults to
    ``10 max(m, n) ε``. Its derivatives are :func:`svd`'s, so they need
    distinct singular values, as in TensorFlow.

    >>> pinv([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]).numpy()
    array([[1. , 0. , 0. ],
           [0. , 0.5, 0. ]], dtype=float32)
    """
    x = full_precision("linalg.pinv", matrices("linalg.pinv", a, square=False))
    if rcond is None:
        rcond = 10.0 * max(x.array.shape[-2:]) * np.finfo(x.array.dtype).eps
    s, u, v = svd(x)
    cutoff = convert_to_tensor(rcond, dtype=x.dtype) * reduce_max(s, axis=-1, keepdims=True)
    kept = where(s > cutoff, s, np.array(np.inf, x.array.dtype))
    return matmul(v / expand_dims(kept, -2), u, transpose_b=True)


@exported("tf.linalg")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution ``X`` of ``A X ≈ B``: the ``X`` that minimizes ``‖A X − B‖² + λ ‖X‖²``.

    TensorFlow's fast path, the normal equations solved with a Cholesky
    factor: for ``m ≥ n`` (more equations than unknowns)
    ``X = (AᵀA + λI)⁻¹ Aᵀ B``; for ``m < n`` the solution of least norm,
    ``X = Aᵀ (A Aᵀ + λI)⁻¹ B``. It is built from :func:`cholesky` and
    :func:`cholesky_solve`, so its derivatives are theirs; they are
    TensorFlow's (whose rule differentiates the same formula). It squares
    the condition number of ``A``: for a nearly rank-deficient ``A``, use
    ``l2_regularizer > 0``. A rank-deficient ``A`` with ``λ = 0`` gives NaN,
    as in TensorFlow. ``fast=False`` is the solution of least norm without
    the normal equations, ``pinv(A) B``, which ignores ``l2_regularizer``, as
    TensorFlow does; its derivatives are :func:`pinv`'s (TensorFlow has none).

    >>> lstsq([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[1.0], [1.0], [3.0]]).numpy().round(4)  # 4/3 each
    array([[1.3333],
           [1.3333]], dtype=float32)
    """
    a = full_precision("linalg.lstsq", matrices("linalg.lstsq", matrix, square=False))
    b = _right_hand_side("linalg.lstsq", a, rhs)
    if not fast:
        return matmul(pinv(a), b)
    m, n = a.array.shape[-2:]
    regularizer = convert_to_tensor(l2_regularizer, dtype=a.dtype)
    first_kind = m >= n
    gramian = matmul(a, a, transpose_a=first_kind, transpose_b=not first_kind)
    identity = np.eye(n if first_kind else m, dtype=a.array.dtype)
    chol = cholesky(gramian + regularizer * identity)
    if first_kind:
        return cholesky_solve(chol, matmul(a, b, transpose_a=True))
    return matmul(a, cholesky_solve(chol, b), transpose_a=True)
