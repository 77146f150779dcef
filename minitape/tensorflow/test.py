"""``mt.test``: gradient checking under TensorFlow's ``tf.test`` name."""

from ..numeric import compute_gradient  # noqa: F401
