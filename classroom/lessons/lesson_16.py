"""Lesson 16's public test cases, probes and tests (linear algebra: backward rules, the adjoint method)."""
import contextlib

import numpy as np

from classroom.probes import Slot, Wrong, call

INVERTING = ("inv", "pinv", "tensorinv", "lstsq")


@contextlib.contextmanager
def counted_linear_algebra():
    """Inside the block, count the right-hand sides given to ``np.linalg.solve`` and the calls that invert.

    Yields a dict ``{"right-hand sides": ..., "inverses": ...}``, read after the block. minitape's ``linalg``
    ops call NumPy's functions too, so ``mt.linalg.solve`` and ``mt.linalg.inv`` are counted as well.
    """
    counts = {"right-hand sides": 0, "inverses": 0}
    solve = np.linalg.solve
    originals = {name: getattr(np.linalg, name) for name in INVERTING}

    def counting_solve(a, b):
        counts["right-hand sides"] += np.size(b) // np.shape(a)[-1]
        return solve(a, b)

    def counting(original):
        def inverting(*args, **kwargs):
            counts["inverses"] += 1
            return original(*args, **kwargs)
        return inverting

    np.linalg.solve = counting_solve
    for name, original in originals.items():
        setattr(np.linalg, name, counting(original))
    try:
        yield counts
    finally:
        np.linalg.solve = solve
        for name, original in originals.items():
            setattr(np.linalg, name, original)


# --- 16.1: the gradient of a 2 × 2 determinant: a value, no public part -----------------------------------------

# --- 16.2: the VJP of a solve -----------------------------------------------------------------------------------
def _solve_case(n, k, seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, n)) + n * np.eye(n)  # well conditioned, and not symmetric: a transpose matters
    return a, rng.normal(size=(n, k)), rng.normal(size=(n, k))


SOLVE_CASES = [_solve_case(3, 1, 160), _solve_case(4, 2, 161), _solve_case(5, 3, 162)]


def _solve_vjp_pair(solve_vjp, a, b, x, x_bar):
    what = f"solve_vjp on A of shape {a.shape} and B of shape {b.shape}"
    result = call(solve_vjp, a.copy(), b.copy(), x.copy(), x_bar.copy(), what=what)
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Wrong("it should return two arrays, a_bar and b_bar, as a pair: return a_bar, b_bar")
    for name, got, of, shape in (("a_bar", result[0], "A", a.shape), ("b_bar", result[1], "B", b.shape)):
        if np.shape(got) != shape:
            raise Wrong(f"for A of shape {a.shape} and B of shape {b.shape}, {name} has shape {np.shape(got)}, but a "
                        f"gradient has the shape of what it differentiates, {of}'s {shape}")
    return result


def solve_vjp_probe(solve_vjp, a, b, x_bar):
    """16.2: Ā and B̄ for the upstream gradient X̄ of X = A⁻¹B."""
    a_bar, b_bar = _solve_vjp_pair(solve_vjp, a, b, np.linalg.solve(a, b), x_bar)
    return [Slot(np.asarray(a_bar, dtype=float), f"for B of {b.shape[1]} column(s), a_bar is wrong: {{}}"),
            Slot(np.asarray(b_bar, dtype=float), f"for B of {b.shape[1]} column(s), b_bar is wrong: {{}}")]


def solves_without_inverting(solve_vjp):
    """16.2: one solve per column of X̄, and no inverse."""
    a, b, x_bar = SOLVE_CASES[-1]
    x = np.linalg.solve(a, b)
    with counted_linear_algebra() as counts:
        _solve_vjp_pair(solve_vjp, a, b, x, x_bar)
    if counts["inverses"]:
        return ("it inverts a matrix: a solve's gradient needs only a solve with the transposed matrix, which is "
                "cheaper and more accurate than an inverse")
    columns = b.shape[1]
    if counts["right-hand sides"] == 0:
        return "it solves no system with np.linalg.solve (the check counts its right-hand sides): use it for B̄"
    if counts["right-hand sides"] > columns:
        return (f"it solves {counts['right-hand sides']} right-hand sides for an X̄ of {columns} columns: one solve "
                f"per column of X̄ is enough (solving against the identity is an inverse in disguise)")
    return None


# --- 16.3: the adjoint method ------------------------------------------------------------------------------------
ADJOINT_CASES = [(0.5 * np.random.default_rng(1).normal(size=31),), (np.linspace(-0.4, 0.6, 31),)]


def adjoint_probe(adjoint_gradient, theta):
    """16.3: dL/dθ for the heated bar of lesson 16, at θ."""
    gradient = np.asarray(call(adjoint_gradient, theta.copy(), what="adjoint_gradient(theta)"), dtype=float)
    if gradient.shape != theta.shape:
        raise Wrong(f"it returned shape {gradient.shape}; dL/dθ has one number per parameter, shape {theta.shape}")
    return Slot(gradient, "the gradient is wrong: {}")


def two_solves(adjoint_gradient):
    """16.3: two right-hand sides solved in all, and no inverse, for 31 parameters."""
    with counted_linear_algebra() as counts:
        call(adjoint_gradient, ADJOINT_CASES[0][0].copy(), what="adjoint_gradient(theta)")
    solved = counts["right-hand sides"]
    if counts["inverses"]:
        return "it inverts a matrix: the adjoint method needs two solves and products, no inverse"
    if solved == 0:
        return ("it solves no system with np.linalg.solve (the check counts its right-hand sides): use it for both "
                "solves")
    if solved > 2:
        return (f"it solves {solved} right-hand sides for 31 parameters: that is the cost of the direct method (one "
                f"per parameter) or of finite differences (two per parameter); the adjoint method needs two in all")
    return None
