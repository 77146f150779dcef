"""Lesson 06's public test cases and probe, and each student's own numbers (the rules of the tape)."""
import minitape as mt
from classroom.probes import Slot, Wrong, call
from classroom.variants import variant

VARIANTS = {
    # 6.1: d(a**power)/da at point, a constant that the tape must watch
    "6.1": variant(power=3, point=2.0,
                   draw=lambda rng: {"power": int(rng.integers(2, 6)),
                                     "point": float(rng.choice([-1, 1]) * rng.integers(1, 161) / 8)}),
    # 6.2: y = sin x and z = y² at point, from one persistent tape
    "6.2": variant(point=0.5, draw=lambda rng: {"point": float(rng.choice([-1, 1]) * rng.integers(10, 600) / 200)}),
}

SOFTPLUS_CASES = [(-2.0,), (0.0,), (1.5,), (4.0,)]
POWERS = [(1,), (2,), (3,), (4,), (5,)]


def power_probe(power_by_loop, n):
    """6.4b: the value, the number of ops the tape recorded and the gradient of power_by_loop(x, n) at x = 1.5."""
    x = mt.constant(1.5, dtype=mt.float64)
    with mt.GradientTape() as tape:
        tape.watch(x)
        result = call(power_by_loop, x, n, what=f"power_by_loop(x, {n})")
    if not isinstance(result, mt.Tensor):
        raise Wrong(f"power_by_loop returned a {type(result).__name__}, not a minitape tensor: multiply the "
                    f"tensor x itself, not a NumPy or Python number")
    recorded = len(tape)
    gradient = tape.gradient(result, x)
    if gradient is None:
        raise Wrong("the tape has no path from x to the result (the gradient is None): compute with minitape "
                    "operations on x, not through NumPy")
    return [Slot(float(result), f"for n = {n} the value is not x to the power n: count how many times your loop "
                                f"multiplies"),
            Slot(recorded, f"for n = {n} the value is right, but the tape recorded {recorded} operation(s) where a "
                           f"loop of multiplications starting from result = x records one per pass of the loop"),
            Slot(float(gradient), f"for n = {n} the tape's gradient is not the derivative of x to the power n")]
