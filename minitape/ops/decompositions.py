"""Decompositions and the solvers built on them: eigh, svd, qr, triangular_solve; then pinv, lstsq and
cholesky_solve, composed of those.

A decomposition has several outputs (``eigh`` gives eigenvalues and
eigenvectors); each output is its own primitive of the same input matrix, so
each has one VJP and one JVP rule, and a loss that reads only the eigenvalues
costs only their rule. The rules are written with minitape ops, among them
the decomposition itself, so nested tapes give second derivatives.

As in :mod:`.linalg`, ``ᵀ`` swaps the last two dimensions, so every rule
serves a batch of matrices; ``∘`` is the elementwise product, and a diagonal
matrix ``S`` times ``X`` scales the rows of ``X`` (``X S`` its columns).

The derivatives of eigenvectors and singular vectors divide by the gaps
between eigenvalues (or squared singular values). Where two are equal the
vectors are not unique and the derivative does not exist; TensorFlow then
replaces ``1 / gap`` by ``gap / (gap² + 1e-20)``, which is 0 for an exact
tie, and so does minitape (:func:`_safe_reciprocal`): a finite number that
is the derivative only when the vectors do not depend on the tie.
"""

import collections

import numpy as np

from ..primitive import Primitive, apply, broadcast_shape
from ..tensor import convert_to_tensor
from .elementwise import where
from .diagonals import band_part, diag_part
from .inverses import cholesky, lapack, matrices, phi
from .products import matmul, matrix_transpose
from .reductions import reduce_max
from .shapes import Broadcasting, concat, expand_dims


# -- helpers shared by the rules ----------------------------------------------------------------------
def _safe_reciprocal(x):
    """``1 / x``, but 0 at ``x = 0``: TensorFlow's ``x / (x² + 1e-20)``, smooth, so its own derivatives exist."""
    return x / (x * x + 1e-20)


def _gaps(values):
    """``F`` with ``F[i, j] = 1 / (values[j] − values[i])`` off the diagonal and 0 on it (exact ties give 0)."""
    n = values.array.shape[-1]
    identity, off_diagonal = np.eye(n, dtype=values.array.dtype), 1.0 - np.eye(n, dtype=values.array.dtype)
    # The diagonal's gap is 0, where the safe reciprocal's slope is 1e20: a second derivative would multiply that
    # slope by a cotangent and cancel it between values[i] and itself only up to rounding (about 1e4 here). So the
    # diagonal gets gap 1 and then F = 0 there, with a slope of exactly 0.
    return off_diagonal * _safe_reciprocal(expand_dims(values, -2) - expand_dims(values, -1) + identity)


def _full_precision(op_name, x):
    """TensorFlow has these decompositions for float32 and float64 only (float16 has no kernel)."""
    if x.dtype.name == "float16":
        raise TypeError(f"{op_name}: float16 matrices are not supported, as in TensorFlow; convert them first, "
                        f"e.g. mt.cast(a, mt.float32)")
    return x


def _columns_times(x, s):
    """``X S``: column ``j`` of ``X`` times ``s[j]``."""
    return x * expand_dims(s, -2)


def _rows_times(s, x):
    """``S X``: row ``i`` of ``X`` times ``s[i]``."""
    return expand_dims(s, -1) * x


# -- eigh: eigenvalues and eigenvectors of a symmetric matrix ----------------------------------------------
def _eigh_forward(a, part):
    return np.linalg.eigh(a)[part]  # NumPy reads the lower triangle (UPLO="L"), as TensorFlow does


def _read_matrix(t):
    """The symmetric matrix that ``eigh`` reads from ``t``: its lower triangle, mirrored (``Φ(T) + Φ(T)ᵀ``)."""
    lower = phi(t)
    return lower + matrix_transpose(lower)


def _lower_gradient(g):
    """The gradient of the lower triangle that ``eigh`` reads, from ``G``, the gradient for a full symmetric
    ``A``: an element ``A[i, j]`` below the diagonal is read as both ``A[i, j]`` and ``A[j, i]``."""
    return phi(g + matrix_transpose(g))


def _eigenvalues_vjp(g, e, a):
    v = apply(_eigh, (a,), {"part": 1})
    return _lower_gradient(matmul(_columns_times(v, g), v, transpose_b=True))  # V diag(ē) Vᵀ


def _eigenvectors_vjp(g, v, a):
    f = _gaps(apply(_eigh, (a,), {"part": 0}))
    return _lower_gradient(matmul(v, matmul(f * matmul(v, g, transpose_a=True), v, transpose_b=True)))


