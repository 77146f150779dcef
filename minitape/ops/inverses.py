"""Inverses, linear solves, determinants and the Cholesky factor, with the checks and LAPACK calls the
matrix ops share.

Every op works on a matrix or a batch of matrices (leading dimensions), and
every rule below is written for one matrix: ``ᵀ`` swaps the last two
dimensions, so the same code serves a batch. Each rule follows from the op's
differential, the way a change ``dA`` of the input moves the output (matmul's
rule, the first row, is in :mod:`.products`; the others are in this module):

====================  ===================================  ===========================================
op                    differential                         gradient (VJP), from the differential
====================  ===================================  ===========================================
``C = A B``           ``dC = dA B + A dB``                 ``Ā = C̄ Bᵀ``, ``B̄ = Aᵀ C̄``
``Y = A⁻¹``           ``dY = −Y dA Y``                     ``Ā = −Yᵀ Ȳ Yᵀ``
``X = A⁻¹ B``         ``dX = A⁻¹ (dB − dA X)``             ``B̄ = A⁻ᵀ X̄``, ``Ā = −B̄ Xᵀ``
``d = det A``         ``dd = d · tr(A⁻¹ dA)``              ``Ā = d̄ · d · A⁻ᵀ``
``l = log|det A|``    ``dl = tr(A⁻¹ dA)``                  ``Ā = l̄ · A⁻ᵀ``
``L = chol(A)``       ``dL = L Φ(L⁻¹ dA L⁻ᵀ)``             ``Ā = sym(L⁻ᵀ Φ(Lᵀ L̄) L⁻¹)``
====================  ===================================  ===========================================

The step from a differential to a gradient is always the same: the gradient
``Ā`` is the matrix with ``tr(Āᵀ dA) = tr(C̄ᵀ dC)`` for every ``dA``, and
``tr(P Q) = tr(Q P)`` moves the other factors onto ``C̄``. The JVP rule is the
differential itself, with the tangent for ``dA``. The rules are written with
minitape ops (``solve``'s gradient is itself a ``solve``), so nested tapes give
second derivatives.

Singular matrices are handled as in TensorFlow: ``inv`` and ``solve`` raise
ValueError, ``det`` is 0 and ``slogdet`` gives sign 0 and ``-inf``, but their
gradients need ``A⁻¹`` and raise; ``cholesky`` of a matrix that is not
positive definite gives NaN (with a warning here).
"""

import collections
import warnings

import numpy as np

from ..primitive import Primitive, apply
from .arguments import convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .creation import zeros_like
from .diagonals import diag_part
from .elementwise import log
from .products import matmul, matrix_transpose
from .reductions import reduce_sum
from .shapes import expand_dims
from .exports import exported


# -- checks and NumPy's LAPACK ---------------------------------------------------------------------
def matrices(op_name, x, square=True):
    """``x`` as a tensor of floating-point matrices (square ones, unless ``square`` is False)."""
    (x,) = convert_inputs(op_name, x)
    shape = x.array.shape
    if x.dtype.name not in ("float16", "float32", "float64"):
        raise TypeError(f"{op_name}: expected floating-point matrices (float16, float32 or float64), got "
                        f"{x.dtype.name}; convert them first, e.g. mt.cast(a, mt.float32)")
    if len(shape) < 2:
        raise ValueError(f"{op_name}: expected a matrix or a batch of matrices (at least 2 dimensions), got "
                         f"shape {shape}")
    if square and shape[-1] != shape[-2]:
        raise ValueError(f"{op_name}: the matrix must be square, got shape {shape} ({shape[-2]} rows, "
                         f"{shape[-1]} columns)")
    return x


def lapack(fn, a, *rest):
    """``fn(a, *rest)`` with NumPy's LAPACK routines, which have no float16: that is computed in float32."""
    if a.dtype != np.float16:
        return fn(a, *rest)
    result = fn(a.astype(np.float32), *[r.astype(np.float32) for r in rest])
    return tuple(r.astype(np.float16) for r in result) if isinstance(result, tuple) else result.astype(np.float16)


def not_invertible(op_name, what):
    return ValueError(f"{op_name}: {what} is not invertible (it is singular: its rows are linearly dependent, or it "
                      f"holds NaN), as TensorFlow also says. Check how it was built, or make it invertible, e.g. "
                      f"a + 1e-6 * mt.eye(n)")


