"""Answers of lesson 08, custom gradients."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_08 import BINARIZE_CASES, FLIP_CASES, LSE_GRAD_CASES, LSE_VALUE_CASES, \
    SAFE_NORM_CASES, binarize_probe, flip_probe, safe_norm_probe
from classroom.spec import function, value


def custom(forward, backward):
    """A function with a custom gradient: ``backward(x, upstream)`` gives the input's adjoint."""
    @mt.custom_gradient
    def fn(x):
        return forward(x), lambda upstream: backward(x, upstream)
    return fn


flip_gradient = custom(mt.identity, lambda x, upstream: -upstream)
flip_keeps_sign = custom(mt.identity, lambda x, upstream: upstream)
flip_constant = custom(mt.identity, lambda x, upstream: -mt.ones_like(upstream))

binarize = custom(mt.sign, lambda x, g: mt.where(mt.abs(x) <= 1.0, g, mt.zeros_like(g)))
binarize_passes_all = custom(mt.sign, lambda x, g: g)
binarize_blocks_all = custom(mt.sign, lambda x, g: mt.zeros_like(g))
binarize_strict = custom(mt.sign, lambda x, g: mt.where(mt.abs(x) < 1.0, g, mt.zeros_like(g)))
binarize_constant = custom(mt.sign, lambda x, g: mt.where(mt.abs(x) <= 1.0, mt.ones_like(g), mt.zeros_like(g)))


def _norm(x):
    return mt.sqrt(mt.reduce_sum(x * x))


safe_norm = custom(_norm, lambda x, g: g * x / mt.where(_norm(x) > 0, _norm(x), 1.0))


def lse_value(x):
    x = x.numpy()
    return np.max(x) + np.log(np.sum(np.exp(x - np.max(x))))


def lse_grad(x, upstream):
    x = x.numpy()
    e = np.exp(x - np.max(x))
    return upstream.numpy() * e / np.sum(e)


EXERCISES = {
    "8.1a": function("flip_gradient", reference=flip_gradient, cases=FLIP_CASES, probe=flip_probe, mistakes=[
        (flip_keeps_sign, "the gradient keeps its usual sign: grad passes the adjoint through instead of negating it"),
        (flip_constant, "the gradient does not follow the adjoint that arrives: grad must be computed from "
                        "upstream")], hints=[
        "The adjoint arriving at the output is upstream; the gradient reversal hands its opposite to the input.",
        "grad returns upstream with its sign changed, and nothing else (no constant, no x)."]),
    "8.1b": value("predicted_gradient", expected=9.0, mistakes=[
        (27.0, "that is the derivative of x³: the reversal flips the path through flip_gradient"),
        (-27.0, "that reverses every path; only the one through flip_gradient is reversed, not the two plain x's"),
        (18.0, "that counts only the paths through the two plain factors x; the one through flip_gradient adds "
               "its own, reversed"),
        (-9.0, "that counts only the path through flip_gradient; the two plain factors x add theirs"),
    ], hints=[
        "The product has three factors, so the product rule gives three paths from x to the output; "
        "flip_gradient reverses the one that goes through it.",
        "Write the output as f · g · h with f = flip_gradient(x) and g = h = x: the product rule gives "
        "f'gh + fg'h + fgh', where the tape takes f' = -1 (the reversal) and g' = h' = 1; evaluate at x = 3."]),
    "8.2": function("binarize", reference=binarize, cases=BINARIZE_CASES, probe=binarize_probe, mistakes=[
        (binarize_passes_all, "the adjoint also passes where |x| > 1, where the hard tanh is flat"),
        (binarize_blocks_all, "the adjoint is blocked where |x| < 1 too, where the hard tanh is x itself"),
        (binarize_strict, "at |x| = 1 exactly the adjoint is blocked: ask the tape what clip_by_value gives there"),
        (binarize_constant, "where the adjoint passes, the gradient should be the arriving adjoint (upstream) "
                            "itself, not a constant")], hints=[
        "The hard tanh has three pieces: what is its slope on each, and what does the VJP of an elementwise "
        "function do with the slope and upstream?",
        "On each piece the hard tanh is either x or a constant, and the VJP multiplies upstream by the slope, "
        "element by element; minitape has an op that picks between two tensors by a condition. For the corners, "
        "record mt.clip_by_value(x, -1.0, 1.0) at x = 1 on a tape and look at its gradient."]),
    "8.3": function("safe_norm", reference=safe_norm, cases=SAFE_NORM_CASES, probe=safe_norm_probe, hints=[
        "Keep the formula upstream * x / norm and make only the divisor safe: at x = 0 the numerator is 0 "
        "anyway.",
        "Build a divisor equal to the norm where the norm is > 0 and to 1 elsewhere (mt.where picks "
        "elementwise), then divide by it."]),
    "8.4a": function("lse_value", reference=lse_value, cases=LSE_VALUE_CASES, rtol=1e-12, hints=[
        "Subtract the largest element m before exponentiating: every e^(x_i - m) is then at most 1, and one "
        "of them is exactly 1, so the sum neither overflows nor vanishes.",
        "After the logarithm of the sum of e^(x_i - m), add m back: that undoes the shift."]),
    "8.4b": function("lse_grad", reference=lse_grad, cases=LSE_GRAD_CASES, rtol=1e-12, gradient=True, hints=[
        "The gradient of log-sum-exp is the softmax of x, and a vector-Jacobian product scales it by the "
        "adjoint that arrives.",
        "Compute the softmax stably (mt.nn.softmax does, or the shifted formula above with mt.exp and "
        "mt.reduce_sum), then multiply it by upstream."]),
}
