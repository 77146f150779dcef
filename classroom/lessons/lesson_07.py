"""Lesson 07's public test cases, probe and test, and each student's own numbers (higher-order derivatives)."""
import numpy as np

import minitape as mt
from classroom.probes import ReturnedNone, Slot, Wrong, call
from classroom.variants import variant
from minitape import recording


def _signed_point(rng, most):
    """A point (x, y) of two nonzero numbers in steps of 1/8, of magnitude at most ``most``/8."""
    return {"point": tuple(float(rng.choice([-1, 1]) * rng.integers(1, most + 1) / 8) for _ in range(2))}


VARIANTS = {
    # 7.1: ∂²g/∂y∂x of g(x, y) = x² y³ + sin(x y) at point, by two nested tapes
    "7.1": variant(point=(0.5, 1.5), draw=lambda rng: _signed_point(rng, 20)),
    # 7.3: the Hessian of g(x, y) = x² y + y³ at point, by hand
    "7.3": variant(point=(1.0, 2.0), draw=lambda rng: _signed_point(rng, 24)),
}


def quartic(x):
    """Section 4's function: a tridiagonal Hessian."""
    return mt.reduce_sum(x ** 4) / 4.0 + mt.reduce_sum(x[:-1] * x[1:])


def wavy(x):
    """A function of three numbers whose Hessian is full."""
    return mt.reduce_sum(x * mt.sin(x)) + x[0] * x[1] * x[2]


HVP_CASES = [(wavy, np.array([0.5, -1.0, 2.0]), np.array([1.0, 0.0, 0.0])),
             (wavy, np.array([1.5, 0.3, -0.7]), np.array([0.2, -1.0, 3.0])),
             (quartic, np.linspace(-1.0, 1.0, 5), np.cos(np.arange(5.0)))]


def _recorders_seen_by(f, seen):
    """f, noting the tapes and accumulators active (outermost first) each time it runs."""
    def watched(x):
        seen.append([type(r).__name__ for r in recording.active()
                     if isinstance(r, (mt.GradientTape, mt.autodiff.ForwardAccumulator))])
        return f(x)
    return watched


def hvp_probe(hvp, f, x0, v0):
    """7.4: the product the learner's function returns for one function, point and direction."""
    name = f.__name__
    seen = []
    try:
        product = call(hvp, _recorders_seen_by(f, seen), mt.constant(x0), mt.constant(v0),
                       what=f"on {name} at x = {x0.tolist()}")
    except ReturnedNone:
        if seen and seen[0][:2] == ["ForwardAccumulator", "GradientTape"]:
            raise Wrong("it returned None: the tape recorded inside the accumulator, so it never saw the "
                        "accumulator's arithmetic and has no path from ∇f · v back to x") from None
        raise
    product = np.asarray(mt.convert_to_tensor(product).numpy())
    if product.shape != x0.shape:
        raise Wrong(f"on {name} at a point of shape {x0.shape} it returned shape {product.shape}: H v has the shape "
                    f"of x")
    return Slot(product, f"on {name}, H v is wrong: {{}}")


def runs_reverse_over_forward(hvp):
    """7.4: f runs once, while a tape records outside a ForwardAccumulator."""
    seen = []
    call(hvp, _recorders_seen_by(quartic, seen), mt.constant(np.linspace(-1.0, 1.0, 5)), mt.constant(np.ones(5)),
         what="on quartic")
    if len(seen) != 1:
        return f"f ran {len(seen)} times for one product: one run of f, under both recorders, is enough"
    (stack,) = seen
    if "ForwardAccumulator" not in stack:
        return ("f ran with no ForwardAccumulator active: in reverse-over-forward the accumulator computes "
                "∇f · v as f runs")
    if "GradientTape" not in stack[:stack.index("ForwardAccumulator")]:
        return ("f ran in a ForwardAccumulator with no tape recording outside it (a tape inside it is "
                "forward-over-reverse): open the tape first, so that it records the accumulator's arithmetic")
    return None
