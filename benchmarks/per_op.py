"""Benchmark 1: what one small op costs, forward only and recorded then differentiated.

The work is a chain of 2,000 elementwise ops on a float32 vector of length 8, so the
arithmetic itself is nearly free and what is measured is each library's overhead per op:
wrapping values, dispatching, recording, and playing the record backwards.

The chain repeats one step 500 times, in every library the same four ops:

    x <- sin(x) * 0.5 + x * 0.5          (sin, mul, mul, add)

the average of x and sin(x). Why this step: its values shrink only slowly towards 0
(about sqrt(6 / k) after k steps, ~0.1 after 500), and its derivative 0.5 cos(x) + 0.5
tends to 1, so the gradient of the sum after 500 steps is ~1e-4 to 5e-2: neither the
values nor the adjoints underflow, overflow or turn denormal, which would make the
arithmetic, not the overhead, the thing measured. The constants are Python floats, as
users write them.
"""

import numpy as np

from harness import compare, report, with_module

STEPS = 500  # of the four-op step
OPS = 4 * STEPS
X0 = np.linspace(-2.0, 2.0, 8, dtype=np.float32)


def chain(sin, x, steps=STEPS):
    """``steps`` times ``x = sin(x) * 0.5 + x * 0.5``: one definition, so every library runs the same ops."""
    for _ in range(steps):
        x = sin(x) * 0.5 + x * 0.5
    return x


# -- one builder per library: (forward, gradient), see harness.compare ---------------------------------
def numpy_by_hand():
    """The limit to approach: the forward keeps what the backward needs, the backward is written out."""
    def gradient():
        sin_inputs = []
        x = X0
        for _ in range(STEPS):
            sin_inputs.append(x)
            x = np.sin(x) * 0.5 + x * 0.5
        np.sum(x)  # the loss: computed, like everywhere else, though its gradient is simply ones
        g = np.ones_like(x)
        for x in reversed(sin_inputs):
            g = g * (np.cos(x) * 0.5 + 0.5)  # d step / dx = 0.5 cos(x) + 0.5
        return [g]

    return (lambda: chain(np.sin, X0)), gradient


def gradient_tape(lib):
    """minitape and TensorFlow share this builder: the API is the same (``lib`` is ``mt`` or ``tf``)."""
    x0 = lib.constant(X0)

    def gradient():
        with lib.GradientTape() as tape:
            tape.watch(x0)
            loss = lib.reduce_sum(chain(lib.sin, x0))
        return [np.asarray(tape.gradient(loss, x0))]  # a view: .numpy() copies (as in TF)

    return (lambda: chain(lib.sin, x0)), gradient


def pytorch():
    import torch

    x0 = torch.from_numpy(X0)

    def gradient():
        x = x0.detach().requires_grad_()
        loss = chain(torch.sin, x).sum()
        return [torch.autograd.grad(loss, x)[0].numpy()]

    return (lambda: chain(torch.sin, x0)), gradient


def hips_autograd():
    import autograd
    import autograd.numpy as anp

    gradient = autograd.grad(lambda x: anp.sum(chain(anp.sin, x)))
    return (lambda: chain(anp.sin, X0)), (lambda: [gradient(X0)])


def jax_eager():
    """JAX without jit: every op is dispatched on its own, like the other libraries here."""
    import jax
    import jax.numpy as jnp

    x0 = jnp.asarray(X0)
    gradient = jax.grad(lambda x: jnp.sum(chain(jnp.sin, x)))
    # JAX dispatches asynchronously: wait for the result, or only the dispatch would be timed.
    return (lambda: chain(jnp.sin, x0).block_until_ready()), (lambda: [np.asarray(gradient(x0))])


BUILDERS = {"numpy": numpy_by_hand, "minitape": with_module(gradient_tape, "minitape"), "torch": pytorch,
            "autograd": hips_autograd, "jax": jax_eager, "tensorflow": with_module(gradient_tape, "tensorflow")}


def run(available, rounds):
    """Measure and print benchmark 1 for NumPy, minitape and the ``available`` frameworks; return the data."""
    compared = compare(BUILDERS, available, rounds)
    return report(f"1. Per-op overhead: {OPS} elementwise ops (sin, mul, mul, add) on float32[8], "
                  f"then the gradient of the sum; median ±IQR of {rounds} rounds",
                  compared, per=OPS, unit=1e-6, label="µs/op", key="us_per_op")