def _invert(op_name, a, adjoint):
    if np.isnan(a).any():  # LAPACK would return NaN; TensorFlow's pivots test refuses it
        raise not_invertible(op_name, "the matrix")
    try:
        inverse = lapack(np.linalg.inv, a)
    except np.linalg.LinAlgError:
        raise not_invertible(op_name, "the matrix") from None
    return np.swapaxes(inverse, -1, -2) if adjoint else inverse


# -- inv ----------------------------------------------------------------------------------------
def _inv_vjp(g, y, a, adjoint):
    if adjoint:  # Y = A⁻ᵀ: dY = −Y dAᵀ Y, so Ā = −Y Ḡᵀ Y
        return -matmul(y, matmul(g, y, transpose_a=True))
    return -matmul(y, matmul(g, y, transpose_b=True), transpose_a=True)  # Ā = −Yᵀ Ḡ Yᵀ


_inv = Primitive("inv", lambda a, adjoint: _invert("linalg.inv", a, adjoint), keeps="output", vjp=[_inv_vjp],
                 jvp=[lambda t, y, a, adjoint: -matmul(y, matmul(t, y, transpose_a=adjoint))])


@exported("tf.linalg")
def inv(input, adjoint=False, name=None):
    """The inverse ``A⁻¹`` of each square matrix (``adjoint=True``: of its transpose, ``A⁻ᵀ``).

    Its rule: from ``A Y = I``, ``dA Y + A dY = 0``, so ``dY = −Y dA Y``
    (the JVP), and ``tr(Ȳᵀ dY) = tr(−Y Ȳᵀ Y dA)`` gives ``Ā = −Yᵀ Ȳ Yᵀ``.
    A singular matrix is a ValueError, as in TensorFlow (InvalidArgumentError
    there). To solve ``A x = b``, :func:`solve` is faster and more accurate
    than ``inv(A) @ b``.

    >>> inv([[2.0, 0.0], [0.0, 4.0]]).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)
    """
    a = matrices("linalg.inv", input)
    return apply(_inv, (a,), {"adjoint": bool(adjoint)})


# -- solve ----------------------------------------------------------------------------------------
def _solve_forward(a, b, adjoint):
    if np.isnan(a).any():
        raise not_invertible("linalg.solve", "the matrix")
    try:
        return lapack(np.linalg.solve, np.swapaxes(a, -1, -2) if adjoint else a, b)
    except np.linalg.LinAlgError:
        raise not_invertible("linalg.solve", "the matrix") from None


def _solve_vjp_matrix(g, x, a, b, adjoint):
    b_bar = solve(a, g, adjoint=not adjoint)
    if adjoint:  # X = A⁻ᵀ B: dX = −A⁻ᵀ dAᵀ X, so Ā = −X B̄ᵀ
        return -matmul(x, b_bar, transpose_b=True)
    return -matmul(b_bar, x, transpose_b=True)  # dX = −A⁻¹ dA X, so Ā = −B̄ Xᵀ


_solve = Primitive(
    "solve", _solve_forward, keeps="both",
    vjp=[_solve_vjp_matrix, lambda g, x, a, b, adjoint: solve(a, g, adjoint=not adjoint)],
    jvp=[lambda t, x, a, b, adjoint: -solve(a, matmul(t, x, transpose_a=adjoint), adjoint=adjoint),
         lambda t, x, a, b, adjoint: solve(a, t, adjoint=adjoint)])


