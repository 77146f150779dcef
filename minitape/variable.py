"""Variables: named, mutable tensors, the parameters a model learns.

A :class:`Variable` keeps one id for its whole life, so every op that reads
it is connected to the same gradient; ``assign`` changes its value in place.

>>> import minitape as mt
>>> v = mt.Variable(3.0, name="v")
>>> v.assign_add(1.0)
<mt.Variable 'v:0' shape=() dtype=float32, numpy=4.0>
"""

import threading

import numpy as np

from . import recording
from .tensor import Tensor, convert_to_tensor, format_value


class _NamePrefix(threading.local):
    value = ""  # "", or the innermost name scope's name ending with "/"


# The prefix of the names of Variables made in this thread: ``mt.name_scope`` (minitape/tensorflow/scopes.py) sets it.
name_prefix = _NamePrefix()


class Variable(Tensor):
    """A mutable, named tensor: the parameters a model learns.

    Trainable Variables read inside a ``GradientTape`` are watched without a
    call to ``tape.watch``. ``assign``, ``assign_add`` and ``assign_sub``
    change the value in place of the Variable (the Python object keeps its
    identity) and are never recorded: a tape keeps the value each op read.

    >>> w = Variable([1.0, 2.0], name="w")
    >>> w.assign_sub([0.5, 0.5]).numpy()
    array([0.5, 1.5], dtype=float32)

    ``w -= 0.5`` would make ``w`` a new Tensor, no longer the Variable, so it
    is refused, as in TensorFlow: write ``w.assign_sub(0.5)``.
    """

    __slots__ = ("_trainable", "_name", "_shape")

    def __init__(self, initial_value, trainable=True, name=None, dtype=None, shape=None):
        if callable(initial_value):
            initial_value = initial_value()
        if isinstance(initial_value, Variable):
            initial_value = initial_value.snapshot()
        value = convert_to_tensor(initial_value, dtype=dtype).array
        if shape is not None and tuple(shape) != np.shape(value):
            raise ValueError(f"Variable: initial value has shape {np.shape(value)}, "
                             f"but shape={tuple(shape)} was given")
        super().__init__(np.array(value))  # our own copy: later assigns never alias the caller's array
        self._trainable = bool(trainable)
        self._name = f"{name_prefix.value}{name or 'Variable'}:0"  # inside mt.name_scope("layer"): 'layer/w:0'
        self._shape = np.shape(value)

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    def snapshot(self):
        """The current value as an op reads it: a Tensor that shares this Variable's id.

        Every op reads a Variable through a snapshot, so a tape records the
        op on the Variable itself (one picture node, one gradient), and keeps
        the value the op saw even if the Variable is assigned afterwards.
        A snapshot is never handed to the user: ``read_value`` is.
        """
        recorders = recording.active()
        if not recorders:
            return self
        for recorder in recorders:
            recorder.variable_accessed(self)
        snapshot = Tensor.__new__(Tensor)
        snapshot.array = self.array
        snapshot.id = self.id
        return snapshot

    # value() and read_value(), a read that is a tensor of its own (TensorFlow's ReadVariableOp), are the op
    # `identity` of a snapshot; minitape/ops/operators.py attaches them, since ops are built on this module.

    def _converted(self, value, what):
        """``value`` as an array of this Variable's dtype: numbers are converted, a tensor of another dtype refused."""
        dtype = self.dtype
        if isinstance(value, Variable):
            value = value.snapshot()
        if isinstance(value, Tensor) and value.dtype != dtype:
            raise ValueError(f"Variable {self._name}.{what}: the value has dtype {value.dtype.name} but the "
                             f"Variable is {dtype.name}; convert it first with mt.cast(value, mt.{dtype.name})")
        return convert_to_tensor(value, dtype=dtype).array

    def _checked(self, value, what):
        """``value`` converted to this Variable's dtype and checked against its shape."""
        array = self._converted(value, what)
        if np.shape(array) != self._shape:
            raise ValueError(f"Variable {self._name}.{what}: the value has shape {np.shape(array)} but the "
                             f"Variable has shape {self._shape}")
        return array

    def assign(self, value):
        """Replace the value (same shape and dtype); returns the Variable."""
        self.array = np.array(self._checked(value, "assign"))
        return self

    def assign_add(self, delta):
        """``self <- self + delta``, in place and not recorded; returns the Variable."""
        self.array = self.array + self._checked(delta, "assign_add")
        return self

    def assign_sub(self, delta):
        """``self <- self - delta``, in place and not recorded; returns the Variable."""
        self.array = self.array - self._checked(delta, "assign_sub")
        return self

    def assign_slice(self, index, value):
        """``self[index] = value`` (a NumPy basic index), in place and not recorded; returns the Variable.

        This is what ``v[1:3].assign(value)`` runs (the slice is a
        :class:`~minitape.ops.slicing.VariableSlice`); TensorFlow has it only
        there, as a private method of its Variables. ``value`` broadcasts to the
        slice's shape as in NumPy's assignment (and TensorFlow's strided-slice
        assign): leading dimensions of size 1 may be dropped, then each
        dimension is equal or 1. An empty slice takes any value, as there.
        """
        array = self._converted(value, "[...].assign")
        updated = np.array(self.array)  # a new array: a tape may hold the old one
        target = updated[index].shape
        if 0 not in target:
            extra = array.ndim - len(target)
            if extra > 0 and all(d == 1 for d in array.shape[:extra]):
                array = array.reshape(array.shape[extra:])
            try:
                updated[index] = np.broadcast_to(array, target)
            except ValueError:
                raise ValueError(f"Variable {self._name}: a value of shape {np.shape(array)} cannot be assigned to "
                                 f"a slice of shape {target}: give the slice's shape, or one that broadcasts to "
                                 f"it") from None
        self.array = updated
        return self

    def _refuse_in_place(self, operator, fix):
        raise RuntimeError(f"`variable {operator}= value` is not supported for an mt.Variable: it would replace "
                           f"the Variable by a new Tensor, which no later tape watches. Write {fix} to change "
                           f"the Variable, or `out = variable {operator} value` for a new tensor.")

    def __iadd__(self, other):
        self._refuse_in_place("+", "`variable.assign_add(value)`")

    def __isub__(self, other):
        self._refuse_in_place("-", "`variable.assign_sub(value)`")

    def __imul__(self, other):
        self._refuse_in_place("*", "`variable.assign(variable * value)`")

    def __itruediv__(self, other):
        self._refuse_in_place("/", "`variable.assign(variable / value)`")

    def __ipow__(self, other):
        self._refuse_in_place("**", "`variable.assign(variable ** value)`")

    def __imatmul__(self, other):
        self._refuse_in_place("@", "`variable.assign(variable @ value)`")

    def __repr__(self):
        return (f"<mt.Variable '{self._name}' shape={self._shape} dtype={self.dtype.name}, "
                f"numpy={format_value(self.array)}>")

    def __str__(self):
        return repr(self)

    def __format__(self, spec):
        """``f"{v}"`` is ``str(v)``; a format spec is refused, as TensorFlow's Variables refuse it."""
        if spec:
            raise TypeError(f"unsupported format string {spec!r} passed to Variable.__format__: format its value, "
                            f"f'{{v.numpy():{spec}}}'")
        return str(self)
