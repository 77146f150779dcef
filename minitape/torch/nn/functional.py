"""``torch.nn.functional``: activations, ``linear`` and the losses of a first training loop.

>>> import minitape.torch as torch
>>> import minitape.torch.nn.functional as F
>>> logits = torch.tensor([[2.0, 0.0, -1.0]], requires_grad=True)
>>> F.cross_entropy(logits, torch.tensor([0]))
tensor(0.1698, grad_fn=<NllLossBackward0>)
"""

import numpy as np

from ... import ops
from ..pointwise import FUNCTIONS, cast
from ..along_dims import log_softmax, softmax
from ..torch_tensor import run

relu, sigmoid, tanh = FUNCTIONS["relu"], FUNCTIONS["sigmoid"], FUNCTIONS["tanh"]
__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "linear", "mse_loss", "l1_loss", "nll_loss",
           "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits"]


def _reduced(losses, reduction):
    if reduction == "mean":
        return ops.reduce_mean(losses)
    if reduction == "sum":
        return ops.reduce_sum(losses)
    if reduction == "none":
        return losses
    raise ValueError(f"{reduction} is not a valid value for reduction")


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``, one node (``AddmmBackward0`` for a batch of rows with a bias)."""
    name = "AddmmBackward0" if bias is not None and input.dim() == 2 else \
        "MmBackward0" if input.dim() == 2 else "ViewBackward0"

    def affine(x, w, *b):
        out = ops.matmul(ops.reshape(x, [-1, x.shape[-1]]), w, transpose_b=True)
        out = ops.reshape(out, [*x.shape[:-1], w.shape[0]])
        return ops.add(out, b[0]) if b else out
    return run(name, affine, [input, weight] + ([bias] if bias is not None else []))


def mse_loss(input, target, reduction="mean"):
    return run("MseLossBackward0", lambda x, t: _reduced(ops.square(ops.subtract(x, cast(t, input.dtype))),
                                                         reduction), [input, target])


def l1_loss(input, target, reduction="mean"):
    return run("L1LossBackward0", lambda x, t: _reduced(ops.abs(ops.subtract(x, cast(t, input.dtype))),
                                                        reduction), [input, target])


def nll_loss(input, target, reduction="mean"):
    """Minus the log-probability ``input[i, target[i]]`` of each row's class, averaged."""
    classes = np.asarray(target.value.array)
    picks = np.stack([np.arange(classes.size), classes.reshape(-1)], axis=1)
    return run("NllLossBackward0", lambda x: _reduced(ops.negative(ops.gather_nd(x, picks)), reduction), [input])


def cross_entropy(input, target, reduction="mean"):
    """``nll_loss(log_softmax(input, 1), target)``, for class indices ``target``."""
    return nll_loss(log_softmax(input, 1), target, reduction)


def binary_cross_entropy(input, target, reduction="mean"):
    def loss(p, t):
        t = cast(t, input.dtype)
        return _reduced(ops.negative(ops.add(ops.multiply(t, ops.log(p)),
                                             ops.multiply(ops.subtract(1.0, t), ops.log(ops.subtract(1.0, p))))),
                        reduction)
    return run("BinaryCrossEntropyBackward0", loss, [input, target])


def binary_cross_entropy_with_logits(input, target, reduction="mean"):
    return run("BinaryCrossEntropyWithLogitsBackward0",
               lambda z, t: _reduced(ops.sigmoid_cross_entropy_with_logits(cast(t, input.dtype), z), reduction),
               [input, target])

