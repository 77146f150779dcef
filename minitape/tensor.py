"""Tensors: NumPy arrays with an identity the tape can follow.

A :class:`Tensor` is an immutable NumPy value plus a unique id. The id is what
a tape watches: an op whose inputs carry watched ids is recorded, and its
output's id becomes watched too. A :class:`~minitape.variable.Variable` is a
named, mutable holder of a value (model parameters); it keeps one id for its
whole life, so every op that reads it is connected to the same gradient.

Nothing outside can change a tensor's value: ``constant`` and
``convert_to_tensor`` copy the NumPy arrays they are given, and ``.numpy()``
returns a copy (``np.asarray(t)`` a read-only view), as in TensorFlow. So a
value a tape recorded is the value the gradient uses.

>>> import minitape as mt
>>> x = mt.constant([1.0, 2.0])
>>> x
<mt.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>

Conversion follows TensorFlow: a Python float becomes float32 and a Python
int int32, while a NumPy array keeps its dtype.
"""

import itertools

import numpy as np

from . import dtypes
from .tensor_shape import TensorShape

_next_id = itertools.count(1).__next__


def format_value(value):
    """``numpy=`` part of a repr: ``3.0`` for scalars, ``array([...], dtype=...)`` otherwise."""
    if np.ndim(value) == 0:
        return str(np.asarray(value)[()])
    return np.array_repr(np.asarray(value))


class Tensor:
    """An immutable value (a NumPy array) that operations can be recorded on.

    Build tensors with :func:`constant` or :func:`convert_to_tensor`, or as
    the result of ops; the constructor itself is internal. Its operators
    (``x * y``, ``x[i]``, ``x == y``, ...) are ops, attached in
    :mod:`minitape.ops.operators`.

    Two fields are what the rest of the library reads:

    * ``array``: the NumPy value itself (not a copy), for the ops' NumPy code.
      Read it, never write to it or assign it: a tape may hold this very array.
      (``numpy()`` is the user's copy.)
    * ``id``: the tensor's identity, a number no other tensor has (a Variable
      and its reads share one). Tapes know values by it.

    >>> t = constant([1.0, 2.0])
    >>> t.array, t.id > 0
    (array([1., 2.], dtype=float32), True)
    """

    # Plain slots, not read-only properties: a property costs a function call on every read, and the ops
    # read these fields several times each (benchmarks/README.md).
    __slots__ = ("array", "id", "__weakref__")
    # Make NumPy hand binary operators to us: np_array * tensor -> Tensor.__rmul__.
    __array_priority__ = 100

    def __init__(self, value):
        self.array = value  # an np.ndarray, or a NumPy scalar for 0-d results
        self.id = _next_id()

    # -- what it holds ---------------------------------------------------------
    @property
    def shape(self):
        return TensorShape(np.shape(self.array))

    @property
    def dtype(self):
        return dtypes.as_dtype(self.array.dtype)

    @property
    def ndim(self):
        return np.ndim(self.array)

    def numpy(self):
        """The value as NumPy: a copy, or a NumPy scalar for a 0-d tensor (as in TF).

        Writing into the copy leaves the tensor alone, and anything computed
        from it with NumPy is invisible to tapes.
        """
        value = self.array
        return value[()] if np.ndim(value) == 0 else value.copy()

    def __array__(self, dtype=None, copy=None):
        """For NumPy: ``np.asarray(t)`` is a read-only view (as in TF), ``np.array(t)`` a copy."""
        if copy or (dtype is not None and np.dtype(dtype) != self.array.dtype):
            if copy is False:
                raise ValueError(f"a {self.dtype.name} tensor cannot be viewed as {np.dtype(dtype).name} without "
                                 f"a copy")
            return np.array(self.array, dtype=dtype)
        view = np.asarray(self.array).view()
        view.flags.writeable = False
        return view

    def ref(self):
        """A hashable reference to this tensor, for use as a dict key or in a set."""
        return _Reference(self)

    def __hash__(self):
        raise TypeError(f"{type(self).__name__} is unhashable (== is elementwise). "
                        "Instead, use tensor.ref() as the key.")

    # -- Python protocols --------------------------------------------------------
    def __repr__(self):
        return (f"<mt.Tensor: shape={tuple(self.shape)}, dtype={self.dtype.name}, "
                f"numpy={format_value(self.array)}>")

    def __str__(self):
        text = str(self.numpy())
        newline = "\n" if "\n" in text else ""  # a matrix starts on its own line
        return f"mt.Tensor({newline}{text}, shape={tuple(self.shape)}, dtype={self.dtype.name})"

    def __format__(self, spec):
        """``f"{t}"`` and ``f"{t:.3f}"`` format the value, as TensorFlow does: a scalar as a Python number, other
        shapes as NumPy prints them (``[0.5 1. ]``), which takes no format spec."""
        if np.ndim(self.array) == 0:
            return format(self.array.item(), spec)
        if spec:
            raise TypeError(f"cannot format a tensor of shape {tuple(self.shape)} with {spec!r}: only a scalar takes "
                            f"a format spec; format its elements, e.g. [f'{{x:{spec}}}' for x in t.numpy()]")
        return str(self.array)

    def set_shape(self, shape):
        """Check that the tensor's shape is compatible with ``shape`` (None for any size); a ValueError otherwise.

        In graphs this adds shape information; eager tensors already know
        their shape, so only the check remains, as in TensorFlow.

        >>> constant([1.0, 2.0]).set_shape([None])
        >>> constant([1.0, 2.0]).set_shape([3])
        Traceback (most recent call last):
        ...
        ValueError: Tensor's shape (2,) is not compatible with supplied shape (3,)
        """
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {tuple(self.shape)} is not compatible with supplied shape "
                             f"{tuple(shape)}")

    def __bool__(self):
        if np.size(self.array) == 0:  # NumPy refuses; TensorFlow says False
            return False
        try:
            return bool(self.array)
        except ValueError:
            raise ValueError(f"the truth value of a tensor of shape {tuple(self.shape)} is ambiguous: `if`, "
                             f"`and` and `or` need a single element; test one (t[0] > 0) or reduce first "
                             f"(mt.reduce_max(t) > 0)") from None

    def __float__(self):
        return float(self.array)

    def __int__(self):
        return int(self.array)

    def __index__(self):
        if self.array.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype.name}")
        return int(self.array)

    def __len__(self):
        if np.ndim(self.array) == 0:
            raise TypeError("a scalar tensor has no len()")
        return len(self.array)

    def __iter__(self):
        if np.ndim(self.array) == 0:
            raise TypeError("cannot iterate over a scalar tensor")
        return (self[i] for i in range(len(self.array)))  # x[i]: the op getitem (see below)

    # The operators (x + y, x * y, x @ y, -x, x[i], x == y, ...) are the ops of the same names: the ops are built
    # on Tensor, so minitape/ops/operators.py attaches them to this class, once they exist.


