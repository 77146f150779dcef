"""``mt.keras.losses``: how far predictions are from labels, as Keras 3 computes it.

Each loss comes twice, as in Keras: a function that gives one value per
example (``mean_squared_error(y_true, y_pred)``), and a class whose instances
also reduce those values to one number (``MeanSquaredError()(y_true, y_pred)``)
with ``reduction``: ``"sum_over_batch_size"`` (the default: the sum divided by
the number of values), ``"sum"``, or ``"none"`` (no reduction).

>>> mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]]).numpy()
array([0.5], dtype=float32)
>>> y_true, y_pred = convert_to_tensor([[0.0, 1.0], [0.0, 0.0]]), convert_to_tensor([[1.0, 1.0], [0.0, 2.0]])
>>> float(MeanSquaredError(reduction="sum")(y_true, y_pred))
2.5

The cross-entropies take probabilities (``from_logits=False``, the default:
they are clipped to ``[epsilon, 1 - epsilon]`` so that the log stays finite)
or logits (``from_logits=True``: exact, and the better choice). Probabilities
that come straight from Keras's ``softmax`` or ``sigmoid`` activation are
traced back to their logits, as Keras does (``activations.logits_behind``).

``Reduction.SUM``, ``Reduction.NONE`` and ``Reduction.SUM_OVER_BATCH_SIZE``
(Keras 2's names, which ``tf.keras.losses`` keeps) are those strings.
``sample_weight`` weighs each example's value before the reduction.

Give the classes tensors or NumPy arrays: Keras 3 reads a Python list as a
nested structure of inputs, and fails where minitape converts it.
"""

import warnings

from ..ops import (abs as _abs, cast, clip_by_value, divide_no_nan, expand_dims, log, one_hot, reduce_mean,
                   reduce_prod, reduce_sum, sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
                   square, squeeze, where)
from ..tensor import convert_to_tensor
from .activations import logits_behind
from .backend import convert, epsilon, floatx
from .namespace import missing_names

REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


class Reduction:
    """Keras 2's names of the reductions, as ``tf.keras.losses.Reduction`` keeps them: each is its string.

    >>> loss_fn = MeanSquaredError(reduction=Reduction.SUM)
    >>> float(loss_fn(convert_to_tensor([[1.0], [2.0]]), convert_to_tensor([[0.0], [0.0]])))
    5.0

    ``AUTO`` is Keras 2's default, which was ``SUM_OVER_BATCH_SIZE`` in a
    custom training loop; Keras 3's losses refuse it, and so do minitape's.
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        """The four names' values."""
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        """Raise ValueError unless ``key`` is one of :meth:`all`."""
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key: {key!r}. Expected keys are {cls.all()}")


# -- the per-example functions ----------------------------------------------------------------------------------
def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """``x1`` and ``x2`` with a trailing axis of size 1 dropped from the one with a rank more than the other.

    Labels of shape (batch,) against predictions of shape (batch, 1) are
    compared example by example, not broadcast to (batch, batch): a rank-1
    partner gets the axis instead (``expand_rank_1``).

    >>> [t.shape for t in squeeze_or_expand_to_same_rank(convert_to_tensor([1.0, 2.0]), [[1.0], [2.0]])]
    [TensorShape([2, 1]), TensorShape([2, 1])]
    """
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    rank1, rank2 = x1.ndim, x2.ndim
    if rank1 == rank2 + 1 and x1.shape[-1] == 1:
        if rank2 == 1 and expand_rank_1:
            x2 = expand_dims(x2, -1)
        else:
            x1 = squeeze(x1, -1)
    elif rank2 == rank1 + 1 and x2.shape[-1] == 1:
        if rank1 == 1 and expand_rank_1:
            x1 = expand_dims(x1, -1)
        else:
            x2 = squeeze(x2, -1)
    return x1, x2


def _labels_like(y_true, y_pred):
    """Predictions as a tensor, and the labels converted to their dtype and rank."""
    y_pred = convert_to_tensor(y_pred)
    return squeeze_or_expand_to_same_rank(convert(y_true, y_pred.dtype), y_pred)


