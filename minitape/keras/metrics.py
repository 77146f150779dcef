"""``mt.keras.metrics``: running averages over a training loop, as Keras 3 keeps them.

A metric keeps its state in Variables: ``update_state`` adds a batch,
``result`` gives the value so far, ``reset_state`` starts again (at each
epoch); calling the metric does ``update_state`` and returns ``result``.

>>> m = Mean()
>>> m.update_state([1.0, 2.0])
>>> m.update_state(6.0)
>>> float(m.result())  # (1 + 2 + 6) / 3
3.0
>>> acc = SparseCategoricalAccuracy()
>>> float(acc([1, 0], [[0.2, 0.8], [0.3, 0.7]]))  # the first is right, the second wrong
0.5
"""

from ..ops import (argmax, broadcast_to, cast, divide_no_nan, equal, reduce_mean, reduce_sum, reshape, squeeze,
                   zeros)
from ..tensor import convert_to_tensor
from ..variable import Variable
from . import initializers
from .backend import convert, floatx
from .losses import squeeze_or_expand_to_same_rank
from .namespace import missing_names


class Metric:
    """What every metric is: state in ``variables``, ``update_state``, ``result``, ``reset_state``."""

    def __init__(self, name=None, dtype=None):
        self.name = name or type(self).__name__
        self.dtype = dtype or floatx()
        self.variables = []

    def add_variable(self, shape, initializer, dtype=None, name=None):
        """A new Variable of the metric's state, started by ``initializer`` (put back to zeros by ``reset_state``)."""
        value = initializers.get(initializer)(tuple(shape), dtype=dtype or self.dtype)
        variable = Variable(value, trainable=False, name=name or "variable")
        self.variables.append(variable)
        return variable

    def reset_state(self):
        """Forget every batch seen so far: every Variable of the state back to zeros."""
        for variable in self.variables:
            variable.assign(zeros(variable.shape, dtype=variable.dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} must define result")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()


class Mean(Metric):
    """The weighted mean of every value given to ``update_state`` since the last ``reset_state``.

    A batch of values of shape (batch, ...) counts as ``batch`` examples, each
    the mean of its values; ``sample_weight`` weighs them (and the count is
    then the sum of the weights).
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable((), "zeros", name="total")
        self.count = self.add_variable((), "zeros", name="count")

    def update_state(self, values, sample_weight=None):
        values = convert(values, self.dtype)
        if sample_weight is not None:
            values, sample_weight = squeeze_or_expand_to_same_rank(values, convert(sample_weight, self.dtype))
            if values.ndim > sample_weight.ndim:  # the values of one weight become their mean
                values = reduce_mean(values, axis=list(range(sample_weight.ndim, values.ndim)))
            sample_weight = broadcast_to(sample_weight, values.shape)
            values = values * sample_weight
            if sample_weight.ndim > 1:
                sample_weight = reduce_mean(sample_weight, axis=list(range(1, sample_weight.ndim)))
        if values.ndim > 1:
            values = reduce_mean(values, axis=list(range(1, values.ndim)))
        self.total.assign_add(reduce_sum(values))
        if sample_weight is not None:
            self.count.assign_add(reduce_sum(sample_weight))
        else:
            self.count.assign_add(float(values.shape[0] if values.ndim else 1))

    def result(self):
        return divide_no_nan(self.total.read_value(), self.count.read_value())


class MeanMetricWrapper(Mean):
    """The :class:`Mean` of ``fn(y_true, y_pred, **kwargs)``, a function that gives one value per example."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight=sample_weight)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the largest prediction is at the label, 0.0 elsewhere: one value per example.

    >>> sparse_categorical_accuracy([2, 0], [[0.1, 0.2, 0.7], [0.1, 0.8, 0.1]]).numpy()
    array([1., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = convert(y_true, y_pred.dtype)
    shape = y_true.shape
    squeezed = y_true.ndim == y_pred.ndim and shape[-1] == 1  # labels of shape (batch, 1)
    if squeezed:
        y_true = squeeze(y_true, -1)
    matches = cast(equal(y_true, cast(argmax(y_pred, axis=-1), y_true.dtype)), floatx())
    if squeezed:
        matches = reshape(matches, shape)
    if matches.ndim > 1 and matches.shape[-1] == 1:
        matches = squeeze(matches, -1)
    return matches


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the largest prediction is at the integer label: the mean of :func:`sparse_categorical_accuracy`."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


__all__ = ["Metric", "Mean", "MeanMetricWrapper", "SparseCategoricalAccuracy", "sparse_categorical_accuracy"]
__getattr__ = missing_names("mt.keras.metrics", __all__)
