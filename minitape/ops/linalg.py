"""Linear algebra: matrix products, einsum, inverses, linear solves, determinants and the Cholesky factor; then
the small ops composed of them (tensordot, matvec, cross, band_part, set_diag, global_norm, ...).

Every op works on a matrix or a batch of matrices (leading dimensions), and
every rule below is written for one matrix: ``ᵀ`` swaps the last two
dimensions, so the same code serves a batch. Each rule follows from the op's
differential, the way a change ``dA`` of the input moves the output:

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
import string
import warnings

import numpy as np

from ..dtypes import FLOATING, SIGNED, as_dtype
from ..primitive import Primitive, apply
from .arguments import broadcast_shape, check_dtype, convert_inputs
from ..tensor import Tensor, convert_to_tensor
from .creation import eye, ones, zeros_like
from .elementwise import add_n, cast, log, maximum, sqrt, where
from .indexing import _number
from .reductions import norm, reduce_sum
from .broadcasting import Broadcasting
from .shapes import expand_dims, squeeze, stack, transpose, unstack


# -- matmul -------------------------------------------------------------------------------------
def _matmul_forward(a, b, transpose_a, transpose_b):
    return np.matmul(np.swapaxes(a, -1, -2) if transpose_a else a, np.swapaxes(b, -1, -2) if transpose_b else b)


def _grad_a(g, c, a, b, transpose_a, transpose_b):
    if transpose_a:  # C = A^T op(B): dA = op(B) G^T
        return matmul(b, g, transpose_a=transpose_b, transpose_b=True)
    return matmul(g, b, transpose_b=not transpose_b)  # C = A op(B): dA = G op(B)^T


def _grad_b(g, c, a, b, transpose_a, transpose_b):
    if transpose_b:  # C = op(A) B^T: dB = G^T op(A)
        return matmul(g, a, transpose_a=True, transpose_b=transpose_a)
    return matmul(a, g, transpose_a=not transpose_a)  # C = op(A) B: dB = op(A)^T G


_matmul = Broadcasting(
    "matmul", _matmul_forward,
    vjp=[_grad_a, _grad_b],
    jvp=[lambda t, c, a, b, transpose_a, transpose_b: matmul(t, b, transpose_a, transpose_b),
         lambda t, c, a, b, transpose_a, transpose_b: matmul(a, t, transpose_a, transpose_b)])


_MATMUL = FLOATING | {np.dtype(np.int32), np.dtype(np.int64)}  # TensorFlow's kernels


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """The matrix product of ``a`` and ``b`` (rank 2 or more; leading dimensions are batches).

    ``adjoint_a`` is the conjugate transpose, which for real numbers is
    ``transpose_a``. ``a_is_sparse``, ``b_is_sparse``, ``grad_a`` and
    ``grad_b`` are hints TensorFlow uses to pick a kernel: accepted, and
    ignored. ``output_type=mt.int32`` multiplies int8 or uint8 matrices
    without wrapping around, as in TensorFlow.

    >>> matmul([[1.0, 2.0]], [[0.25], [0.15]]).numpy()
    array([[0.55]], dtype=float32)
    """
    if adjoint_a or adjoint_b:  # the conjugate transpose: for real numbers, the transpose
        for transposed, adjoint, which in ((transpose_a, adjoint_a, "a"), (transpose_b, adjoint_b, "b")):
            if transposed and adjoint:
                raise ValueError(f"matmul: only one of transpose_{which} and adjoint_{which} can be True (for real "
                                 f"numbers they mean the same)")
        transpose_a, transpose_b = transpose_a or adjoint_a, transpose_b or adjoint_b
    a, b = convert_inputs("matmul", a, b)
    if output_type is not None:
        a, b = _widened("matmul", a, b, output_type)
    if a.array.dtype.kind != "f":  # every float is allowed: only others are looked up
        check_dtype("matmul", a, _MATMUL)
    sa, sb = a.array.shape, b.array.shape
    if len(sa) < 2 or len(sb) < 2:
        raise ValueError(f"matmul: both inputs need at least 2 dimensions, got shapes {sa} and {sb}; "
                         f"make a vector a matrix first, e.g. mt.reshape(v, (1, -1)) or mt.expand_dims(v, 0)")
    inner_a = sa[-2] if transpose_a else sa[-1]
    inner_b = sb[-1] if transpose_b else sb[-2]
    if inner_a != inner_b:
        raise ValueError(f"matmul: shapes {sa} and {sb} do not fit: the inner dimensions {inner_a} and "
                         f"{inner_b} must be equal (a's columns must match b's rows)")
    if len(sa) > 2 or len(sb) > 2:
        broadcast_shape("matmul (batch dimensions)", sa[:-2], sb[:-2])
    return apply(_matmul, (a, b), {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)})


def _widened(op_name, a, b, output_type):
    """``a`` and ``b`` cast to ``output_type`` where TensorFlow allows it (int8 or uint8 to int32)."""
    out = as_dtype(output_type)
    if out == a.dtype:
        return a, b
    if a.dtype.name in ("int8", "uint8") and out.name == "int32":
        return cast(a, out), cast(b, out)
    raise TypeError(f"{op_name}: output_type={out.name} is not possible for {a.dtype.name} inputs (TensorFlow only "
                    f"turns int8 or uint8 into int32); cast the result instead: mt.cast({op_name}(a, b), "
                    f"mt.{out.name})")


def matrix_transpose(a):
    """Swap the last two dimensions (the transpose of each matrix in a batch)."""
    (a,) = convert_inputs("matrix_transpose", a)
    perm = list(range(a.array.ndim))
    perm[-2:] = perm[-1], perm[-2]
    return transpose(a, perm)


# -- checks and NumPy's LAPACK ---------------------------------------------------------------------
def _matrices(op_name, x, square=True):
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


def _lapack(fn, a, *rest):
    """``fn(a, *rest)`` with NumPy's LAPACK routines, which have no float16: that is computed in float32."""
    if a.dtype != np.float16:
        return fn(a, *rest)
    result = fn(a.astype(np.float32), *[r.astype(np.float32) for r in rest])
    return tuple(r.astype(np.float16) for r in result) if isinstance(result, tuple) else result.astype(np.float16)


