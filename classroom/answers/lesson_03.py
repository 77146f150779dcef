"""Answers of lesson 03, the chain rule on a graph."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_03 import STAGES_CASES
from classroom.spec import choice, function, value

# 3.1: y = (exp(cos x))² in steps w1 = cos w0, w2 = exp w1, y = w2², at the student's point w0
AT_RESULT = "that is the derivative at the step's result; take it at the value the step received"


def _chain(n):
    w0 = n.point
    w1 = np.cos(w0)
    w2 = np.exp(w1)
    return w0, w1, w2, w2**2


def _graph(n):
    """3.2: the values U2, X5, X6, U3 of the chain at the student's inputs, and the label dx5/du2."""
    x1, x2, x4, x6 = n.inputs
    u2 = np.log(x1 * x2) * x4
    x5 = np.sqrt(u2)
    return u2, x5, x6, x5 * x6, 1 / (2 * np.sqrt(u2))


# 3.3: f(x1, x2) = ln x1 + x1 x2 - sin x2: x2's paths through multiply (label x1, then add and subtract: 1, 1) and
# through sin (label cos x2, then subtract: -1)


def _stages(x, k):
    v = x
    for _ in range(k):
        v = v * mt.sin(v)
    return v


def _derivative_by_tape(x, k):
    xv = mt.Variable(x, dtype=mt.float64)
    with mt.GradientTape() as tape:
        v = _stages(xv, k)
    return float(tape.gradient(v, xv))


EXERCISES = {
    "3.1a": value("dw1_dw0", expected=lambda n: -np.sin(_chain(n)[0]), mistakes=[
        (lambda n: -np.sin(_chain(n)[1]), AT_RESULT)], hints=[
        "Step 1 is w1 = cos(w0): you need the derivative of cos, at the value this step received.",
        "The derivative of cos is minus the sine. Evaluate it (with NumPy) at w0, the step's input, "
        "not at its result w1.",
    ]),
    "3.1b": value("dw2_dw1", expected=lambda n: np.exp(_chain(n)[1]), mistakes=[
        (lambda n: np.exp(_chain(n)[0]), "that is exp at w0, the input of step 1; step 2 received w1"),
        (lambda n: np.exp(_chain(n)[2]), AT_RESULT)], hints=[
        "Step 2 is w2 = exp(w1): which value did it receive?",
        "exp is its own derivative; evaluate it at the step's input w1.",
    ]),
    "3.1c": value("dy_dw2", expected=lambda n: 2 * _chain(n)[2], mistakes=[
        (lambda n: 2 * _chain(n)[3], AT_RESULT)], hints=[
        "Step 3 squares its input w2.",
        "The derivative of w² is 2w, at w = w2.",
    ]),
    "3.1d": value("dy_dx", expected=lambda n: 2 * _chain(n)[2] * np.exp(_chain(n)[1]) * -np.sin(_chain(n)[0]),
                  mistakes=[
        (lambda n: 2 * _chain(n)[2] + np.exp(_chain(n)[1]) - np.sin(_chain(n)[0]),
         "that is the sum of the three local derivatives; along a chain the chain rule does not add them")], hints=[
        "The chain rule for a composition combines the three local derivatives you just computed.",
        "dy/dx is their product (section 1 did the same for x = 1.5).",
    ]),
    "3.2a": value("dx5_du2", expected=lambda n: _graph(n)[4], mistakes=[
        (lambda n: _graph(n)[1], "that is x5 itself, the value; the edge label is the derivative of the square "
                                 "root")], hints=[
        "x5 = √u2: you need the derivative of the square root, at u2 = U2.",
        "The derivative of √u is 1/(2√u), at your U2.",
    ]),
    "3.2b": value("dy_du2", expected=lambda n: _graph(n)[4] * _graph(n)[2] * np.cos(_graph(n)[3]), mistakes=[
        (lambda n: _graph(n)[4] * np.cos(_graph(n)[3]),
         "that leaves out the edge x5 → u3: u3 = x5·x6, so that edge has a label too"),
    ], hints=[
        "Along the path u2 → x5 → u3 → y the edge labels multiply: your dx5_du2, times two more labels.",
        "The label of x5 → u3 is the other factor of the product, X6; the label of u3 → y is the derivative of "
        "sin at U3.",
    ]),
    "3.3a": value("path_through_multiply", expected=lambda n: n.point[0] * 1.0 * 1.0, mistakes=[
        (lambda n: n.point[1], "that uses x2 itself as the label of x2 → multiply; ∂(x1·x2)/∂x2 is the other "
                               "factor")], hints=[
        "Follow x2 → multiply → add → subtract on the picture and multiply the three edge labels.",
        "∂(x1·x2)/∂x2 is the other factor, x1; add, and subtract for its first input, pass a change on "
        "unchanged (label 1).",
    ]),
    "3.3b": value("path_through_sin", expected=lambda n: np.cos(n.point[1]) * -1.0, mistakes=[
        (lambda n, s=s: s * np.sin(n.point[1]), "that uses sin(x2), the value, where the edge label is the "
                                                "derivative of sin")
        for s in (1, -1)], hints=[
        "Two edges: x2 → sin, then sin's result → subtract.",
        "∂ sin(x2)/∂x2 is cos(x2), at your x2; the sine is subtracted, so the second edge's label is -1.",
    ]),
    "3.3c": value("df_dx2_by_paths", expected=lambda n: n.point[0] - np.cos(n.point[1]), mistakes=[
        (lambda n: -n.point[0] * np.cos(n.point[1]), "that is the product of the two paths; the contributions of "
         "different paths do not multiply")], hints=[
        "The multivariate chain rule: the contributions of the paths add.",
        "Add your two path products: that is ∂f/∂x2 at your point.",
    ]),
    "3.4a": choice("cube_ops", expected=8, mistakes=[
        (12, "that counts three multiplications per stage; v * v * v is two, (v * v) and then its product with v"),
        (4, "that is one operation per stage; v * v * v runs two multiplications")], hints=[
        "The tape records every multiplication that runs, stage after stage.",
        "Count the multiplications of one stage as Python runs them, then how many times the stage runs."]),
    "3.4b": choice("cube_paths", expected=81, mistakes=[
        (16, "that is two ways through each stage, as for v * sin(v); count the edges of v * v twice"),
        (12, "paths through successive stages multiply, they do not add"),
        (64, "that counts four ways through a stage; v reaches the stage's output in three")], hints=[
        "Count the ways from a stage's input v to its output: through v * v (which has two edges from v), and "
        "straight into the second product.",
        "Every way through one stage can be followed by every way through the next, so the counts per stage "
        "multiply."]),
    "3.5": function("derivative_by_stages", reference=_derivative_by_tape, cases=STAGES_CASES, rtol=1e-9, hints=[
        "Carry two numbers through one loop: v (it starts at x) and dv/dx (it starts at 1, since dx/dx = 1). "
        "Each stage multiplies the derivative by that stage's local derivative.",
        "A stage v·sin(v) is a product: the product rule gives its local derivative, taken at the stage's input, "
        "so update the derivative before you overwrite v. Use NumPy's sin and cos, and return the derivative.",
    ]),
}
