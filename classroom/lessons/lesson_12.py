"""Lesson 12's public test cases and probe (tensors and layers)."""
import numpy as np

from classroom.probes import NotAnswered, Raised, Slot, Wrong, call


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