def _not_invertible(op_name, what):
    return ValueError(f"{op_name}: {what} is not invertible (it is singular: its rows are linearly dependent, or it "
                      f"holds NaN), as TensorFlow also says. Check how it was built, or make it invertible, e.g. "
                      f"a + 1e-6 * mt.eye(n)")


def _invert(op_name, a, adjoint):
    if np.isnan(a).any():  # LAPACK would return NaN; TensorFlow's pivots test refuses it
        raise _not_invertible(op_name, "the matrix")
    try:
        inverse = _lapack(np.linalg.inv, a)
    except np.linalg.LinAlgError:
        raise _not_invertible(op_name, "the matrix") from None
    return np.swapaxes(inverse, -1, -2) if adjoint else inverse


# -- inv ----------------------------------------------------------------------------------------
def _inv_vjp(g, y, a, adjoint):
    if adjoint:  # Y = A⁻ᵀ: dY = −Y dAᵀ Y, so Ā = −Y Ḡᵀ Y
        return -matmul(y, matmul(g, y, transpose_a=True))
    return -matmul(y, matmul(g, y, transpose_b=True), transpose_a=True)  # Ā = −Yᵀ Ḡ Yᵀ


_inv = Primitive("inv", lambda a, adjoint: _invert("linalg.inv", a, adjoint), keeps="output", vjp=[_inv_vjp],
                 jvp=[lambda t, y, a, adjoint: -matmul(y, matmul(t, y, transpose_a=adjoint))])


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
    a = _matrices("linalg.inv", input)
    return apply(_inv, (a,), {"adjoint": bool(adjoint)})


# -- solve ----------------------------------------------------------------------------------------
def _solve_forward(a, b, adjoint):
    if np.isnan(a).any():
        raise _not_invertible("linalg.solve", "the matrix")
    try:
        return _lapack(np.linalg.solve, np.swapaxes(a, -1, -2) if adjoint else a, b)
    except np.linalg.LinAlgError:
        raise _not_invertible("linalg.solve", "the matrix") from None


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
    a = _matrices("linalg.solve", matrix)
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
        raise _not_invertible(f"the gradient of {op_name} (A⁻ᵀ)", "the matrix") from None


def _per_matrix(s):
    """A value per matrix (shape ``batch``) made to broadcast against the matrices (``batch + (1, 1)``)."""
    return expand_dims(expand_dims(s, -1), -1)


_det = Primitive(
    "det", lambda a: _lapack(np.linalg.det, a), keeps="both",
    vjp=[lambda g, d, a: _per_matrix(g * d) * _inverse_transposed("linalg.det", a)],
    jvp=[lambda t, d, a: d * reduce_sum(_inverse_transposed("linalg.det", a) * t, [-2, -1])])


