"""``torch.autograd``: ``backward``, ``grad``, ``Function``, and the ``functional`` derivatives of functions.

>>> import minitape.torch as torch
>>> torch.autograd.functional.jacobian(lambda x: x ** 2, torch.tensor([1.0, 3.0]))
tensor([[2., 0.],
        [0., 6.]])
"""

from ..backward import backward, grad
from ..function import Function, FunctionCtx
from . import derivatives as functional


def Variable(data, requires_grad=False):
    """PyTorch's legacy ``Variable``: since PyTorch 0.4 the tensor itself, with ``requires_grad`` set."""
    return data.detach().requires_grad_(requires_grad) if requires_grad else data


__all__ = ["backward", "grad", "Function", "FunctionCtx", "Variable", "functional"]
