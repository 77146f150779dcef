"""Lesson 09's public test cases and test (training)."""
import math

import numpy as np

import minitape as mt
from classroom.variants import variant

LOSS_CASES = [(np.array([[0.25], [0.15]]),), (np.array([[-1.0], [2.0]]),)]

XS = np.array([1.0, 2.0, 3.0, 4.0])  # the line y = 3x + 2 of section 2


def _weights_off_target(rng):
    """9.1: weights on a grid of 1/40 in [-1, 1] whose output x·w = w1 + 2 w2 misses the target 0.75 by ≥ 0.1."""
    while True:
        w = rng.integers(-40, 41, size=2) / 40
        if abs(w[0] + 2 * w[1] - 0.75) >= 0.1:
            return {"w0": (float(w[0]), float(w[1]))}


def _inputs_of_a_line(rng):
    """9.3: four inputs x_i on a grid of halves in [-4, 8], at least two of them different (else b and W mix)."""
    while True:
        xs = rng.integers(-8, 17, size=4) / 2
        if np.ptp(xs) > 0:
            return {"xs": xs}


VARIANTS = {
    "9.1": variant(w0=(0.375, -0.125), draw=_weights_off_target),   # 6,000 or so weights
    "9.3": variant(xs=XS, draw=_inputs_of_a_line),                                # 25⁴ sets of inputs
}


def fit_line(lr, epochs):
    """W and b after ``epochs`` steps of gradient descent at rate ``lr``, as the lesson's fit_line (float32)."""
    x_data = mt.constant(XS.astype(np.float32))
    y_data = 3.0 * x_data + 2.0
    W, b = mt.Variable(0.0), mt.Variable(0.0)
    history = []
    for _ in range(epochs):
        with mt.GradientTape() as tape:
            loss = mt.reduce_mean(mt.square(W * x_data + b - y_data))
        dW, db = tape.gradient(loss, [W, b])
        W.assign_sub(lr * dW)
        b.assign_sub(lr * db)
        history.append(float(W) - 3.0)
    return float(W), float(b), history


def converges_fast(answer):
    """9.2: a rate with which 1000 epochs bring W and b within 0.001 of the truth."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float, np.floating, np.integer)):
        return f"it is a {type(answer).__name__}; the exercise asks for one number, such as 0.01"
    if not math.isfinite(answer) or answer <= 0:
        return "a learning rate must be a positive number: the step goes against the gradient by lr times it"
    with np.errstate(all="ignore"):
        W, b, history = fit_line(float(answer), 1000)
    if not (math.isfinite(W) and math.isfinite(b)) or abs(W - 3) > 3:
        return ("with this rate training blows up: W ends further from 3 than where it started. "
                "The rate is too large")
    off = max(abs(W - 3), abs(b - 2))
    if off < 1e-3:
        return None
    if history[-1] * history[-2] >= 0:  # the error keeps its sign: the slow direction is still creeping in
        return (f"after 1000 epochs W and b are still about {off:.0e} from the truth, more than 0.001: "
                f"the slow direction has not caught up, so the rate is too small")
    return (f"after 1000 epochs W and b are still about {off:.0e} from the truth, more than 0.001: each step "
            f"overshoots in the fast direction and flips sign, so the rate is too close to where training blows up")
