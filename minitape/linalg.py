"""``mt.linalg``: matrix ops, under TensorFlow's ``tf.linalg`` names."""

from .ops import (cholesky, det, diag, diag_part, einsum, eye, inv, logdet, matmul, matrix_transpose,  # noqa: F401
                  norm, slogdet, solve, tensor_diag, tensor_diag_part, trace)
