"""Answers of lesson 06, the rules of the tape."""
import numpy as np

from classroom.lessons.lesson_06 import POWERS, SOFTPLUS_CASES, power_probe
from classroom.spec import choice, function, value


def sigmoid(x0):
    return 1.0 / (1.0 + np.exp(-x0))


def power_by_loop(x, n):
    result = x
    for _ in range(n - 1):
        result = result * x
    return result


EXERCISES = {
    "6.1": value("df_da", expected=lambda n: n.power * n.point ** (n.power - 1), gradient=True, hints=[
        "`a` is a constant, and a tape records only operations that involve a watched value (rule 1).",
        "Inside the with block, tell the tape to watch a before the line that computes f; after the block, "
        "ask the tape for the gradient of f with respect to a."]),
    "6.2a": value("dy_dx", expected=lambda n: np.cos(n.point), gradient=True, hints=[
        "Both answers come from one recording: look at what rule 5 says a tape needs in order to answer twice.",
        "Create the tape with persistent=True, watch x, compute y and z inside the block, then call gradient "
        "once for y and once for z after it."]),
    "6.2b": value("dz_dx", expected=lambda n: np.sin(n.point) * np.cos(n.point) * 2.0, gradient=True, hints=[
        "z is y squared, so by the chain rule dz/dx = 2y times dy/dx: compare your number with that.",
        "Ask the same persistent tape for the gradient of z (not of y) with respect to x (not to y)."]),
    "6.3": function("softplus_grad", reference=sigmoid, cases=SOFTPLUS_CASES, rtol=1e-10, gradient=True, hints=[
        "The broken version leaves minitape at .numpy(): the tape sees nothing between x and the result "
        "(rule 6). Every step from x to the value has to be a minitape operation.",
        "Open a tape that watches x, compute log(1 + e^x) there with mt.exp and mt.math.log1p, and return what "
        "the tape's gradient gives for x."]),
    "6.4a": choice("predicted_ops", expected=4, mistakes=[
        (5, "that counts the factors of x·x·x·x·x; the tape records operations, and result = x is none"),
        (1, "the tape sees each multiplication the loop runs, not one power operation"),
    ], hints=[
        "Count operations, not factors: result = x is no operation at all, and each pass of the loop is one "
        "multiplication.",
        "Write x to the power 5 as x·x·x·x·x and count its multiplication signs."]),
    "6.4b": function("power_by_loop", reference=power_by_loop, cases=POWERS, probe=power_probe, rtol=1e-12,
                     hints=[
        "Start from result = x and multiply result by x once in each pass of a Python for loop.",
        "x to the power n has n factors and result = x is already the first of them, so the loop supplies the "
        "rest; the function must return result at the end."]),
}
