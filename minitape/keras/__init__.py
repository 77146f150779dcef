"""``mt.keras``: the Keras 3 pieces of a custom training loop, written on minitape's ops.

What TensorFlow's guide "Writing a training loop from scratch" uses, and
no more: models (``Sequential``, ``Model`` subclassed with ``call``), layers
(``Dense``, ``Flatten``, ``Dropout``), activations, initializers, optimizers
(``SGD``, ``Adam``, ``RMSprop``, ``Adagrad``), losses and metrics. Their
numbers are Keras 3's (tests/library/fixtures/tf_keras.json holds the ones recorded
with TensorFlow 2.21). Any other name raises an error that lists what exists.

>>> import minitape as mt
>>> loss_fn = mt.keras.losses.MeanSquaredError()
>>> float(loss_fn(mt.constant([[1.0]]), mt.constant([[3.0]])))
4.0
"""

from . import activations, backend, initializers, layers, losses, metrics, models, optimizers, regularizers
from .layers import Input, Layer
from .models import Model, Sequential
from .namespace import missing_names

__all__ = ["Sequential", "Model", "Layer", "Input", "activations", "backend", "initializers", "layers", "losses",
           "metrics", "models", "optimizers", "regularizers"]
__getattr__ = missing_names("mt.keras", __all__)
