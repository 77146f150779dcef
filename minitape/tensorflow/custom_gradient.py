"""``@custom_gradient``: give a function a gradient rule of your own.

The decorated function returns ``(y, grad_fn)``; ``grad_fn(upstream)``
returns the gradients of the function's inputs given ``upstream``, the
gradient arriving at ``y``. To every tape, the call then looks like a single
primitive op, whose VJP rule is ``grad_fn``.

>>> import minitape as mt
>>> @mt.custom_gradient
... def clip_gradient_norm(y):
...     def grad_fn(upstream):
...         return mt.clip_by_norm(upstream, 0.5)
...     return mt.identity(y), grad_fn
>>> v = mt.Variable(2.0)
>>> with mt.GradientTape() as tape:
...     out = clip_gradient_norm(v * v)
>>> float(tape.gradient(out, v))  # 0.5 (clipped) * dv²/dv = 0.5 * 4
2.0

As in TensorFlow, the function's own ops are recorded as usual (so an outer
tape can differentiate ``grad_fn`` again for second derivatives), and a
function that reads trainable Variables must let ``grad_fn`` accept
``variables=`` and return ``(input_gradients, variable_gradients)``.
"""

import functools
import inspect

import numpy as np

from .. import nest, recording
from ..ops import reduce_sum, zeros_like
from ..primitive import Primitive, apply
from ..tape import GradientTape
from ..tensor import Tensor, convert_to_tensor
from ..variable import Variable


class _VariableWatcher(recording.Recorder):
    """A recorder that only notes which trainable Variables are read."""

    def __init__(self):
        self.variables = {}

    def variable_accessed(self, variable):
        if variable.trainable:
            self.variables.setdefault(variable.id, variable)


def custom_gradient(f):
    """Decorator: ``f(*inputs)`` returns ``(y, grad_fn)``; ``grad_fn(dy)`` gives the inputs' gradients."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        # A Variable argument is read as an op reads it (its snapshot): the call is an op on the Variable itself.
        inputs = tuple([a.snapshot() if isinstance(a, Variable) else convert_to_tensor(a) for a in args])
        with _VariableWatcher() as watcher:
            output = f(*inputs, **kwargs)
        if not (isinstance(output, (tuple, list)) and len(output) == 2 and callable(output[1])):
            raise TypeError(f"custom_gradient: {f.__name__} must return a pair (y, grad_fn), where "
                            f"grad_fn(upstream) returns the gradients of its inputs; it returned "
                            f"{_describe(output)}. Did it forget to return grad_fn?")
        result, grad_fn = output
        if isinstance(result, (list, tuple, dict)):
            raise TypeError(f"custom_gradient: {f.__name__} must return a single tensor as its result, "
                            f"got a {type(result).__name__}; return one tensor (stack several if needed)")
        y = convert_to_tensor(result)
        arg_ids = {x.id for x in inputs}
        variables = [v for i, v in watcher.variables.items() if i not in arg_ids]
        if variables and "variables" not in inspect.signature(grad_fn).parameters:
            names = ", ".join(v.name for v in variables)
            raise TypeError(f"custom_gradient: {f.__name__} reads the trainable Variable(s) {names}, so its "
                            f"grad_fn must accept a keyword argument `variables` and return "
                            f"(input_gradients, variable_gradients)")
        reads = tuple([v.snapshot() for v in variables])
        prim = _custom_primitive(f, y, grad_fn, variables, [x.array for x in inputs + reads])
        return apply(prim, inputs + reads)

    return wrapper


def _describe(output):
    if isinstance(output, (tuple, list)):
        return f"a {type(output).__name__} of {len(output)} ({', '.join(type(o).__name__ for o in output)})"
    return f"a single {type(output).__name__}"


def _input_names(f, n_inputs, variables):
    """What an error calls each input of ``f``: its parameter's name where there is one, then the Variables.

    Read from ``f``'s signature only when an error needs it: inspecting a
    signature costs as much as the rest of a call of ``f``'s wrapper.
    """
    try:
        parameters = [p.name for p in inspect.signature(f).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):  # some callables have no signature
        parameters = []
    return ([f"input {k} ({parameters[k]})" if k < len(parameters) else f"input {k}" for k in range(n_inputs)]
            + [f"the Variable {v.name}" for v in variables])


def _as_gradient(g, dtype, name, k, input_names):
    """What ``grad_fn`` returned for input ``k`` as a tensor of that input's dtype (a Python 0.5 for a float64
    input is a float64 0.5); a tensor of another dtype is refused, since gradients of two dtypes cannot add up."""
    if not isinstance(g, Tensor):
        return convert_to_tensor(g, dtype=dtype)
    if g.array.dtype != dtype:
        raise TypeError(f"custom_gradient: the grad_fn of {name} returned a gradient of dtype {g.dtype.name} for "
                        f"{input_names()[k]}, which is {np.dtype(dtype).name}; each gradient must have its input's "
                        f"dtype (convert it with mt.cast(g, mt.{np.dtype(dtype).name}))")
    return g


def _custom_primitive(f, y, grad_fn, variables, input_values):
    name = f.__name__
    input_shapes = [np.shape(v) for v in input_values]
    input_dtypes = [v.dtype for v in input_values]

    def input_names():
        return _input_names(f, len(input_shapes) - len(variables), variables)

    def vjp(upstream, ans, *unused_inputs):
        if variables:
            input_grads, variable_grads = grad_fn(upstream, variables=variables)
            grads = nest.flatten(input_grads) + nest.flatten(variable_grads)
        else:
            grads = nest.flatten(grad_fn(upstream))
        if len(grads) != len(input_shapes):
            raise ValueError(f"custom_gradient: the grad_fn of {name} returned {len(grads)} gradient(s), but "
                             f"{name} has {len(input_shapes)} input(s): {', '.join(input_names())}; return one per "
                             f"input, in order (None for an input without a gradient)")
        grads = [None if g is None else _as_gradient(g, dtype, name, k, input_names)
                 for k, (g, dtype) in enumerate(zip(grads, input_dtypes))]
        for k, (g, shape) in enumerate(zip(grads, input_shapes)):
            if g is not None and g.array.shape != shape:
                raise ValueError(f"custom_gradient: the grad_fn of {name} returned a gradient of shape "
                                 f"{g.array.shape} for {input_names()[k]}, which has shape {shape}; each gradient "
                                 f"must have the shape of its input")
        return grads

    def jvp(tangents, ans, *inputs):
        # grad_fn is linear in its upstream gradient u, so the JVP is its transpose:
        # d/du of sum_k <grad_fn(u)_k, t_k>, computed by a tape around grad_fn.
        u = zeros_like(ans)
        with GradientTape() as tape:
            tape.watch(u)
            pairing = [reduce_sum(g * t) for g, t in zip(vjp(u, ans), tangents)
                       if g is not None and t is not None]
        return tape.gradient(pairing, u) if pairing else None

    return Primitive(name, lambda *arrays: y.array, vjp=vjp, jvp=jvp, keeps="nothing")


__all__ = ["custom_gradient"]
