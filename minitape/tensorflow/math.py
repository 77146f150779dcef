"""``mt.math``: TensorFlow's ``tf.math``, the ops whose declarations list ``"tf.math"`` (``minitape/ops/exports.py``).

Every elementwise op is here (``mt.math.atan``) but ``relu``, which is ``tf.nn``'s; so are the reductions, and the
ops TensorFlow has under ``tf.math`` only (``mt.math.erf``; there is no ``tf.erf``).
"""

from ..ops.exports import names

globals().update(names("tf.math"))
__all__ = list(names("tf.math"))
