"""Answers of lesson 12 (tensors and layers)."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_12 import MATMUL_VJP_CASES, PER_EXAMPLE_CASES, SOFTMAX_CASES, UNBROADCAST_CASES, \
    matmul_vjp_probe, never_forms_the_jacobian, one_pass_whatever_the_batch, per_example_probe
from classroom.spec import function, value


def matmul_vjp(x, w, g):
    return g @ w.T, x.T @ g


def unbroadcast(g, shape):
    g = np.asarray(g)
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    return g.sum(axis=tuple(k for k, n in enumerate(shape) if n == 1), keepdims=True).reshape(shape)


def softmax_vjp(y, g):
    return (g - np.sum(g * y, axis=-1, keepdims=True)) * y


def softmax(x):
    e = np.exp(x - np.max(x))
    return e / e.sum()


def per_example_gradients(x, t, w):
    """Row b is ∇ℓ_b(w) = (∂ℓ_b/∂z_b) x_b, with the B numbers ∂ℓ_b/∂z_b from one pass over the logits."""
    z = mt.constant(x @ w)
    with mt.GradientTape() as tape:
        tape.watch(z)
        total = mt.reduce_sum(mt.nn.softplus(-t * z))
    return tape.gradient(total, z).numpy()[:, None] * x


def batch_gradient_in_every_row(x, t, w):
    return np.tile(per_example_gradients(x, t, w).sum(axis=0), (len(t), 1))


def per_example_gradients_of_the_mean(x, t, w):
    return per_example_gradients(x, t, w) / len(t)


EXERCISES = {
    "12.1": function("matmul_vjp", reference=matmul_vjp, cases=MATMUL_VJP_CASES, probe=matmul_vjp_probe, rtol=1e-10,
                     hints=[
        "Match the shapes: dx must have X's shape (n, k) and dw W's shape (k, m), and G has shape (n, m). "
        "Which product of G with W (or with X), transposed where needed, has that shape?",
        "Go back to the index sum: the derivative with respect to X[i, k] adds G[i, j] W[k, j] over j, "
        "which is row i of G times row k of W. For W[k, j], add X[i, k] G[i, j] over i."]),
    "12.2": function("unbroadcast", reference=unbroadcast, cases=UNBROADCAST_CASES, rtol=1e-12, hints=[
        "Two kinds of axes were created by broadcasting: leading axes that the original did not have, and "
        "axes where the original had size 1. Sum over both.",
        "First sum over the leading axes (as many as g has more dimensions than shape); then sum over the "
        "axes where shape has a 1, keeping them (keepdims=True). The result must have exactly the shape given."]),
    "12.3": value("dsum_dx", expected=[0.0, 0.0, 0.0], mistakes=[
        ([1.0, 1.0, 1.0], "those are the gradient of a plain sum of x; here the sum runs over the softmax's outputs, "
                          "which depend on x together"),
        (softmax(np.array([1.0, 2.0, 0.5])), "that is the diagonal part, diag(y), of J alone: the term -y yᵀ "
                                             "is missing")], hints=[
        "What is the sum of a softmax's outputs, for any logits?",
        "A function that does not change when x changes has a gradient of zeros."]),
    "12.4": function("softmax_vjp", reference=softmax_vjp, cases=SOFTMAX_CASES, rtol=1e-10,
                     test=never_forms_the_jacobian, mistakes=[
        (lambda y, g: g * y, "it keeps only the diagonal part, diag(y), of J: the term from -y yᵀ is missing"),
        (lambda y, g: (g - np.sum(g * y)) * y,
         "it is right for one softmax, but in a batch it sums g y over the whole array: each row is its own softmax, "
         "so the sum must be taken row by row")], hints=[
        "Write entry j of gᵀJ with J[i, j] = y[i] (δ[i, j] - y[j]): the δ term keeps one product, the other "
        "term is a sum over i that is the same number for every j.",
        "That common number is the dot product of g and y. In a batch each row is its own softmax: "
        "take that sum along the last axis and keep it (keepdims=True) so it broadcasts back over the row."]),
    "12.5": function("per_example_gradients", reference=per_example_gradients, cases=PER_EXAMPLE_CASES,
                     probe=per_example_probe, rtol=1e-10, test=one_pass_whatever_the_batch, mistakes=[
        (batch_gradient_in_every_row,
         "every row holds the gradient of the whole batch's loss: row b must hold example b's gradient alone"),
        (per_example_gradients_of_the_mean,
         "each row is divided by the batch size: that is the gradient of the mean of the losses; take their sum")],
        hints=[
        "By the chain rule through z_b = x_b · w: ∇ℓ_b(w) = (∂ℓ_b/∂z_b) times ∂z_b/∂w, and ∂z_b/∂w is x_b. So "
        "the B numbers ∂ℓ_b/∂z_b are all you need from the tape.",
        "z_b appears in ℓ_b alone, so the gradient of the summed losses with respect to the vector z holds "
        "∂ℓ_b/∂z_b in entry b, as the copies did for w: one backward pass, from the logits on."]),
}
