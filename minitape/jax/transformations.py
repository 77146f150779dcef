"""JAX's autodiff transformations, each a tape or a forward accumulator inside a closure.

``vjp(f, x)`` runs ``f`` once under a :class:`~minitape.GradientTape` and hands back a function that sweeps that
tape backwards; ``jvp(f, (x,), (t,))`` runs ``f`` once under a
:class:`~minitape.autodiff.ForwardAccumulator`. Everything else is made of these two: ``grad`` is a ``vjp`` seeded
with 1, ``jacrev`` a ``vjp`` per output element, ``jacfwd`` a ``jvp`` per input element, ``hessian`` is
``jacfwd(jacrev(f))``. The derivatives are those of minitape's ops; nothing here knows one.

>>> import minitape.jax as jax
>>> jax.grad(lambda x: x ** 3)(2.0)
Array(12., dtype=float32)
>>> jax.grad(jax.grad(lambda x: x ** 3))(2.0)
Array(12., dtype=float32)

Each transformation gives its inputs fresh identities first (an ``identity`` op, which outer transformations
see): in ``grad(lambda x: grad(lambda y: x * y)(x))`` the inner ``y`` is then not the outer ``x``, and the inner
gradient is ``x``, not ``2 x`` (what JAX calls perturbation confusion is avoided by the same means).
"""

import functools

import numpy as np

from .. import ops
from ..forward import ForwardAccumulator
from ..tape import GradientTape
from .arrays import Array, as_array, asarray, promoted
from .pytrees import flatten_up_to, tree_flatten, tree_map, tree_structure, tree_unflatten


def _fresh(leaf):
    """``leaf`` as an Array with an identity of its own, connected to the old one for the recorders outside."""
    return as_array(ops.identity(asarray(leaf)))


def _as_output(out):
    return tree_map(asarray, out)


def vjp(fun, *primals, has_aux=False):
    """``(fun(*primals), f_vjp)``: ``f_vjp(cotangent)`` is the tuple of the primals' cotangents.

    >>> y, f_vjp = vjp(lambda x: x * x, 3.0)
    >>> f_vjp(1.0)
    (Array(6., dtype=float32),)
    """
    leaves, treedef = tree_flatten(primals)
    xs = [_fresh(x) for x in leaves]
    tape = GradientTape(persistent=True)
    with tape:
        for x in xs:
            tape.watch(x)
        out = fun(*tree_unflatten(treedef, xs))
    if has_aux:
        out, aux = _split_aux(out, "vjp")
    out = _as_output(out)
    out_leaves, out_tree = tree_flatten(out)

    def f_vjp(cotangent):
        try:
            cts = flatten_up_to(out_tree, cotangent)
        except ValueError:
            raise ValueError(f"unexpected tree structure of argument to vjp function: got "
                             f"{tree_structure(cotangent)}, but expected to match {out_tree}") from None
        cts = [promoted(c, dtype=o.array.dtype)[0] for c, o in zip(cts, out_leaves)]
        for c, o in zip(cts, out_leaves):
            if c.shape != o.shape:
                raise ValueError(f"unexpected JAX type (e.g. shape/dtype) for argument to vjp function: got "
                                 f"{c.dtype.name}{list(c.shape)}, but expected {o.dtype.name}{list(o.shape)} "
                                 f"because the corresponding output of the function had JAX type "
                                 f"{o.dtype.name}{list(o.shape)}")
        floating = [(o, c) for o, c in zip(out_leaves, cts) if o.array.dtype.kind == "f"]
        if floating:
            grads = tape.gradient([o for o, _ in floating], xs, output_gradients=[c for _, c in floating],
                                  unconnected_gradients="zero")
        else:
            grads = [ops.zeros_like(x) for x in xs]
        return tree_unflatten(treedef, [as_array(g) for g in grads])

    return (out, f_vjp, aux) if has_aux else (out, f_vjp)


def _split_aux(out, name):
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(f"{name} with has_aux=True: the function must return a pair (output, auxiliary data), "
                        f"got {type(out).__name__}")
    return out


