"""The ops that ops/exports.py lists under "torch" are minitape.torch's functions and methods, and the same ops.

A declaration with "torch" among its names is all it takes: each such op is a function
(``torch.sin``), a method (``x.sin()``) and an in-place method (``x.sin_()``), and gives the number
and the gradient that the op gives under a GradientTape: one op, one rule, two front ends.
"""

import inspect

import numpy as np
import pytest

import minitape as mt
import minitape.torch as torch
from minitape.ops import exports

DECLARED = exports.names("torch")


def _point(name):
    return 1.5 if name in ("acosh", "arccosh") else 0.5


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_a_declared_op_is_a_function_a_method_and_an_in_place_method(name):
    assert callable(getattr(torch, name)) and callable(getattr(torch.Tensor, name))
    assert callable(getattr(torch.Tensor, name + "_"))


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_a_declared_op_gives_the_number_and_gradient_of_the_tape(name):
    op = DECLARED[name]
    points = [_point(name), 0.7][:len(inspect.signature(op).parameters)]
    xs = [torch.tensor(p, dtype=torch.float64, requires_grad=True) for p in points]
    y = getattr(torch, name)(*xs)
    grads = torch.autograd.grad(y, xs)

    vs = [mt.Variable(np.float64(p)) for p in points]
    with mt.GradientTape() as tape:
        expected = op(*vs)
    expected_grads = tape.gradient(expected, vs)
    assert y.item() == pytest.approx(float(expected), rel=1e-12)
    for g, e in zip(grads, expected_grads):
        assert g.item() == pytest.approx(float(e), rel=1e-12)
