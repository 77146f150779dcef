"""Answers of lesson 02, symbolic vs automatic differentiation."""
import numpy as np
import sympy as sp

from classroom.lessons.lesson_02 import EXPRESSION_CASES, SQRT_CASES, at_points
from classroom.spec import choice, function, value

x = sp.Symbol("x")


def p_prime(n):
    """2.3: the derivative of the polynomial with the student's coefficients (highest power first), at their point."""
    return float(np.polyval(np.polyder(np.array(n.coefficients, dtype=float)), n.point))


def sqrt_derivative(a):
    return 1 / (2 * np.sqrt(a))


EXERCISES = {
    "2.1": function("dg_sym", reference=2 * x * sp.sin(x) + x**2 * sp.cos(x), cases=EXPRESSION_CASES,
                    probe=at_points, rtol=1e-9, answer="any", hints=[
        "Build g from the symbol x and SymPy's own functions (sp.sin: NumPy's sin cannot take a symbol), "
        "then let SymPy differentiate it.",
        "sp.diff takes the expression and the symbol to differentiate by. By the product rule the result has "
        "two terms, one with sin(x) and one with cos(x).",
    ]),
    "2.2a": choice("tape_ops", expected=18, mistakes=[
        (6, "each step runs three operations: 4 times l, 1 minus l, and their product"),
        (64, "that counts the formula's copies; the tape records each operation once, when it runs")], hints=[
        "How many operations did the tape record for three steps, and how many per step is that?",
        "The loop body does the same arithmetic at every step, so the count grows by the same amount per step."]),
    "2.2b": choice("x_in_tree", expected=64, mistakes=[
        (12, "that grows by the same amount per step, as the tape does; a formula writes l_n out in full each "
             "time it is used"),
        (18, "that is the tape's count; in the tree nothing is shared"),
        (32, "that is the count for l_5: one step short")], hints=[
        "Count x in l_1, l_2 and l_3: how does the count change from one step to the next?",
        "Each step uses l_n twice (l_n and 1 - l_n), and a tree copies all of l_n each time."]),
    "2.3a": value("dp_sympy", expected=p_prime, rtol=1e-12, mistakes=[
        (lambda n: float(np.polyval(n.coefficients, n.point)), "that is p at the point, not its derivative")], hints=[
        "Called on the symbol x, horner returns the polynomial p(x) as an expression: differentiate that, "
        "then put in the number.",
        "Three steps: sp.diff with respect to x, then .subs(x, a), then float(...) to turn SymPy's number "
        "into a Python float.",
    ]),
    "2.3b": value("dp_tape", expected=p_prime, rtol=1e-12, gradient=True, hints=[
        "A tape records only operations on a watched value: call horner on a float64 mt.Variable holding a, "
        "inside a `with mt.GradientTape() as tape:` block.",
        "After the block, ask the tape for the gradient of horner's result with respect to that Variable. "
        "A float32 Variable keeps only about 7 digits; the check asks for 12.",
    ]),
    "2.4": function("sqrt_derivative", reference=sqrt_derivative, cases=SQRT_CASES, rtol=1e-12, gradient=True,
                    hints=[
        "The recipe of 2.3b, inside the function: a float64 Variable holding a, babylonian of it recorded on "
        "a tape, then the tape's gradient.",
        "Return the tape's gradient of babylonian's result with respect to the Variable (a tensor is fine). "
        "None means the tape saw no path from a to the result: was babylonian called inside the `with` block, "
        "on the Variable?",
    ]),
}
