"""Primitive operations: a NumPy forward, a VJP rule and a JVP rule, side by side.

Every differentiable op in minitape is a :class:`Primitive`. Running one
(:func:`apply`) computes the NumPy forward, wraps the result in a new Tensor
and tells every active recorder (tapes, forward accumulators) about it.

The rules are written with minitape ops, not NumPy, so a tape that is still
recording while a gradient is computed records the rules too: differentiating
that record gives second derivatives, and so on.

* A **VJP** (reverse-mode) rule for input ``k`` maps the gradient ``g`` of
  the output to the gradient of input ``k``: ``rule(g, ans, *inputs, **attrs)``.
* A **JVP** (forward-mode) rule for input ``k`` maps the tangent ``t`` of
  input ``k`` to its contribution to the output's tangent:
  ``rule(t, ans, *inputs, **attrs)``; contributions are summed.

``ans`` is the output and ``inputs`` are the input tensors; the tape only
keeps what ``keeps`` says the VJP rules read (``"inputs"``, ``"output"``,
``"both"`` or ``"nothing"``) and passes ``None`` for the rest.

>>> import numpy as np
>>> square = Primitive("square", np.square, keeps="inputs",
...                    vjp=[lambda g, ans, x: g * (2.0 * x)],
...                    jvp=[lambda t, ans, x: t * (2.0 * x)])
>>> apply(square, (convert_to_tensor(3.0),))
<mt.Tensor: shape=(), dtype=float32, numpy=9.0>
"""

import numpy as np

from . import dtypes, recording
from .tensor import Tensor, Variable, convert_to_tensor, holds_tensors, packing

NO_ATTRS = {}  # the attributes of an op that has none (most ops): one dict, shared, never changed


class Primitive:
    """One differentiable operation, with its derivative rules in one place.

    Args:
      name: the op's name (shown in errors, pictures and traces).
      forward: a NumPy function ``forward(*arrays, **attrs) -> array``.
      vjp: a list with one rule per input (``None`` for inputs that have no
        gradient, such as a boolean condition), or one function returning
        the gradients of all inputs at once (for ops with a variable number
        of inputs, which do not broadcast).
      jvp: a list with one rule per input, a function of all the tangents at
        once, or ``"linear"``: for a linear op the tangent of the output is
        the op itself applied to the tangents.
      keeps: what the VJP rules read: ``"inputs"``, ``"output"``, ``"both"``
        or ``"nothing"``; the tape keeps no more than that.

    An op whose inputs broadcast like NumPy is a
    :class:`~minitape.ops.shapes.Broadcasting` primitive, which sums each
    gradient back to its input's shape.
    """

    __slots__ = ("name", "forward", "vjp_rules", "jvp_rules", "keeps_inputs", "keeps_output")

    def __init__(self, name, forward, vjp, jvp, keeps="inputs"):
        if keeps not in ("inputs", "output", "both", "nothing"):
            raise ValueError(f"keeps must be 'inputs', 'output', 'both' or 'nothing', not {keeps!r}")
        self.name = name
        self.forward = forward
        self.vjp_rules = vjp
        self.jvp_rules = jvp
        self.keeps_inputs = keeps in ("inputs", "both")
        self.keeps_output = keeps in ("output", "both")

    def __repr__(self):
        return f"<Primitive {self.name}>"

    def vjp(self, g, ans, inputs, attrs, needed):
        """Gradients of the inputs given ``g``, the gradient of the output.

        ``needed[k]`` says whether input ``k`` needs one (it leads back to a
        source); the others are ``None`` and cost nothing. ``inputs`` holds
        tensors, or ``None``s if the op does not keep them.
        """
        rules = self.vjp_rules
        if callable(rules):
            return list(rules(g, ans, *inputs, **attrs))
        grads = []
        for rule, need in zip(rules, needed):
            grads.append(rule(g, ans, *inputs, **attrs) if need and rule is not None else None)
        return grads

    def jvp(self, tangents, ans, inputs, attrs):
        """The output's tangent given the inputs' tangents (``None`` = zero), or ``None``."""
        rules = self.jvp_rules
        if rules == "linear":  # the op itself, applied to the tangents (a missing one is zero)
            tangents = tuple([Tensor(np.zeros_like(x.array)) if t is None else t for t, x in zip(tangents, inputs)])
            return apply(self, tangents, attrs)
        if callable(rules):
            return rules(tangents, ans, *inputs, **attrs)
        total = None
        for rule, t in zip(rules, tangents):
            if t is not None and rule is not None:
                part = rule(t, ans, *inputs, **attrs)
                total = part if total is None else total + part
        return total


def apply(prim, inputs, attrs=NO_ATTRS):
    """Run ``prim`` on the tensors ``inputs`` and tell every active recorder.

    This is the only place where ops are run and recorded: the forward on the
    inputs' NumPy values, a new Tensor for the result, and each recorder told.
    For the small tensors of a lesson, Python's own steps here cost as much as
    NumPy's arithmetic, so two shortcuts are written in (measured with
    ``benchmarks/per_op.py``, 2,000 ops on float32[8]; benchmarks/README.md).
    """
    # Shortcut: an op with one or two inputs and no attributes (most ops) calls its forward directly, without
    # building a list of arrays. It saves about 0.2 µs per op, a fifth of an op run with no tape.
    if attrs:
        out = Tensor(prim.forward(*[x.array for x in inputs], **attrs))
    elif len(inputs) == 2:
        out = Tensor(prim.forward(inputs[0].array, inputs[1].array))
    elif len(inputs) == 1:
        out = Tensor(prim.forward(inputs[0].array))
    else:
        out = Tensor(prim.forward(*[x.array for x in inputs]))
    # Shortcut: the recorders' stack is read directly (a function call less than recording.active()), and no loop
    # starts when nothing records.
    recorders = recording.this_thread.recorders
    if recorders:
        for recorder in recorders:
            recorder.record(prim, inputs, out, attrs)
    return out


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
        return packing.pack(value, dtype, op_name)
    try:
        return convert_to_tensor(value, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{op_name}: {e}") from None


_KINDS_IN_WORDS = {dtypes.FLOATING: "floating-point tensors (float16, float32, float64)",
                   dtypes.SIGNED: "floating-point and signed integer tensors",
                   dtypes.NUMBERS: "number tensors (floating-point and integer)",
                   dtypes.INTEGERS_AND_BOOL: "integer and boolean tensors"}


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