def _eigh_jvp(t, ans, a, part):
    e, v = apply(_eigh, (a,), {"part": 0}), apply(_eigh, (a,), {"part": 1})
    p = matmul(v, matmul(_read_matrix(t), v), transpose_a=True)  # Vᵀ dA V
    return diag_part(p) if part == 0 else matmul(v, _gaps(e) * p)


def _eigh_vjp(g, ans, a, part):
    return _eigenvalues_vjp(g, ans, a) if part == 0 else _eigenvectors_vjp(g, ans, a)


_eigh = Primitive("eigh", _eigh_forward, keeps="both", vjp=[_eigh_vjp], jvp=[_eigh_jvp])


def eigh(tensor, name=None):
    """The eigenvalues ``e`` (ascending) and eigenvectors ``V`` (columns) of symmetric matrices: ``(e, V)``.

    ``A = V diag(e) Vᵀ``; only the lower triangle of ``A`` is read, as in
    TensorFlow. Each eigenvector is unique up to its sign only, so compare
    what does not depend on it (``e``, ``|V|``, ``V diag(e) Vᵀ``).

    The rules (Giles 2008, "An extended collection of matrix derivative
    results"): differentiate ``A V = V Λ`` and multiply by ``Vᵀ``:
    with ``P = Vᵀ dA V`` and ``dV = V C``, ``P + Λ C = C Λ + dΛ``. Its
    diagonal gives ``dλᵢ = Pᵢᵢ``; off it, ``Cᵢⱼ = Pᵢⱼ / (λⱼ − λᵢ)``, so
    ``dV = V (F ∘ P)`` with ``Fᵢⱼ = 1 / (λⱼ − λᵢ)`` (0 for ``i = j``: the
    vectors stay of unit length). The trace trick turns these into
    ``Ā = V (diag(ē) + F ∘ (Vᵀ V̄)) Vᵀ``; since ``A[i, j]`` below the
    diagonal is read as both ``A[i, j]`` and ``A[j, i]``, the gradient of
    the lower triangle is ``Φ(Ā + Āᵀ)`` (and 0 above the diagonal), as in
    TensorFlow. At repeated eigenvalues ``F`` is 0 there (see the module's
    note): the eigenvalues' gradient is still right; the eigenvectors' is
    right only for a loss that does not depend on the choice of vectors.

    >>> e, v = eigh([[2.0, 1.0], [1.0, 2.0]])
    >>> e.numpy()
    array([1., 3.], dtype=float32)
    """
    a = _full_precision("linalg.eigh", matrices("linalg.eigh", tensor))
    return apply(_eigh, (a,), {"part": 0}), apply(_eigh, (a,), {"part": 1})


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of symmetric matrices: :func:`eigh`'s first output, with its gradient
    ``V diag(ē) Vᵀ`` (on the lower triangle).

    >>> eigvalsh([[2.0, 1.0], [1.0, 2.0]]).numpy()
    array([1., 3.], dtype=float32)
    """
    a = _full_precision("linalg.eigvalsh", matrices("linalg.eigvalsh", tensor))
    return apply(_eigh, (a,), {"part": 0})


# -- svd -----------------------------------------------------------------------------------------------------
def _svd_forward(a, part, full_matrices):
    if part == 0:
        return np.linalg.svd(a, compute_uv=False)
    u, _, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return u if part == 1 else np.swapaxes(vh, -1, -2)


def _factors(a, full_matrices):
    """``s, U, V`` of ``a`` as recorded ops (the rules differentiate through them), with ``U`` and ``V`` cut to
    ``k = min(m, n)`` columns; computed as the output was (``full_matrices``), so that their signs are its signs."""
    k = min(a.array.shape[-2:])
    s = apply(_svd, (a,), {"part": 0, "full_matrices": False})
    u, v = (apply(_svd, (a,), {"part": part, "full_matrices": full_matrices}) for part in (1, 2))
    return (s, u[..., :, :k], v[..., :, :k]) if full_matrices else (s, u, v)


def _extra_column(a, part, full_matrices):
    """The column that ``full_matrices=True`` adds to ``U`` (part 1) or ``V`` (part 2), or None if it adds none.

    With one extra column ``w``, of unit length and orthogonal to the ``k``
    others ``W``, the columns span the space, so ``dw = −W dWᵀ w``: ``w``
    follows ``W``. With more, they can turn among themselves: no derivative,
    as in TensorFlow.
    """
    m, n = a.array.shape[-2:]
    extra = (m - n if part == 1 else n - m) if full_matrices else 0
    if extra > 1:
        raise NotImplementedError(f"linalg.svd: the extra columns of {'U' if part == 1 else 'V'} for "
                                  f"full_matrices=True (here {extra} of them, for a {m} x {n} matrix) are not unique, "
                                  f"so they have no derivative, in TensorFlow too; use full_matrices=False")
    return apply(_svd, (a,), {"part": part, "full_matrices": True})[..., :, min(m, n):] if extra == 1 else None


def _svd_vjp(g, ans, a, part, full_matrices):
    s, u, v = _factors(a, full_matrices)
    if part == 0:  # Ā = U diag(s̄) Vᵀ
        return matmul(_columns_times(u, g), v, transpose_b=True)
    w = _extra_column(a, part, full_matrices)
    if w is not None:  # dw = −W dWᵀ w puts −w w̄ᵀ W into W̄
        k = u.array.shape[-1]
        g = g[..., :, :k] - matmul(w, matmul(g[..., :, k:], u if part == 1 else v, transpose_a=True))
    if part == 1:  # Ā = [U (J + Jᵀ) S + (I − U Uᵀ) Ū S⁻¹] Vᵀ with J = F ∘ (Uᵀ Ū)
        j = _gaps(s * s) * matmul(u, g, transpose_a=True)
        inside = _columns_times(matmul(u, j + matrix_transpose(j)), s)
        outside = _columns_times(g - matmul(u, matmul(u, g, transpose_a=True)), _safe_reciprocal(s))
        return matmul(inside + outside, v, transpose_b=True)
    # Ā = U [S (K + Kᵀ) Vᵀ + S⁻¹ V̄ᵀ (I − V Vᵀ)] with K = F ∘ (Vᵀ V̄)
    k = _gaps(s * s) * matmul(v, g, transpose_a=True)
    inside = _rows_times(s, matmul(k + matrix_transpose(k), v, transpose_b=True))
    outside = _rows_times(_safe_reciprocal(s), matrix_transpose(g - matmul(v, matmul(v, g, transpose_a=True))))
    return matmul(u, inside + outside)


def _svd_jvp(t, ans, a, part, full_matrices):
    s, u, v = _factors(a, full_matrices)
    p = matmul(u, matmul(t, v), transpose_a=True)  # Uᵀ dA V
    if part == 0:  # ds = diag(P)
        return diag_part(p)
    pt = matrix_transpose(p)
    if part == 1:  # dU = U (F ∘ (P S + S Pᵀ)) + (I − U Uᵀ) dA V S⁻¹
        inside = matmul(u, _gaps(s * s) * (_columns_times(p, s) + _rows_times(s, pt)))
        d = inside + _columns_times(matmul(t, v) - matmul(u, p), _safe_reciprocal(s))
    else:  # dV = V (F ∘ (S P + Pᵀ S)) + (I − V Vᵀ) dAᵀ U S⁻¹
        inside = matmul(v, _gaps(s * s) * (_rows_times(s, p) + _columns_times(pt, s)))
        d = inside + _columns_times(matmul(t, u, transpose_a=True) - matmul(v, pt), _safe_reciprocal(s))
    w = _extra_column(a, part, full_matrices)
    if w is None:
        return d
    return concat([d, -matmul(u if part == 1 else v, matmul(d, w, transpose_a=True))], axis=-1)  # dw = −W dWᵀ w


_svd = Primitive("svd", _svd_forward, keeps="inputs", vjp=[_svd_vjp], jvp=[_svd_jvp])


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular value decomposition ``A = U diag(s) Vᵀ`` of each matrix: ``(s, U, V)``, in TensorFlow's order.

    ``s`` is in descending order; ``V`` is returned, not ``Vᵀ`` (NumPy
    returns ``Vᵀ``, and first ``U``). For an ``m x n`` matrix and
    ``k = min(m, n)``, ``U`` is ``m x k`` and ``V`` is ``n x k``
    (``full_matrices=True``: ``m x m`` and ``n x n``). With
    ``compute_uv=False`` only ``s`` is returned. A pair of singular vectors
    is unique up to a common sign: compare ``s``, ``|U|``, ``U diag(s) Vᵀ``.

    The rules (Townsend 2016, "Differentiating the singular value
    decomposition"; Giles 2008 for ``s``): with ``P = Uᵀ dA V``,
    ``ds = diag(P)``; ``A Aᵀ = U S² Uᵀ`` is an eigen-decomposition, so
    :func:`eigh`'s rule gives ``dU = U (F ∘ (P S + S Pᵀ)) + (I − U Uᵀ) dA V S⁻¹``
    with ``Fᵢⱼ = 1 / (sⱼ² − sᵢ²)`` (the last term: the part of ``dU``
    outside ``U``'s columns, for ``m > k``), and likewise
    ``dV = V (F ∘ (S P + Pᵀ S)) + (I − V Vᵀ) dAᵀ U S⁻¹``. The trace trick
    gives ``Ā = U diag(s̄) Vᵀ`` from ``s``;
    ``[U (J + Jᵀ) S + (I − U Uᵀ) Ū S⁻¹] Vᵀ`` with ``J = F ∘ (Uᵀ Ū)`` from
    ``U``; ``U [S (K + Kᵀ) Vᵀ + S⁻¹ V̄ᵀ (I − V Vᵀ)]`` with ``K = F ∘ (Vᵀ V̄)``
    from ``V``. The gradient of ``s`` always exists where the singular
    values are distinct; ``U`` and ``V``'s need them distinct and nonzero.
    At a tie ``F`` is 0 and at ``s = 0`` ``S⁻¹`` is 0, as in TensorFlow (see
    the module's note). For ``full_matrices=True`` the extra columns follow
    the others if there is one of them (``|m − n| = 1``, see
    :func:`_extra_column`); more have no derivative, as in TensorFlow.

    >>> svd([[3.0, 0.0], [0.0, -4.0]], compute_uv=False).numpy()
    array([4., 3.], dtype=float32)
    """
    a = _full_precision("linalg.svd", matrices("linalg.svd", tensor, square=False))
    s = apply(_svd, (a,), {"part": 0, "full_matrices": False})
    if not compute_uv:
        return s
    full = bool(full_matrices)
    return s, apply(_svd, (a,), {"part": 1, "full_matrices": full}), apply(_svd, (a,), {"part": 2,
                                                                                        "full_matrices": full})


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


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``X = T⁻¹ B`` for the lower (``lower=True``) or upper triangle ``T`` of ``matrix``; ``Tᵀ`` if ``adjoint``.

    Only that triangle is read. Batch dimensions broadcast, as in
    TensorFlow. The rules are :func:`~minitape.ops.linalg.solve`'s
    (``dX = T⁻¹ (dB − dT X)``, so ``B̄ = T⁻ᵀ X̄`` and ``T̄ = −B̄ Xᵀ``),
    with ``T̄`` kept on the triangle that was read: the other elements do
    not move ``X``. A zero on the diagonal gives ``inf`` or NaN, as in
    TensorFlow (no error).

    >>> triangular_solve([[2.0, 0.0], [1.0, 1.0]], [[2.0], [3.0]]).numpy()
    array([[1.],
           [2.]], dtype=float32)
    """
    a = _full_precision("linalg.triangular_solve", matrices("linalg.triangular_solve", matrix))
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


def cholesky_solve(chol, rhs, name=None):
    """``X = A⁻¹ B`` for ``A = L Lᵀ``, given its Cholesky factor ``chol = L`` (from :func:`cholesky`).

    Two triangular solves, ``L Y = B`` and then ``Lᵀ X = Y``, so the
    derivatives are :func:`triangular_solve`'s, as in TensorFlow.

    >>> cholesky_solve([[2.0, 0.0], [1.0, 1.0]], [[4.0], [3.0]]).numpy()  # A = [[4, 2], [2, 2]]
    array([[0.5],
           [1. ]], dtype=float32)
    """
    factor = _full_precision("linalg.cholesky_solve", matrices("linalg.cholesky_solve", chol))
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
    x = _full_precision("linalg.pinv", matrices("linalg.pinv", a, square=False))
    if rcond is None:
        rcond = 10.0 * max(x.array.shape[-2:]) * np.finfo(x.array.dtype).eps
    s, u, v = svd(x)
    cutoff = convert_to_tensor(rcond, dtype=x.dtype) * reduce_max(s, axis=-1, keepdims=True)
    kept = where(s > cutoff, s, np.array(np.inf, x.array.dtype))
    return matmul(v / expand_dims(kept, -2), u, transpose_b=True)


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
    a = _full_precision("linalg.lstsq", matrices("linalg.lstsq", matrix, square=False))
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


__all__ = []  # TensorFlow has these only under tf.linalg: see ops/__init__.py
