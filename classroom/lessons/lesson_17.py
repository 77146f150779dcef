"""Lesson 17's public numbers, test cases and probe (gradients through depth and time)."""
import numpy as np

import minitape as mt
from classroom.probes import Slot, Wrong, call
from classroom.variants import variant

VARIANTS = {
    # 17.2: a leaky ReLU's fan-in and negative slope (1,009 fan-ins × 60 slopes)
    "17.2": variant(fan_in=256, slope=0.2,
                    draw=lambda rng: {"fan_in": int(rng.integers(16, 1025)), "slope": int(rng.integers(1, 61)) / 100}),
}


# -- 17.3: truncated backpropagation through time ------------------------------------------------------------------
def tanh_step(W, h, x, y):
    """h_t = tanh(W h_(t-1) + x_t), with the loss ½|h_t - y_t|²."""
    h = mt.tanh(mt.linalg.matvec(W, h) + x)
    return h, 0.5 * mt.reduce_sum(mt.square(h - y))


def sine_step(W, h, x, y):
    """h_t = sin(W h_(t-1)) + x_t, with the loss y_t · h_t."""
    h = mt.sin(mt.linalg.matvec(W, h)) + x
    return h, mt.reduce_sum(y * h)


def _sequence(step, width, steps, gain, seed, k1, k2):
    rng = np.random.default_rng(seed)
    W = gain * np.linalg.qr(rng.normal(size=(width, width)))[0]
    return step, W, rng.normal(size=(steps, width)), rng.normal(size=(steps, width)), k1, k2


TRUNCATED_CASES = [_sequence(tanh_step, 4, 12, 1.2, 170, 12, 12), _sequence(tanh_step, 4, 12, 1.2, 171, 3, 3),
                   _sequence(tanh_step, 3, 12, 0.9, 172, 2, 5), _sequence(tanh_step, 5, 12, 1.5, 173, 4, 8),
                   _sequence(sine_step, 3, 10, 1.1, 174, 1, 4), _sequence(sine_step, 4, 12, 0.8, 175, 6, 6)]


def truncated_probe(truncated_bptt, step, W, xs, ys, k1, k2):
    """17.3: the gradient in W that TBPTT(k1, k2) sums over the sequence."""
    about = f"with k1 = {k1}, k2 = {k2} on {len(xs)} steps of {step.__name__}"
    got = call(truncated_bptt, step, W.copy(), xs.copy(), ys.copy(), k1, k2, what=f"{about}, it")
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    if got.shape != W.shape:
        raise Wrong(f"{about}, it returned shape {got.shape}: the gradient in W has W's shape, {W.shape}")
    return Slot(got, f"{about}, the gradient is wrong: {{}}")
