"""Matrix products: matmul (and matrix_transpose), matvec and cross.

Every op works on a matrix or a batch of matrices (leading dimensions); ``ᵀ``
swaps the last two dimensions. ``C = A B`` moves by ``dC = dA B + A dB``, so its
gradients are ``Ā = C̄ Bᵀ`` and ``B̄ = Aᵀ C̄`` (how a differential gives a gradient:
see :mod:`.inverses`).
"""


import numpy as np

from ..dtypes import FLOATING, SIGNED, as_dtype
from ..primitive import apply
from .arguments import broadcast_shape, check_dtype, convert_inputs
from .elementwise import cast
from .shapes import expand_dims, squeeze, stack, transpose, unstack
from .broadcasting import Broadcasting
from .exports import exported


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


@exported("tf", "tf.linalg")
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


@exported("tf", "tf.linalg")
def matrix_transpose(a):
    """Swap the last two dimensions (the transpose of each matrix in a batch)."""
    (a,) = convert_inputs("matrix_transpose", a)
    perm = list(range(a.array.ndim))
    perm[-2:] = perm[-1], perm[-2]
    return transpose(a, perm)


# -- matvec and cross ---------------------------------------------------------------------------------
@exported("tf.linalg")
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


@exported("tf.linalg")
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


# TensorFlow has these at its top level; matvec and cross only as tf.linalg.matvec, ...: see ops/__init__.py.