def det(input, name=None):
    """The determinant of each square matrix.

    Its rule is Jacobi's formula, ``d det A = det A · tr(A⁻¹ dA)``; since
    ``tr(A⁻¹ dA)`` is the sum of ``A⁻ᵀ ∘ dA``, the gradient is
    ``Ā = d̄ · det A · A⁻ᵀ``. A singular matrix has determinant 0, but its
    gradient, like TensorFlow's, needs ``A⁻¹`` and is a ValueError.

    >>> float(det([[2.0, 1.0], [1.0, 3.0]]))
    5.0
    """
    return apply(_det, (_matrices("linalg.det", input),))


_log_abs_det = Primitive(
    "log_abs_det", lambda a: _lapack(np.linalg.slogdet, a)[1],
    vjp=[lambda g, y, a: _per_matrix(g) * _inverse_transposed("linalg.slogdet", a)],
    jvp=[lambda t, y, a: reduce_sum(_inverse_transposed("linalg.slogdet", a) * t, [-2, -1])])
# The sign is constant wherever it is defined: its gradient is 0 (TensorFlow's too), not None.
_sign_of_det = Primitive("sign_of_det", lambda a: _lapack(np.linalg.slogdet, a)[0],
                         vjp=[lambda g, s, a: zeros_like(a)], jvp=[lambda t, s, a: zeros_like(s)])

LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


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
    a = _matrices("linalg.slogdet", input)
    return LogMatrixDeterminant(apply(_sign_of_det, (a,)), apply(_log_abs_det, (a,)))


def logdet(matrix, name=None):
    """``log det A`` of a symmetric positive-definite matrix, as ``2 Σ log Lᵢᵢ`` with ``L = cholesky(A)``.

    >>> round(float(logdet([[2.0, 1.0], [1.0, 3.0]])), 5)  # log 5
    1.60944
    """
    return 2.0 * reduce_sum(log(diag_part(cholesky(matrix))), -1)


# -- cholesky ---------------------------------------------------------------------------------------
def _cholesky_forward(a):
    try:
        return _lapack(np.linalg.cholesky, a)
    except np.linalg.LinAlgError:  # TensorFlow returns NaN for the matrices that fail; so do we, one by one
        warnings.warn("linalg.cholesky: a matrix is not symmetric positive definite; its factor is NaN, as in "
                      "TensorFlow. Check how it was built, or add a small multiple of the identity "
                      "(a + 1e-6 * mt.eye(n))", UserWarning, stacklevel=4)
        out = np.zeros_like(a)
        flat_a, flat_out = a.reshape((-1,) + a.shape[-2:]), out.reshape((-1,) + a.shape[-2:])
        for k, m in enumerate(flat_a):
            try:
                flat_out[k] = _lapack(np.linalg.cholesky, m)
            except np.linalg.LinAlgError:
                flat_out[k] = np.where(np.tri(len(m), dtype=bool), np.nan, 0.0)
        return out


def _phi(x):
    """Φ(X): the lower triangle of X with its diagonal halved."""
    n = x.array.shape[-1]
    mask = np.tril(np.ones((n, n))) - 0.5 * np.eye(n)
    return x * Tensor(mask.astype(x.array.dtype))


def _symmetric_part(x):
    return 0.5 * (x + matrix_transpose(x))


def _cholesky_vjp(g, factor, a):
    # Ā = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹, symmetrized; two solves with Lᵀ instead of an inverse.
    p = solve(factor, _phi(matmul(factor, g, transpose_a=True)), adjoint=True)  # L⁻ᵀ Φ(Lᵀ L̄)
    return _symmetric_part(matrix_transpose(solve(factor, matrix_transpose(p), adjoint=True)))  # (L⁻ᵀ pᵀ)ᵀ = p L⁻¹


def _cholesky_jvp(t, factor, a):
    s = matrix_transpose(solve(factor, matrix_transpose(solve(factor, _symmetric_part(t)))))  # L⁻¹ sym(T) L⁻ᵀ
    return matmul(factor, _phi(s))


_cholesky = Primitive("cholesky", _cholesky_forward, keeps="output", vjp=[_cholesky_vjp], jvp=[_cholesky_jvp])


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
    return apply(_cholesky, (_matrices("linalg.cholesky", input),))


# -- diagonals ----------------------------------------------------------------------------------------
def _diagonal(x, k, shape):
    return np.diagonal(x, k, -2, -1).copy()  # NumPy's diagonal is a read-only view


def _with_diagonal(d, k, shape):
    out = np.zeros(shape, dtype=d.dtype)
    rows, cols = _diagonal_indices(shape, k)
    out[..., rows, cols] = d
    return out


