"""Lesson 15's public test cases, probes and test (AD as function transformations)."""
import contextlib

import numpy as np

import minitape as mt
from classroom.probes import Raised, Slot, Wrong, call


# --- 15.1: value_and_grad with argnums, that composes ----------------------------------------------------------
def bump(x):
    """A function of one number: x² sin x."""
    return mt.sin(x) * x ** 2


def wave(x):
    """A function of a vector, returning one number."""
    return mt.reduce_sum(mt.tanh(x) * x) + x[0] * x[-1]


def layer_loss(w, x, t):
    """A function of three arguments: the squared error of tanh(w · x) against t."""
    return mt.square(mt.tanh(mt.reduce_sum(w * x)) - t)


def mixed(a, b, c):
    """A function of three arguments in which each meets the others."""
    return mt.reduce_sum(mt.sin(a * b)) * c + c ** 3 / mt.reduce_sum(b * b)


W, X, T = np.array([0.4, -0.7, 1.1]), np.array([1.0, 0.5, -0.3]), np.array(0.2)
VALUE_AND_GRAD_CASES = [(bump, (1.5,), 0), (wave, (np.array([0.3, -1.2, 2.0]),), 0), (layer_loss, (W, X, T), 0),
                        (layer_loss, (W, X, T), (2, 0)), (mixed, (X, W, np.array(0.8)), 1)]


def _as_minitape(value, what):
    if not isinstance(value, mt.Tensor):
        raise Wrong(f"{what} is a {type(value).__name__}, not a minitape tensor: a value that leaves minitape (a "
                    f"NumPy array, float(), .numpy()) has no history, and an outer tape or accumulator cannot follow "
                    f"it. Return the tensor itself")
    return value


def _value_and_gradients(transformed, args, argnums, what):
    pair = call(transformed, *args, what=what)
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise Wrong("value_and_grad(f, argnums)(*args) should return a pair: the value and the gradient(s)")
    value, gradients = pair
    if isinstance(argnums, tuple):
        if not isinstance(gradients, (tuple, list)) or len(gradients) != len(argnums):
            raise Wrong(f"for argnums={argnums} the gradients should be a tuple of {len(argnums)}, one per argument "
                        f"named, in the order argnums names them")
    else:
        gradients = (gradients,)
    return _as_minitape(value, "the value"), [_as_minitape(g, "a gradient") for g in gradients]


def value_and_grad_probe(value_and_grad, f, args, argnums):
    """15.1: the value and gradients alone, the first gradient's derivative under an outer tape, and the value's
    tangent under a ForwardAccumulator, for the arguments ``argnums`` names."""
    transformed = call(value_and_grad, f, argnums, what=f"value_and_grad({f.__name__}, argnums={argnums})")
    if not callable(transformed):
        raise Wrong(f"value_and_grad(f, argnums) returned a {type(transformed).__name__}, not a function: it should "
                    f"return a function of f's arguments")
    xs = [mt.constant(np.asarray(a, dtype=np.float64)) for a in args]
    first = argnums[0] if isinstance(argnums, tuple) else argnums
    value, gradients = _value_and_gradients(transformed, xs, argnums, f"value_and_grad(f, argnums={argnums})(...)")
    with mt.GradientTape() as outer:
        outer.watch(xs[first])
        _, inner = _value_and_gradients(transformed, xs, argnums, "value_and_grad(...)(...) under an outer tape")
        inner_sum = mt.reduce_sum(inner[0])
    second = outer.gradient(inner_sum, xs[first])
    if second is None:
        raise Wrong("an outer tape that watches an argument gets None as the derivative of your gradient: the tape "
                    "inside must watch the caller's tensors themselves, not new tensors made from their numbers")
    with mt.autodiff.ForwardAccumulator(xs[first], mt.ones_like(xs[first])) as accumulator:
        forward_value, _ = _value_and_gradients(transformed, xs, argnums,
                                                "value_and_grad(...)(...) under a ForwardAccumulator")
    tangent = accumulator.jvp(forward_value)
    if tangent is None:
        raise Wrong("a ForwardAccumulator around your function gives the value no tangent: the value must be "
                    "computed from the caller's tensors themselves, not from copies")
    return [Slot(value.numpy(), "the value is wrong: {}"),
            *[Slot(g.numpy(), f"the gradient for argument {n} is wrong: {{}}")
              for n, g in zip(argnums if isinstance(argnums, tuple) else (argnums,), gradients)],
            Slot(second.numpy(), "the derivative of the gradient under an outer tape is wrong: {}"),
            Slot(tangent.numpy(), "the value's tangent under a ForwardAccumulator is wrong: {}")]


