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
>>> from minitape import constant
>>> apply(square, (constant(3.0),))
<mt.Tensor: shape=(), dtype=float32, numpy=9.0>
"""

import numpy as np

from . import recording
from .tensor import Tensor

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
    :class:`~minitape.ops.broadcasting.Broadcasting` primitive, which sums each
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
