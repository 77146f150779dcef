"""JAX's arrays on minitape's tensors: JAX's dtype rules, immutability, and ``x.at[i]`` updates.

An :class:`Array` is a minitape :class:`~minitape.Tensor` (the same value and id, so tapes and forward
accumulators follow it) with JAX's conventions on top:

* dtypes: 32 bits by default (``jax.config.update("jax_enable_x64", True)`` for 64), and JAX's promotion, in
  which a Python number takes the array's dtype (``int32 array * 2.5`` is float32, not an error as in TF);
* immutable: ``x[0] = 1`` is JAX's TypeError; ``x.at[0].set(1)`` returns a new array;
* indexing out of bounds: a read is clamped to the last element, a write there is dropped (JAX's defaults).

>>> x = asarray([1.0, 2.0, 3.0])
>>> x
Array([1., 2., 3.], dtype=float32)
>>> x.at[1].set(10.0)
Array([ 1., 10.,  3.], dtype=float32)
>>> x[5]  # clamped
Array(3., dtype=float32)
"""

import numpy as np

from .. import ops, recording
from ..tensor import Tensor
from .config import config


class Array(Tensor):
    """A JAX array: a minitape Tensor whose operators follow JAX's rules and which cannot be written into.

    ``shape`` is a tuple, as in JAX; ``dtype`` is minitape's DType, which compares equal to ``jnp.float32``
    and ``np.float32`` and has JAX's ``.name``.
    """

    __slots__ = ()

    @property
    def shape(self):
        return np.shape(self.array)

    @property
    def size(self):
        return int(np.size(self.array))

    @property
    def T(self):
        return as_array(ops.transpose(self))

    @property
    def at(self):
        return _IndexUpdateHelper(self)

    def __repr__(self):
        body = np.array2string(np.asarray(self.array), separator=", ", prefix="Array(")
        return f"Array({body}, dtype={self.array.dtype.name})"

    def __str__(self):
        return str(np.asarray(self.array))

    def __setitem__(self, index, value):
        raise TypeError("JAX arrays are immutable and do not support in-place item assignment. Instead of "
                        "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
                        "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html")

    def __getitem__(self, index):
        return as_array(ops.getitem(self, clamped(index, self.shape)))

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self.array)))

    def __array__(self, dtype=None, copy=None):
        return np.array(self.array, dtype=dtype) if copy or dtype is not None else np.asarray(self.array)

    def __bool__(self):
        if self._mapped():
            raise TracerBoolConversionError(
                f"Attempted boolean conversion of traced array with shape {self._type()}.\nThe value depends "
                f"on an argument that vmap maps over, so it differs from example to example: use jnp.where or "
                f"lax.cond.")
        return super().__bool__()

    def __float__(self):
        if self._mapped():
            raise ConcretizationTypeError(
                f"Abstract tracer value encountered where concrete value is expected: traced array with shape "
                f"{self._type()}\nThe value depends on an argument that vmap maps over; keep it an array "
                f"(no float(), no .item()).")
        return super().__float__()

    def _mapped(self):
        return any(isinstance(r, MappedValues) and self.id in r.ids for r in recording.active())

    def _type(self):
        return f"{self.array.dtype.name}[{','.join(map(str, self.shape))}]"

    def item(self):
        return float(self) if self.array.dtype.kind == "f" and self._mapped() else self.array.item()

    def tolist(self):
        return self.array.tolist()

    def block_until_ready(self):
        """JAX runs asynchronously; minitape is done when the call returns: the array itself."""
        return self


class ConcretizationTypeError(TypeError):
    """A value that differs from example to example (under ``vmap``) was needed as one Python value."""


class TracerBoolConversionError(ConcretizationTypeError):
    """``if x:`` (or ``bool(x)``) on a value that ``vmap`` maps over: JAX's error of the same name."""


class MappedValues(recording.Recorder):
    """While ``vmap`` runs its function on one example, the ids of the values that depend on the mapped slices.

    An op with such an input gives such an output (the way a tape tracks what depends on its sources), so a
    Python ``if`` on one of them is refused, as JAX refuses it, even though each example is run on its own.
    """

    def __init__(self, ids):
        self.ids = set(ids)

    def record(self, prim, inputs, out, attrs):
        for x in inputs:
            if x.id in self.ids:
                self.ids.add(out.id)
                return


def without_gradient(function):
    """Decorator for a jnp function made of ops without a gradient (comparisons, logic), which no recorder hears:
    its result depends on a mapped value if an argument does (:class:`MappedValues`)."""
    def tracked(*args, **kwargs):
        out = function(*args, **kwargs)
        for recorder in recording.active():
            if isinstance(recorder, MappedValues) and any(isinstance(a, Tensor) and a.id in recorder.ids
                                                          for a in args):
                recorder.ids.add(out.id)
        return out
    tracked.__name__ = tracked.__qualname__ = function.__name__
    tracked.__doc__ = function.__doc__
    return tracked


