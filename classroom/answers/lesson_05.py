"""Answers of lesson 05, reverse mode."""
import types

import numpy as np

import minitape as mt
from classroom.lessons.lesson_05 import (JACOBIAN_CASES, RULE_CASES, graph_rule, rows_probe, sweeps_per_seed,
                                        vjp_probe)
from classroom.spec import choice, function, value


def _gradient_1(n, product=True, exponential=True):
    """5.1: the gradient of g = x1 x2 x3 + exp(x1), or the part of it through the product or the exponential."""
    x1, x2, x3 = n.point
    return [product * x2 * x3 + exponential * np.exp(x1), product * x1 * x3, product * x1 * x2]


def _sweep(n):
    """5.2: w1 = w0², w2 = sin w1, y = w3 = w1 w2, backwards; w1 feeds sin and the product."""
    w0 = n.point
    w1 = w0**2
    w2 = np.sin(w1)
    w2_bar = w1
    through_sin = w2_bar * np.cos(w1)
    w1_bar = w2 + through_sin
    return types.SimpleNamespace(w0=w0, w1=w1, w2=w2, w2_bar=w2_bar, through_sin=through_sin, w1_bar=w1_bar,
                                 w0_bar=w1_bar * 2 * w0)


def vjp_of(fn, x):
    x = mt.constant(x, dtype=mt.float64)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = fn(x)

    def vjp(u):
        return tape.gradient(y, x, output_gradients=mt.constant(u, dtype=mt.float64)).numpy()
    return vjp


def jacobian_by_rows(vjp, m):
    return np.stack([vjp(e) for e in np.eye(m)])


# 5.3: tanh(W x), from the table: forward 10 ops a pass, a pass per input; reverse 6 ops, then 6 a pass, a pass
# per output
FORWARD_PER_PASS, REVERSE_FIXED, REVERSE_PER_PASS = 10, 6, 6
PASSES_PER_OUTPUT = "that makes a forward pass per output; forward mode makes one per input"
PASSES_PER_INPUT = "that makes a backward pass per input; reverse mode makes one per output"
NO_FIXED_PART = "that leaves out the fixed part of reverse mode: look at its count for m = 1"
_COUNT_HINTS = [
    "In the table, how does each mode's count change when n doubles, and when m doubles?",
    "Each count is a fixed part plus a part per pass; forward mode makes a pass per input, reverse mode a pass "
    "per output. Read the parts off the rows with n = 1 and m = 1, 2.",
]
_MODE_HINTS = [
    "The cheaper mode is the one with fewer ops.",
    "Compare your two predicted counts for this shape; answer with the string \"forward\" or \"reverse\".",
]


# 5.5: the define-and-run graph's nodes, as far as the reference rules need them
class Node:
    def __init__(self, op, inputs=()):
        self.op, self.inputs, self.value = op, tuple(inputs), None

    def __mul__(self, other):
        return Node("multiply", [self, other])

    def __neg__(self):
        return Node("negative", [self])


def placeholder():
    return Node("placeholder")


def sin(a):
    return Node("sin", [a])


def cos(a):
    return Node("cos", [a])


def cos_vjp(g, a):
    return (-(g * sin(a)),)


def cos_vjp_of_sin(g, a):  # the rule of sin, not of cos
    return (g * cos(a),)


def negative_vjp(g, a):
    return (-g,)


def negative_vjp_of_identity(g, a):  # the sign forgotten
    return (g,)


