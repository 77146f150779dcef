"""``torch.optim``: ``SGD`` (with momentum and weight decay) and ``Adam``, PyTorch's update rules.

Each ``step`` changes the parameters in place under ``no_grad``, as PyTorch's optimizers do.

>>> import minitape.torch as torch
>>> w = torch.tensor([1.0], requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=0.5)
>>> (w * w).sum().backward(); opt.step(); w
tensor([0.], requires_grad=True)
"""

from .grad_mode import no_grad


class Optimizer:
    def __init__(self, params, defaults):
        self.params = list(params)
        self.defaults = defaults
        self.state = {}

    def zero_grad(self, set_to_none=True):
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()


class SGD(Optimizer):
    """``p -= lr * v``, where ``v = momentum * v + g`` (``g`` with ``weight_decay * p`` added) after the first step."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False):
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov))

    @no_grad()
    def step(self):
        o = self.defaults
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad if o["weight_decay"] == 0 else p.grad + o["weight_decay"] * p
            if o["momentum"]:
                buffer = self.state.get(id(p))
                buffer = g.clone() if buffer is None else buffer * o["momentum"] + g * (1 - o["dampening"])
                self.state[id(p)] = buffer
                g = g + o["momentum"] * buffer if o["nesterov"] else buffer
            p.sub_(g * o["lr"])


class Adam(Optimizer):
    """Adam: moments of the gradient and its square, bias-corrected, ``p -= lr * m / (sqrt(v) + eps)``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @no_grad()
    def step(self):
        o = self.defaults
        beta1, beta2 = o["betas"]
        for p in self.params:
            if p.grad is None:
                continue
            g = p.grad if o["weight_decay"] == 0 else p.grad + o["weight_decay"] * p
            step, m, v = self.state.get(id(p), (0, g * 0, g * 0))
            step, m, v = step + 1, m * beta1 + g * (1 - beta1), v * beta2 + g * g * (1 - beta2)
            self.state[id(p)] = (step, m, v)
            m_hat, v_hat = m / (1 - beta1 ** step), v / (1 - beta2 ** step)
            p.sub_(m_hat / (v_hat.sqrt() + o["eps"]) * o["lr"])
