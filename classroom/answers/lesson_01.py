"""Answers of lesson 01 (finite differences)."""
import numpy as np

from classroom.lessons.lesson_01 import GRADIENT_CASES, calls_n_plus_one, passes_gradient_check
from classroom.spec import choice, function, judged_by, value
from minitape import numeric

EPS32 = np.finfo(np.float32).eps
EPS64 = np.finfo(np.float64).eps
FLOAT64 = "that uses float64's ε; the exercise is in float32 (np.finfo(np.float32).eps)"


def _weights(j, k):
    """1.2a: a, b with 2j·a + 2k·b = 1 (the f' terms) and j³·a + k³·b = 0 (the f''' terms)."""
    return -k**2 / (2 * j * (j**2 - k**2)), j**2 / (2 * k * (j**2 - k**2))


def fd_gradient(f, x, h):
    return numeric.gradient(f, x, h=h, method="forward")


EXERCISES = {
    "1.1": value("forward_1_1", expected=lambda n: ((n.point + n.step) ** 2 - n.point ** 2) / n.step, rtol=1e-9,
                 mistakes=[(lambda n: 2 * n.point, "that is the exact derivative 2x; the exercise asks for the "
                                                   "forward difference, which misses it")], hints=[
        "Evaluate g at x + h and at x, subtract, and divide by h.",
        "Taylor says the forward difference overshoots g'(x) = 2x by about h g''(x) / 2, with g'' = 2: "
        "predict the miss, then compute the quotient."]),
    # f(x+jh) - f(x-jh) = 2jh f' + (jh)³/3 f''' + ...: the f' terms sum to f', the f''' terms cancel
    "1.2a": value("weights", expected=lambda n: _weights(n.near, n.far), rtol=1e-3, mistakes=[
        (lambda n: (1 / (2 * n.near), 0.0), "those are the central difference's weights: its f''' term is still "
                                            "there"),
        (lambda n: (1 / (2 * (n.near - n.far)), -1 / (2 * (n.near - n.far))),
         "that cancels the f''' terms as if both pairs' were the same size; they grow with the cube of the distance"),
        (lambda n: (n.far**3 / (n.far**3 - n.near**3), -n.near**3 / (n.far**3 - n.near**3)),
         "the f' terms do not add up to f': a pair at distance mh gives 2·(mh) f', not h f'"),
        (lambda n: _weights(n.near, n.far)[::-1], "a and b are the other way round: a weighs the near pair, b the "
                                                 "far one")], hints=[
        "Write the f' part and the f''' part of a·[f(x+jh) − f(x−jh)] + b·[f(x+kh) − f(x−kh)] with the expansion "
        "above (m = j for the first pair, m = k for the second), then divide by h.",
        "Two equations: the f' coefficients must sum to 1 (2j·a + 2k·b = 1), and the f''' ones to 0 "
        "(j³·a + k³·b = 0). Solve them (np.linalg.solve, or by hand)."]),
    "1.2b": choice("order", expected=4, mistakes=[
        (2, "that is the central difference's order; your weights cancel its h² term"),
        (3, "only odd powers of h appear in f(x + mh) − f(x − mh); after the division by h, which powers can "
            "the error have?"),
        (5, "that is the power of h in the f⁽⁵⁾ term before the division by h")], hints=[
        "Once the f''' terms cancel, which term of the expansion is the first one left?",
        "The f⁽⁵⁾ term carries h⁵, and the formula divides by h."]),
    "1.3a": value("h_forward", expected=np.sqrt(2 * EPS32 / 6), rtol=1e-4, mistakes=[
        (2 * np.sqrt(EPS32 / 6),
         "that is 2 √(ε |g| / |g''|): the 2 belongs inside the square root (solve h/2 |g''| = ε |g| / h for h)"),
        (np.sqrt(EPS32), "that is the rule of thumb √ε; the model's h* also weighs |g(1)| and |g''(1)|"),
        (np.sqrt(2 * EPS64 / 6), FLOAT64)], hints=[
        "Section 3's model: h* = √(2 ε |g(x)| / |g''(x)|). What are g(1) and g''(1) for g(x) = x³?",
        "g''(x) = 6x; ε is np.finfo(np.float32).eps (not float64's), and the square root covers the whole "
        "quotient."]),
    "1.3b": value("h_central", expected=np.cbrt(3 * EPS32 / 6), rtol=1e-4, mistakes=[
        (np.cbrt(EPS32), "that is the rule of thumb ∛ε; the model's h* also weighs |g(1)| and |g'''(1)|"),
        (np.cbrt(3 * EPS64 / 6), FLOAT64),
        (np.sqrt(3 * EPS32 / 6), "a central difference balances h²/6 |g'''| against ε |g| / h: the model has a "
                                 "cube root")], hints=[
        "Section 3's model for a central difference: h* = ∛(3 ε |g(x)| / |g'''(x)|). What is g'''(1)?",
        "g'''(x) = 6 for g(x) = x³; ε is float32's, and the cube root (np.cbrt) covers the whole quotient."]),
    "1.4a": function("fd_gradient", reference=fd_gradient, cases=GRADIENT_CASES, rtol=1e-9, hints=[
        "f_x is f called once at x, before the loop; in the loop, moved is x with entry i moved by h.",
        "Entry i of the gradient is (f(moved) - f_x) / h: the forward difference along input i."]),
    "1.4b": judged_by("fd_gradient", test=calls_n_plus_one, hints=[
        "f(x) is the same for every input: the loop must use the f_x computed before it, not call f(x) again.",
        "One call before the loop and one per input inside it: nothing else may call f."]),
    "1.5": judged_by("q_fixed", test=passes_gradient_check, hints=[
        "Differentiate q(x) = x / (1 + x²) with the quotient rule: the denominator has a derivative too.",
        "The quotient rule: (u / v)' = (u' v - u v') / v², here with u = x and v = 1 + x². The buggy rule kept "
        "only part of it; in code, x * x stands for x², and dq_dx is a formula in x."]),
}