def _diagonal_indices(shape, k):
    m, n = shape[-2:]
    length = max(0, min(m, n - k) if k >= 0 else min(m + k, n))
    start_row, start_col = (0, k) if k >= 0 else (-k, 0)
    steps = np.arange(length)
    return start_row + steps, start_col + steps


_diag_part = Primitive("diag_part", _diagonal, keeps="nothing", jvp="linear",
                       vjp=[lambda g, ans, x, k, shape: apply(_diag, (g,), {"k": k, "shape": shape})])
_diag = Primitive("diag", _with_diagonal, keeps="nothing", jvp="linear",
                  vjp=[lambda g, ans, d, k, shape: apply(_diag_part, (g,), {"k": k, "shape": shape})])


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    """The ``k``-th diagonal of each matrix (``k = 0`` the main one, ``k > 0`` above it).

    Its transpose, and so its gradient, is :func:`diag`: the diagonal put
    back into a matrix of zeros. (One diagonal at a time: ``k`` is an integer
    here, where TensorFlow also takes a band ``(k1, k2)``.)

    >>> diag_part([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).numpy()
    array([1., 5.], dtype=float32)
    """
    (x,) = convert_inputs("linalg.diag_part", input)
    shape = x.array.shape
    if len(shape) < 2:
        raise ValueError(f"linalg.diag_part: expected a matrix or a batch of matrices, got shape {shape}")
    k = _diagonal_index("linalg.diag_part", k)
    if k and not -shape[-2] < k < shape[-1]:
        raise ValueError(f"linalg.diag_part: k={k} is out of range for matrices of shape {shape[-2:]} (use "
                         f"{1 - shape[-2]} to {shape[-1] - 1})")
    return apply(_diag_part, (x,), {"k": k, "shape": shape})


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Square matrices with ``diagonal`` (its last dimension) on their ``k``-th diagonal, zeros elsewhere.

    >>> diag([1.0, 2.0]).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    """
    (d,) = convert_inputs("linalg.diag", diagonal)
    shape = d.array.shape
    if not shape:
        raise ValueError("linalg.diag: diagonal must have at least 1 dimension, got a scalar")
    k = _diagonal_index("linalg.diag", k)
    n = shape[-1] + abs(k)
    if (num_rows, num_cols) not in ((-1, -1), (n, n)) or padding_value != 0:
        raise ValueError(f"linalg.diag: minitape builds square matrices padded with 0 only (here {n} x {n}); "
                         f"leave num_rows, num_cols and padding_value out, and slice or pad the result")
    return apply(_diag, (d,), {"k": k, "shape": shape[:-1] + (n, n)})


def _diagonal_index(op_name, k):
    if isinstance(k, (tuple, list)):
        raise ValueError(f"{op_name}: k={k!r}: minitape takes one diagonal at a time (an integer k); call it once per "
                         f"diagonal and stack the results")
    return int(k)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix (which need not be square).

    >>> float(trace([[1.0, 2.0], [3.0, 4.0]]))
    5.0
    """
    return reduce_sum(diag_part(x), -1)


def _tensor_diag(d):
    return np.diag(d.reshape(-1)).reshape(d.shape + d.shape)


def _tensor_diag_part(x):
    half = x.ndim // 2
    n = int(np.prod(x.shape[:half]))
    return np.diagonal(x.reshape(n, n)).reshape(x.shape[:half])


_tensor_diag_prim = Primitive("tensor_diag", _tensor_diag, keeps="nothing", jvp="linear",
                              vjp=[lambda g, ans, d: apply(_tensor_diag_part_prim, (g,))])
_tensor_diag_part_prim = Primitive("tensor_diag_part", _tensor_diag_part, keeps="nothing", jvp="linear",
                                   vjp=[lambda g, ans, x: apply(_tensor_diag_prim, (g,))])


def tensor_diag(diagonal, name=None):
    """The tensor of rank ``2k`` with ``diagonal`` (rank ``k``) on its diagonal: ``out[i, j, i, j] = d[i, j]``.

    >>> tensor_diag([1.0, 2.0]).numpy()
    array([[1., 0.],
           [0., 2.]], dtype=float32)
    """
    (d,) = convert_inputs("linalg.tensor_diag", diagonal)
    if d.array.ndim == 0:
        raise ValueError("linalg.tensor_diag: diagonal must have at least 1 dimension, got a scalar")
    return apply(_tensor_diag_prim, (d,))