def mean_squared_error(y_true, y_pred):
    """``mean(square(y_true - y_pred), axis=-1)``: one value per example."""
    y_true, y_pred = _labels_like(y_true, y_pred)
    return reduce_mean(square(y_true - y_pred), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Squared error where it is small, absolute error where it is large, averaged over the last axis.

    Each error ``x`` counts ``0.5 * x**2`` where ``|x| <= delta`` and
    ``delta * |x| - 0.5 * delta**2`` beyond: the two pieces meet with the same
    slope, and a large error pulls no harder than ``delta``.

    >>> huber([[0.0, 0.0]], [[0.5, 3.0]]).numpy()  # (0.125 + 2.5) / 2
    array([1.3125], dtype=float32)
    """
    y_true, y_pred = _labels_like(y_true, y_pred)
    delta = convert_to_tensor(delta, dtype=y_pred.dtype)
    error = y_pred - y_true
    abs_error = _abs(error)
    return reduce_mean(where(abs_error <= delta, 0.5 * square(error), delta * abs_error - 0.5 * square(delta)),
                       axis=-1)


def _check_same_shape(name, target, output):
    if target.ndim != output.ndim:
        raise ValueError(f"{name}: `target` and `output` must have the same rank (ndim); received "
                         f"target.shape={target.shape}, output.shape={output.shape}")
    if target.shape != output.shape:
        raise ValueError(f"{name}: `target` and `output` must have the same shape; received "
                         f"target.shape={target.shape}, output.shape={output.shape}")


def _logits(output, from_logits, name):
    """``(logits or probabilities, whether they are logits)``: an activation's output is traced to its logits."""
    logits = logits_behind(output)
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f"{name} received from_logits=True, but the output was produced by a softmax or sigmoid "
                      f"activation and so does not hold logits. Was this intended?", stacklevel=3)
    return logits, True


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """``-(y log p + (1 - y) log(1 - p))``, averaged over ``axis``: one value per example.

    ``label_smoothing`` moves the labels towards 0.5: ``y * (1 - s) + 0.5 * s``.

    >>> binary_crossentropy([[1.0]], [[0.0]], from_logits=True).numpy()  # log 2
    array([0.6931472], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = convert(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _check_same_shape("binary_crossentropy", y_true, y_pred)
    output, from_logits = _logits(y_pred, from_logits, "binary_crossentropy")
    if from_logits:
        losses = sigmoid_cross_entropy_with_logits(labels=y_true, logits=output)
    else:
        output = clip_by_value(output, epsilon(), 1.0 - epsilon())
        losses = -(y_true * log(output) + (1.0 - y_true) * log(1.0 - output))
    return reduce_mean(losses, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """``-sum(y * log(p))`` over ``axis`` (the classes), for one-hot labels ``y``: one value per example.

    Probabilities are first divided by their sum, so that they add up to 1.
    ``label_smoothing`` ``s`` spreads part of each label over all ``n``
    classes: ``y * (1 - s) + s / n``.

    >>> categorical_crossentropy([[0.0, 1.0]], [[0.0, 0.0]], from_logits=True).numpy()  # log 2
    array([0.6931472], dtype=float32)
    """
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_pred = convert_to_tensor(y_pred)
    y_true = convert(y_true, y_pred.dtype)
    if y_pred.ndim and y_pred.shape[-1] == 1:
        warnings.warn(f"In loss categorical_crossentropy, expected y_pred.shape to be (batch_size, num_classes) "
                      f"with num_classes > 1. Received: y_pred.shape={y_pred.shape}. Consider using "
                      f"'binary_crossentropy' if you only have 2 classes.", SyntaxWarning, stacklevel=2)
    if y_true.ndim < 1:
        raise ValueError(f"categorical_crossentropy: `target` and `output` must be at least rank 1; received "
                         f"target.shape={y_true.shape}, output.shape={y_pred.shape}")
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / cast(y_true.shape[-1], y_pred.dtype)
    _check_same_shape("categorical_crossentropy", y_true, y_pred)
    output, from_logits = _logits(y_pred, from_logits, "categorical_crossentropy")
    if from_logits:
        return softmax_cross_entropy_with_logits(labels=y_true, logits=output, axis=axis)
    output = clip_by_value(output / reduce_sum(output, axis, keepdims=True), epsilon(), 1.0 - epsilon())
    return -reduce_sum(y_true * log(output), axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """``-log(p[label])`` for integer class labels: one value per example.

    Labels of shape (batch,) or (batch, 1) index the last axis of ``y_pred``
    (batch, classes); they are the class numbers that ``categorical_crossentropy``
    would take as one-hot rows.

    >>> labels, logits = convert_to_tensor([1]), convert_to_tensor([[0.0, 0.0]])
    >>> sparse_categorical_crossentropy(labels, logits, from_logits=True).numpy()  # log 2
    array([0.6931472], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if axis not in (-1, y_pred.ndim - 1):
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    if y_pred.ndim < 1:
        raise ValueError(f"Argument `output` must be at least rank 1. Received: output.shape={y_pred.shape}")
    if y_true.ndim == y_pred.ndim and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, -1)
    if y_true.shape != y_pred.shape[:-1]:
        raise ValueError(f"sparse_categorical_crossentropy: the labels' shape must be the predictions' shape "
                         f"without its last axis (one class number per example); received "
                         f"target.shape={y_true.shape}, output.shape={y_pred.shape}")
    output, from_logits = _logits(y_pred, from_logits, "sparse_categorical_crossentropy")
    if not from_logits:
        output = log(clip_by_value(output, epsilon(), 1.0 - epsilon()))
    classes = cast(y_true, "int64")
    n = output.shape[-1]
    if classes.ndim and ((classes.numpy() < 0) | (classes.numpy() >= n)).any():
        raise ValueError(f"sparse_categorical_crossentropy: every label must be a class number in [0, {n}); "
                         f"received {classes.numpy().tolist()}")
    # log(softmax) at the label is the softmax cross-entropy with the one-hot label.
    return softmax_cross_entropy_with_logits(labels=one_hot(classes, n, dtype=output.dtype), logits=output)