class _Reference:
    """What :meth:`Tensor.ref` returns: hashable by identity, ``deref()`` gives the tensor back."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return self._tensor.id

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._tensor is self._tensor


def is_tensor(x):
    """True for minitape Tensors and Variables."""
    return isinstance(x, Tensor)


# Python scalars and lists follow TensorFlow's defaults, not NumPy's.
_PYTHON_DEFAULTS = {np.dtype(np.float64): np.float32, np.dtype(np.int64): np.int32}


def _fits(array, dtype):
    """True if every element of the integer ``array`` lies in the range of the integer ``dtype``."""
    limits = np.iinfo(dtype)
    return array.size == 0 or (limits.min <= array.min() and array.max() <= limits.max)


def holds_tensors(value):
    """True if ``value`` is a (nested) list or tuple with a tensor somewhere in it: ``[x, 2 * x]``."""
    return isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) or holds_tensors(v) for v in value)


class packing:
    """Where a list that holds tensors becomes one tensor: ``packing.pack(values, dtype, op_name)``.

    Packing is an op (``stack``, so that gradients reach each tensor), and
    ops are built on this module, so this module cannot import it:
    :mod:`minitape.ops.operators` plugs in :func:`minitape.ops.packing.pack`,
    as it gives Tensor its operators.
    """

    @staticmethod
    def pack(values, dtype, op_name):
        raise RuntimeError(f"{op_name}: packing a list of tensors needs minitape.ops (import minitape first)")


# How the objects of a class this module cannot name become tensors, by class: a Variable is read (the op
# read_value, registered by ops/operators.py), IndexedSlices become dense (tensorflow/indexed_slices.py). Both
# modules are built on this one, so they register their conversion here, as TensorFlow's do in its
# tensor_conversion_registry.
conversions = {}  # class -> function(value, dtype) -> Tensor


def _first_number(value):
    """The first number of a nested list (a NumPy array counts as one), or the value itself.

    >>> _first_number([[np.float64(1.0), 2.0], [3.0, 4.0]]).dtype
    dtype('float64')
    """
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return value


def _to_array(value, dtype=None):
    """``value`` as a NumPy array of our own (never the caller's), with TensorFlow's default dtypes."""
    if isinstance(value, (np.ndarray, np.generic)):
        array = value
    else:
        if value is None:
            raise ValueError("cannot convert None to a tensor: a tensor holds numbers or booleans (did a function "
                             "forget to return its result?)")
        try:
            array = np.asarray(value)
        except ValueError:
            raise ValueError(f"cannot convert {value!r} to a tensor: its nested lists have different lengths, "
                             f"and a tensor is a rectangular grid of numbers") from None
        default = _PYTHON_DEFAULTS.get(array.dtype) if dtype is None else None
        if default is np.float32:  # as in TensorFlow, a list's first number decides: a NumPy float keeps its dtype
            first = _first_number(value)
            if isinstance(first, (np.floating, np.ndarray)) and first.dtype.kind == "f":
                default = first.dtype
        if default is not None and (default is not np.int32 or _fits(array, default)):
            array = array.astype(default)
    if array.dtype.kind in "US":
        raise TypeError(f"minitape tensors hold numbers or booleans, not text; cannot convert {value!r}")
    if array.dtype.kind == "c":
        raise TypeError(f"cannot convert {value!r} to a tensor: minitape has no complex tensors (each op would need "
                        f"complex dtype rules and TensorFlow's conjugate convention for gradients); keep the real "
                        f"and imaginary parts as two float tensors")
    if array.dtype.kind not in "fiub":
        raise ValueError(f"cannot convert {value!r} to a tensor: a tensor holds numbers that fit in 64 bits, "
                         f"or booleans")
    if dtype is not None:
        target = np.dtype(dtypes.as_dtype(dtype).as_numpy_dtype)
        if array.dtype != target:
            if array.dtype.kind in "iu" and target.kind in "iu":
                # Any integer may become any integer type it fits in. TensorFlow would wrap a value
                # that does not fit (256 becomes 0 in uint8); minitape refuses it.
                if not _fits(array, target):
                    limits = np.iinfo(target)
                    raise ValueError(f"cannot convert {value!r} to {target.name}: its values must lie between "
                                     f"{limits.min} and {limits.max}; use a wider dtype (or mt.cast to wrap "
                                     f"around on purpose)")
            elif not np.can_cast(array.dtype, target, casting="same_kind"):
                raise TypeError(f"cannot convert {value!r} (dtype {array.dtype}) to {target.name} without "
                                f"losing information; use mt.cast to convert on purpose")
            array = array.astype(target)
    if array is value:  # the caller's own array: a copy, so that changing it later cannot change the tensor
        return array.copy()
    return np.array(array) if isinstance(array, np.generic) else array


def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding ``value`` (a Python number or list, a NumPy array or another tensor).

    >>> constant(2.0)
    <mt.Tensor: shape=(), dtype=float32, numpy=2.0>
    >>> constant(0.0, shape=(2,))
    <mt.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>

    A tensor is returned as it is (a watched one stays watched, as in
    TensorFlow); a Variable's current value becomes a constant; a list that
    holds tensors is refused: ``mt.stack`` or ``mt.convert_to_tensor`` pack it
    and keep its gradient. ``name`` is accepted and unused: eager tensors
    have no names, in TensorFlow too.
    """
    if type(value) is Tensor:
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            raise TypeError(f"constant: the tensor has dtype {value.dtype.name}, not {dtypes.as_dtype(dtype).name}; "
                            f"convert it with mt.cast(x, mt.{dtypes.as_dtype(dtype).name})")
        if shape is None:
            return value
        array = value.array
    elif holds_tensors(value):
        raise ValueError("constant: the list holds tensors, and mt.constant makes a tensor from numbers; "
                         "mt.stack(values) or mt.convert_to_tensor(values) packs tensors into one (and keeps their "
                         "gradients)")
    else:
        array = _to_array(value.array if isinstance(value, Tensor) else value, dtype)  # a Variable's current value
    if shape is not None:
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise ValueError(f"constant: shape {shape} has a negative size; give every size (mt.reshape works "
                             f"out a -1)")
        if array.size == 1:
            array = np.broadcast_to(array.reshape(()), shape).copy()
        else:
            try:
                array = array.reshape(shape)
            except ValueError:
                raise TypeError(f"constant: a value with {array.size} elements cannot have shape {shape}; give as "
                                f"many elements as the shape holds, or a single one to fill it") from None
    return Tensor(array)


def convert_to_tensor(value, dtype=None, dtype_hint=None):
    """``value`` as a Tensor: tensors pass through, Variables are read, the rest becomes a constant.

    ``dtype`` is a requirement (an error if a tensor has another dtype);
    ``dtype_hint`` only guides the conversion of Python numbers and lists. A
    list that holds tensors is packed into one tensor, as ``mt.stack`` does,
    so its gradient flows back to each of them (TensorFlow's autopacking).

    >>> x = constant(2.0)
    >>> convert_to_tensor([x, 3.0])
    <mt.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """
    if isinstance(value, Tensor) and dtype is not None and value.dtype != dtype:
        raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for a tensor "
                         f"of dtype {value.dtype.name}; use mt.cast to convert")
    convert = conversions.get(type(value))
    if convert is not None:  # a Variable is read (an op), IndexedSlices become dense: see `conversions`
        return convert(value, dtype)
    if isinstance(value, Tensor):
        return value
    if holds_tensors(value):
        return packing.pack(value, dtype, "convert_to_tensor")
    if dtype is None and dtype_hint is not None and not isinstance(value, (np.ndarray, np.generic)):
        try:
            return Tensor(_to_array(value, dtype_hint))
        except (TypeError, ValueError):
            pass  # a hint, not a requirement: fall back to the default dtype
    return Tensor(_to_array(value, dtype))