def jvp(fun, primals, tangents, has_aux=False):
    """``(fun(*primals), tangent_out)``: the directional derivative of ``fun`` along ``tangents`` (forward mode).

    >>> jvp(lambda x: x * x, (3.0,), (1.0,))
    (Array(9., dtype=float32), Array(6., dtype=float32))
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"primal and tangent arguments to jax.jvp must be tuples or lists; found "
                        f"{type(primals).__name__} and {type(tangents).__name__}.")
    leaves, treedef = tree_flatten(tuple(primals))
    try:
        t_leaves = flatten_up_to(treedef, tuple(tangents))
    except ValueError:
        raise TypeError(f"primal and tangent arguments to jax.jvp must have the same tree structure; primals "
                        f"have tree structure {treedef} whereas tangents have tree structure "
                        f"{tree_structure(tuple(tangents))}.") from None
    xs = [_fresh(x) for x in leaves]
    ts = []
    for x, t in zip(xs, t_leaves):
        t = promoted(t, dtype=x.array.dtype)[0] if x.array.dtype.kind == "f" else asarray(t)
        if t.shape != x.shape:
            raise ValueError(f"jvp called with different primal and tangent shapes;Got primal shape {x.shape} "
                             f"and tangent shape as {t.shape}")
        ts.append(t)
    with ForwardAccumulator(xs, ts) as accumulator:
        out = fun(*tree_unflatten(treedef, xs))
    if has_aux:
        out, aux = _split_aux(out, "jvp")
    out = _as_output(out)
    out_leaves, out_tree = tree_flatten(out)
    tangent_out = [as_array(t) if t is not None else as_array(ops.zeros_like(o))
                   for t, o in zip(accumulator.jvp(out_leaves, unconnected_gradients="zero"), out_leaves)]
    result = (out, tree_unflatten(out_tree, tangent_out))
    return (*result, aux) if has_aux else result


def linearize(fun, *primals):
    """``(fun(*primals), f_jvp)``; ``f_jvp(*tangents)`` is ``jvp(fun, primals, tangents)[1]``.

    Unlike JAX, which keeps the linear map, minitape runs ``fun`` again in forward mode at each call of ``f_jvp``.
    """
    out = _as_output(fun(*primals))
    return out, lambda *tangents: jvp(fun, primals, tangents)[1]


# -- grad ----------------------------------------------------------------------------------------------------------
def _positions(argnums, args, name):
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for k in nums:
        if not -len(args) <= k < len(args):
            raise TypeError(f"{name}: argnums={argnums!r}, but the function was called with {len(args)} "
                            f"positional argument(s)")
    return nums


def _with_only(fun, args, kwargs, nums):
    """``fun`` as a function of the arguments at ``nums`` only, the others fixed."""
    def partial(*chosen):
        full = list(args)
        for k, a in zip(nums, chosen):
            full[k] = a
        return fun(*full, **kwargs)
    return partial


def _check_inexact(leaves, name, allow_int=False):
    for leaf in leaves:
        dtype = asarray(leaf).array.dtype if not isinstance(leaf, Array) else leaf.array.dtype
        if dtype.kind != "f" and not allow_int:
            raise TypeError(f"{name} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
                            f"np.inexact), but got {dtype.name}. If you want to use Boolean- or integer-valued "
                            f"inputs, use vjp or set allow_int to True.")


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """``fun``'s value and its gradient with respect to the arguments at ``argnums`` (an int or a tuple)."""
    if holomorphic:
        raise NotImplementedError("minitape has no complex numbers: holomorphic=True is not available")

    @functools.wraps(fun)
    def value_and_grad_f(*args, **kwargs):
        nums = _positions(argnums, args, "value_and_grad")
        chosen = [args[k] for k in nums]
        _check_inexact(tree_flatten(chosen)[0], "grad", allow_int)
        result = vjp(_with_only(fun, args, kwargs, nums), *chosen, has_aux=has_aux)
        out, f_vjp = result[:2]
        if not isinstance(out, Array):
            raise TypeError(f"Gradient only defined for scalar-output functions. Output was {out}.")
        if out.shape != ():
            raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {out.shape}.")
        if out.array.dtype.kind != "f":
            raise TypeError(f"grad requires real-valued outputs (output dtype that is a sub-dtype of np.floating), "
                            f"but got {out.array.dtype.name}. For holomorphic differentiation, pass "
                            f"holomorphic=True. For differentiation of non-holomorphic functions involving "
                            f"complex outputs, use jax.vjp directly.")
        grads = f_vjp(np.ones((), out.array.dtype))
        grads = grads[0] if isinstance(argnums, int) else grads
        return ((out, result[2]) if has_aux else out), grads

    return value_and_grad_f


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The gradient of the scalar function ``fun`` with respect to the arguments at ``argnums``, in their structure.

    >>> grad(lambda p: p["w"] * p["b"])({"w": 2.0, "b": 3.0})
    {'b': Array(2., dtype=float32), 'w': Array(3., dtype=float32)}
    """
    value_and_grad_f = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_f(*args, **kwargs):
        value, grads = value_and_grad_f(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return grad_f


# -- Jacobians -----------------------------------------------------------------------------------------------------
def _basis(leaf):
    """The one-hot arrays of ``leaf``'s shape and dtype, one per element."""
    eye = np.eye(int(np.prod(leaf.shape)), dtype=leaf.array.dtype)
    return [Array(row.reshape(leaf.shape)) for row in eye]