def default_float():
    return np.dtype(np.float64 if config.jax_enable_x64 else np.float32)


def default_int():
    return np.dtype(np.int64 if config.jax_enable_x64 else np.int32)


def canonical(dtype):
    """``dtype`` as JAX stores it: without x64, 64-bit types become their 32-bit ones."""
    dtype = np.dtype(dtype)
    if not config.jax_enable_x64 and dtype.itemsize == 8:
        return np.dtype({"f": np.float32, "i": np.int32, "u": np.uint32}.get(dtype.kind, dtype))
    return dtype


def as_array(t):
    """The tensor ``t`` (an op's result) as an Array: the same object, so that every recorder still follows it.

    Only the class changes: an Array has no fields of its own, so an op's result can be one in place.
    """
    if type(t) is Tensor:
        t.__class__ = Array
    return t


def asarray(value, dtype=None):
    """``value`` as an Array of JAX's dtype (a Python float is float32 unless x64 is on); Arrays pass through."""
    if isinstance(value, Tensor) and dtype is None:
        return as_array(value) if type(value) is Tensor else value
    if isinstance(value, Tensor):
        return as_array(ops.cast(value, canonical(dtype)))
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in _flat(value)):
        return as_array(ops.stack([asarray(v, dtype) for v in value]))
    array = np.asarray(value)
    if array.dtype.kind == "c":
        raise TypeError("minitape's jax.numpy has no complex arrays: keep real and imaginary parts as two arrays")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"JAX arrays hold numbers or booleans, not {array.dtype} ({value!r})")
    target = canonical(dtype if dtype is not None else
                       default_float() if array.dtype.kind == "f" and not isinstance(value, np.ndarray) else
                       default_int() if array.dtype.kind in "iu" and not isinstance(value, np.ndarray) else
                       array.dtype)
    return Array(np.array(array, dtype=target))


def _flat(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


_KIND_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2}


def result_dtype(*values):
    """The dtype JAX gives an op on ``values``: arrays decide, Python numbers only lift the kind (int to float).

    >>> result_dtype(asarray([1, 2]), 2.5).name
    'float32'
    """
    strong = [v.array.dtype if isinstance(v, Tensor) else canonical(v.dtype) for v in values
              if isinstance(v, (Tensor, np.ndarray, np.generic))]
    weak = [v for v in values if not isinstance(v, (Tensor, np.ndarray, np.generic))]
    dtype = None
    for d in strong:
        dtype = d if dtype is None else _join(dtype, d)
    for w in weak:
        kind = "b" if isinstance(w, bool) else "i" if isinstance(w, int) else "f"
        if dtype is None or _KIND_ORDER[kind] > _KIND_ORDER[dtype.kind]:
            dtype = {"b": np.dtype(bool), "i": default_int(), "f": default_float()}[kind]
    return canonical(dtype)


def _join(a, b):
    if a == b:
        return a
    if _KIND_ORDER[a.kind] != _KIND_ORDER[b.kind]:  # int with float: the float's own width (JAX, not NumPy)
        return a if _KIND_ORDER[a.kind] > _KIND_ORDER[b.kind] else b
    return np.promote_types(a, b)


def promoted(*values, dtype=None):
    """``values`` as Arrays of one dtype (``result_dtype``'s, or ``dtype``), ready for a minitape op."""
    dtype = canonical(dtype) if dtype is not None else result_dtype(*values)
    out = []
    for v in values:
        if isinstance(v, Tensor):
            out.append(v if v.array.dtype == dtype else as_array(ops.cast(v, dtype)))
        else:
            out.append(asarray(v, dtype))
    return out


# -- indexing -------------------------------------------------------------------------------------------------------
def _components(index, ndim):
    """The index as a tuple, with each component paired with the axis it reads (None for None and Ellipsis)."""
    index = index if isinstance(index, tuple) else (index,)
    used = sum(1 for i in index if i is not None and i is not Ellipsis
               and not (isinstance(i, np.ndarray) and i.dtype == bool))
    pairs, axis = [], 0
    for i in index:
        if i is Ellipsis:
            pairs.append((i, None))
            axis += ndim - used
        elif i is None:
            pairs.append((i, None))
        else:
            pairs.append((i, axis))
            axis += 1
    return pairs


def _integer(i):
    if isinstance(i, Tensor):
        i = i.array
    if isinstance(i, (list, np.ndarray, np.generic)) or isinstance(i, int) and not isinstance(i, bool):
        array = np.asarray(i)
        return array if array.dtype.kind in "iu" else None
    return None