@exported("tf.linalg")
def solve(matrix, rhs, adjoint=False, name=None):
    """``X = A⁻¹ B``: the solution of ``A X = B`` (``adjoint=True``: of ``Aᵀ X = B``).

    ``rhs`` is a matrix (one column per system) with the same batch
    dimensions as ``matrix``; write a vector ``b`` as ``mt.reshape(b, (-1, 1))``.

    Its rule: ``A X = B`` gives ``dA X + A dX = dB``, so
    ``dX = A⁻¹ (dB − dA X)``. Transposing, ``B̄ = A⁻ᵀ X̄``: the gradient
    solves the *transposed* system, ``solve(A, X̄, adjoint=True)``, with the
    same matrix and no differentiation through the solver. Then
    ``Ā = −B̄ Xᵀ``. With ``adjoint=True`` the roles swap: ``B̄ = A⁻¹ X̄`` and
    ``Ā = −X B̄ᵀ``. A singular matrix is a ValueError, as in TensorFlow.

    >>> solve([[2.0, 0.0], [0.0, 4.0]], [[1.0], [1.0]]).numpy()
    array([[0.5 ],
           [0.25]], dtype=float32)
    """
    a = matrices("linalg.solve", matrix)
    b = convert_to_tensor(rhs, dtype_hint=a.dtype)  # a list takes the matrix's dtype
    if b.dtype != a.dtype:
        raise TypeError(f"linalg.solve: matrix and rhs must have the same dtype, got {a.dtype.name} and "
                        f"{b.dtype.name}; convert one: mt.cast(rhs, mt.{a.dtype.name})")
    sa, sb = a.array.shape, b.array.shape
    if len(sb) != len(sa):
        raise ValueError(f"linalg.solve: matrix and rhs must have the same rank, got shapes {sa} and {sb}; rhs holds "
                         f"one column per system: write a vector b as mt.reshape(b, (-1, 1))")
    if sb[:-2] != sa[:-2] or sb[-2] != sa[-1]:
        raise ValueError(f"linalg.solve: rhs of shape {sb} does not fit the matrix of shape {sa}: it needs "
                         f"{sa[-1]} rows and the same batch dimensions {sa[:-2]}")
    return apply(_solve, (a, b), {"adjoint": bool(adjoint)})


# -- det and slogdet --------------------------------------------------------------------------------
def _inverse_transposed(op_name, a):
    """``A⁻ᵀ``, which the gradients of det and slogdet need: a singular ``a`` says whose gradient failed."""
    try:
        return inv(a, adjoint=True)
    except ValueError:
        raise not_invertible(f"the gradient of {op_name} (A⁻ᵀ)", "the matrix") from None


def _per_matrix(s):
    """A value per matrix (shape ``batch``) made to broadcast against the matrices (``batch + (1, 1)``)."""
    return expand_dims(expand_dims(s, -1), -1)


_det = Primitive(
    "det", lambda a: lapack(np.linalg.det, a), keeps="both",
    vjp=[lambda g, d, a: _per_matrix(g * d) * _inverse_transposed("linalg.det", a)],
    jvp=[lambda t, d, a: d * reduce_sum(_inverse_transposed("linalg.det", a) * t, [-2, -1])])


@exported("tf.linalg")
def det(input, name=None):
    """The determinant of each square matrix.

    Its rule is Jacobi's formula, ``d det A = det A · tr(A⁻¹ dA)``; since
    ``tr(A⁻¹ dA)`` is the sum of ``A⁻ᵀ ∘ dA``, the gradient is
    ``Ā = d̄ · det A · A⁻ᵀ``. A singular matrix has determinant 0, but its
    gradient, like TensorFlow's, needs ``A⁻¹`` and is a ValueError.

    >>> float(det([[2.0, 1.0], [1.0, 3.0]]))
    5.0
    """
    return apply(_det, (matrices("linalg.det", input),))


_log_abs_det = Primitive(
    "log_abs_det", lambda a: lapack(np.linalg.slogdet, a)[1],
    vjp=[lambda g, y, a: _per_matrix(g) * _inverse_transposed("linalg.slogdet", a)],
    jvp=[lambda t, y, a: reduce_sum(_inverse_transposed("linalg.slogdet", a) * t, [-2, -1])])
# The sign is constant wherever it is defined: its gradient is 0 (TensorFlow's too), not None.
_sign_of_det = Primitive("sign_of_det", lambda a: lapack(np.linalg.slogdet, a)[0],
                         vjp=[lambda g, s, a: zeros_like(a)], jvp=[lambda t, s, a: zeros_like(s)])

LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


@exported("tf.linalg")
def slogdet(input, name=None):
    """The sign and the log of the absolute value of each determinant: ``(sign, log|det A|)``.

    For large matrices the determinant itself overflows or underflows; its
    logarithm does not. Its rule: ``d log|det A| = tr(A⁻¹ dA)``, so the
    gradient is ``ḡ · A⁻ᵀ``; the sign's gradient is 0. A singular matrix
    gives sign 0 and ``-inf`` (its gradient is a ValueError, as in TensorFlow).

    >>> sign, log_abs = slogdet([[-2.0, 1.0], [1.0, 3.0]])  # det = -7
    >>> float(sign), round(float(log_abs), 4)
    (-1.0, 1.9459)
    """
    a = matrices("linalg.slogdet", input)
    return LogMatrixDeterminant(apply(_sign_of_det, (a,)), apply(_log_abs_det, (a,)))


