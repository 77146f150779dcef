"""Answers of lesson 17 (gradients through depth and time)."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_17 import TRUNCATED_CASES, truncated_probe
from classroom.spec import function, value


# --- 17.1: a linear stack of L layers c Q: each multiplies every length by c ----------------------------------------
RATIO_A, RATIO_B = 0.9 ** 20, 1.1 ** 40


# --- 17.2: E[f(z)²] = (1 + a²)/2 · E[z²] = (1 + a²)/2 · n_in v E[h²] ----------------------------------------------
def leaky_he_variance(n):
    return 2 / ((1 + n.slope ** 2) * n.fan_in)


# --- 17.3: TBPTT(k1, k2) --------------------------------------------------------------------------------------------
def truncated_bptt(step, W, xs, ys, k1, k2, every_loss=False, whole_past=False):
    """TBPTT(k1, k2); ``every_loss`` differentiates all the window's losses, ``whole_past`` never truncates."""
    W = mt.constant(W)
    states = [mt.zeros(W.shape[0], dtype=W.dtype)]
    for x, y in zip(xs, ys):
        states.append(step(W, states[-1], x, y)[0])
    total = np.zeros(W.shape)
    for t in range(k1, len(xs) + 1, k1):
        first = 0 if whole_past else max(0, t - k2)
        h = mt.constant(states[first].numpy())
        with mt.GradientTape() as tape:
            tape.watch(W)
            loss = 0.0
            for s in range(first + 1, t + 1):
                h, step_loss = step(W, h, xs[s - 1], ys[s - 1])
                if every_loss or s > t - k1:
                    loss = loss + step_loss
        total += tape.gradient(loss, W).numpy()
    return total


EXERCISES = {
    "17.1a": value("ratio_a", expected=RATIO_A, rtol=1e-4, mistakes=[
        (1 / RATIO_A, "it is upside down: going back from layer L to the input, every layer multiplies the norm by c, "
                      "so with c < 1 the input's gradient is the smaller one"),
        (0.9, "that is one layer's factor; the gradient passes through every layer")], hints=[
        "What are the singular values of c Q, when every singular value of Q is 1?",
        "Each layer scales every vector's length by the same factor, whatever its direction; count the layers."]),
    "17.1b": value("ratio_b", expected=RATIO_B, rtol=1e-4, mistakes=[
        (1 / RATIO_B, "it is upside down: going back from layer L to the input, every layer multiplies the norm by c, "
                      "so with c > 1 the input's gradient is the larger one"),
        (1.1, "that is one layer's factor; the gradient passes through every layer")], hints=[
        "What are the singular values of c Q, when every singular value of Q is 1?",
        "Each layer scales every vector's length by the same factor, whatever its direction; count the layers."]),
    "17.2": value("variance", expected=leaky_he_variance, mistakes=[
        (lambda n: 2 / n.fan_in, "that is He's variance for a plain ReLU: the leaky ReLU keeps a part of the negative "
                                 "half, which adds to the second moment"),
        (lambda n: 2 / ((1 + n.slope) * n.fan_in), "the negative half enters the second moment as (a z)², so with a "
                                                   "factor a², not a"),
        (lambda n: 1 / n.fan_in, "that keeps E[z²] = E[h²], but f changes the second moment again after z")], hints=[
        "Split E[f(z)²] into the half where z > 0 and the half where z ≤ 0; by symmetry each half holds half of E[z²].",
        "E[f(z)²] is a constant times E[z²], and E[z²] = n_in v E[h²] (section 3): choose v to make the product of "
        "the two factors 1."]),
    "17.3": function("truncated_bptt", reference=truncated_bptt, cases=TRUNCATED_CASES, probe=truncated_probe,
                     rtol=1e-9, atol=1e-12, mistakes=[
        (lambda step, W, xs, ys, k1, k2: truncated_bptt(step, W, xs, ys, k1, k2, every_loss=True),
         "it differentiates the losses of every step in the window; only the last k1 steps' losses belong to it, "
         "the earlier ones were counted by earlier windows"),
        (lambda step, W, xs, ys, k1, k2: truncated_bptt(step, W, xs, ys, k1, k2, whole_past=True),
         "each window backpropagates all the way to step 1: it should stop after k2 steps, starting from the state "
         "h_(t-k2) as a constant")], hints=[
        "Run the recurrence once without a tape to get every state h_0, ..., h_T; a window ending at step t starts "
        "from a constant made of h_(t-k2)'s numbers (h_0 if t < k2).",
        "On the window's tape, run steps t-k2+1 to t, but add to the loss only steps t-k1+1 to t; add the tape's "
        "gradient in W to a running total."]),
}