def tensor_diag_part(input, name=None):
    """The diagonal of a tensor of shape ``s + s``: ``out[i, j] = x[i, j, i, j]`` (undoes :func:`tensor_diag`)."""
    (x,) = convert_inputs("linalg.tensor_diag_part", input)
    shape = x.array.shape
    half = len(shape) // 2
    if not shape or len(shape) % 2 or shape[:half] != shape[half:]:
        raise ValueError(f"linalg.tensor_diag_part: the input's shape must be s + s for some s (rank 2k, the first "
                         f"k dimensions equal to the last k), got {shape}")
    return apply(_tensor_diag_part_prim, (x,))


# -- einsum ---------------------------------------------------------------------------------------------
_EINSUM_PRIMITIVES = {}  # number of operands -> the einsum primitive with that many rules


def _einsum_primitive(n):
    """The einsum primitive for ``n`` operands: one VJP and one JVP rule per operand."""
    if n not in _EINSUM_PRIMITIVES:
        _EINSUM_PRIMITIVES[n] = Primitive("einsum", _einsum_forward,
                                          vjp=[_einsum_vjp(k) for k in range(n)],
                                          jvp=[_einsum_jvp(k) for k in range(n)])
    return _EINSUM_PRIMITIVES[n]


def _einsum_forward(*arrays, terms, out):
    # NumPy's own loop (one pass over every combination of labels) is quick for small operands; larger ones are
    # worth its contraction path, which hands products to BLAS.
    sizes = {label: d for term, a in zip(terms, arrays) for label, d in zip(term, a.shape)}
    work = np.prod(list(sizes.values()), dtype=float)
    return np.einsum(f"{','.join(terms)}->{out}", *arrays, optimize=bool(work > 1e5))


def _contract(terms, out, tensors):
    """``einsum`` of ``tensors`` on an equation already checked and written out: ``terms`` -> ``out``."""
    return apply(_einsum_primitive(len(tensors)), tuple(tensors), {"terms": tuple(terms), "out": out})


def _einsum_jvp(k):
    def rule(t, ans, *operands, terms, out):  # einsum is linear in each operand: swap the tangent in
        return _contract(terms, out, operands[:k] + (t,) + operands[k + 1:])
    return rule


def _einsum_vjp(k):
    def rule(g, ans, *operands, terms, out):
        return _operand_gradient(g, operands, terms, out, k)
    return rule


def _operand_gradient(g, operands, terms, out, k):
    """The gradient of operand ``k``: contract ``g`` with every other operand, back to operand ``k``'s labels.

    For ``C = einsum("ij,jk->ik", A, B)`` that is ``Ā = einsum("ik,jk->ij", C̄, B)``.
    Labels that occur only in operand ``k`` were summed away, so its gradient
    is the same along them (a broadcast); a label repeated in it (``"ii"``,
    a diagonal) gets the gradient on that diagonal only (a product with the
    identity matrix); and a dimension of size 1 that was broadcast is summed.
    """
    term, x = terms[k], operands[k]
    others = terms[:k] + terms[k + 1:]
    unique = "".join(dict.fromkeys(term))
    elsewhere = set(out).union(*others)
    kept = "".join(label for label in unique if label in elsewhere)
    grad = _contract((out,) + others, kept, (g,) + operands[:k] + operands[k + 1:])
    if kept != term:
        size = dict(zip(term, x.array.shape))
        fresh = iter(sorted(set(string.ascii_letters) - set(out).union(*terms)))
        extra_terms, extra, target, seen = [], [], "", set()
        for label in unique:
            if label not in kept:  # summed within operand k only
                extra_terms.append(label)
                extra.append(ones((size[label],), dtype=x.dtype))
        for label in term:
            if label in seen:  # a repeated label: its gradient lives on the diagonal
                new = next(fresh)
                extra_terms.append(label + new)
                extra.append(eye(size[label], dtype=x.dtype))
                label = new
            seen.add(label)
            target += label
        grad = _contract((kept, *extra_terms), target, (grad, *extra))
    stretched = [i for i, (d, e) in enumerate(zip(x.array.shape, grad.array.shape)) if d == 1 and e != 1]
    return reduce_sum(grad, stretched, keepdims=True) if stretched else grad


