"""Lesson 11's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import numpy as np

from classroom.lessons.lesson_11 import Token


def _sweep_cases():
    """Records of tokens as the public cases are made, on graphs of other shapes."""
    x, y, a, b, c, d = (Token(n) for n in ["x", "y", "a", "b", "c", "d"])
    # a diamond: x feeds two ops whose results meet again; the target is also asked for as a source
    diamond = ([(a, [(x, 2.0)]), (b, [(x, -3.0)]), (c, [(a, 0.5), (b, 4.0)])], c, [x, c, a])
    # a record after the target, which uses it: it must not change the target's gradient
    after = ([(a, [(x, 1.5), (y, -0.25)]), (b, [(a, np.cos(1.0))]), (d, [(b, 7.0), (x, 1.0)])], b, [y, x])
    # one op using the same input twice, then a chain, and the sources in another order
    p, q, r = Token("x*x"), Token("sin(x*x)"), Token("y*sin(x*x)")
    twice = ([(p, [(x, 1.2), (x, 1.2)]), (q, [(p, np.cos(0.36))]), (r, [(y, np.sin(0.36)), (q, -2.0)])],
             r, [y, x])
    return [("a diamond", *diamond), ("a record after the target", *after), ("x used twice by one op", *twice)]


HIDDEN_CASES = {
    # other numbers, signs and sizes for each op; the power with other exponents, a negative and a fractional one
    "11.3a": [((0.5, -3.0), ()), ((7.0, 0.0), ()), ((-2.5, -0.4), ())],
    "11.3b": [((1.0, -8.0), ()), ((-6.5, 2.5), ()), ((0.0, 3.0), ())],
    "11.3c": [((2.5,), (2,)), ((1.5,), (-1,)), ((4.0,), (0.5,)), ((-2.0,), (5,))],
    "11.3d": [((3.0,), ()), ((0.125,), ()), ((10.0,), ())],
    "11.3e": [((0.0,), ()), ((2.0,), ()), ((-4.5,), ())],
    "11.3f": [((1.0,), ()), ((-2.2,), ()), ((3.5,), ())],
    "11.4": _sweep_cases(),
    "11.6a": [((0.0,), ()), ((2.5,), ()), ((-0.05,), ())],
}
