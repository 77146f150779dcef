"""Lesson 14's public test cases, probes and test (the hard parts)."""
import numpy as np

import minitape as mt
from classroom.probes import Slot, Wrong, call


def _orthogonal(n, rng):
    return np.linalg.qr(rng.normal(size=(n, n)))[0]


def _back_step_case(n, seed):
    """(W, h_next, g_next): a step's output h_next = tanh(W h) and an adjoint arriving at it."""
    rng = np.random.default_rng(seed)
    W = _orthogonal(n, rng)
    return W, np.tanh(W @ rng.normal(size=(n, 1))), rng.normal(size=(n, 1))


BACK_STEP_CASES = [_back_step_case(4, 140), _back_step_case(16, 141)]


def back_step_probe(back_one_step, W, h_next, g_next):
    """14.1: the step's input rebuilt from its output, and the input's adjoint, from the output alone."""
    n = len(h_next)
    got = call(back_one_step, W.copy(), h_next.copy(), g_next.copy(), what=f"for n = {n} it")
    if not isinstance(got, tuple) or len(got) != 2:
        raise Wrong("it should return two arrays, the input h and its adjoint g, as a pair: return h, g")
    h, g = (np.asarray(mt.convert_to_tensor(part).numpy(), dtype=np.float64) for part in got)
    for name, part in (("h", h), ("g", g)):
        if part.shape != h_next.shape:
            raise Wrong(f"for n = {n} its {name} has shape {part.shape}; the step's input and its adjoint have "
                        f"the output's shape {h_next.shape}")
    return [Slot(h, f"for n = {n} the rebuilt input h is wrong: tanh(W h) should give h_next back ({{}})"),
            Slot(g, f"for n = {n} the adjoint g of the input is wrong: {{}}")]


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
SOFTPLUS_CASES = [([-30.0, -5.0, 0.0, 3.0, 19.5, 20.0, 30.0, 100.0, 1000.0],)]


def softplus_probe(softplus_safe, points):
    """14.4: the values and the gradient of softplus_safe in float32 at the points (the check's: -30 to 1000)."""
    x = mt.constant(points, dtype=mt.float32)
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
        where_nan = ", ".join(f"x = {v:g}" for v, bad in zip(points, np.isnan(g)) if bad)
        raise Wrong(f"its gradient is still NaN at {where_nan}: the op that overflows there still sees a large x, "
                    f"although where() discards its result")
    return [Slot(values, "its values are wrong: log(1 + e^x) below 20, x from there on; {}"),
            Slot(g, "its gradient is finite but wrong: σ(x) below 20, 1 from there on; {}")]
