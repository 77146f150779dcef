"""``torch.func``: ``grad``, ``grad_and_value``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``, ``vmap``.

They are made in :mod:`minitape.torch.autograd.derivatives` from ``autograd.grad``; ``jacfwd`` is
computed in reverse mode, and ``vmap`` loops over the batch.

>>> import minitape.torch as torch
>>> torch.func.jacrev(torch.sin)(torch.tensor([0.0, 1.0]))
tensor([[1.0000, 0.0000],
        [0.0000, 0.5403]])
"""

from .autograd.derivatives import func_grad as grad
from .autograd.derivatives import func_hessian as hessian
from .autograd.derivatives import func_jvp as jvp
from .autograd.derivatives import func_vjp as vjp
from .autograd.derivatives import grad_and_value, jacfwd, jacrev, vmap

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap"]
