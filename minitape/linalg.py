"""``mt.linalg``: matrix ops, under TensorFlow's ``tf.linalg`` names."""

from .ops import (cholesky, det, diag, diag_part, einsum, eye, inv, logdet, matmul, matrix_transpose,  # noqa: F401
                  norm, slogdet, solve, tensor_diag, tensor_diag_part, trace)
from .ops import adjoint, band_part, cross, global_norm, matvec, normalize, set_diag, tensordot  # noqa: F401
from .ops import cholesky_solve, eigh, eigvalsh, lstsq, pinv, qr, svd, triangular_solve  # noqa: F401
