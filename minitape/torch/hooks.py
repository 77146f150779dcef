"""A tensor's hooks (``register_hook``, ``retain_grad``) as one more record in the sweep.

The record is an identity op whose VJP rule runs the hooks on the gradient. It is placed right
after the record that made the tensor, so the sweep reaches it once every use of the tensor has
added its share to the gradient, and before the gradient goes on to the inputs.

>>> import minitape.torch as torch
>>> x = torch.tensor(1.0, requires_grad=True)
>>> y = x * 2
>>> handle = y.register_hook(lambda g: g * 10)
>>> [r.op.name for r in [*y.grad_fn.records, hook_record(y.grad_fn)]]
['multiply', 'tensor_hooks']
>>> y.backward(); x.grad
tensor(20.)
"""

from ..engine import Record
from ..primitive import Primitive
from .torch_tensor import Tensor


def run_hooks(g, hooks):
    """``g`` (a minitape value) after each of ``hooks`` has seen it, as a torch tensor, and maybe replaced it."""
    for hook in hooks:
        result = hook(Tensor.wrap(g))
        if result is not None:
            g = result.value
    return g


def _run_tensor_hooks(g, ans, x, hooks):
    return run_hooks(g, hooks)


tensor_hooks = Primitive("tensor_hooks", lambda x, hooks: x, keeps="nothing", vjp=[_run_tensor_hooks],
                         jvp=[lambda t, ans, x, hooks: t])


def hook_record(node):
    """The record that runs ``node``'s tensor hooks on its output's gradient."""
    return Record((tensor_hooks, (node.output,), node.output, None, None, {"hooks": node.tensor_hooks}))
