"""``jax.lax``: control flow that runs eagerly in Python, with JAX's rules for what can be differentiated.

``cond`` calls one branch; ``fori_loop`` and ``while_loop`` are Python loops. JAX differentiates a ``while_loop``
in forward mode only (its trip count is not known ahead); so does minitape: if a gradient tape hears an op of
the loop's body, the loop refuses with JAX's ValueError. ``fori_loop`` with Python-int bounds is a ``scan`` in
JAX, so reverse mode goes through it.

>>> fori_loop(0, 3, lambda i, x: x * 2.0, 1.0)
Array(8., dtype=float32)
"""

import numpy as np

from .. import ops, recording
from ..tape import GradientTape
from .arrays import as_array, asarray
from .numpy import stack
from .pytrees import tree_map


def stop_gradient(x):
    """``x`` (a pytree), with no derivative flowing through it."""
    return tree_map(lambda leaf: as_array(ops.stop_gradient(asarray(leaf))), x)


def cond(pred, true_fun, false_fun, *operands):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``."""
    if np.shape(pred) != ():
        raise TypeError(f"Pred must be a scalar, got {pred} of shape {np.shape(pred)}.")
    # np.asarray, not bool: under vmap the predicate may differ per example, and each example takes its branch
    return tree_map(asarray, true_fun(*operands) if np.asarray(pred) else false_fun(*operands))


def fori_loop(lower, upper, body_fun, init_val):
    """``val = body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1``."""
    val = tree_map(asarray, init_val)
    for i in range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def while_loop(cond_fun, body_fun, init_val):
    """``val = body_fun(val)`` while ``cond_fun(val)``; forward mode only, as in JAX."""
    tapes = [r for r in recording.active() if isinstance(r, GradientTape)]
    before = [len(t.records) for t in tapes]
    val = tree_map(asarray, init_val)
    while np.asarray(cond_fun(val)):  # as in cond: a mapped predicate is allowed
        val = body_fun(val)
    if any(len(t.records) > n for t, n in zip(tapes, before)):
        raise ValueError("Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
                         "dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
                         "start/stop.")
    return val


def scan(f, init, xs, length=None):
    """``carry, y = f(carry, x)`` for each ``x`` along the first axis of ``xs``; returns ``(carry, stacked ys)``."""
    steps = length if xs is None else len(xs)
    carry, ys = init, []
    for k in range(steps):
        carry, y = f(carry, None if xs is None else xs[k])
        ys.append(y)
    return carry, (tree_map(lambda *leaves: stack(leaves), *ys) if ys else None)
