"""The diagonals and bands of matrices: diag_part, diag, trace, tensor_diag, tensor_diag_part, band_part,
set_diag, and the adjoint.

Each picks elements or puts them back, so each is linear: its JVP is the op itself.
"""


import numpy as np

from ..primitive import Primitive, apply
from .arguments import convert_inputs
from ..tensor import Tensor
from .creation import zeros_like
from .elementwise import where
from .indexing import one_integer
from .products import matrix_transpose
from .reductions import reduce_sum
from .exports import exported


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


@exported("tf.linalg")
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


@exported("tf.linalg")
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


@exported("tf.linalg")
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


@exported("tf.linalg")
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


@exported("tf.linalg")
def tensor_diag_part(input, name=None):
    """The diagonal of a tensor of shape ``s + s``: ``out[i, j] = x[i, j, i, j]`` (undoes :func:`tensor_diag`)."""
    (x,) = convert_inputs("linalg.tensor_diag_part", input)
    shape = x.array.shape
    half = len(shape) // 2
    if not shape or len(shape) % 2 or shape[:half] != shape[half:]:
        raise ValueError(f"linalg.tensor_diag_part: the input's shape must be s + s for some s (rank 2k, the first "
                         f"k dimensions equal to the last k), got {shape}")
    return apply(_tensor_diag_part_prim, (x,))


# -- bands, set_diag and the adjoint --------------------------------------------------------------------
def _square_or_not(op_name, x):
    """``x``, if it is a matrix or a batch of them (of any dtype)."""
    if x.array.ndim < 2:
        raise ValueError(f"{op_name}: expected a matrix or a batch of matrices (at least 2 dimensions), got shape "
                         f"{x.array.shape}")
    return x


@exported("tf.linalg")
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
    lower = one_integer("linalg.band_part", "num_lower", num_lower)
    upper = one_integer("linalg.band_part", "num_upper", num_upper)
    if lower > m or upper > n:
        raise ValueError(f"linalg.band_part: num_lower={lower} and num_upper={upper} must be negative (everything) "
                         f"or at most the number of rows ({m}) and of columns ({n})")
    below = np.arange(m)[:, None] - np.arange(n)[None, :]  # how far each element is below the main diagonal
    inside = ((lower < 0) | (below <= lower)) & ((upper < 0) | (-below <= upper))
    return where(Tensor(inside), x, zeros_like(x))


@exported("tf.linalg")
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


@exported("tf.linalg")
def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix: for real numbers (minitape's only ones), :func:`matrix_transpose`.

    >>> adjoint([[1.0, 2.0, 3.0]]).shape
    TensorShape([3, 1])
    """
    (x,) = convert_inputs("linalg.adjoint", matrix)
    return matrix_transpose(_square_or_not("linalg.adjoint", x))
