"""Decompositions: eigh (and eigvalsh) and svd. QR, whose rules are triangular solves, is in
:mod:`.solvers`, with the solvers built on the decompositions (cholesky_solve, pinv, lstsq).

A decomposition has several outputs (``eigh`` gives eigenvalues and
eigenvectors); each output is its own primitive of the same input matrix, so
each has one VJP and one JVP rule, and a loss that reads only the eigenvalues
costs only their rule. The rules are written with minitape ops, among them
the decomposition itself, so nested tapes give second derivatives.

As in :mod:`.inverses`, ``ᵀ`` swaps the last two dimensions, so every rule
serves a batch of matrices; ``∘`` is the elementwise product, and a diagonal
matrix ``S`` times ``X`` scales the rows of ``X`` (``X S`` its columns).

The derivatives of eigenvectors and singular vectors divide by the gaps
between eigenvalues (or squared singular values). Where two are equal the
vectors are not unique and the derivative does not exist; TensorFlow then
replaces ``1 / gap`` by ``gap / (gap² + 1e-20)``, which is 0 for an exact
tie, and so does minitape (:func:`_safe_reciprocal`): a finite number that
is the derivative only when the vectors do not depend on the tie.
"""


import numpy as np

from ..primitive import Primitive, apply
from .diagonals import diag_part
from .inverses import matrices, phi
from .products import matmul, matrix_transpose
from .shapes import concat, expand_dims
from .exports import exported


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


def full_precision(op_name, x):
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


@exported("tf.linalg")
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
    a = full_precision("linalg.eigh", matrices("linalg.eigh", tensor))
    return apply(_eigh, (a,), {"part": 0}), apply(_eigh, (a,), {"part": 1})


@exported("tf.linalg")
def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of symmetric matrices: :func:`eigh`'s first output, with its gradient
    ``V diag(ē) Vᵀ`` (on the lower triangle).

    >>> eigvalsh([[2.0, 1.0], [1.0, 2.0]]).numpy()
    array([1., 3.], dtype=float32)
    """
    a = full_precision("linalg.eigvalsh", matrices("linalg.eigvalsh", tensor))
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


@exported("tf.linalg")
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
    a = full_precision("linalg.svd", matrices("linalg.svd", tensor, square=False))
    s = apply(_svd, (a,), {"part": 0, "full_matrices": False})
    if not compute_uv:
        return s
    full = bool(full_matrices)
    return s, apply(_svd, (a,), {"part": 1, "full_matrices": full}), apply(_svd, (a,), {"part": 2,
                                                                                        "full_matrices": full})
