"""``mt.keras.layers``: ``Layer``, and the layers ``Dense``, ``Flatten`` and ``Dropout``.

A layer is an :class:`~minitape.Module` that makes its weights the first
time it is called, when it sees the shape of its input (``build``), and then
computes ``call(inputs)``:

>>> import minitape as mt
>>> dense = Dense(2, kernel_initializer="ones")
>>> dense(mt.ones((1, 3))).numpy()  # weights made now: a kernel of shape (3, 2) and a bias (2,)
array([[3., 3.]], dtype=float32)
>>> [w.shape for w in dense.trainable_weights]
[TensorShape([3, 2]), TensorShape([2])]

A layer lists its weights as Keras does, not as ``tf.Module`` does: its own
in the order ``add_weight`` made them (a Dense layer's kernel, then its bias),
then those of the layers held in its attributes, in the order they were
assigned (``tf.Module`` sorts attributes by name). As in Keras 3, a Variable
made directly (``self.w = mt.Variable(...)``) is not one of a layer's
weights: make weights with ``add_weight``. Weights are named in their
layer's scope, ``dense/kernel:0``, as minitape Variables are (Keras 3 names
that one ``kernel``, with the path ``dense/kernel``).

``training`` tells a layer whether it is training (``Dropout`` drops only
then). A layer called inside another layer's call without ``training`` gets
the outer call's value, so ``model(x, training=True)`` reaches every layer.
``layer.trainable = False`` freezes a layer (its weights leave
``trainable_weights``); ``add_loss`` in ``call`` adds a penalty to
``layer.losses``, which each new forward pass empties. ``losses`` also holds,
after those, the penalty of each trainable weight made with a regularizer
(``kernel_regularizer=``), computed afresh each time it is read, so that a
tape sees it; an ``activity_regularizer`` adds the penalty of the layer's
output, divided by the batch size, at each call.
"""

import inspect
import math
import warnings

import numpy as np

from .. import nest
from ..dtypes import as_dtype
from ..tensorflow.module import Module, _snake_case
from ..ops import cast, divide_no_nan, matmul, reshape
from ..tensorflow.nn import dropout
from ..tensorflow.random import uniform
from ..tensor import Tensor, convert_to_tensor
from ..variable import Variable
from . import activations, initializers, regularizers
from .backend import floatx
from .namespace import missing_names

_COUNTS = {}  # base name -> how many layers have been given it: "dense", then "dense_1", "dense_2", ...
_CONTEXT = []  # the `training` value shared by the layer calls in progress: one entry while a call runs


def unique_name(base):
    """``base`` the first time, then ``base_1``, ``base_2``, ...: Keras's default layer names.

    >>> unique_name("flatten_example"), unique_name("flatten_example")
    ('flatten_example', 'flatten_example_1')
    """
    count = _COUNTS.get(base, 0)
    _COUNTS[base] = count + 1
    return base if count == 0 else f"{base}_{count}"


