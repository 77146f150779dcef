"""``torch.nn``: ``Parameter``, ``Module``, ``Linear``, ``Sequential``, the activation and loss modules.

>>> import minitape.torch as torch
>>> torch.manual_seed(0)
>>> layer = torch.nn.Linear(3, 2)
>>> [name for name, _ in layer.named_parameters()], layer(torch.ones(4, 3)).shape
(['weight', 'bias'], torch.Size([4, 2]))
"""

import math

from .. import factories
from ..grad_mode import no_grad
from ..torch_tensor import Tensor
from . import functional

F = functional


class Parameter(Tensor):
    """A tensor that a Module lists among its parameters; it requires grad unless told not to."""

    def __init__(self, data=None, requires_grad=True):
        data = factories.zeros(0) if data is None else data
        super().__init__(None, storage=data.detach()._storage)
        self.requires_grad_(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Module:
    """A layer or a model: parameters and sub-modules found through its attributes; calling it runs ``forward``."""

    training = True

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def named_parameters(self, prefix=""):
        for name, value in vars(self).items():
            if isinstance(value, Parameter):
                yield prefix + name, value
            elif isinstance(value, Module):
                yield from value.named_parameters(prefix + name + ".")

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def children(self):
        return [m for m in vars(self).values() if isinstance(m, Module)]

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()

    def train(self, mode=True):
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)


class Linear(Module):
    """``y = x @ weight.T + bias``, both drawn uniformly from ±1/sqrt(in_features) (minitape's generator)."""

    def __init__(self, in_features, out_features, bias=True):
        bound = 1 / math.sqrt(in_features)
        with no_grad():
            self.weight = Parameter(factories.rand(out_features, in_features) * (2 * bound) - bound)
            self.bias = Parameter(factories.rand(out_features) * (2 * bound) - bound) if bias else None

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)


class Sequential(Module):
    def __init__(self, *layers):
        for k, layer in enumerate(layers):
            setattr(self, str(k), layer)
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def _module(name, function, **defaults):
    def __init__(self, **kwargs):
        self.options = {**defaults, **kwargs}

    def forward(self, *args):
        return function(*args, **self.options)
    return type(name, (Module,), {"__init__": __init__, "forward": forward})


ReLU, Tanh, Sigmoid = _module("ReLU", F.relu), _module("Tanh", F.tanh), _module("Sigmoid", F.sigmoid)
MSELoss, L1Loss = _module("MSELoss", F.mse_loss), _module("L1Loss", F.l1_loss)
CrossEntropyLoss, NLLLoss = _module("CrossEntropyLoss", F.cross_entropy), _module("NLLLoss", F.nll_loss)
BCELoss = _module("BCELoss", F.binary_cross_entropy)
BCEWithLogitsLoss = _module("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits)

__all__ = ["Parameter", "Module", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "MSELoss", "L1Loss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "functional"]
