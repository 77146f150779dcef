"""``mt.nn``: activations, losses, convolutions, pooling and dropout, under TensorFlow's ``tf.nn`` names."""

from .ops import (log_softmax, relu, sigmoid, sigmoid_cross_entropy_with_logits, softmax,  # noqa: F401
                  softmax_cross_entropy_with_logits, tanh)
from .ops import elu, embedding_lookup, silu, softplus, swish  # noqa: F401
from .ops import top_k  # noqa: F401
from .ops import (batch_normalization, dropout, gelu, l2_normalize, leaky_relu, moments, relu6, selu, softsign,  # noqa: F401
                  sparse_softmax_cross_entropy_with_logits)
from .ops import (avg_pool, avg_pool1d, avg_pool2d, conv1d, conv2d, conv2d_transpose, convolution,  # noqa: F401
                  max_pool, max_pool1d, max_pool2d)
