"""``torch.autograd.functional`` and ``torch.func``: derivatives of functions, built on ``autograd.grad``.

A Jacobian is one ``grad`` per element of the output (reverse mode, row by row); a Hessian is the
Jacobian of the gradient, made with ``create_graph``. A JVP is computed as PyTorch's
``autograd.functional.jvp`` does, by the double-VJP trick (the VJP is linear in its vector, so its
own VJP is the JVP). ``torch.func``'s transformations nest: an inner one made inside an outer one
keeps its graph, so that the outer one can differentiate it.

>>> import minitape.torch as torch
>>> f = lambda x: (x ** 3).sum()
>>> torch.func.grad(f)(torch.tensor([1.0, 2.0])), torch.func.grad(torch.func.grad(lambda x: x ** 3))(torch.tensor(2.0))
(tensor([ 3., 12.]), tensor(12.))
"""

from ..backward import grad as autograd_grad
from ..factories import zeros_like
from ..grad_mode import enable_grad
from ..shaping import reshape, stack
from ..torch_tensor import Tensor

_levels = [0]  # how many transformations are running: inside one, results keep their graph


def _as_tuple(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _watched(x):
    return x if x.requires_grad else x.detach().requires_grad_(True)


def _grads(output, inputs, v=None, create_graph=False):
    """d(output . v)/d(inputs), zeros where an input is unused."""
    grads = autograd_grad(output, inputs, grad_outputs=v, retain_graph=True, create_graph=create_graph,
                          allow_unused=True)
    return tuple(zeros_like(x) if g is None else g for x, g in zip(inputs, grads))


def _jacobian_of(output, inputs, create_graph):
    """d output / d input for each input, shaped ``output.shape + input.shape``."""
    flat = reshape(output, -1)
    rows = [_grads(flat[i], inputs, create_graph=create_graph) for i in range(flat.shape[0])]
    return tuple(reshape(stack([row[k] for row in rows]), *output.shape, *x.shape) if rows else
                 zeros_like(x) for k, x in enumerate(inputs))


def _nesting(function):
    """Run ``function`` as one more level of transformations: results keep their graph below the top level."""
    def run(*args, **kwargs):
        _levels[0] += 1
        try:
            with enable_grad():
                return function(*args, **kwargs)
        finally:
            _levels[0] -= 1
    return run


def _top(x):
    """A result as the user sees it: from the outermost transformation, detached from the graph."""
    if _levels[0] > 1:
        return x
    return x.detach() if isinstance(x, Tensor) else tuple(_top(t) for t in x)


# -- torch.autograd.functional -----------------------------------------------------------------------
def jacobian(func, inputs, create_graph=False):
    single = not isinstance(inputs, (list, tuple))
    xs = tuple(_watched(x) for x in _as_tuple(inputs))
    out = func(*xs)
    jac = _jacobian_of(out, xs, create_graph)
    return jac[0] if single else jac


def hessian(func, inputs, create_graph=False):
    single = not isinstance(inputs, (list, tuple))
    xs = tuple(_watched(x) for x in _as_tuple(inputs))
    gs = _grads(func(*xs), xs, create_graph=True)
    rows = tuple(_jacobian_of(g, xs, create_graph) for g in gs)
    return rows[0][0] if single else rows


def vjp(func, inputs, v=None, create_graph=False):
    single = not isinstance(inputs, (list, tuple))
    xs = tuple(_watched(x) for x in _as_tuple(inputs))
    out = func(*xs)
    gs = _grads(out, xs, v, create_graph)
    return out.detach(), (gs[0] if single else gs)


def jvp(func, inputs, v=None, create_graph=False):
    xs = tuple(_watched(x) for x in _as_tuple(inputs))
    vs = _as_tuple(v) if v is not None else tuple(zeros_like(x) + 1 for x in xs)
    out = func(*xs)
    u = zeros_like(out).requires_grad_(True)
    gs = _grads(out, xs, u, create_graph=True)
    tangents = autograd_grad(list(gs), [u], grad_outputs=list(vs), create_graph=create_graph, allow_unused=True)
    return out.detach(), tangents[0] if tangents[0] is not None else zeros_like(out)


def vhp(func, inputs, v):
    single = not isinstance(inputs, (list, tuple))
    xs = tuple(_watched(x) for x in _as_tuple(inputs))
    out = func(*xs)
    gs = _grads(out, xs, create_graph=True)
    hv = autograd_grad(list(gs), list(xs), grad_outputs=list(_as_tuple(v)), allow_unused=True)
    hv = tuple(zeros_like(x) if h is None else h for x, h in zip(xs, hv))
    return out.detach(), hv[0] if single else hv


hvp = vhp  # a Hessian is symmetric: v^T H = (H v)^T


# -- torch.func ------------------------------------------------------------------------------------------
def grad_and_value(func, argnums=0, has_aux=False):
    """A function returning ``(gradient, value)`` of ``func`` (``((gradient, (value, aux))`` with ``has_aux``)."""
    @_nesting
    def transformed(*args, **kwargs):
        numbers = _as_tuple(argnums)
        args = list(args)
        for n in numbers:
            args[n] = _watched(args[n])
        out = func(*args, **kwargs)
        value, aux = out if has_aux else (out, None)
        if value.numel() != 1:
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                               f"with {value.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        gs = _grads(value, [args[n] for n in numbers], create_graph=_levels[0] > 1)
        gs = gs[0] if isinstance(argnums, int) else gs
        return (_top(gs), (_top(value), _top(aux))) if has_aux else (_top(gs), _top(value))
    return transformed


def func_grad(func, argnums=0, has_aux=False):
    """``torch.func.grad``: the gradient of the scalar function ``func`` (and its ``aux`` with ``has_aux``)."""
    both = grad_and_value(func, argnums, has_aux)

    def transformed(*args, **kwargs):
        g, value = both(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    return transformed


def jacrev(func, argnums=0):
    @_nesting
    def transformed(*args):
        numbers = _as_tuple(argnums)
        args = list(args)
        for n in numbers:
            args[n] = _watched(args[n])
        jac = _jacobian_of(func(*args), [args[n] for n in numbers], create_graph=_levels[0] > 1)
        return _top(jac[0] if isinstance(argnums, int) else jac)
    return transformed


jacfwd = jacrev  # the same matrix; minitape.torch computes it in reverse mode


def func_hessian(func, argnums=0):
    return jacrev(jacrev(func, argnums), argnums)


def func_vjp(func, *primals):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(v)`` is the tuple of ``v``'s VJPs with each primal."""
    xs = [_watched(x) for x in primals]
    with enable_grad():
        out = func(*xs)

    def vjp_fn(v):
        return tuple(t.detach() for t in _grads(out, xs, v))
    return out.detach(), vjp_fn


def func_jvp(func, primals, tangents):
    out, tangent = jvp(func, tuple(primals), tuple(tangents))
    return out, tangent.detach()


def vmap(func, in_dims=0, out_dims=0):
    """``func`` mapped over dimension ``in_dims`` of its arguments (a loop over the batch, then a stack)."""
    def mapped(*args):
        dims = in_dims if isinstance(in_dims, (list, tuple)) else (in_dims,) * len(args)
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        results = [func(*[a if d is None else a.select(d, i) for a, d in zip(args, dims)]) for i in range(size)]
        if isinstance(results[0], tuple):
            return tuple(stack([r[k] for r in results], dim=out_dims) for k in range(len(results[0])))
        return stack(results, dim=out_dims)
    return mapped
