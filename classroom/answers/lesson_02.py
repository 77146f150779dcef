"""Answers of lesson 02, symbolic vs automatic differentiation."""
import numpy as np
import sympy as sp

from classroom.lessons.lesson_02 import EXPRESSION_CASES, SQRT_CASES, at_points
from classroom.spec import function, value

x = sp.Symbol("x")

# p(x) = 2x³ - 3x² + x - 5, so p'(x) = 6x² - 6x + 1
P_PRIME_AT_1_5 = 6 * 1.5**2 - 6 * 1.5 + 1


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
    "2.2a": value("dp_sympy", expected=P_PRIME_AT_1_5, rtol=1e-12, hints=[
        "Called on the symbol x, horner returns the polynomial p(x) as an expression: differentiate that, "
        "then put in the number.",
        "Three steps: sp.diff with respect to x, then .subs(x, 1.5), then float(...) to turn SymPy's number "
        "into a Python float.",
    ]),
    "2.2b": value("dp_tape", expected=P_PRIME_AT_1_5, rtol=1e-12, gradient=True, hints=[
        "A tape records only operations on a watched value: call horner on a float64 mt.Variable holding 1.5, "
        "inside a `with mt.GradientTape() as tape:` block.",
        "After the block, ask the tape for the gradient of horner's result with respect to that Variable. "
        "A float32 Variable keeps only about 7 digits; the check asks for 12.",
    ]),
    "2.3": function("sqrt_derivative", reference=sqrt_derivative, cases=SQRT_CASES, rtol=1e-12, gradient=True,
                    hints=[
        "The recipe of 2.2b, inside the function: a float64 Variable holding a, babylonian of it recorded on "
        "a tape, then the tape's gradient.",
        "Return the tape's gradient of babylonian's result with respect to the Variable (a tensor is fine). "
        "None means the tape saw no path from a to the result: was babylonian called inside the `with` block, "
        "on the Variable?",
    ]),
}
