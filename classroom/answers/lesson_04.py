"""Answers of lesson 04, forward mode."""
import math

import numpy as np

from classroom.lessons.lesson_04 import DIAGONAL_CASES, QUOTIENTS, one_pass, quotient
from classroom.spec import function, judged_by, value
from minitape.dual import Dual


def h_prime(n):
    """4.1: h(x) = x exp(-x²) has h'(x) = (1 - 2x²) exp(-x²); the student's point keeps h and h' apart."""
    return (1 - 2 * n.point**2) * math.exp(-n.point**2)


# 4.3: f(x1, x2) = ln x1 + x1 x2 - sin x2 at (2, 5) along u = (0.6, 0.8), and along the gradient; the partial
# derivatives are printed to four digits, so the answers are checked to three
DF_DX1, DF_DX2 = 1 / 2.0 + 5.0, 2.0 - math.cos(5.0)


def divide(u, v):
    return Dual(u.value / v.value, (u.tangent * v.value - u.value * v.tangent) / v.value**2)


def divide_by_c(u, v):  # one factor of c too few under the fraction bar
    return Dual(u.value / v.value, (u.tangent * v.value - u.value * v.tangent) / v.value)


def divide_by_c_cubed(u, v):  # one too many
    return Dual(u.value / v.value, (u.tangent * v.value - u.value * v.tangent) / v.value**3)


def diagonal(x):
    # g(x) = sin(x) exp(x) elementwise, g'(x) = (cos x + sin x) exp(x)
    x = np.asarray(x, dtype=float)
    return (np.cos(x) + np.sin(x)) * np.exp(x)


FACTOR_OF_C = ("the tangent part is off by a factor of the denominator's value: how many factors of c end up under "
               "the fraction bar?")

EXERCISES = {
    "4.1": value("h_derivative", expected=h_prime, mistakes=[
        (lambda n: n.point * math.exp(-n.point**2), "that is h(a), the value part; the derivative is the ε part"),
        (lambda n: -2 * n.point**2 * math.exp(-n.point**2), "the ε part of a product has two terms, a·d + b·c: the "
                                                            "one from the ε part of x itself is missing"),
        (lambda n: math.exp(-n.point**2), "the ε part of a product has two terms, a·d + b·c: the one from the ε part "
                                          "of e^(−x²) is missing")], hints=[
        "Carry (value, ε part) pairs step by step from x = a + 1·ε: x·x by the product rule of section 2, then "
        "e^(−x²) by f(u + u̇ε) = f(u) + f'(u) u̇ ε, then x times that, by the product rule again.",
        "x·x = a² + 2a ε, so −x² = −a² − 2a ε. Apply the rule for e^u to that pair, then multiply the result by "
        "a + 1·ε and keep only the ε part (ε² = 0).",
    ]),
    "4.2": function("divide", reference=divide, cases=QUOTIENTS, probe=quotient, rtol=1e-9, mistakes=[
        (divide_by_c, FACTOR_OF_C), (divide_by_c_cubed, FACTOR_OF_C)], hints=[
        "Multiply numerator and denominator by c - dε. The denominator becomes c² (ε² = 0); expand the "
        "numerator and drop its ε² term.",
        "(a + bε)(c - dε) = ac + (bc - ad)ε + (a multiple of ε²). Divide its value part and its ε part by c², "
        "and return them as a Dual: u.value, u.tangent, v.value, v.tangent are a, b, c, d.",
    ]),
    "4.3a": value("directional", expected=0.6 * DF_DX1 + 0.8 * DF_DX2, rtol=1e-3, mistakes=[
        (DF_DX1, "that is ∂f/∂x1, the rate along (1, 0); the direction asked for is u"),
        (DF_DX2, "that is ∂f/∂x2, the rate along (0, 1); the direction asked for is u"),
        (math.log(2.0) + 10.0 - math.sin(5.0), "that is the value of f, not its rate of change")], hints=[
        "A forward pass seeded with u gives J·u: for one output, the gradient combined with u.",
        "Weigh each partial derivative by the matching component of u and add."]),
    "4.3b": value("steepest", expected=math.hypot(DF_DX1, DF_DX2), rtol=1e-3, mistakes=[
        (DF_DX1 + DF_DX2, "that is the rate along (1, 1), which is not a unit vector"),
        (DF_DX1, "that is the rate along x1 alone; a mix of both directions does better"),
        (DF_DX1**2 + DF_DX2**2, "that is the squared length of the gradient")], hints=[
        "The rate along a unit vector u is the gradient · u: which u makes a dot product with a fixed vector "
        "largest?",
        "A dot product with a unit vector is largest when u points the same way as the other vector; the rate "
        "is then that vector's length."]),
    "4.4a": function("diagonal_in_one_pass", reference=diagonal, cases=DIAGONAL_CASES, rtol=1e-10, hints=[
        "J·u is a combination of the Jacobian's columns weighted by u. With a diagonal J, which u makes row i "
        "pick up exactly J_ii?",
        "Seed every input with tangent 1 (mt.ones_like(x)), compute g(x) inside the accumulator's block, and "
        "return the tangent of the result as a NumPy array (.numpy()).",
    ]),
    "4.4b": judged_by("diagonal_in_one_pass", test=one_pass, hints=[
        "One ForwardAccumulator block, with one call of g inside it.",
        "A loop over unit seeds takes n passes; the one seed that fills the whole diagonal at once is the "
        "vector of ones.",
    ]),
}
