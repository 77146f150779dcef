"""``mt.linalg``: matrix ops, under TensorFlow's ``tf.linalg`` names."""

from .ops import eye, matmul, matrix_transpose, norm  # noqa: F401
