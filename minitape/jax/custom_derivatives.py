"""``custom_jvp`` and ``custom_vjp``: a function whose derivative rule is given, as one primitive op.

A call of the decorated function computes its value with no recorder listening (its own ops are not the
derivative), then runs a :class:`~minitape.primitive.Primitive` per output leaf whose forward returns that value,
so tapes and accumulators see one op with the given rule:

* ``custom_jvp``: the rule is a JVP; reverse mode transposes it, as JAX does: the JVP is linear in the
  tangents, so the VJP of cotangent ``g`` is the gradient of ``<g, jvp(primals, tangents)>`` with respect to the
  tangents (a tape around the rule);
* ``custom_vjp``: the rule is ``fwd``/``bwd``; forward mode is refused, as in JAX.

>>> import minitape.jax as jax, minitape.jax.numpy as jnp
>>> @jax.custom_jvp
... def f(x):
...     return jnp.sin(x)
>>> f.defjvp(lambda primals, tangents: (f(*primals), 2.0 * tangents[0]))
<...>
>>> jax.grad(f)(1.0)
Array(2., dtype=float32)
"""

import functools

import numpy as np

from .. import ops, recording
from ..primitive import Primitive, apply
from ..tape import GradientTape
from .arrays import Array, as_array, asarray
from .pytrees import flatten_up_to, tree_flatten, tree_unflatten


def _split(args, nondiff_argnums):
    """The arguments that are not differentiated (by position), and the flat leaves of the others as Arrays."""
    fixed = [args[k] for k in nondiff_argnums]
    diff = tuple(a for k, a in enumerate(args) if k not in nondiff_argnums)
    leaves, treedef = tree_flatten(diff)
    return fixed, [asarray(x) for x in leaves], treedef


def _outputs(name, out, inputs, vjp, jvp):
    """``out`` (a pytree) as one primitive op per leaf on ``inputs``, with rules ``vjp(k)`` and ``jvp(k)``."""
    leaves, out_tree = tree_flatten(out)
    results = []
    for k, leaf in enumerate(leaves):
        value = asarray(leaf).array
        prim = Primitive(f"{name}[{k}]" if len(leaves) > 1 else name, lambda *arrays, v=value: v,
                         vjp=vjp(k, leaves), jvp=jvp(k), keeps="nothing")
        results.append(as_array(apply(prim, tuple(inputs))))
    return tree_unflatten(out_tree, results)


def _zeros(x):
    return Array(np.zeros(x.shape, x.array.dtype))


class custom_jvp:
    """Decorator: ``f`` with the forward-mode rule given by ``defjvp`` (or ``defjvps``)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp):
        """``jvp(*nondiff_args, primals, tangents) -> (primal_out, tangent_out)``; returns ``jvp``."""
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps):
        """One rule per argument, ``rule(tangent, primal_out, *primals)``; their contributions add up."""
        def jvp(primals, tangents):
            out = self.fun(*primals)
            parts = [rule(t, out, *primals) for rule, t in zip(jvps, tangents) if rule is not None]
            total = parts[0]
            for p in parts[1:]:
                total = total + p
            return out, total
        self.defjvp(jvp)

    def __call__(self, *args):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} using defjvp.")
        fixed, leaves, treedef = _split(args, self.nondiff_argnums)
        with recording.silenced():
            out = self.fun(*args)

        def rule(primals, tangents):
            primals = [as_array(x) for x in primals]
            return self.jvp(*fixed, tree_unflatten(treedef, primals), tree_unflatten(treedef, tangents))

        def jvp(k):
            def tangent(tangents, ans, *inputs):
                tangents = [_zeros(x) if t is None else as_array(t) for t, x in zip(tangents, inputs)]
                return asarray(tree_flatten(rule(inputs, tangents)[1])[0][k])
            return tangent

        def vjp(k, out_leaves):
            def transposed(g, ans, *inputs):
                zeros = [_zeros(x) for x in leaves]
                with GradientTape() as tape:
                    for z in zeros:
                        tape.watch(z)
                    t_out = asarray(tree_flatten(rule(list(leaves), zeros)[1])[0][k])
                return tape.gradient(t_out, zeros, output_gradients=g, unconnected_gradients="zero")
            return transposed

        return _outputs(self.__name__, out, leaves, vjp, jvp)


class custom_vjp:
    """Decorator: ``f`` with the reverse-mode rule given by ``defvjp(fwd, bwd)``."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None

    def defvjp(self, fwd, bwd):
        """``fwd(*args) -> (out, residuals)``; ``bwd(*nondiff_args, residuals, g) -> cotangents`` (a tuple, one
        per differentiated argument)."""
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} using defvjp.")
        fixed, leaves, treedef = _split(args, self.nondiff_argnums)
        with recording.silenced():
            out, residuals = self.fwd(*args)

        def vjp(k, out_leaves):
            def backward(g, ans, *inputs):
                cotangent = [g if j == k else _zeros(asarray(o)) for j, o in enumerate(out_leaves)]
                cts = self.bwd(*fixed, residuals, tree_unflatten(tree_flatten(out)[1], cotangent))
                if not isinstance(cts, tuple):
                    raise TypeError(f"Custom VJP bwd rule must produce a tuple but got {type(cts)}.")
                if len(cts) != len(treedef.children):
                    raise TypeError(f"Custom VJP bwd rule must produce an output with the same container (pytree) "
                                    f"structure as the args tuple of the primal function: {len(cts)} cotangents "
                                    f"for {len(treedef.children)} arguments.")
                flat = []  # None stands for zeros of a whole argument
                for c, arg_tree in zip(cts, treedef.children):
                    flat += [None] * arg_tree.num_leaves if c is None else flatten_up_to(arg_tree, c)
                return [ops.cast(asarray(c), x.array.dtype) if c is not None else None
                        for c, x in zip(flat, leaves)]
            return backward

        def jvp(k):
            def refused(*unused):
                raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
            return refused

        return _outputs(self.__name__, out, leaves, vjp, jvp)
