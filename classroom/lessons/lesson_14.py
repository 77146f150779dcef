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


LOG_POINTS = [-1.0, 0.0, 0.5, 2.0]
LOG_CASES = [()]


def log_or_zero_probe(log_or_zero):
    """14.3: the values and the gradient of log_or_zero at -1, 0, 0.5 and 2."""
    x = mt.constant(LOG_POINTS, dtype=mt.float64)
    with np.errstate(all="ignore"):  # a naive answer divides by zero: that is what this check reports
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = call(log_or_zero, x)
        gradient = tape.gradient(y, x)
    values = mt.convert_to_tensor(y).numpy()
    if values.shape != (4,):
        raise Wrong(f"for an input of shape (4,) it returned shape {values.shape}: it should work elementwise")
    if gradient is None:
        raise Wrong("its gradient is None: no recorded path from x (is the log computed with minitape ops on x, "
                    "inside the tape?)")
    g = gradient.numpy()
    if np.isnan(g).any():
        where_nan = ", ".join(f"x = {v:g}" for v, bad in zip(LOG_POINTS, np.isnan(g)) if bad)
        raise Wrong(f"its gradient is still NaN at {where_nan}: the branch that where() throws away is still "
                    f"differentiated there, and its infinite derivative times zero is NaN")
    return [Slot(values, "its values are wrong: log(x) where x > 0 and 0 elsewhere (at x = 0 too); {}"),
            Slot(g, "its gradient is finite but wrong: 1/x where x > 0 and 0 elsewhere; {}")]
