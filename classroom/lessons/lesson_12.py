"""Lesson 12's public test cases, probes and tests (tensors and layers)."""
import tracemalloc

import numpy as np

import minitape as mt
from classroom.probes import NotAnswered, Raised, Slot, Wrong, call
from minitape import recording


def _matmul_vjp_cases():
    rng = np.random.default_rng(11)
    cases = []
    for x_shape, w_shape in [((2, 3), (3, 4)), ((1, 5), (5, 2)), ((4, 4), (4, 4))]:
        x, w = rng.normal(size=x_shape), rng.normal(size=w_shape)
        cases.append((x, w, rng.normal(size=(x_shape[0], w_shape[1]))))
    return cases


MATMUL_VJP_CASES = _matmul_vjp_cases()


def matmul_vjp_probe(matmul_vjp, x, w, g):
    """12.1: dx and dw for X, W and the upstream gradient G, each with its shape checked first."""
    shapes = f"X of shape {x.shape}, W of shape {w.shape}, G of shape {g.shape}"
    try:
        result = call(matmul_vjp, x.copy(), w.copy(), g.copy(), what=f"on {shapes} it")
    except Raised as raised:
        if isinstance(raised.error, ValueError) and "matmul" in str(raised.error):  # NumPy's mismatched shapes
            raise Wrong(f"on {shapes} it raised ValueError: {raised.error}; in a product A @ B the last axis of A "
                        f"must match the first of B") from None
        raise
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Wrong("it should return two arrays, dx and dw, as a pair: return dx, dw")
    for name, got, of, shape in (("dx", result[0], "X", x.shape), ("dw", result[1], "W", w.shape)):
        if got is ...:
            raise NotAnswered
        if got is not None and np.shape(got) != shape:
            raise Wrong(f"on {shapes}, {name} has shape {np.shape(got)}, but a gradient always has the shape of "
                        f"what it differentiates, here {of}'s shape {shape}")
    return [Slot(result[0], f"on {shapes}, dx is wrong: {{}}"), Slot(result[1], f"on {shapes}, dw is wrong: {{}}")]


_G = np.random.default_rng(12).normal(size=(2, 3, 4))
UNBROADCAST_CASES = [(_G[0], (3, 4)), (_G[0], (4,)), (_G[0], (1, 4)), (_G, (3, 1)), (_G, (2, 1, 4)), (_G[0], ())]


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


_RNG = np.random.default_rng(13)
SOFTMAX_CASES = [(_softmax(_RNG.normal(size=4)), _RNG.normal(size=4)),
                 (_softmax(_RNG.normal(size=(3, 5))), _RNG.normal(size=(3, 5))),
                 (_softmax(np.array([0.0, 0.0])), np.array([1.0, 1.0]))]


def never_forms_the_jacobian(softmax_vjp):
    """12.4: the VJP of a softmax of 1000 entries holds far less than J's million numbers at its peak."""
    n = 1000
    y, g = _softmax(np.linspace(-2.0, 2.0, n)), np.cos(np.arange(n, dtype=np.float64))
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        call(softmax_vjp, y, g, what=f"on a softmax of {n} entries it")
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        if not tracing:
            tracemalloc.stop()
    if peak > 100 * 8 * n:
        return (f"at n = {n} it held {peak / 1e6:.1f} MB at its peak, the size of a {n} × {n} matrix: it forms the "
                f"Jacobian (or another n × n array); compute Jᵀg from y and g without it")
    return None


# -- 12.5: per-example gradients ------------------------------------------------------------------------------------
def _classification(B, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(B, 3)), rng.choice([-1.0, 1.0], size=B), rng.normal(size=3)


PER_EXAMPLE_CASES = [_classification(5, 120), _classification(40, 121)]


def per_example_probe(per_example_gradients, x, t, w):
    """12.5: the learner's (B, P) array of per-example gradients."""
    got = call(per_example_gradients, x.copy(), t.copy(), w.copy(), what=f"for a batch of {len(t)} it")
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    if got.shape != x.shape:
        raise Wrong(f"for a batch of {len(t)} examples and {x.shape[1]} weights it returned shape {got.shape}: one "
                    f"row per example, one column per weight, {x.shape}")
    return Slot(got, f"for a batch of {len(t)} the per-example gradients are wrong: {{}}")


class BatchCopies(recording.Recorder):
    """Hears every op, and notes whether a tape active then watches an array of ``shape``, the batch's (B, P).

    A copy of w per example is such an array; the logits that the exercise asks for have shape (B,).

    >>> x = np.ones((4, 3))
    >>> with BatchCopies(x.shape) as copies, mt.GradientTape() as tape:
    ...     copies_of_w = mt.constant(np.tile(np.arange(3.0), (4, 1)))
    ...     tape.watch(copies_of_w)
    ...     total = mt.reduce_sum(copies_of_w * x)
    >>> copies.found
    True
    """

    def __init__(self, shape):
        self.shape, self.found = tuple(shape), False

    def record(self, prim, inputs, output, attrs):
        self.found = self.found or any(
            tuple(watched.shape.as_list()) == self.shape
            for tape in recording.active() if isinstance(tape, mt.GradientTape) for watched in tape.watched.values())


def one_pass_whatever_the_batch(per_example_gradients):
    """12.5: as many ops for a batch of 64 as for a batch of 4 (one forward and one backward pass), and no tape
    that watches a (B, P) copy of the weights."""
    counts, copied = [], False
    for B in (4, 64):
        x, t, w = _classification(B, 122)
        with mt.autodiff.OpCounter() as ops, BatchCopies(x.shape) as copies:
            call(per_example_gradients, x, t, w, what=f"for a batch of {B} it")
        counts.append(ops.total)
        copied = copied or copies.found
    if copied:
        return ("its tape watches a (B, P) array, a copy of w per example: that is section 5's method, which this "
                "exercise replaces. Watch the B logits z = x w instead, take the gradient of the summed losses "
                "with respect to them, and carry it to w by the chain rule through z_b")
    if counts[0] == 0:
        return "it runs no minitape op: record logit_losses on a tape and let the tape find the gradients"
    if counts[0] != counts[1]:
        return (f"it runs {counts[0]} ops for a batch of 4 and {counts[1]} for a batch of 64: passes that grow with "
                f"the batch; one tape, one backward pass, whatever B is")
    return None
