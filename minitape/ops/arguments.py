"""TensorFlow's rules for an op's arguments: which dtypes meet, how numbers and lists become tensors.

Every op family calls these before its :class:`~minitape.primitive.Primitive`
runs: ``convert_inputs`` turns Python numbers, lists and NumPy arrays into
tensors with the dtype TensorFlow gives them, ``check_dtype`` refuses a dtype
the op does not take, ``broadcast_shape`` names the shapes that do not
broadcast. The errors say which op refused what, and how to fix it.

>>> convert_inputs("multiply", convert_to_tensor([1.0, 2.0], dtype="float64"), 0.5)[1]
<mt.Tensor: shape=(), dtype=float64, numpy=0.5>
"""

import numpy as np

from .. import dtypes
from ..tensor import Tensor, convert_to_tensor, holds_tensors, packing
from ..variable import Variable

_FLOAT_CONSTANTS = {}  # (value, dtype) -> Tensor


def float_constant(value, dtype):
    """``Tensor(np.array(value, dtype))`` for a Python float ``value`` and a floating ``dtype``, converted once.

    The ``0.5`` of ``x * 0.5`` is shared, not made a new tensor each time:
    about 0.25 µs saved per op that has one. A constant is never tracked, so
    one tensor can serve every op that uses it. (0.0 and NaN are not shared:
    0.0 == -0.0 would mix up the two zeros, and NaN != NaN would never be
    found.)

    >>> float_constant(0.5, np.dtype("float32")) is float_constant(0.5, np.dtype("float32"))
    True
    """
    shared = value == value and value != 0.0
    tensor = _FLOAT_CONSTANTS.get((value, dtype)) if shared else None
    if tensor is None:
        tensor = Tensor(np.array(value, dtype))
        if shared:
            if len(_FLOAT_CONSTANTS) >= 1024:  # a program with many distinct constants: start afresh
                _FLOAT_CONSTANTS.clear()
            _FLOAT_CONSTANTS[(value, dtype)] = tensor
    return tensor


def convert_inputs(op_name, *values):
    """Tensors for ``values``, with the dtype rules of TensorFlow's binary ops.

    Python numbers, lists and NumPy arrays take the dtype of the first tensor
    among ``values`` (so ``x * 0.5`` keeps ``x`` float64); tensors must
    already agree. With no tensor at all, the first value sets the dtype
    (``add(0.5, 1)`` is float32, ``add(1, 0.5)`` an error, as in TensorFlow).
    A list that holds tensors is packed into one, as ``stack`` does.

    >>> convert_inputs("add", convert_to_tensor(1.0), 2)[1]
    <mt.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    dtype = None
    for v in values:
        if isinstance(v, Tensor):
            if dtype is None:
                dtype = v.array.dtype
            elif v.array.dtype != dtype:
                raise TypeError(f"{op_name}: all inputs must have the same dtype, got {np.dtype(dtype).name} and "
                                f"{v.array.dtype.name}. {_cast_hint(np.dtype(dtype), v.array.dtype)}")
    if dtype is None and len(values) > 1:
        first = convert_input(values[0], None, op_name)
        return (first,) + tuple([convert_input(v, first.array.dtype, op_name) for v in values[1:]])
    return tuple([convert_input(v, dtype, op_name) for v in values])


def _cast_hint(a, b):
    """How to make dtypes ``a`` and ``b`` agree without losing anything: cast an integer to the float, else to ``a``.

    >>> _cast_hint(np.dtype("int32"), np.dtype("float32"))
    'Convert the int32 input first: mt.cast(x, mt.float32).'
    """
    source, target = (a, b) if b.kind == "f" and a.kind != "f" else (b, a)
    return f"Convert the {source.name} input first: mt.cast(x, mt.{target.name})."


def convert_input(value, dtype, op_name):
    """One input of op ``op_name`` as a tensor of ``dtype`` (None: its own); a Variable is read, a list that holds
    tensors is packed. Errors name ``op_name``."""
    if type(value) is Tensor:
        return value
    if isinstance(value, Variable):
        return value.snapshot()
    if type(value) is float and dtype is not None and dtype.kind == "f":
        return float_constant(value, dtype)  # the 0.5 of `v * 0.5`, shared
    if holds_tensors(value):
        return packing.pack(value, dtype, op_name)  # ops/packing.py's pack, plugged in by ops/operators.py
    try:
        return convert_to_tensor(value, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{op_name}: {e}") from None


_KINDS_IN_WORDS = {dtypes.FLOATING: "floating-point tensors (float16, float32, float64)",
                   dtypes.SIGNED: "floating-point and signed integer tensors",
                   dtypes.NUMBERS: "number tensors (floating-point and integer)",
                   dtypes.INTEGERS_AND_BOOL: "integer and boolean tensors"}


def float_input(op_name, value, what="the input"):
    """``value`` as a tensor if it is floating-point (the op takes no integers); else a TypeError naming ``what``.

    >>> float_input("elu", [1, 2])
    Traceback (most recent call last):
    TypeError: elu: the input must be floating-point, got int32; convert it first, e.g. mt.cast(x, mt.float32)
    """
    (x,) = convert_inputs(op_name, value)
    if x.array.dtype.kind != "f":
        raise TypeError(f"{op_name}: {what} must be floating-point, got {x.dtype.name}; convert it first, e.g. "
                        f"mt.cast(x, mt.float32)")
    return x


def check_dtype(op_name, x, allowed):
    """``x``, if ``op_name`` accepts its dtype (one of the sets in :mod:`minitape.dtypes`); else a TypeError.

    >>> check_dtype("sqrt", convert_to_tensor([4]), dtypes.FLOATING)
    Traceback (most recent call last):
    ...
    TypeError: sqrt: int32 tensors are not supported; it works on floating-point tensors (float16, float32, \
float64). Convert first, e.g. mt.cast(x, mt.float32).
    """
    dtype = x.array.dtype
    if dtype in allowed:
        return x
    works_on = _KINDS_IN_WORDS.get(allowed) or ", ".join(sorted(d.name for d in allowed)) + " tensors"
    integers = np.dtype(np.int32) in allowed and (dtype.kind != "f" or np.dtype(np.float32) not in allowed)
    target = "int32" if integers else "float32"
    raise TypeError(f"{op_name}: {dtype.name} tensors are not supported; it works on {works_on}. Convert first, "
                    f"e.g. mt.cast(x, mt.{target}).")


def broadcast_shape(op_name, *shapes):
    """The NumPy broadcast of ``shapes``, or a ValueError naming every shape."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        listed = " and ".join(str(tuple(s)) for s in shapes)
        raise ValueError(f"{op_name}: shapes {listed} cannot be broadcast together (compared from the "
                         f"right, each pair of dimensions must be equal or one of them 1)") from None
