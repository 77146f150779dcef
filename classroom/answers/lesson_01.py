"""Answers of lesson 01 (finite differences)."""
import numpy as np

from classroom.lessons.lesson_01 import FIVE_POINT_CASES, GRADIENT_CASES, beats_central, calls_n_plus_one, \
    passes_gradient_check
from classroom.spec import function, judged_by, value
from minitape import numeric


def five_point(f, x, h):
    return (-f(x + 2 * h) + 8 * f(x + h) - 8 * f(x - h) + f(x - 2 * h)) / (12 * h)


def cube(x):
    return x * x * x


def cube_derivative(x):
    return 3 * x * x


def fd_gradient(f, x, h):
    return numeric.gradient(f, x, h=h, method="forward")


EXERCISES = {
    "1.1": value("forward_1_1", expected=(3.1**2 - 3**2) / 0.1, rtol=1e-9, hints=[
        "Evaluate g at 3 + h and at 3, subtract, and divide by h.",
        "Taylor says the forward difference overshoots g'(3) = 6 by about h g''(3) / 2 with g'' = 2: "
        "predict the result, then compute it."]),
    "1.2a": function("five_point", reference=five_point, cases=FIVE_POINT_CASES, rtol=1e-12, hints=[
        "Four calls of f, at x + 2h, x + h, x - h and x - 2h, weighted as in the formula above.",
        "Watch the signs (the weights are -1, 8, -8, 1 in that order) and divide the whole sum by 12h: "
        "parentheses around 12 * h."]),
    "1.2b": judged_by("five_point", test=beats_central, hints=[
        "If 1.2a passes, so does this one: the fourth-order formula is far more accurate at h = 1e-2.",
        "A formula of order four loses its advantage only when a weight or a sign is wrong."]),
    "1.3a": value("h_model", expected=np.sqrt(2 * np.finfo(np.float32).eps / 6), mistakes=[
        (2 * np.sqrt(np.finfo(np.float32).eps / 6),
         "that is 2 √(ε |g| / |g''|): the 2 belongs inside the square root (solve h/2 |g''| = ε |g| / h for h)")],
        hints=[
        "Put |g(1)|, |g''(1)| (with g''(x) = 6x) and ε into h* = √(2 ε |g(x)| / |g''(x)|).",
        "ε is np.finfo(np.float32).eps (not float64's), and the square root covers the whole quotient."]),
    "1.3b": value("h_measured", expected=numeric.error_curve(cube, cube_derivative, 1.0, "forward",
                                                             "float32").best_step, hints=[
        "numeric.error_curve returns three things; the best step is one of them.",
        "Call it with g, dg, the point 1.0, the method and the dtype the exercise names, and take its best_step."]),
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
