"""Answers of lesson 05, reverse mode."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_05 import JACOBIAN_CASES
from classroom.spec import choice, function, value

# 5.2: lesson 03's chain w1 = cos w0, w2 = exp w1, y = w2² at w0 = 0.7, backwards
W0 = 0.7
W1 = np.cos(W0)
W2 = np.exp(W1)
W2_BAR = 2 * W2
W1_BAR = W2_BAR * np.exp(W1)
W0_BAR = W1_BAR * -np.sin(W0)
GRADIENT_1 = [2 * 3 + np.e, 1 * 3, 1 * 2]
LOCAL_ONLY = ("that is only the local derivative of the step; an adjoint is the next adjoint times "
              "the local derivative")


def _jacobian_by_tape(fn, x):
    x = mt.constant(x, dtype=mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.jacobian(y, x).numpy()


NUMBER_OF_OUTPUTS = "that is the number of outputs: forward mode needs one pass per input"
NUMBER_OF_INPUTS = "that is the number of inputs: reverse mode needs one backward pass per output"
_PASSES_HINTS = [
    "Look at the table of section 5: which mode's passes are counted by the inputs, which by the outputs?",
    "Forward mode: one pass per input, each giving a column of J. Reverse mode: one backward pass per output, "
    "each giving a row.",
]
_MODE_HINTS = [
    "The cheaper mode is the one with fewer passes.",
    "Compare your two numbers of passes for this function; answer with the string \"forward\" or \"reverse\".",
]

EXERCISES = {
    "5.1": value("gradient_1", expected=GRADIENT_1, gradient=True, hints=[
        "One tape and one call: the sources of tape.gradient can be a list.",
        "Make three float64 Variables, compute g inside the tape, and pass the list of the three to "
        "tape.gradient: the partial derivatives come back in that order. Convert each with float().",
    ]),
    "5.2a": value("w2_bar", expected=W2_BAR, mistakes=[
        (2 * W2**2, "that takes the local derivative at w3, the result of step 3; it received w2")], hints=[
        "Each adjoint is the next adjoint (here w3_bar) times the local derivative of the step between them.",
        "Step 3 is w3 = w2²; its local derivative with respect to w2 is 2·w2.",
    ]),
    "5.2b": value("w1_bar", expected=W1_BAR, mistakes=[
        (W2_BAR * np.exp(W0), "that takes the local derivative at w0; step 2 received w1"),
        (np.exp(W1), LOCAL_ONLY)], hints=[
        "Start from your w2_bar, not from a fresh product, and go back through w2 = exp(w1).",
        "The local derivative of exp at w1 is exp(w1), which is the value w2.",
    ]),
    "5.2c": value("w0_bar", expected=W0_BAR, mistakes=[
        (W1_BAR * -np.sin(W1), "that takes the local derivative at w1, the result of step 1; it received w0"),
        (-np.sin(W0), LOCAL_ONLY)], hints=[
        "The last step back goes through w1 = cos(w0).",
        "The local derivative of cos at w0 is -sin(w0); the result is dy/dx, the number of lesson 03's "
        "exercise 3.1d.",
    ]),
    "5.3a": choice("passes_forward_a", expected=25_000_000, mistakes=[(1, NUMBER_OF_OUTPUTS)], hints=_PASSES_HINTS),
    "5.3b": choice("passes_reverse_a", expected=1, mistakes=[(25_000_000, NUMBER_OF_INPUTS)], hints=_PASSES_HINTS),
    "5.3c": choice("cheaper_a", expected="reverse", options=["forward", "reverse"], hints=_MODE_HINTS),
    "5.3d": choice("passes_forward_b", expected=3, mistakes=[(10_000, NUMBER_OF_OUTPUTS)], hints=_PASSES_HINTS),
    "5.3e": choice("passes_reverse_b", expected=10_000, mistakes=[(3, NUMBER_OF_INPUTS)], hints=_PASSES_HINTS),
    "5.3f": choice("cheaper_b", expected="forward", options=["forward", "reverse"], hints=_MODE_HINTS),
    "5.4": function("jacobian_by_rows", reference=_jacobian_by_tape, cases=JACOBIAN_CASES, rtol=1e-10,
                    gradient=True, hints=[
        "Record fn(x) once, on a persistent tape that watches x; then one tape.gradient call per output i, "
        "seeded with output_gradients=u for the unit vector u = e_i, gives row i.",
        "The unit vectors are the rows of np.eye(m), with m the number of outputs; make each a float64 "
        "constant, collect the m rows and stack them into an m × n NumPy array. A non-persistent tape "
        "allows only one gradient call.",
    ]),
}
