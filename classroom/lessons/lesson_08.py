"""Lesson 08's public test cases and probes (custom gradients).

Each probe records the learner's function under a tape in float64 with an adjoint ``scale`` arriving at its output,
and observes the value and the gradient that reach the input.
"""
import inspect

import numpy as np

import minitape as mt
from classroom.probes import NotAnswered, Slot, Wrong


def _unfinished(fn):
    """True while fn, or a function defined inside it, still contains the ... placeholder."""
    def has_placeholder(code):
        return any(c is Ellipsis or (inspect.iscode(c) and has_placeholder(c)) for c in code.co_consts)
    code = getattr(inspect.unwrap(fn), "__code__", None)
    return code is not None and has_placeholder(code)


def _run(fn, name, x0, scale):
    """(value, gradient) of fn at x0 in float64, with the adjoint ``scale`` arriving at fn's output."""
    if _unfinished(fn):
        raise NotAnswered
    x = mt.constant(x0, dtype=mt.float64)
    try:
        with mt.GradientTape() as tape, np.errstate(all="ignore"):  # a 0 / 0 is reported below, in one sentence
            tape.watch(x)
            y = fn(x)
            target = mt.reduce_sum(y * scale)
        with np.errstate(all="ignore"):
            gradient = tape.gradient(target, x)
    except Exception as error:  # the learner's code failed: say how
        raise Wrong(f"running {name} under a tape raised {type(error).__name__}: {error}") from None
    if gradient is None:
        raise Wrong(f"the gradient of {name} is None: grad must return a tensor (the adjoint of the input), "
                    f"computed from upstream")
    if tuple(gradient.shape) != np.shape(x0):
        raise Wrong(f"grad returned shape {tuple(gradient.shape)} for an input of shape {np.shape(x0)}: the "
                    f"adjoint of an input has the input's shape")
    return y.numpy(), gradient.numpy()


FLIP_CASES = [(3.0, 1.0), (3.0, 2.5)]


def flip_probe(flip_gradient, x0, scale):
    value, gradient = _run(flip_gradient, "flip_gradient", x0, scale)
    return [Slot(value, "the value changed: flip_gradient must return its input unchanged (only the gradient flips)"),
            Slot(gradient, "the gradient is not the negated adjoint: grad should turn upstream into its opposite, "
                           "nothing more" if scale == 1.0 else
                           "the gradient does not follow the adjoint that arrives: grad must be computed from "
                           "upstream")]


BINARIZE_POINTS = [-2.0, -1.0, -0.5, 0.3, 1.0, 1.5]
BINARIZE_CASES = [(BINARIZE_POINTS, 1.0), (BINARIZE_POINTS, 2.5)]


def binarize_probe(binarize, x0, scale):
    value, gradient = _run(binarize, "binarize", x0, scale)
    return [Slot(value, "the value changed: binarize must return the sign of x"),
            Slot(gradient, "the gradient is wrong: it should be the arriving adjoint where |x| <= 1 and 0 elsewhere "
                           "({})")]


SAFE_NORM_CASES = [([3.0, 4.0], 1.0), ([3.0, 4.0], 2.5), ([0.0, 0.0], 1.0)]


def safe_norm_probe(safe_norm, x0, scale):
    value, gradient = _run(safe_norm, "safe_norm", x0, scale)
    if not np.any(x0) and np.isnan(gradient).any():
        raise Wrong("the gradient at (0, 0) is NaN: a 0 / 0 division still happens somewhere; divide by something "
                    "that is never 0")
    says = ("at (0, 0) the gradient should follow the convention and be 0" if not np.any(x0) else
            "the gradient does not follow the adjoint that arrives: multiply by upstream" if scale != 1.0 else
            "away from 0 the gradient is not x / norm: the safe divisor must equal the norm wherever it is > 0")
    return [Slot(value, "the value changed: safe_norm must return the norm"), Slot(gradient, says)]


def _f64(values):
    return mt.constant(values, dtype=mt.float64)


LSE_VALUE_CASES = [(_f64([1000.0, 1000.0]),), (_f64([1.0, 2.0, 3.0]),), (_f64([-1000.0, -999.0]),)]
LSE_GRAD_CASES = [(_f64([0.5, -1.0, 2.0]), _f64(1.0)), (_f64([1000.0, 998.0]), _f64(2.5))]
