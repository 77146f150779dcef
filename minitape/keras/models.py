"""``mt.keras.Model`` and ``mt.keras.Sequential``: layers put together, trained by a loop you write.

Subclass :class:`Model`, make the layers in ``__init__`` and use them in
``call``; or list the layers in a :class:`Sequential`. Either way the model
is a layer: call it on a batch, and ``trainable_variables`` are what a tape
differentiates and an optimizer updates.

>>> import minitape as mt
>>> class TwoLayers(Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = mt.keras.layers.Dense(4, activation="relu")
...         self.out = mt.keras.layers.Dense(1)
...     def call(self, x):
...         return self.out(self.hidden(x))
>>> model = TwoLayers()
>>> model(mt.ones((5, 3))).shape
TensorShape([5, 1])
>>> [v.shape for v in model.trainable_variables]
[TensorShape([3, 4]), TensorShape([4]), TensorShape([4, 1]), TensorShape([1])]

``compile``, ``fit``, ``evaluate`` and ``predict`` are not in minitape's
Keras: the training loop is yours to write and to read (see tests/library/test_keras.py).
"""

from ..ops import zeros
from .layers import InputLayer, Layer
from .namespace import missing_names


class Model(Layer):
    """A layer made of layers: subclass it and write ``call``; ``layers`` lists the layers it holds."""

    def __init__(self, *args, name=None, dtype=None, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise TypeError("Model(inputs, outputs), Keras's functional API, is not in minitape's Keras: subclass "
                            "mt.keras.Model and write call(), or list the layers in mt.keras.Sequential([...])")
        super().__init__(name=name, dtype=dtype, **kwargs)

    @property
    def layers(self):
        """The layers held in the model's attributes, in the order they were assigned."""
        return self._layers()

    def build(self, input_shape):
        """Make every layer's weights now, by calling the model on a batch of zeros of ``input_shape``."""
        self.built = True
        self(zeros((1, *input_shape[1:])))

    def _build_for(self, inputs):
        self.built = True  # on a first call, each layer builds itself when the call reaches it

    def __getattr__(self, name):
        if name in ("compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch"):
            raise AttributeError(f"'{type(self).__name__}' has no {name}(): minitape's Keras has no built-in "
                                 f"training; write the loop: with mt.GradientTape() as tape: loss = loss_fn(y, "
                                 f"model(x, training=True)); then optimizer.apply_gradients(zip(tape.gradient(loss, "
                                 f"model.trainable_variables), model.trainable_variables))")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute {name!r}")


class Sequential(Model):
    """Layers applied one after the other: ``Sequential([a, b])(x)`` is ``b(a(x))``.

    A first element ``mt.keras.Input(shape)`` (or a first layer given
    ``input_shape``) tells the model the shape of its inputs, so that its
    weights are made at once; otherwise they are made on the first call.

    >>> import minitape as mt
    >>> model = Sequential([mt.keras.Input((3,)), mt.keras.layers.Dense(2)])
    >>> model.built, len(model.weights)
    (True, 2)
    """

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        self._sequence = []
        self._input_shape = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        """Put ``layer`` (or, first, an ``Input``) at the end."""
        if isinstance(layer, InputLayer):
            if self._sequence or self._input_shape:
                raise ValueError("An Input can only be the first element of a Sequential model")
            self._input_shape = layer.shape
        elif isinstance(layer, Layer):
            if not self._sequence and self._input_shape is None:
                self._input_shape = layer._input_shape_arg
            self._sequence.append(layer)
        else:
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer!r} (of type {type(layer)})")
        if self._input_shape is not None and self._sequence:
            self.build(self._input_shape)

    def pop(self):
        """Remove the last layer and return it."""
        return self._sequence.pop()

    @property
    def layers(self):
        """The layers, in order."""
        return list(self._sequence)

    def _layers(self):
        return list(self._sequence)

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._sequence:
            x = layer(x, training=training) if layer._takes_training() else layer(x)
        return x


__all__ = ["Model", "Sequential"]
__getattr__ = missing_names("mt.keras.models", __all__)
