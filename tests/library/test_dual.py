"""Dual numbers: first derivatives, and derivatives nested inside each other without perturbation confusion."""

import math

import pytest

from minitape import dual
from minitape.dual import Dual, derivative


def test_first_derivatives():
    y = Dual(3.0, 1.0) ** 3
    assert (y.value, y.tangent) == (27.0, 27.0)
    cases = [(lambda x: dual.sin(x) * x, lambda x: math.cos(x) * x + math.sin(x)),
             (lambda x: dual.exp(x) / (1 + x * x), lambda x: math.exp(x) * (1 - x) ** 2 / (1 + x * x) ** 2),
             (lambda x: dual.log(x) - dual.sqrt(x) + dual.tanh(x), lambda x: 1 / x - 0.5 / math.sqrt(x) +
              1 - math.tanh(x) ** 2),
             (lambda x: 2 ** x - x ** x + dual.cos(x) - dual.tan(x),
              lambda x: 2 ** x * math.log(2) - x ** x * (math.log(x) + 1) - math.sin(x) - 1 / math.cos(x) ** 2),
             (lambda x: 3 - x / 2, lambda x: -0.5)]
    for fn, dfn in cases:
        assert derivative(fn, 0.7) == pytest.approx(dfn(0.7), rel=1e-14)
    assert derivative(lambda x: 5.0, 1.0) == 0.0
    assert repr(Dual(1, 2)) == "Dual(1.0, 2.0)"


def test_the_two_examples_of_perturbation_confusion():
    # d/dy (x + y) = 1 whatever x is, so the outer function is x * 1, whose derivative is 1 (one shared ε gives 2)
    assert derivative(lambda x: x * derivative(lambda y: x + y, 1.0), 1.0) == 1.0
    # the derivative of 3x² (the derivative of x³) at 2: the inner derivative takes a dual number
    assert derivative(lambda x: derivative(lambda z: z ** 3, x), 2.0) == 12.0


@pytest.mark.parametrize("fn, second", [
    (lambda x: x ** 4, lambda x: 12 * x ** 2),
    (dual.sin, lambda x: -math.sin(x)),
    (dual.cos, lambda x: -math.cos(x)),
    (dual.tan, lambda x: 2 * math.tan(x) / math.cos(x) ** 2),
    (dual.exp, math.exp),
    (dual.log, lambda x: -1 / x ** 2),
    (dual.sqrt, lambda x: -0.25 * x ** -1.5),
    (dual.tanh, lambda x: -2 * math.tanh(x) * (1 - math.tanh(x) ** 2)),
    (lambda x: 1 / x - (3 - x) * x, lambda x: 2 / x ** 3 + 2),
    (lambda x: 2 ** x - x ** x, lambda x: 2 ** x * math.log(2) ** 2 - x ** x * ((math.log(x) + 1) ** 2 + 1 / x)),
], ids=["power", "sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "quotient", "varying exponent"])
def test_second_derivatives(fn, second):
    assert derivative(lambda x: derivative(fn, x), 0.7) == pytest.approx(second(0.7), rel=1e-13)


def test_third_derivatives():
    assert derivative(lambda x: derivative(lambda y: derivative(lambda z: z ** 4, y), x), 1.5) == 24 * 1.5
    third_of_sin = derivative(lambda x: derivative(lambda y: derivative(dual.sin, y), x), 0.4)
    assert third_of_sin == pytest.approx(-math.cos(0.4), rel=1e-14)


def test_mixed_nesting_at_different_points():
    # inner: d/dy (x y²) = 2 x y at y = x, i.e. 2x²; outer: 4x
    assert derivative(lambda x: derivative(lambda y: x * y ** 2, x), 3.0) == 12.0
    # inner: d/dy sin(x y) = x cos(x y) at y = 2; outer: cos(2x) - 2x sin(2x)
    mixed = derivative(lambda x: derivative(lambda y: dual.sin(x * y), 2.0), 0.5)
    assert mixed == pytest.approx(math.cos(1.0) - math.sin(1.0), rel=1e-14)


def test_closures_capturing_an_outer_dual():
    # the inner function reads x from its closure: x is a constant to the inner ε
    assert derivative(lambda x: derivative(lambda y: x * y, 2.0), 3.0) == 1.0
    assert derivative(lambda x: derivative(lambda y: dual.exp(x) / y, 2.0), 0.0) == -0.25
    assert derivative(lambda x: derivative(lambda y: x, 2.0), 3.0) == 0.0  # the inner result does not depend on y

    def outer(x):
        def inner(y):
            return x * x + y * x
        return derivative(inner, 1.0) * x  # d/dy inner = x, so outer is x²
    assert derivative(outer, 5.0) == 10.0


def test_nested_duals_show_their_tags():
    assert repr(Dual(Dual(1.0, 2.0, tag=1), 3.0, tag=2)) == "Dual(Dual(1.0, 2.0, tag=1), 3.0, tag=2)"