def _parse_einsum(equation, shapes):
    """``equation`` checked against the operands' ``shapes``, with every ellipsis written out as letters.

    Returns ``(terms, out)``: one string of labels per operand and one for
    the result. Without ``->`` the output is every label used once, sorted
    (after the ellipsis, if any), as in NumPy and TensorFlow.
    """
    compact = equation.replace(" ", "")
    lhs, arrow, out = compact.partition("->")
    if "->" in out or any(c not in string.ascii_letters + ".," for c in lhs + out) or \
            any("." in t.replace("...", "") or t.count("...") > 1 for t in lhs.split(",") + [out]):
        raise ValueError(f'einsum: the equation {equation!r} has an incorrect format; write it like "ij,jk->ik": '
                         f'letters for the dimensions, a comma between inputs, "..." for any leading dimensions')
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the equation {equation!r} has {len(terms)} input(s), but {len(shapes)} tensor(s) "
                         f"were given")
    free = [c for c in string.ascii_letters if c not in compact]
    n_ellipsis = 0
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        named = len(term.replace("...", ""))
        if ("..." in term and len(shape) < named) or ("..." not in term and len(shape) != named):
            raise ValueError(f"einsum: input {k} has the labels {term!r} but shape {shape} (rank {len(shape)})")
        if "..." in term:
            n_ellipsis = max(n_ellipsis, len(shape) - named)
    letters = "".join(free[:n_ellipsis])
    spelled = [t.replace("...", letters[n_ellipsis - (len(s) - len(t) + 3):] if "..." in t else "")
               for t, s in zip(terms, shapes)]
    if not arrow:
        counts = collections.Counter(lhs.replace("...", "").replace(",", ""))
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, n in counts.items() if n == 1))
    for label in out.replace("...", ""):
        if label not in lhs:
            raise ValueError(f"einsum: the output label {label!r} of {equation!r} is in no input")
        if out.count(label) > 1:
            raise ValueError(f"einsum: the output label {label!r} of {equation!r} appears more than once")
    if letters and "..." not in out:
        raise ValueError(f"einsum: the inputs of {equation!r} have {n_ellipsis} dimension(s) under '...' but the "
                         f"output has no '...'; add it, e.g. '...ik'")
    sizes = {}
    for k, (term, shape) in enumerate(zip(spelled, shapes)):
        for label, d in zip(term, shape):
            seen = sizes.setdefault(label, d)
            if d != seen and not (label in letters and 1 in (d, seen)):
                raise ValueError(f"einsum: label {label!r} stands for dimensions of sizes {seen} and {d} (input "
                                 f"{k}, shape {shape}); a label must have one size")
            if label in letters and seen == 1:
                sizes[label] = d
    return tuple(spelled), out.replace("...", letters)


def einsum(equation, *inputs, **kwargs):
    """Sums of products over labelled dimensions, as written in ``equation`` (Einstein's notation).

    ``"ij,jk->ik"`` is a matrix product, ``"bij,bjk->bik"`` a batch of them,
    ``"ii->"`` a trace, ``"ij->ji"`` a transpose, ``"i,j->ij"`` an outer
    product; ``"..."`` stands for any leading dimensions, which broadcast.
    Without ``->`` the output is the labels used once, in alphabetical order.
    The gradient of each input is another einsum, of the output's gradient
    with the other inputs (``name`` and ``optimize`` are accepted and ignored).

    >>> einsum("ij,jk->ik", [[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    >>> float(einsum("ii", [[1.0, 2.0], [3.0, 4.0]]))
    5.0
    """
    unknown = set(kwargs) - {"name", "optimize"}
    if unknown:
        raise TypeError(f"einsum: unexpected keyword argument(s) {sorted(unknown)}; it takes name and optimize")
    tensors = convert_inputs("einsum", *inputs)
    terms, out = _parse_einsum(equation, [t.array.shape for t in tensors])
    return _contract(terms, out, tensors)


def _tensordot_axes(axes, ra, rb):
    """The axes of ``a`` and of ``b`` that ``tensordot`` sums over, as two lists of non-negative axes."""
    if np.ndim(axes.array if isinstance(axes, Tensor) else axes) == 0:
        n = int(axes.array if isinstance(axes, Tensor) else axes)
        if not 0 <= n <= min(ra, rb):
            raise ValueError(f"tensordot: axes={n} must be between 0 and {min(ra, rb)}, the smaller rank of the two "
                             f"tensors (ranks {ra} and {rb})")
        return list(range(ra - n, ra)), list(range(n))
    if len(axes) != 2:
        raise ValueError(f"tensordot: axes must be an integer or a pair [axes of a, axes of b], got {axes!r}")
    pair = [[int(i) for i in np.reshape(side, -1)] for side in axes]
    if len(pair[0]) != len(pair[1]):
        raise ValueError(f"tensordot: axes {axes!r} name {len(pair[0])} axes of a but {len(pair[1])} of b; they are "
                         f"summed in pairs")
    for which, side, rank in (("a", pair[0], ra), ("b", pair[1], rb)):
        if any(not -rank <= i < rank for i in side):
            raise ValueError(f"tensordot: axes {side} are out of range for {which}, of rank {rank}")
    return [i % ra for i in pair[0]], [i % rb for i in pair[1]]


