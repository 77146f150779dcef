"""Matrix multiplication, the op that does most of the work in a neural network.

For ``C = A @ B`` the gradients are ``dA = G @ B^T`` and ``dB = A^T @ G``: each
is another matmul, with the transposes done by matmul's own flags instead of
by copying. Leading (batch) dimensions broadcast like NumPy's, and their
gradients are summed back to each input's shape.
"""

import numpy as np

from ..dtypes import FLOATING
from ..primitive import apply, broadcast_shape, check_dtype, convert_inputs
from .shapes import Broadcasting, transpose


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


def matmul(a, b, transpose_a=False, transpose_b=False):
    """The matrix product of ``a`` and ``b`` (rank 2 or more; leading dimensions are batches).

    >>> matmul([[1.0, 2.0]], [[0.25], [0.15]]).numpy()
    array([[0.55]], dtype=float32)
    """
    a, b = convert_inputs("matmul", a, b)
    if a._value.dtype.kind != "f":  # every float is allowed: only others are looked up
        check_dtype("matmul", a, _MATMUL)
    sa, sb = a._value.shape, b._value.shape
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


def matrix_transpose(a):
    """Swap the last two dimensions (the transpose of each matrix in a batch)."""
    (a,) = convert_inputs("matrix_transpose", a)
    perm = list(range(a._value.ndim))
    perm[-2:] = perm[-1], perm[-2]
    return transpose(a, perm)


__all__ = ["matmul", "matrix_transpose"]
