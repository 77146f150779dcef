"""Answers of lesson 07, higher-order derivatives."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_07 import HVP_CASES, hvp_probe, runs_reverse_over_forward
from classroom.spec import choice, function, value


def hvp_reverse_over_forward(f, x, v):
    with mt.GradientTape() as tape:
        tape.watch(x)
        with mt.autodiff.ForwardAccumulator(x, v) as acc:
            y = f(x)
        g_dot_v = acc.jvp(y)
    return tape.gradient(g_dot_v, x)


TRANSPOSED = "the right sizes in the wrong order: the target's axes come first, then the source's"
SHAPE_HINTS = ["tape.jacobian(y, x) holds one number for every pair (element of y, element of x).",
               "Its shape is y.shape followed by x.shape (section 3)."]

EXERCISES = {
    "7.1": value("d2", expected=-np.sin(0.5), gradient=True, hints=[
        "A second derivative is the derivative of the first one, so the outer tape must see the first "
        "gradient being computed (section 1).",
        "Nest two tapes that both watch x; call the inner tape's gradient while the outer block is still open, "
        "and ask the outer tape for the gradient of that result after its block."]),
    "7.2a": choice("shape_a", expected=(5, 3), mistakes=[((3, 5), TRANSPOSED)], hints=SHAPE_HINTS),
    "7.2b": choice("shape_b", expected=(2, 3, 3, 4), mistakes=[((3, 4, 2, 3), TRANSPOSED)], hints=[
        "The rule does not change when the source is a matrix: one number for every pair of elements.",
        "Write the target's shape, then append the source's shape."]),
    "7.2c": choice("shape_c", expected=(8, 2, 5), mistakes=[
        ((8, 2, 8, 5), "that is the shape of the full jacobian: batch_jacobian keeps the batch axis once, since "
                       "example b's output depends only on example b's input")], hints=[
        "batch_jacobian keeps only the blocks of the full Jacobian where the example of the output and of the "
        "input agree.",
        "Its shape is (batch, outputs of one example, inputs of one example)."]),
    "7.3": value("H_g", expected=[[4.0, 2.0], [2.0, 12.0]], hints=[
        "First the gradient by hand: ∂g/∂x and ∂g/∂y. Then differentiate each of them with respect to x and to y.",
        "∂g/∂x = 2xy and ∂g/∂y = x² + 3y²; the Hessian's entries are their derivatives, evaluated at (1, 2)."]),
    "7.4": function("hvp_reverse_over_forward", reference=hvp_reverse_over_forward, cases=HVP_CASES, probe=hvp_probe,
                    rtol=1e-10, gradient=True, test=runs_reverse_over_forward, hints=[
        "Two recorders, nested: which one must be outside, so that it sees the other's arithmetic as ordinary "
        "operations on x?",
        "The tape watches x and is opened first; inside it, an accumulator with tangent v runs f, and its jvp of "
        "f's value is ∇f · v, a tensor the tape has recorded. Still inside the tape's block, take that jvp; the "
        "tape's gradient of it is H v."]),
}
