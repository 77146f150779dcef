"""Lesson 05's public test cases and probe (reverse mode)."""
import math

import numpy as np

import minitape as mt
from classroom.probes import Wrong, call, parts


def layer(W, x):
    return mt.tanh(mt.reshape(mt.matmul(W, mt.reshape(x, (-1, 1))), (-1,)))


W_3X4 = mt.constant(np.random.default_rng(1).normal(size=(3, 4)), dtype=mt.float64)


def tanh_of_W_x(x):
    return layer(W_3X4, x)


def three_outputs(x):
    return mt.stack([x[0] * x[1], mt.sin(x[2]), mt.exp(x[0]) + x[3]])


POINTS = [np.array([0.5, -1.0, 2.0, 0.1]), np.array([1.5, 0.2, -0.7, 3.0])]
JACOBIAN_CASES = [(fn, point) for fn in (tanh_of_W_x, three_outputs) for point in POINTS]


# 5.5: a VJP rule of the lesson's define-and-run graph, run on placeholders for the adjoint g and the input a
RULE_CASES = [(1.0, 0.5), (-2.0, 1.3), (0.7, -2.0)]
EVALUATE = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
            "divide": lambda a, b: a / b, "negative": lambda a: -a, "log": math.log, "sin": math.sin,
            "cos": math.cos}


def evaluate(node, feed):
    """The value of a graph node (its ``op``, ``inputs``, a constant's ``value``) for the placeholders in feed."""
    if id(node) in feed:
        return feed[id(node)]
    if node.op == "constant":
        return node.value
    if node.op not in EVALUATE:
        raise Wrong(f"the rule builds a {node.op!r} node, an op the lesson's graph cannot run")
    return EVALUATE[node.op](*(evaluate(i, feed) for i in node.inputs))


def graph_rule(rule, g, a):
    """5.5: the adjoint that a VJP rule builds for its one input, run with the adjoint g at the input a."""
    (placeholder,) = parts(rule, "placeholder")
    g_node, a_node = placeholder(), placeholder()
    built = call(rule, g_node, a_node, what="the rule")
    if not isinstance(built, tuple) or len(built) != 1:
        what = f"a tuple of {len(built)}" if isinstance(built, tuple) else f"a {type(built).__name__}"
        raise Wrong(f"it returns {what}; a rule returns a tuple with one node per input of the op, here (node,)")
    node = built[0]
    if not (hasattr(node, "op") and hasattr(node, "inputs")):
        raise Wrong(f"its adjoint is a {type(node).__name__}, not a node: a rule of this graph builds nodes from "
                    f"the nodes it receives (with the graph's functions and operators), and computes nothing")
    return evaluate(node, {id(g_node): g, id(a_node): a})
