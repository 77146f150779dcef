"""Lesson 14's public test cases, probes and test (the hard parts)."""
import numpy as np

import minitape as mt
from classroom.probes import Slot, Wrong, call


def segment(h):
    """Five ops on a vector: sin, exp, multiply, multiply, add."""
    return mt.sin(h) * mt.exp(-0.5 * h) + 0.3 * h


X_14_1 = np.array([0.3, -1.2, 2.0, 0.7])
CHECKPOINT_CASES = [()]


def _wrapped(checkpoint):
    wrapped = call(checkpoint, segment, what="checkpoint(segment)")
    if not callable(wrapped):
        raise Wrong(f"checkpoint(segment) returned a {type(wrapped).__name__}, not a function: it should return a "
                    f"function of one tensor")
    return wrapped


def checkpoint_probe(checkpoint):
    """14.1: the value and the gradient of the sum of squares of two checkpointed segments."""
    wrapped = _wrapped(checkpoint)
    x = mt.constant(X_14_1)
    with mt.GradientTape() as tape:
        tape.watch(x)
        h = call(wrapped, call(wrapped, x, what="the checkpointed function"), what="the checkpointed function")
        loss = mt.reduce_sum(h * h)
    gradient = tape.gradient(loss, x)
    if gradient is None:
        raise Wrong("no gradient reached the input: is the function wrapped with @mt.custom_gradient, and does its "
                    "grad_fn return the gradient with respect to h?")
    return [Slot(mt.convert_to_tensor(h).numpy(), "its value differs from segment(h): the forward pass should "
                                                  "compute the segment itself ({})"),
            Slot(gradient.numpy(), "its gradient differs from the plain chain's: grad_fn should differentiate "
                                   "segment(h) at the segment's own input, with the upstream gradient as "
                                   "output_gradients ({})")]


def saves_memory(checkpoint):
    """14.1: the outer tape records no op of a segment, and the backward pass runs the segment again."""
    wrapped = _wrapped(checkpoint)
    x = mt.constant(X_14_1)
    with mt.GradientTape() as tape:
        tape.watch(x)
        loss = mt.reduce_sum(wrapped(wrapped(x)) ** 2)
    recorded = len(tape)
    with mt.autodiff.OpCounter() as backward:
        tape.gradient(loss, x)
    if recorded > 4:
        return (f"the outer tape recorded {recorded} ops for two segments and the loss (4 would be one per segment "
                f"and two for the loss): the forward pass is still being taped, so nothing is saved")
    if backward.by_op["sin"] == 0:
        return ("the backward pass never recomputed the segment: grad_fn should run the segment again, under a "
                "tape of its own, instead of using values kept from the forward pass")
    return None


# -- 14.2: the implicit gradient of a vector fixed point -----------------------------------------------------------
_RNG = np.random.default_rng(14)
FIXED_POINT_CASES = [(np.array([0.5, -1.0, 0.25]), _RNG.normal(size=3)),
                     (np.array([2.0, 0.1, -1.5]), _RNG.normal(size=3))]


def fixed_point_probe(fixed_point, a, y_bar):
    """14.2: the fixed point for ``a``, and the gradient of y_bar · y with respect to a."""
    source = mt.constant(a)
    with mt.GradientTape() as tape:
        tape.watch(source)
        y = call(fixed_point, source, what=f"fixed_point at a = {a.tolist()}")
    gradient = call(lambda: tape.gradient(y, source, output_gradients=mt.constant(y_bar)),
                    what="the gradient of fixed_point (your grad)")
    gradient = mt.convert_to_tensor(gradient).numpy()
    if gradient.shape != a.shape:
        raise Wrong(f"grad returned shape {gradient.shape}; a has shape {a.shape}: a gradient has the shape of what "
                    f"it differentiates")
    return [Slot(mt.convert_to_tensor(y).numpy(), "its value is not the fixed point: keep the forward pass as given "
                                                  "({})"),
            Slot(gradient, "its gradient is wrong (the check wants the exact gradient to 1e-12, closer than a finite "
                           "difference of the loop can come): {}")]


def taped_as_one_op(fixed_point):
    """14.2: the tape holds the solve as one op, and the gradient keeps its precision without the loop."""
    source = mt.constant(FIXED_POINT_CASES[0][0])
    with mt.GradientTape() as tape:
        tape.watch(source)
        call(fixed_point, source, what="fixed_point")
    if len(tape) != 1:
        return (f"the tape recorded {len(tape)} ops for one solve: the solve should stay one custom op, its loop "
                f"untracked, and its gradient come from the fixed point alone")
    return None


# -- 14.3 is two numbers; 14.4: a softplus that where guards -------------------------------------------------------
SOFTPLUS_POINTS = [-30.0, -5.0, 0.0, 3.0, 19.5, 20.0, 30.0, 100.0, 1000.0]
SOFTPLUS_CASES = [()]


def softplus_probe(softplus_safe):
    """14.4: the values and the gradient of softplus_safe in float32, from -30 to 1000."""
    x = mt.constant(SOFTPLUS_POINTS, dtype=mt.float32)
    with np.errstate(all="ignore"):  # the guarded version overflows in the discarded branch: this check says so
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = call(softplus_safe, x)
        gradient = tape.gradient(y, x)
    values = mt.convert_to_tensor(y).numpy()
    if values.shape != x.shape:
        raise Wrong(f"for an input of shape {tuple(x.shape)} it returned shape {values.shape}: it should work "
                    f"elementwise")
    if gradient is None:
        raise Wrong("its gradient is None: no recorded path from x (is it computed with minitape ops on x?)")
    g = gradient.numpy()
    if np.isnan(g).any():
        where_nan = ", ".join(f"x = {v:g}" for v, bad in zip(SOFTPLUS_POINTS, np.isnan(g)) if bad)
        raise Wrong(f"its gradient is still NaN at {where_nan}: the op that overflows there still sees a large x, "
                    f"although where() discards its result")
    return [Slot(values, "its values are wrong: log(1 + e^x) below 20, x from there on; {}"),
            Slot(g, "its gradient is finite but wrong: σ(x) below 20, 1 from there on; {}")]
