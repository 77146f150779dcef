"""``mt.autodiff``: forward mode, under TensorFlow's ``tf.autodiff`` names."""

from ..forward import ForwardAccumulator, OpCounter  # noqa: F401