class Layer(Module):
    """A Module with weights made on the first call (``build``) and a computation (``call``).

    Subclass it: make weights in ``build(input_shape)`` with
    :meth:`add_weight` (or in ``__init__`` when their shape is known), and
    compute in ``call(inputs)``; call the layer itself, not ``call``.

    Args:
      name: the layer's name (by default the class name in snake case, made
        unique: ``dense``, ``dense_1``, ...).
      dtype: the dtype of the weights and of the computation (float32).
      input_shape: the shape of one example; lets a ``Sequential`` model make
        its weights at once (Keras prefers ``mt.keras.Input(shape)`` first).
      activity_regularizer: a regularizer (or its name) of the layer's output,
        whose penalty each call adds to :attr:`losses`.
    """

    def __init__(self, name=None, dtype=None, trainable=True, input_shape=None, activity_regularizer=None):
        super().__init__(name=name or unique_name(_snake_case(type(self).__name__)))
        self.dtype = as_dtype(dtype or floatx()).name
        self.built = False
        self._trainable = bool(trainable)
        self._own_weights = []
        self._own_state = []  # Variables that are not weights (Dropout's random state): in `variables` only
        self._losses = []  # what add_loss was given during the latest call
        self._regularizers = {}  # a weight's id -> the regularizer of its penalty
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._input_shape_arg = None
        if input_shape is not None:
            warnings.warn("Do not pass an `input_shape` argument to a layer. When using Sequential models, prefer "
                          "using an `Input(shape)` object as the first layer in the model instead.", stacklevel=2)
            self._input_shape_arg = (None, *input_shape)

    # -- weights -----------------------------------------------------------------------------------------
    def add_weight(self, shape=(), initializer="glorot_uniform", dtype=None, trainable=True, name=None,
                   regularizer=None):
        """A new Variable of this layer, of ``shape``, started by ``initializer`` (a name or an initializer).

        A ``regularizer`` (or its name) puts the weight's penalty in :attr:`losses`.
        """
        value = initializers.get(initializer)(tuple(shape), dtype=dtype or self.dtype)
        weight = Variable(value, trainable=trainable, name=name or "variable")
        self._own_weights.append(weight)
        if regularizer is not None:
            self._regularizers[weight.id] = regularizers.get(regularizer)
        return weight

    def _layers(self):
        """The layers held in this layer's attributes (also in lists, tuples and dicts), in assignment order."""
        found = []
        for value in vars(self).values():
            found.extend(leaf for leaf in nest.flatten(value) if isinstance(leaf, Layer) and leaf is not self)
        return list({id(layer): layer for layer in found}.values())

    def _gather(self, own, from_layer):
        """``own`` (this layer's Variables), then ``from_layer(layer)`` of each sub-layer; each Variable once."""
        found = list(own)
        for layer in self._layers():
            found.extend(from_layer(layer))
        return list({v.id: v for v in found}.values())

    @property
    def trainable(self):
        """False freezes the layer and its sub-layers: their weights leave ``trainable_weights``.

        (Keras 3 also sets each weight's ``trainable`` to False; a minitape
        Variable's stays as it was made, so a tape still watches it, but an
        optimizer given ``trainable_weights`` leaves it alone.)
        """
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        if bool(value) == self._trainable:  # as observed in Keras on TensorFlow: no change reaches no sub-layer
            return
        self._trainable = bool(value)
        for layer in self._layers():
            layer.trainable = value

    def _own_in_order(self):
        """This layer's own weights as Keras lists them: the trainable ones, then the others, each in the order made."""
        return [w for w in self._own_weights if w.trainable] + [w for w in self._own_weights if not w.trainable]

    @property
    def weights(self):
        """Every weight: this layer's own, then each sub-layer's (a list)."""
        return self._gather(self._own_in_order(), lambda layer: layer.weights)

    @property
    def trainable_weights(self):
        """The weights an optimizer updates: none if the layer is frozen (``trainable = False``)."""
        if not self.trainable:
            return []
        return self._gather([w for w in self._own_weights if w.trainable], lambda layer: layer.trainable_weights)

    @property
    def non_trainable_weights(self):
        """The weights made with ``trainable=False``, and all of a frozen layer's."""
        if not self.trainable:
            return self.weights
        return self._gather([w for w in self._own_weights if not w.trainable],
                            lambda layer: layer.non_trainable_weights)

    @property
    def variables(self):
        """The weights and the layers' other state (Dropout's random state), each layer's own first."""
        return self._gather(self._own_in_order() + self._own_state, lambda layer: layer.variables)

    # Keras's trainable_variables are its trainable_weights (state is never trainable).
    trainable_variables = trainable_weights

    @property
    def non_trainable_variables(self):
        """The Variables that are not trainable weights: non-trainable weights and state."""
        if not self.trainable:
            return self.variables
        return self._gather([w for w in self._own_weights if not w.trainable] + self._own_state,
                            lambda layer: layer.non_trainable_variables)

    def get_weights(self):
        """The weights' values, as NumPy arrays, in the order of :attr:`weights`."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Give the weights new values: NumPy arrays (or lists) in the order of :attr:`weights`."""
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length "
                             f"{len(weights)}, but the layer was expecting {len(mine)} weights.")
        for weight, value in zip(mine, weights):
            value = convert_to_tensor(value, dtype_hint=weight.dtype)
            if value.shape != weight.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(weight.shape)} is not compatible with "
                                 f"provided weight shape {tuple(value.shape)}.")
            weight.assign(cast(value, weight.dtype))

    # -- losses added during a call -------------------------------------------------------------------------
    def add_loss(self, loss):
        """Add ``loss`` (a scalar tensor, or a list of them) to :attr:`losses`; call it from ``call``.

        A penalty on a layer's activations is added where they are computed;
        the training loop adds ``sum(model.losses)`` to its loss.
        """
        losses = nest.flatten(loss)
        for value in losses:
            if not isinstance(value, Tensor):
                raise ValueError(f"`add_loss()` can only be called from inside `build()` or `call()`, on a tensor "
                                 f"input. Received invalid value: {value!r}")
        self._losses.extend(losses)

    def _added_losses(self):
        """What ``add_loss`` was given in the latest call: this layer's, then each sub-layer's."""
        found = list(self._losses)
        for layer in self._layers():
            found.extend(layer._added_losses())
        return found

    def _regularizer_of(self, weight):
        """The regularizer ``weight`` was made with, by this layer or a sub-layer; None if it has none."""
        if weight.id in self._regularizers:
            return self._regularizers[weight.id]
        for layer in self._layers():
            found = layer._regularizer_of(weight)
            if found is not None:
                return found
        return None

    @property
    def losses(self):
        """The losses added during the latest call of the outermost layer (by this layer, then its sub-layers),
        then the penalty of each trainable weight that has a regularizer, in the order of ``trainable_weights``."""
        penalties = []
        for weight in self.trainable_weights:
            regularizer = self._regularizer_of(weight)
            if regularizer is not None:
                penalties.append(regularizer(weight))
        return self._added_losses() + penalties

    def _clear_losses(self):
        self._losses.clear()
        for layer in self._layers():
            layer._clear_losses()

    # -- calling -----------------------------------------------------------------------------------------
    def build(self, input_shape):
        """Make the weights, knowing the input's shape; a layer without weights needs nothing here."""
        self.built = True

    def _build_for(self, inputs):
        """Build on the first call, for the shape of ``inputs`` (a structure of shapes for a structure of inputs)."""
        with self.name_scope:
            self.build(nest.map_structure(lambda t: tuple(t.shape), inputs))
        self.built = True

    def call(self, inputs):
        raise NotImplementedError(f"{type(self).__name__} must define call(inputs), the layer's computation")

    def _takes_training(self):
        return "training" in inspect.signature(self.call).parameters

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, InputLayer):
            raise TypeError(f"{self.name} was called on mt.keras.Input(...): that builds a functional model, which "
                            f"minitape's Keras does not have. List the layers in mt.keras.Sequential([mt.keras.Input"
                            f"(shape), layer, ...]), or subclass mt.keras.Model and call the layers in call()")
        if "_own_weights" not in vars(self):
            raise RuntimeError(f"In layer '{type(self).__name__}', you forgot to call `super().__init__()` as the "
                               f"first statement in the `__init__()` method. Go add it!")
        inputs = self._converted(inputs)
        if not self.built:
            self._build_for(inputs)
        outermost = not _CONTEXT
        if outermost:  # a new forward pass: the losses added by the last one go
            _CONTEXT.append(None)
            self._clear_losses()
        try:
            takes_training = self._takes_training()
            training = kwargs.pop("training", None)
            if training is None:  # not given: the outer call's, else the default of `call`
                training = _CONTEXT[0]
            if training is None and takes_training:
                default = inspect.signature(self.call).parameters["training"].default
                training = None if default is inspect.Parameter.empty else default
            _CONTEXT[0] = training  # what the layers called after this one inherit, as in Keras
            if takes_training and training is not None:
                kwargs["training"] = training
            with self.name_scope:
                outputs = self.call(inputs, *args, **kwargs)
            if self.activity_regularizer is not None:
                self._add_activity_penalty(outputs)
            return outputs
        finally:
            if outermost:
                _CONTEXT.pop()

    def _add_activity_penalty(self, outputs):
        """The activity regularizer's penalty of each output, divided by the batch size (as Keras 3 does, so that
        its strength does not change with the size of the batch)."""
        for output in nest.flatten(outputs):
            if isinstance(output, Tensor):
                penalty = convert_to_tensor(self.activity_regularizer(output))
                if output.ndim > 0:
                    penalty = divide_no_nan(penalty, cast(output.shape[0], penalty.dtype))
                self.add_loss(penalty)

    def _converted(self, inputs):
        """The input as a tensor, floats in the layer's dtype (Keras casts a float64 array to float32).

        Several inputs (a list, tuple or dict of arrays or tensors) are each
        converted and keep their structure; a nested list of numbers is one tensor.
        """
        if nest.is_nested(inputs) and any(isinstance(leaf, (Tensor, np.ndarray)) for leaf in nest.flatten(inputs)):
            return nest.map_structure(self._converted, inputs)
        inputs = convert_to_tensor(inputs)
        if inputs.dtype.is_floating and inputs.dtype != self.dtype:
            inputs = cast(inputs, self.dtype)
        return inputs

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``: every output unit a weighted sum of every input.

    The kernel has shape (input size, ``units``) and is made on the first
    call; it starts Glorot-uniform (``kernel_initializer``), the bias at zeros.
    ``kernel_regularizer`` and ``bias_regularizer`` put their weights'
    penalties in :attr:`losses`.

    >>> layer = Dense(1, kernel_initializer="ones", bias_initializer="ones", activation="relu")
    >>> layer(convert_to_tensor([[1.0, -3.0]])).numpy()  # relu(1 - 3 + 1)
    array([[0.]], dtype=float32)
    """

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 name=None, dtype=None, trainable=True, input_shape=None):
        super().__init__(name=name, dtype=dtype, trainable=trainable, input_shape=input_shape,
                         activity_regularizer=activity_regularizer)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units!r}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def build(self, input_shape):
        self.kernel = self.add_weight((input_shape[-1], self.units), self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer)
        self.bias = (self.add_weight((self.units,), self.bias_initializer, name="bias",
                                     regularizer=self.bias_regularizer) if self.use_bias else None)
        self.built = True

    def call(self, inputs):
        x = matmul(inputs, self.kernel)
        if self.use_bias:
            x = x + self.bias
        return self.activation(x)


class Flatten(Layer):
    """Each example as one vector: shape (batch, a, b, ...) becomes (batch, a * b * ...).

    >>> Flatten()(convert_to_tensor([[[1.0, 2.0], [3.0, 4.0]]])).shape
    TensorShape([1, 4])
    """

    def call(self, inputs):
        return reshape(inputs, (inputs.shape[0], math.prod(inputs.shape[1:])))


class Dropout(Layer):
    """While training, each input set to 0 with probability ``rate`` and the others divided by ``1 - rate``.

    The division keeps the expected value of each unit what it is without
    dropout, so nothing changes at inference (``training=False``, the
    default), where the layer passes its input through. ``noise_shape``
    shares one draw along the axes where it is 1 (e.g. ``(batch, 1, features)``
    drops whole features); None in it stands for the input's size there.

    Each call is ``mt.nn.dropout`` with a new mask, seeded by the layer's state
    ``[seed, draws so far]`` (an int64 Variable in ``variables``, as Keras
    keeps it): a ``seed`` makes the sequence of masks reproducible; without
    one, the seed is drawn from ``mt.random``'s generator when the layer is made.
    """

    def __init__(self, rate, noise_shape=None, seed=None, name=None, dtype=None, input_shape=None):
        super().__init__(name=name, dtype=dtype, input_shape=input_shape)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        if rate > 0:
            if seed is None:
                seed = int(uniform((), 0, 2 ** 31 - 1, dtype="int64"))
            self._seed_state = Variable(np.array([seed, 0], np.int64), trainable=False, name="seed_generator_state")
            self._own_state.append(self._seed_state)

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        outputs = dropout(inputs, self.rate, self.noise_shape, seed=tuple(self._seed_state.numpy().tolist()))
        self._seed_state.assign_add(np.array([0, 1], np.int64))
        return outputs


class InputLayer:
    """What ``mt.keras.Input(shape)`` gives: the shape of one example, for the first place of a ``Sequential``."""

    def __init__(self, shape, dtype=None, name=None):
        self.shape = (None, *shape)
        self.dtype = as_dtype(dtype or floatx()).name
        self.name = name

    def __repr__(self):
        return f"<InputLayer shape={self.shape}>"


def Input(shape, dtype=None, name=None):
    """The shape of the inputs (one example, without the batch), to start a ``Sequential`` model with.

    Keras's functional models (``Model(inputs, outputs)``) are not in
    minitape's Keras: ``Input`` only tells a ``Sequential`` model its input
    shape, so that it makes its weights at once.
    """
    return InputLayer(shape, dtype, name)


__all__ = ["Layer", "Dense", "Flatten", "Dropout", "Input", "InputLayer"]
__getattr__ = missing_names("mt.keras.layers", __all__)