EXERCISES = {
    "5.1": value("gradient_1", expected=_gradient_1, gradient=True, mistakes=[
        (lambda n: _gradient_1(n, exponential=False), "x̄1 collects a contribution from every operation that used "
                                                      "x1: the one through exp is missing"),
        (lambda n: _gradient_1(n, product=False), "x̄1 collects a contribution from every operation that used x1: "
                                                  "the one through the product is missing")], hints=[
        "Write g as the operations Python runs: v1 = x1·x2, v2 = v1·x3, v3 = exp(x1), y = v2 + v3. Then go "
        "backwards from ȳ = 1: each operation hands its output's adjoint times its local derivative to each input.",
        "The sum hands ȳ to v2 and v3 unchanged; a product hands each factor the adjoint times the other factor; "
        "exp hands ȳ·e^x1 to x1. x1 is used twice: its two contributions add.",
    ]),
    "5.2a": value("w2_bar", expected=lambda n: _sweep(n).w2_bar, mistakes=[
        (lambda n: _sweep(n).w2, "that is w2 itself; ∂(w1·w2)/∂w2 is the other factor")], hints=[
        "w2 is used once, by the product w3 = w1·w2: its adjoint is w3_bar times the product's local "
        "derivative with respect to w2.",
        "The local derivative of a product with respect to one factor is the other factor.",
    ]),
    "5.2b": value("w1_bar", expected=lambda n: _sweep(n).w1_bar, mistakes=[
        (lambda n: _sweep(n).w2, "that is only the product's contribution; w1 also feeds sin, whose adjoint passes "
                                 "through too"),
        (lambda n: _sweep(n).through_sin, "that is only the contribution through sin; the product uses w1 directly "
                                          "too"),
        (lambda n: _sweep(n).w2 * _sweep(n).through_sin, "the contributions of two operations add, they do not "
                                                         "multiply")], hints=[
        "Two operations used w1: the product w3 = w1·w2 and w2 = sin(w1). Each hands back its output's adjoint "
        "times its local derivative with respect to w1.",
        "Add the two contributions: w3_bar times the product's local derivative, and w2_bar times the derivative "
        "of sin at w1.",
    ]),
    "5.2c": value("w0_bar", expected=lambda n: _sweep(n).w0_bar, mistakes=[
        (lambda n: _sweep(n).w2 * 2 * n.point, "the adjoint of w1 you started from misses the contribution through "
                                               "sin"),
        (lambda n: _sweep(n).through_sin * 2 * n.point, "the adjoint of w1 you started from misses the product's "
                                                        "direct contribution"),
        (lambda n: 2 * n.point, "that is only the local derivative of w1 = w0²; an adjoint is the next adjoint "
                                "times it")], hints=[
        "The last step back goes through w1 = w0², starting from your w1_bar.",
        "The local derivative of w0² is 2·w0; the result is dy/dx of y = x² sin(x²) at your x.",
    ]),
    "5.3a": choice("ops_forward_a", expected=FORWARD_PER_PASS * 100, mistakes=[
        (FORWARD_PER_PASS * 3, PASSES_PER_OUTPUT)], hints=_COUNT_HINTS),
    "5.3b": choice("ops_reverse_a", expected=REVERSE_FIXED + REVERSE_PER_PASS * 3, mistakes=[
        (REVERSE_PER_PASS * 3, NO_FIXED_PART), (REVERSE_FIXED + REVERSE_PER_PASS * 100, PASSES_PER_INPUT)],
        hints=_COUNT_HINTS),
    "5.3c": choice("cheaper_a", expected="reverse", options=["forward", "reverse"], hints=_MODE_HINTS),
    "5.3d": choice("ops_forward_b", expected=FORWARD_PER_PASS * 3, mistakes=[
        (FORWARD_PER_PASS * 100, PASSES_PER_OUTPUT)], hints=_COUNT_HINTS),
    "5.3e": choice("ops_reverse_b", expected=REVERSE_FIXED + REVERSE_PER_PASS * 100, mistakes=[
        (REVERSE_PER_PASS * 100, NO_FIXED_PART), (REVERSE_FIXED + REVERSE_PER_PASS * 3, PASSES_PER_INPUT)],
        hints=_COUNT_HINTS),
    "5.3f": choice("cheaper_b", expected="forward", options=["forward", "reverse"], hints=_MODE_HINTS),
    "5.4a": function("vjp_of", reference=vjp_of, cases=JACOBIAN_CASES, probe=vjp_probe, rtol=1e-10,
                     test=sweeps_per_seed, hints=[
        "vjp_of records once and answers many times: which kind of tape answers more than one gradient call? "
        "The function it returns receives the seed u only later, after the recording.",
        "Inside vjp_of: a persistent tape that watches x records y = fn(x). Inside vjp(u): one backward pass of "
        "y itself, seeded with u (section 5), as a NumPy array.",
    ]),
    "5.4b": function("jacobian_by_rows", reference=jacobian_by_rows, cases=JACOBIAN_CASES, probe=rows_probe,
                     rtol=1e-10, hints=[
        "vjp(u) = uᵀJ mixes the rows of J with the weights u. Which seed u picks exactly one row?",
        "uᵀJ with u = e_i, the i-th unit vector, is row i of J. Call vjp once for each of the m unit vectors "
        "(the rows of np.eye(m)) and stack the results as the rows of an m × n array.",
    ]),
    "5.5a": function("cos_vjp", reference=cos_vjp, cases=RULE_CASES, probe=graph_rule, rtol=1e-12, mistakes=[
        (cos_vjp_of_sin, "that is the rule of sin; the derivative of cos is another function")], hints=[
        "The adjoint of a is g times d cos(a)/da, built from nodes: the graph's sin, and * and unary - on nodes.",
        "d cos(a)/da = -sin(a). The graph has a sin for nodes, and nodes can be multiplied and negated.",
    ]),
    "5.5b": function("negative_vjp", reference=negative_vjp, cases=RULE_CASES, probe=graph_rule, rtol=1e-12,
                     mistakes=[(negative_vjp_of_identity, "that passes g on unchanged; negation flips its sign")],
                     hints=[
        "The op computes -a: what is its derivative with respect to a?",
        "d(-a)/da = -1: the adjoint of a is g times that, as a node, in a tuple of one.",
    ]),
}
