"""``torch.autograd.Function``: a forward and a backward written by the user, as one node.

``apply`` runs ``forward`` with recording off and gives the result a node with one record, whose
op's VJP rule is the user's ``backward``: the sweep calls it as it calls any op's rule.

>>> import minitape.torch as torch
>>> class Cube(torch.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x ** 3
...     @staticmethod
...     def backward(ctx, g):
...         (x,) = ctx.saved_tensors
...         return g * 3 * x ** 2
>>> x = torch.tensor(2.0, requires_grad=True)
>>> y = Cube.apply(x)
>>> y.backward(); y, x.grad
(tensor(8., grad_fn=<CubeBackward>), tensor(12.))
"""

from ..engine import Record
from ..primitive import Primitive
from ..tensor import Tensor as Value
from . import grad_mode
from .graph import Node
from .torch_tensor import Tensor


class FunctionCtx:
    """What ``forward`` leaves for ``backward``: saved tensors, and which inputs need a gradient."""

    def __init__(self, needs_input_grad):
        self.needs_input_grad = needs_input_grad
        self.to_save = ()
        self.non_differentiable = ()

    def save_for_backward(self, *tensors):
        self.to_save = tensors

    @property
    def saved_tensors(self):
        return tuple(self.to_save)

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors):
        """Accepted for PyTorch's code; minitape's values are never changed in place, so it has nothing to do."""

    def set_materialize_grads(self, value):
        self.materialize_grads = value


def _users_backward(g, ans, *inputs, function, ctx, positions):
    with grad_mode.no_grad():
        grads = function.backward(ctx, Tensor(g))
    grads = grads if isinstance(grads, tuple) else (grads,)
    if len(grads) != len(ctx.needs_input_grad):
        raise RuntimeError(f"function {function.__name__}Backward returned an incorrect number of gradients "
                           f"(expected {len(ctx.needs_input_grad)}, got {len(grads)})")
    return [None if grads[p] is None else grads[p].value for p in positions]


users_backward = Primitive("autograd_function", None, vjp=_users_backward, jvp=None, keeps="nothing")


class Function:
    """Subclass it with ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` static methods; call ``apply``."""

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx(tuple(isinstance(a, Tensor) and a.requires_grad for a in args))
        with grad_mode.no_grad():
            out = cls.forward(ctx, *args)
        positions = [p for p, a in enumerate(args) if isinstance(a, Tensor)]
        if not (grad_mode.is_grad_enabled() and any(ctx.needs_input_grad)):
            return out
        result = Value(out.value.array)  # a value of its own, even if forward returned an input
        record = Record((users_backward, tuple(args[p].value.id for p in positions), result.id, None, None,
                         {"function": cls, "ctx": ctx, "positions": positions}))
        node = Node(cls.__name__ + "Backward", [record], [(args[p].value.id, args[p].edge()) for p in positions],
                    result.id)
        return Tensor(result, grad_fn=node)