def tensordot(a, b, axes, name=None):
    """Sums of products of ``a`` and ``b`` over pairs of axes: a matrix product generalized to any rank.

    ``axes=n`` pairs the last ``n`` axes of ``a`` with the first ``n`` of
    ``b`` (``n=1``: a matrix product, ``n=0``: an outer product);
    ``axes=[[i, ...], [j, ...]]`` pairs axis ``i`` of ``a`` with axis ``j``
    of ``b``. The result's axes are ``a``'s free ones, then ``b``'s. It is
    an :func:`einsum` with one label per pair, so its gradient is einsum's.

    >>> tensordot([[1.0, 2.0]], [[3.0], [4.0]], 1).numpy()
    array([[11.]], dtype=float32)
    """
    a, b = convert_inputs("tensordot", a, b)
    sa, sb = a.array.shape, b.array.shape
    a_axes, b_axes = _tensordot_axes(axes, len(sa), len(sb))
    for i, j in zip(a_axes, b_axes):
        if sa[i] != sb[j]:
            raise ValueError(f"tensordot: axis {i} of a (shape {sa}) has size {sa[i]} but axis {j} of b (shape {sb}) "
                             f"has size {sb[j]}; axes summed together must have the same size")
    term_a = string.ascii_letters[:len(sa)]
    term_b = [string.ascii_letters[len(sa) + j] for j in range(len(sb))]
    for i, j in zip(a_axes, b_axes):
        term_b[j] = term_a[i]
    out = "".join(term_a[i] for i in range(len(sa)) if i not in a_axes) + \
        "".join(term_b[j] for j in range(len(sb)) if j not in b_axes)
    return _contract((term_a, "".join(term_b)), out, (a, b))


# -- small compositions: matvec, cross, band_part, set_diag, adjoint ------------------------------------
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """The product of each matrix ``a`` with the vector ``b`` (the last dimension): ``a @ b`` for a vector.

    A :func:`matmul` of ``a`` with ``b`` as a one-column matrix, so its
    gradients are matmul's: ``ā = ḡ bᵀ`` (an outer product), ``b̄ = aᵀ ḡ``.

    >>> matvec([[1.0, 2.0], [3.0, 4.0]], [1.0, -1.0]).numpy()
    array([-1., -1.], dtype=float32)
    """
    if transpose_a and adjoint_a:
        raise ValueError("linalg.matvec: only one of transpose_a and adjoint_a can be True (for real numbers they "
                         "mean the same)")
    a, b = convert_inputs("linalg.matvec", a, b)
    if a.array.ndim < 2 or b.array.ndim == 0:
        raise ValueError(f"linalg.matvec: a must be a matrix and b a vector (or batches of them), got shapes "
                         f"{a.array.shape} and {b.array.shape}")
    transposed = bool(transpose_a or adjoint_a)
    columns = a.array.shape[-2] if transposed else a.array.shape[-1]
    if b.array.shape[-1] != columns:
        raise ValueError(f"linalg.matvec: a matrix of shape {a.array.shape[-2:]}{' (transposed)' * transposed} "
                         f"times a vector of length {b.array.shape[-1]}: the vector needs {columns} elements")
    product = matmul(a, expand_dims(b, -1), transpose_a=transposed)
    return squeeze(product, -1)


def cross(a, b, name=None):
    """The cross product ``a × b`` of 3-vectors (the last dimension; leading dimensions are a batch).

    Written with its three components, so the rules come from ``*`` and
    ``-``: ``d(a × b) = da × b + a × db``, which gives the gradients
    ``ā = b × ḡ`` and ``b̄ = ḡ × a``.

    >>> cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).numpy()
    array([0., 0., 1.], dtype=float32)
    """
    a, b = convert_inputs("linalg.cross", a, b)
    check_dtype("linalg.cross", a, SIGNED)
    if a.array.shape != b.array.shape:
        raise ValueError(f"linalg.cross: a and b must have the same shape, got {a.array.shape} and {b.array.shape}")
    if not a.array.shape or a.array.shape[-1] != 3:
        raise ValueError(f"linalg.cross: the cross product is defined for 3-element vectors (a last dimension of "
                         f"3), got shape {a.array.shape}")
    a0, a1, a2 = unstack(a, axis=-1)
    b0, b1, b2 = unstack(b, axis=-1)
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def _square_or_not(op_name, x):
    """``x``, if it is a matrix or a batch of them (of any dtype)."""
    if x.array.ndim < 2:
        raise ValueError(f"{op_name}: expected a matrix or a batch of matrices (at least 2 dimensions), got shape "
                         f"{x.array.shape}")
    return x