@exported("tf.linalg")
def logdet(matrix, name=None):
    """``log det A`` of a symmetric positive-definite matrix, as ``2 Σ log Lᵢᵢ`` with ``L = cholesky(A)``.

    >>> round(float(logdet([[2.0, 1.0], [1.0, 3.0]])), 5)  # log 5
    1.60944
    """
    return 2.0 * reduce_sum(log(diag_part(cholesky(matrix))), -1)


# -- cholesky ---------------------------------------------------------------------------------------
def _cholesky_forward(a):
    try:
        return lapack(np.linalg.cholesky, a)
    except np.linalg.LinAlgError:  # TensorFlow returns NaN for the matrices that fail; so do we, one by one
        warnings.warn("linalg.cholesky: a matrix is not symmetric positive definite; its factor is NaN, as in "
                      "TensorFlow. Check how it was built, or add a small multiple of the identity "
                      "(a + 1e-6 * mt.eye(n))", UserWarning, stacklevel=4)
        out = np.zeros_like(a)
        flat_a, flat_out = a.reshape((-1,) + a.shape[-2:]), out.reshape((-1,) + a.shape[-2:])
        for k, m in enumerate(flat_a):
            try:
                flat_out[k] = lapack(np.linalg.cholesky, m)
            except np.linalg.LinAlgError:
                flat_out[k] = np.where(np.tri(len(m), dtype=bool), np.nan, 0.0)
        return out


def phi(x):
    """Φ(X): the lower triangle of X with its diagonal halved."""
    n = x.array.shape[-1]
    mask = np.tril(np.ones((n, n))) - 0.5 * np.eye(n)
    return x * Tensor(mask.astype(x.array.dtype))


def _symmetric_part(x):
    return 0.5 * (x + matrix_transpose(x))


def _cholesky_vjp(g, factor, a):
    # Ā = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹, symmetrized; two solves with Lᵀ instead of an inverse.
    p = solve(factor, phi(matmul(factor, g, transpose_a=True)), adjoint=True)  # L⁻ᵀ Φ(Lᵀ L̄)
    return _symmetric_part(matrix_transpose(solve(factor, matrix_transpose(p), adjoint=True)))  # (L⁻ᵀ pᵀ)ᵀ = p L⁻¹


def _cholesky_jvp(t, factor, a):
    s = matrix_transpose(solve(factor, matrix_transpose(solve(factor, _symmetric_part(t)))))  # L⁻¹ sym(T) L⁻ᵀ
    return matmul(factor, phi(s))


_cholesky = Primitive("cholesky", _cholesky_forward, keeps="output", vjp=[_cholesky_vjp], jvp=[_cholesky_jvp])


@exported("tf.linalg")
def cholesky(input, name=None):
    """The lower-triangular ``L`` with ``L Lᵀ = A``, for a symmetric positive-definite ``A``.

    Only the lower triangle of ``A`` is read, as in TensorFlow. Its rule
    (Murray, "Differentiation of the Cholesky decomposition", 2016):
    ``dA = dL Lᵀ + L dLᵀ``, so ``L⁻¹ dA L⁻ᵀ = L⁻¹ dL + (L⁻¹ dL)ᵀ``. The
    first term is lower triangular, the second upper, so
    ``L⁻¹ dL = Φ(L⁻¹ dA L⁻ᵀ)``, where Φ keeps the lower triangle and halves
    the diagonal: ``dL = L Φ(L⁻¹ dA L⁻ᵀ)``. Φ is its own transpose, which
    gives ``Ā = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹``; like TensorFlow, minitape returns its
    symmetric part, the gradient with respect to a symmetric ``A``.
    A matrix that is not positive definite gives NaN, as in TensorFlow.

    >>> cholesky([[4.0, 2.0], [2.0, 2.0]]).numpy()
    array([[2., 0.],
           [1., 1.]], dtype=float32)
    """
    return apply(_cholesky, (matrices("linalg.cholesky", input),))
