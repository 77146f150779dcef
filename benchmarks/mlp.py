"""Benchmark 2: one training step of a small neural network, where the arithmetic is real work.

A 784-256-10 multilayer perceptron (MNIST-sized), tanh hidden layer, softmax cross-entropy
averaged over a float32 batch of 256, differentiated with respect to all four parameters
W1, b1, W2, b2. Two matrix products of 256x784x256 and their two gradient products dominate,
so a library can come close to hand-written NumPy only if its own overhead is small and its
gradient rules do no needless work (no gradient for the data X, no copies for transposes).

Each library computes the loss with its own idiom: its fused softmax cross-entropy where it
has one (minitape, TensorFlow, PyTorch), a log-softmax otherwise.
"""

import numpy as np

from harness import compare, report, with_module

BATCH, INPUTS, HIDDEN, CLASSES = 256, 784, 256, 10

_rng = np.random.default_rng(0)
X = _rng.standard_normal((BATCH, INPUTS), dtype=np.float32)
Y = np.eye(CLASSES, dtype=np.float32)[_rng.integers(0, CLASSES, BATCH)]  # one-hot labels
# Scaled like Glorot's initialisation, so tanh is not saturated and every gradient is far from 0.
PARAMS = (_rng.standard_normal((INPUTS, HIDDEN), dtype=np.float32) / np.float32(np.sqrt(INPUTS)),
          np.float32(0.1) * _rng.standard_normal(HIDDEN, dtype=np.float32),
          _rng.standard_normal((HIDDEN, CLASSES), dtype=np.float32) / np.float32(np.sqrt(HIDDEN)),
          np.float32(0.1) * _rng.standard_normal(CLASSES, dtype=np.float32))


def mlp_loss(matmul, tanh, mean_cross_entropy, x, y, w1, b1, w2, b2):
    """The network and its loss, written once for every library (each passes its own three ops)."""
    hidden = tanh(matmul(x, w1) + b1)
    logits = matmul(hidden, w2) + b2
    return mean_cross_entropy(y, logits)


def log_softmax_cross_entropy(xp):
    """Mean cross-entropy via a stable log-softmax, for NumPy-like modules ``xp`` (numpy, autograd.numpy)."""
    def mean_cross_entropy(labels, logits):
        shifted = logits - xp.max(logits, axis=1, keepdims=True)
        log_p = shifted - xp.log(xp.sum(xp.exp(shifted), axis=1, keepdims=True))
        return -xp.mean(xp.sum(labels * log_p, axis=1))

    return mean_cross_entropy


# -- one builder per library: (forward, gradient), see harness.compare ---------------------------------
def numpy_by_hand():
    """The limit to approach: the backward pass written out, reusing what the forward computed."""
    numpy_loss = log_softmax_cross_entropy(np)

    def gradient():
        w1, b1, w2, b2 = PARAMS
        hidden = np.tanh(X @ w1 + b1)
        logits = hidden @ w2 + b2
        shifted = logits - np.max(logits, axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = np.sum(exp, axis=1, keepdims=True)
        np.mean(np.sum(Y * (shifted - np.log(total)), axis=1))  # minus the loss: computed, though unused
        d_logits = (exp / total - Y) / BATCH  # softmax minus the labels (each row of Y sums to 1)
        d_hidden = (d_logits @ w2.T) * (1 - hidden * hidden)
        return [X.T @ d_hidden, d_hidden.sum(axis=0), hidden.T @ d_logits, d_logits.sum(axis=0)]

    return (lambda: mlp_loss(np.matmul, np.tanh, numpy_loss, X, Y, *PARAMS)), gradient


def gradient_tape(lib):
    """minitape and TensorFlow share this builder: the API is the same (``lib`` is ``mt`` or ``tf``)."""
    params = [lib.Variable(p) for p in PARAMS]
    x, y = lib.constant(X), lib.constant(Y)

    def mean_cross_entropy(labels, logits):
        return lib.reduce_mean(lib.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))

    def loss():
        return mlp_loss(lib.matmul, lib.tanh, mean_cross_entropy, x, y, *params)

    def gradient():
        with lib.GradientTape() as tape:
            value = loss()
        return [np.asarray(g) for g in tape.gradient(value, params)]  # a view: .numpy() copies (as in TF)

    return loss, gradient


def pytorch():
    import torch
    import torch.nn.functional as F

    params = [torch.from_numpy(p.copy()).requires_grad_() for p in PARAMS]
    x, y = torch.from_numpy(X), torch.from_numpy(Y)

    def loss():
        return mlp_loss(torch.matmul, torch.tanh, lambda labels, logits: F.cross_entropy(logits, labels), x, y, *params)

    def forward():
        with torch.no_grad():  # PyTorch's way of running a model without recording it
            return loss()

    def gradient():
        return [g.numpy() for g in torch.autograd.grad(loss(), params)]

    return forward, gradient


def hips_autograd():
    import autograd
    import autograd.numpy as anp

    def loss(params):
        return mlp_loss(anp.matmul, anp.tanh, log_softmax_cross_entropy(anp), X, Y, *params)

    gradient = autograd.grad(loss)
    return (lambda: loss(list(PARAMS))), (lambda: gradient(list(PARAMS)))


def jax_eager():
    """JAX without jit: every op is dispatched on its own."""
    import jax
    import jax.numpy as jnp

    params = [jnp.asarray(p) for p in PARAMS]
    x, y = jnp.asarray(X), jnp.asarray(Y)

    def loss(params):
        return mlp_loss(jnp.matmul, jnp.tanh, lambda labels, logits: -jnp.mean(
            jnp.sum(labels * jax.nn.log_softmax(logits), axis=1)), x, y, *params)

    gradient = jax.grad(loss)
    # JAX dispatches asynchronously: wait for the results, or only the dispatch would be timed.
    return (lambda: loss(params).block_until_ready()), (lambda: [np.asarray(g) for g in gradient(params)])


BUILDERS = {"numpy": numpy_by_hand, "minitape": with_module(gradient_tape, "minitape"), "torch": pytorch,
            "autograd": hips_autograd, "jax": jax_eager, "tensorflow": with_module(gradient_tape, "tensorflow")}


def run(available, rounds):
    """Measure and print benchmark 2 for NumPy, minitape and the ``available`` frameworks; return the data."""
    compared = compare(BUILDERS, available, rounds)
    return report(f"2. MLP training step: {INPUTS}-{HIDDEN}-{CLASSES}, tanh, softmax cross-entropy, float32 batch "
                  f"of {BATCH}; gradient of W1, b1, W2, b2; median ±IQR of {rounds} rounds",
                  compared, per=1, unit=1e-3, label="ms", key="ms")
