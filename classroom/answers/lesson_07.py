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


def _mixed(x, y):
    """7.1: g(x, y) = x² y³ + sin(x y): its first derivatives and its second derivatives by x, by y, and mixed."""
    return {"x": 2 * x * y**3 + y * np.cos(x * y), "y": 3 * x**2 * y**2 + x * np.cos(x * y),
            "xx": 2 * y**3 - y**2 * np.sin(x * y), "yy": 6 * x**2 * y - x**2 * np.sin(x * y),
            "yx": 6 * x * y**2 + np.cos(x * y) - x * y * np.sin(x * y)}


TRANSPOSED = "the right sizes in the wrong order: the target's axes come first, then the source's"
SHAPE_HINTS = ["tape.jacobian(y, x) holds one number for every pair (element of y, element of x).",
               "Its shape is y.shape followed by x.shape (section 3)."]

EXERCISES = {
    "7.1": value("d2g_dydx", expected=lambda n: _mixed(*n.point)["yx"], gradient=True, mistakes=[
        (lambda n: _mixed(*n.point)["xx"], "that is ∂²g/∂x²: both tapes differentiated with respect to x; the outer "
                                           "one should take the derivative with respect to y"),
        (lambda n: _mixed(*n.point)["yy"], "that is ∂²g/∂y²: both tapes differentiated with respect to y"),
        (lambda n: _mixed(*n.point)["x"], "that is ∂g/∂x, a first derivative: the outer tape's gradient is still "
                                          "missing"),
        (lambda n: _mixed(*n.point)["y"], "that is ∂g/∂y, a first derivative: the outer tape's gradient is still "
                                          "missing")], hints=[
        "The inner tape gives ∂g/∂x, a value computed from x and y; the outer tape must see that computation "
        "and differentiate it with respect to y. Which tape has to watch which input?",
        "The outer tape watches y and the inner one x; call the inner tape's gradient with respect to x while the "
        "outer block is still open, then ask the outer tape for the gradient of that result with respect to y."]),
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
    "7.3": value("H_g", expected=lambda n: [[2 * n.point[1], 2 * n.point[0]], [2 * n.point[0], 6 * n.point[1]]],
                 hints=[
        "First the gradient by hand: ∂g/∂x and ∂g/∂y. Then differentiate each of them with respect to x and to y.",
        "∂g/∂x = 2xy and ∂g/∂y = x² + 3y²; the Hessian's entries are their derivatives, evaluated at your point."]),
    "7.4": function("hvp_reverse_over_forward", reference=hvp_reverse_over_forward, cases=HVP_CASES, probe=hvp_probe,
                    rtol=1e-10, gradient=True, test=runs_reverse_over_forward, hints=[
        "Two recorders, nested: which one must be outside, so that it sees the other's arithmetic as ordinary "
        "operations on x?",
        "The tape watches x and is opened first; inside it, an accumulator with tangent v runs f, and its jvp of "
        "f's value is ∇f · v, a tensor the tape has recorded. Still inside the tape's block, take that jvp; the "
        "tape's gradient of it is H v."]),
}