def band_part(input, num_lower, num_upper, name=None):
    """Each matrix with everything outside a band around its diagonal set to 0.

    The band holds ``num_lower`` diagonals below the main one and
    ``num_upper`` above it; a negative number keeps that whole triangle:
    ``band_part(a, -1, 0)`` is the lower triangle, ``band_part(a, 0, 0)``
    the diagonal. A :func:`where` with a constant mask, so the gradient is
    ``ḡ`` inside the band and 0 outside (and an ``inf`` outside the band
    gives 0, not NaN).

    >>> band_part([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1, 0).numpy()
    array([[1, 0, 0],
           [4, 5, 0],
           [0, 8, 9]], dtype=int32)
    """
    (x,) = convert_inputs("linalg.band_part", input)
    m, n = _square_or_not("linalg.band_part", x).array.shape[-2:]
    lower = _number("linalg.band_part", "num_lower", num_lower)
    upper = _number("linalg.band_part", "num_upper", num_upper)
    if lower > m or upper > n:
        raise ValueError(f"linalg.band_part: num_lower={lower} and num_upper={upper} must be negative (everything) "
                         f"or at most the number of rows ({m}) and of columns ({n})")
    below = np.arange(m)[:, None] - np.arange(n)[None, :]  # how far each element is below the main diagonal
    inside = ((lower < 0) | (below <= lower)) & ((upper < 0) | (-below <= upper))
    return where(Tensor(inside), x, zeros_like(x))


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """Each matrix of ``input`` with its ``k``-th diagonal replaced by ``diagonal`` (matrices need not be square).

    A :func:`where` that takes the diagonal from :func:`diag`'s matrix and
    the rest from ``input``: ``input``'s gradient is ``ḡ`` off the diagonal,
    ``diagonal``'s is ``diag_part(ḡ)``. (One diagonal at a time, as :func:`diag_part`.)

    >>> set_diag([[1.0, 2.0], [3.0, 4.0]], [0.0, 0.0]).numpy()
    array([[0., 2.],
           [3., 0.]], dtype=float32)
    """
    x, d = convert_inputs("linalg.set_diag", input, diagonal)
    shape = _square_or_not("linalg.set_diag", x).array.shape
    k = _diagonal_index("linalg.set_diag", k)
    rows, cols = _diagonal_indices(shape, k)
    if d.array.shape != shape[:-2] + (len(rows),):
        raise ValueError(f"linalg.set_diag: diagonal {k} of matrices of shape {shape} needs shape "
                         f"{shape[:-2] + (len(rows),)}, got {d.array.shape}")
    on = np.zeros(shape[-2:], dtype=bool)
    on[rows, cols] = True
    return where(Tensor(on), apply(_diag, (d,), {"k": k, "shape": shape}), x)


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix: for real numbers (minitape's only ones), :func:`matrix_transpose`.

    >>> adjoint([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    (x,) = convert_inputs("linalg.adjoint", matrix)
    return matrix_transpose(_square_or_not("linalg.adjoint", x))


# -- the norm of a list of tensors, and clipping by it -----------------------------------------------------
def _tensor_list(op_name, t_list):
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"{op_name}: t_list must be a list (or tuple) of tensors, such as a list of gradients, got "
                        f"{type(t_list).__name__}; for one tensor write [t]")
    return t_list


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


def normalize(tensor, ord="euclidean", axis=None, name=None):
    """``tensor`` divided by its :func:`~minitape.ops.reductions.norm` (over ``axis``), and that norm:
    ``(normalized, norm)``, the norm with its reduced dimensions kept (size 1).

    >>> normalized, n = normalize([[3.0, 4.0]], axis=1)
    >>> normalized.numpy(), n.numpy()
    (array([[0.6, 0.8]], dtype=float32), array([[5.]], dtype=float32))
    """
    (x,) = convert_inputs("linalg.normalize", tensor)
    n = norm(x, ord=ord, axis=axis, keepdims=True)
    return x / n, n


# TensorFlow has these at its top level (tf.einsum); the others only as tf.linalg.inv, ...: see ops/__init__.py.
__all__ = ["matmul", "matrix_transpose", "einsum", "tensordot", "clip_by_global_norm"]