# -- the classes: a function and a reduction --------------------------------------------------------------------
def reduce_weighted_values(values, sample_weight=None, reduction="sum_over_batch_size", dtype=None):
    """``values`` (one per example) times ``sample_weight``, reduced as ``reduction`` says.

    ``"sum_over_batch_size"`` and ``"mean"`` divide the sum by the number of
    values (not by the sum of the weights: ``"mean_with_sample_weight"`` does
    that); ``"sum"`` is the sum; ``"none"`` or None leaves the values as they are.

    >>> float(reduce_weighted_values([1.0, 3.0], sample_weight=[1.0, 0.0]))
    0.5
    """
    _check_reduction(reduction)
    values = convert(values, dtype or floatx())
    if sample_weight is not None:
        values, sample_weight = squeeze_or_expand_to_same_rank(values, convert(sample_weight, values.dtype))
        values = values * sample_weight
    if reduction in (None, "none") or values.shape in ((), (0,)):
        return values
    loss = reduce_sum(values)
    if reduction == "sum":
        return loss
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        return divide_no_nan(loss, reduce_sum(sample_weight))
    return divide_no_nan(loss, cast(reduce_prod(values.shape), loss.dtype))


def _check_reduction(reduction):
    if reduction == Reduction.AUTO:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. Received: "
                         f"reduction='auto' (Keras 2's Reduction.AUTO, which Keras 3 no longer takes; in a custom "
                         f"training loop it meant 'sum_over_batch_size': give that)")
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {REDUCTIONS}. Received: "
                         f"reduction={reduction!r}")


class Loss:
    """A loss as an object: ``loss(y_true, y_pred, sample_weight=None)`` is ``call`` reduced to one number.

    Subclass it and write ``call(y_true, y_pred)``, returning one value per
    example; both inputs arrive as tensors of ``dtype`` (float32).
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        _check_reduction(reduction)
        self.name = name or type(self).__name__
        self.reduction = reduction
        self.dtype = dtype or floatx()

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(convert(y_true, self.dtype), convert(y_pred, self.dtype))
        return reduce_weighted_values(losses, sample_weight, self.reduction, self.dtype)

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must define call(y_true, y_pred), returning one loss "
                                  f"value per example")


class LossFunctionWrapper(Loss):
    """A :class:`Loss` made of a per-example function ``fn(y_true, y_pred, **kwargs)``."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(*squeeze_or_expand_to_same_rank(y_true, y_pred), **self._fn_kwargs)


class MeanSquaredError(LossFunctionWrapper):
    """:func:`mean_squared_error`, reduced."""

    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction, name, dtype)


class Huber(LossFunctionWrapper):
    """:func:`huber`, reduced.

    >>> float(Huber(delta=1.0)(convert_to_tensor([[0.0, 0.0]]), convert_to_tensor([[0.5, 3.0]])))
    1.3125
    """

    def __init__(self, delta=1.0, reduction="sum_over_batch_size", name="huber_loss", dtype=None):
        super().__init__(huber, reduction, name, dtype, delta=delta)


class BinaryCrossentropy(LossFunctionWrapper):
    """:func:`binary_crossentropy`, reduced."""

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class CategoricalCrossentropy(LossFunctionWrapper):
    """:func:`categorical_crossentropy`, reduced."""

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """:func:`sparse_categorical_crossentropy`, reduced.

    >>> loss_fn = SparseCategoricalCrossentropy(from_logits=True)
    >>> float(loss_fn(convert_to_tensor([0, 1]), convert_to_tensor([[0.0, 0.0], [0.0, 0.0]])))  # log 2
    0.6931471824645996
    """

    def __init__(self, from_logits=False, reduction="sum_over_batch_size", axis=-1,
                 name="sparse_categorical_crossentropy", dtype=None):
        super().__init__(sparse_categorical_crossentropy, reduction, name, dtype, from_logits=from_logits,
                         axis=axis)
        self.from_logits = from_logits


# tf.keras calls the function mean_squared_error by its short names only; Keras 3 by its long name only.
mse = MSE = mean_squared_error

__all__ = ["Loss", "Reduction", "MeanSquaredError", "Huber", "BinaryCrossentropy", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "mean_squared_error", "mse", "MSE", "huber", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy"]
__getattr__ = missing_names("mt.keras.losses", __all__)
