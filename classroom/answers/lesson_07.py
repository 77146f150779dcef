"""Answers of lesson 07, higher-order derivatives."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_07 import HVP_CASES
from classroom.spec import choice, function, value


def h(x):
    return mt.reduce_sum(x * mt.sin(x)) + x[0] * x[1] * x[2]


def hessian_times(x0, v0):
    """H v for h at x0, from the full Hessian (nested tapes), to compare the learner's product with."""
    x = mt.constant(x0)
    with mt.GradientTape() as outer:
        outer.watch(x)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = h(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x).numpy() @ np.asarray(v0)


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
    "7.3": value("H_g", expected=[[4.0, 2.0], [2.0, 12.0]], gradient=True, hints=[
        "The Hessian is the Jacobian of the gradient: one tape computes the gradient, another differentiates "
        "it, and a Jacobian (not a gradient) keeps one row per element.",
        "Record g on an inner tape inside an outer tape, both watching p; take the inner gradient while the "
        "outer block is open, then the outer tape's jacobian of that gradient with respect to p."]),
    "7.4": function("my_hvp", reference=hessian_times, cases=HVP_CASES, rtol=1e-10, gradient=True, hints=[
        "Forward-over-reverse: the whole gradient computation, backward pass included, runs while a "
        "ForwardAccumulator carries the tangent v along (section 4).",
        "Open mt.autodiff.ForwardAccumulator(x, v) first; inside it, record h on a tape and take the gradient; "
        "the accumulator's jvp of that gradient is H v."]),
}