# --- 15.2: a JVP from reverse mode alone ----------------------------------------------------------------------
def pair(x):
    """From R³ to R²: (x0 x1, sin x2 + x0), lesson 15's F."""
    return mt.stack([x[0] * x[1], mt.sin(x[2]) + x[0]])


def ripple(x):
    """From Rⁿ to Rⁿ, every output depending on every earlier input; the same ops for any n."""
    return mt.tanh(mt.math.cumsum(x * x)) + 0.5 * x


JVP_CASES = [(ripple, np.linspace(-1.0, 1.0, 5), np.cos(np.arange(5.0))),
             (pair, np.array([1.0, 2.0, 0.5]), np.array([0.5, 0.0, 2.0]))]


class ForwardModeUsed(Exception):
    """The answer entered a ForwardAccumulator, which exercise 15.2 leaves out."""


@contextlib.contextmanager
def reverse_mode_only():
    """Inside the block, entering any ForwardAccumulator raises ForwardModeUsed."""
    accumulator = mt.autodiff.ForwardAccumulator
    enter = accumulator.__enter__

    def refuse(self):
        raise ForwardModeUsed("a ForwardAccumulator was entered")

    accumulator.__enter__ = refuse
    try:
        yield
    finally:
        accumulator.__enter__ = enter


def _run_reverse_only(jvp_by_reverse, f, x, v):
    with reverse_mode_only():
        try:
            return call(jvp_by_reverse, f, x.copy(), v.copy(), what=f"jvp_by_reverse({f.__name__}, x, v)")
        except Raised as raised:
            if isinstance(raised.error, ForwardModeUsed):
                raise Wrong("it enters a ForwardAccumulator: this exercise asks for J v from reverse mode alone, "
                            "with tapes") from None
            raise


def jvp_probe(jvp_by_reverse, f, x, v):
    """15.2: J v, computed with no ForwardAccumulator."""
    result = np.asarray(mt.convert_to_tensor(_run_reverse_only(jvp_by_reverse, f, x, v)))
    expected_shape = tuple(f(mt.constant(x)).shape)
    if result.shape != expected_shape:
        raise Wrong(f"for {f.__name__} it returned shape {result.shape}, but J v has the shape of f's output, "
                    f"{expected_shape}")
    return Slot(result, f"for {f.__name__}, J v is wrong: {{}}")


def same_ops_at_any_size(jvp_by_reverse):
    """15.2: the same number of ops for x of 4 and of 40 numbers, as no Jacobian is built."""
    counts = {}
    for n in (4, 40):
        with mt.autodiff.OpCounter() as ops:
            try:
                _run_reverse_only(jvp_by_reverse, ripple, np.linspace(-1.0, 1.0, n), np.cos(np.arange(float(n))))
            except Exception:  # the cases passed: a failure here is a size the answer does not handle
                return f"it fails for an x of {n} numbers; make it work for any length"
        counts[n] = ops.total
    if counts[40] > counts[4]:
        return (f"it runs {counts[4]} ops for an x of 4 numbers and {counts[40]} for 40: its cost grows with the size, "
                f"as building J row by row or column by column does. A fixed number of passes is enough")
    return None