def _stacked(parts, shape, at_end):
    """The arrays ``parts`` (one per element of an input or output) stacked as one block of ``shape``."""
    if not parts:
        return Array(np.zeros(shape, np.float32))
    return as_array(ops.reshape(ops.stack(parts, axis=-1 if at_end else 0), list(shape)))


def _jacobian_tree(out_tree, arg_tree, blocks):
    return tree_unflatten(out_tree, [tree_unflatten(arg_tree, row) for row in blocks])


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The Jacobian of ``fun``, a row at a time: a backward sweep of one tape per output element."""
    @functools.wraps(fun)
    def jacfun(*args, **kwargs):
        nums = _positions(argnums, args, "jacrev")
        chosen = [args[k] for k in nums]
        _check_inexact(tree_flatten(chosen)[0], "jacrev", allow_int)
        result = vjp(_with_only(fun, args, kwargs, nums), *chosen, has_aux=has_aux)
        out, f_vjp = result[:2]
        out_leaves, out_tree = tree_flatten(out)
        arg = chosen[0] if isinstance(argnums, int) else tuple(chosen)
        arg_leaves, arg_tree = tree_flatten(arg)
        blocks = []
        for i, o in enumerate(out_leaves):
            rows = []
            for e in _basis(o):
                cotangent = [e if k == i else Array(np.zeros(p.shape, p.array.dtype)) for k, p in enumerate(out_leaves)]
                g = f_vjp(tree_unflatten(out_tree, cotangent))
                rows.append(tree_flatten(g[0] if isinstance(argnums, int) else g)[0])
            blocks.append([_stacked([r[j] for r in rows], o.shape + np.shape(x), at_end=False)
                           for j, x in enumerate(arg_leaves)])
        jac = _jacobian_tree(out_tree, arg_tree, blocks)
        return (jac, result[2]) if has_aux else jac

    return jacfun


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of ``fun``, a column at a time: a forward-mode pass per input element."""
    @functools.wraps(fun)
    def jacfun(*args, **kwargs):
        nums = _positions(argnums, args, "jacfwd")
        chosen = [tree_map(asarray, args[k]) for k in nums]
        _check_inexact(tree_flatten(chosen)[0], "jacfwd")
        partial = _with_only(fun, args, kwargs, nums)
        arg = chosen[0] if isinstance(argnums, int) else tuple(chosen)
        arg_leaves, arg_tree = tree_flatten(arg)
        columns, out_tree, aux = [], None, None
        for j, x in enumerate(arg_leaves):
            per_leaf = []
            for e in _basis(x):
                tangent = [e if k == j else Array(np.zeros(p.shape, p.array.dtype)) for k, p in enumerate(arg_leaves)]
                tangents = tree_unflatten(arg_tree, tangent)
                result = jvp(partial, tuple(chosen), (tangents,) if isinstance(argnums, int) else tangents,
                             has_aux=has_aux)
                out, t_out = result[:2]
                aux = result[2] if has_aux else None
                out_leaves, out_tree = tree_flatten(out)
                per_leaf.append(tree_flatten(t_out)[0])
            columns.append(per_leaf)
        if out_tree is None:  # no input elements: run once for the output's structure
            out = _as_output(partial(*chosen))
            out_leaves, out_tree = tree_flatten(out[0] if has_aux else out)
        blocks = [[_stacked([c[i] for c in columns[j]], o.shape + np.shape(x), at_end=True)
                   for j, x in enumerate(arg_leaves)] for i, o in enumerate(out_leaves)]
        jac = _jacobian_tree(out_tree, arg_tree, blocks)
        return (jac, aux) if has_aux else jac

    return jacfun


jacobian = jacrev


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """``jacfwd(jacrev(fun))``: forward mode over reverse mode, as JAX computes it.

    >>> hessian(lambda x: (x ** 3).sum())(asarray([1.0, 2.0]))
    Array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """
    return jacfwd(jacrev(fun, argnums, has_aux), argnums, has_aux)
