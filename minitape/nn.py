"""``mt.nn``: activations and losses, under TensorFlow's ``tf.nn`` names."""

from .ops import (log_softmax, relu, sigmoid, sigmoid_cross_entropy_with_logits, softmax,  # noqa: F401
                  softmax_cross_entropy_with_logits, tanh)
from .ops import elu, embedding_lookup, silu, softplus, swish  # noqa: F401
from .ops import top_k  # noqa: F401
