"""``mt.linalg``: TensorFlow's ``tf.linalg``, the ops whose declarations list ``"tf.linalg"``
(``minitape/ops/exports.py``)."""

from ..ops.exports import names

globals().update(names("tf.linalg"))
__all__ = list(names("tf.linalg"))