def clamped(index, shape):
    """``index`` with its integer components clamped into the array, as JAX reads out of bounds."""
    out = []
    for i, axis in _components(index, len(shape)):
        ints = _integer(i) if axis is not None else None
        if ints is None or axis >= len(shape):
            out.append(i.array if isinstance(i, Tensor) else i)
            continue
        n = shape[axis]
        ints = np.clip(np.where(ints < 0, ints + n, ints), 0, max(n - 1, 0))
        out.append(int(ints) if ints.ndim == 0 else ints)
    return tuple(out)


def _positions(index, shape):
    """The flat positions ``index`` selects in an array of ``shape``, and which of them lie inside it."""
    padded = np.full(tuple(n + 1 for n in shape), -1)  # one slot past each axis: where an out-of-bounds index points
    padded[tuple(slice(0, n) for n in shape)] = np.arange(int(np.prod(shape))).reshape(shape)
    out = []
    for i, axis in _components(index, len(shape)):
        ints = _integer(i) if axis is not None else None
        if isinstance(i, slice):
            start, stop, step = i.indices(shape[axis])
            out.append(slice(start, None if stop < 0 else stop, step))
        elif ints is not None:
            n = shape[axis]
            ints = np.where(ints < 0, ints + n, ints)
            ints = np.where((ints < 0) | (ints >= n), n, ints)
            out.append(int(ints) if ints.ndim == 0 else ints)
        else:
            out.append(i.array if isinstance(i, Tensor) else i)
    positions = padded[tuple(out)]
    return positions, positions >= 0


class _IndexUpdateHelper:
    """``x.at``: ``x.at[index]`` names the elements an update replaces."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return _IndexUpdateRef(self.array, index)

    def __repr__(self):
        return f"_IndexUpdateHelper({self.array!r})"


class _IndexUpdateRef:
    """``x.at[index]``: its methods return a new array, ``x`` with those elements updated.

    Updates are scatters (``tensor_scatter_nd_update`` and ``_add``), so gradients flow to ``x`` and to the
    values; indices out of bounds are dropped (``mode="drop"``, JAX's default for updates).
    """

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def get(self, mode=None, fill_value=None):
        """``x[index]``; with ``mode="fill"``, out-of-bounds elements are ``fill_value`` (NaN for floats)."""
        if mode in (None, "clip", "promise_in_bounds"):
            return self.array[self.index]
        if mode != "fill":
            raise ValueError(f"Unknown mode {mode!r}: use 'clip', 'fill' or 'promise_in_bounds'")
        x = self.array
        positions, inside = _positions(self.index, x.shape)
        taken = ops.gather(ops.reshape(x, [-1]), np.where(inside, positions, 0))
        if fill_value is None:
            fill_value = np.nan if x.array.dtype.kind == "f" else np.iinfo(x.array.dtype).min
        return as_array(ops.where(inside, taken, *promoted(fill_value, dtype=x.array.dtype)))

    def set(self, values, mode=None):
        return self._scatter(values, lambda old, new: new, mode)

    def add(self, values, mode=None):
        return self._scatter(values, None, mode)

    def subtract(self, values, mode=None):
        return self._scatter(values, ops.subtract, mode)

    def multiply(self, values, mode=None):
        return self._scatter(values, ops.multiply, mode)

    mul = multiply

    def divide(self, values, mode=None):
        return self._scatter(values, ops.divide, mode)

    def power(self, values, mode=None):
        return self._scatter(values, ops.pow, mode)

    def min(self, values, mode=None):
        return self._scatter(values, ops.minimum, mode)

    def max(self, values, mode=None):
        return self._scatter(values, ops.maximum, mode)

    def apply(self, func, mode=None):
        return self._scatter(0, lambda old, new: func(as_array(old)), mode)

    def _scatter(self, values, combine, mode):
        """Write ``combine(old, values)`` at the index (``combine=None``: add, duplicates summed)."""
        if mode not in (None, "drop", "promise_in_bounds", "clip"):
            raise ValueError(f"Unknown mode {mode!r} for an update: use 'drop', 'clip' or 'promise_in_bounds'")
        x = self.array
        dtype = x.array.dtype
        if mode == "clip":
            index = clamped(self.index, x.shape)
        else:
            index = self.index
        positions, inside = _positions(index, x.shape)
        keep = np.nonzero(inside.ravel())[0]  # out-of-bounds updates are dropped
        where = positions.ravel()[keep][:, None]
        values, = promoted(values, dtype=dtype)
        new = ops.gather(ops.reshape(ops.broadcast_to(values, positions.shape), [-1]), keep)
        flat = ops.reshape(x, [-1])
        if combine is None:
            flat = ops.tensor_scatter_nd_add(flat, where, new)
        else:
            flat = ops.tensor_scatter_nd_update(flat, where, combine(ops.gather_nd(flat, where), new))
        return as_array(ops.reshape(flat, x.shape))
