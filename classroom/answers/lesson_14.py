"""Answers of lesson 14 (the hard parts: checkpointing, implicit differentiation, kinks and the where trap)."""
import math


import minitape as mt
from classroom.lessons.lesson_14 import CHECKPOINT_CASES, LOG_CASES, checkpoint_probe, log_or_zero_probe, \
    saves_memory
from classroom.spec import function, value


# --- 14.1: a checkpointed segment ---------------------------------------------------------------------------
def checkpoint(segment):
    @mt.custom_gradient
    def run(h):
        def grad_fn(upstream):
            with mt.GradientTape() as tape:
                tape.watch(h)
                again = segment(h)
            return tape.gradient(again, h, output_gradients=upstream)
        return segment(mt.constant(h.numpy())), grad_fn
    return run


# --- 14.2: the implicit derivative of a fixed point ---------------------------------------------------------

_A = 0.5
_x_star = 0.0
for _ in range(200):
    _x_star = _A * math.cos(_x_star)

# x = a cos x  ->  dx/da = cos x + a (-sin x) dx/da  ->  dx/da = cos x / (1 + a sin x)
_DX_DA = math.cos(_x_star) / (1 + _A * math.sin(_x_star))


# --- 14.3: the double where ---------------------------------------------------------------------------------
def log_or_zero(x):
    positive = x > 0
    return mt.where(positive, mt.math.log(mt.where(positive, x, 1.0)), mt.zeros_like(x))


EXERCISES = {
    "14.1": function("checkpoint", reference=checkpoint, cases=CHECKPOINT_CASES, probe=checkpoint_probe, rtol=1e-12,
                     test=saves_memory, hints=[
        "Decorate an inner function run(h) with @mt.custom_gradient; it returns (segment's value, grad_fn).",
        "For the forward value, give the segment a tensor no tape tracks (made from h's numbers alone), so "
        "nothing inside is recorded; grad_fn keeps only h.",
        "In grad_fn(upstream): a new tape that watches h, the segment run again inside it, then that tape's "
        "gradient of the output with respect to h, seeded with output_gradients=upstream.",
    ]),
    "14.2": value("dx_da", expected=_DX_DA, rtol=1e-6, mistakes=[
        (math.cos(_x_star), "that is ∂g/∂a alone: when a changes, x changes too and feeds back through g"),
        (math.cos(_x_star) / (1 - _A * math.sin(_x_star)),
         "a sign is wrong: check the derivative of a·cos(x) with respect to x, and the 1 − ∂g/∂x"),
    ], hints=[
        "At the fixed point x = g(x, a). Differentiate both sides with respect to a, remembering that x depends on a.",
        "dx/da = ∂g/∂a + ∂g/∂x · dx/da: solve this one linear equation for dx/da, then put in the partial "
        "derivatives of g = a·cos(x) at x_star (by hand, or with a persistent tape).",
    ]),
    "14.3": function("log_or_zero", reference=log_or_zero, cases=LOG_CASES, probe=log_or_zero_probe, rtol=1e-12,
                     hints=[
        "A where() keeps the NaN if the log ever sees x = 0, even in the branch it discards.",
        "Make sure the log only ever receives positive numbers: replace x by a harmless positive value where x "
        "<= 0 before taking the log, and keep the outer where for the values.",
    ]),
}
