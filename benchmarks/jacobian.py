"""Benchmark 4: a full Jacobian by forward mode (n passes) and by reverse mode (m passes).

The function is a two-layer network from R^n to R^m with a hidden width of 32:

    f(x) = tanh(tanh(x W1) W2),     x: 1 x n,  W1: n x 32,  W2: 32 x m

Its m x n Jacobian is built two ways with minitape:

* forward mode: one ``mt.autodiff.ForwardAccumulator`` pass per input, seeded with a basis
  tangent e_j, gives column j (the function and its tangents are computed n times);
* reverse mode: one recorded forward, then ``tape.jacobian``: one backward sweep per output.

Theory: forward mode costs about n passes and reverse mode about m, so with m fixed forward
mode wins for n below m and loses above it; the crossover is at n ≈ m, moved by the ratio of
the costs of one pass of each (a forward pass also recomputes the function). Two sweeps,
n varying with m = 16 and m varying with n = 16, all their points timed in turns. Both
Jacobians are checked against the one written out with NumPy, diag(1 - y²) W2ᵀ diag(1 - h²) W1ᵀ,
before anything is timed.
"""

import itertools

import numpy as np

from harness import check_close, print_table, save_figure, time_side_by_side

HIDDEN = 32
FIXED = 16  # the size of the side that does not vary
FULL_SWEEP = (1, 2, 4, 8, 16, 32, 64, 128)
QUICK_SWEEP = (2, 8, 16, 32, 64)


def problem(n, m, seed=0):
    """x (1 x n), W1, W2 as NumPy arrays, scaled so that tanh is not saturated."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((1, n), dtype=np.float32)
    w1 = rng.standard_normal((n, HIDDEN), dtype=np.float32) / np.float32(np.sqrt(n))
    w2 = rng.standard_normal((HIDDEN, m), dtype=np.float32) / np.float32(np.sqrt(HIDDEN))
    return x, w1, w2


def numpy_jacobian(x, w1, w2):
    hidden = np.tanh(x @ w1)[0]
    y = np.tanh(hidden @ w2)
    return (1 - y * y)[:, None] * w2.T @ ((1 - hidden * hidden)[:, None] * w1.T)


def network(mt, x, w1, w2):
    return mt.tanh(mt.matmul(mt.tanh(mt.matmul(x, w1)), w2))


def jacobian_by_forward_mode(mt, x, w1, w2):
    """n passes of ``ForwardAccumulator``, one per basis tangent: the columns of the Jacobian."""
    n = x.shape[1]
    basis = np.eye(n, dtype=np.float32)
    columns = []
    for j in range(n):
        with mt.autodiff.ForwardAccumulator(x, mt.constant(basis[j:j + 1])) as accumulator:
            y = network(mt, x, w1, w2)
        columns.append(accumulator.jvp(y))
    return mt.stack(columns, axis=-1).numpy()[0]  # (1, m, n) -> (m, n)


def jacobian_by_reverse_mode(mt, x, w1, w2):
    """One recorded forward, then ``tape.jacobian``: m backward sweeps, one per output."""
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = network(mt, x, w1, w2)
    jacobian = tape.jacobian(y, x).numpy()  # (1, m, 1, n)
    return jacobian.reshape(jacobian.shape[1], jacobian.shape[3])


def cases(n, m):
    """The two ways to the Jacobian of one (n, m) problem, as zero-argument callables, checked against NumPy."""
    import minitape as mt

    arrays = problem(n, m)
    x, w1, w2 = (mt.constant(a) for a in arrays)
    both = {"forward": lambda: jacobian_by_forward_mode(mt, x, w1, w2),
            "reverse": lambda: jacobian_by_reverse_mode(mt, x, w1, w2)}
    reference = numpy_jacobian(*arrays)
    passed = all(check_close([case()], [reference])[0] for case in both.values())
    return both, passed


def both_sweeps(sweep, rounds):
    """{"n": points, "m": points}: both modes at every point of both sweeps, timed in turns in one go,
    so that a drift of the machine during the run bends neither the curves nor their comparison."""
    timed, points = {}, {"n": [], "m": []}
    for size, other in (("n", "m"), ("m", "n")):
        for s in sweep:
            both, passed = cases(**{size: s, other: FIXED})
            timed.update({(size, s, mode): case for mode, case in both.items()})
            points[size].append({size: s, other: FIXED, "checks_passed": passed})
    timings = time_side_by_side(timed, rounds)
    for size, sized in points.items():
        for point in sized:
            for mode in ("forward", "reverse"):
                point[f"{mode}_s"] = timings[size, point[size], mode].median
    return points


def crossover(points, size):
    """Where forward and reverse take equal time along ``size`` ("n" or "m"), interpolated in log-log; or None."""
    for a, b in itertools.pairwise(points):
        da, db = (np.log(p["forward_s"] / p["reverse_s"]) for p in (a, b))
        if da == 0:
            return float(a[size])
        if da * db < 0:
            t = da / (da - db)
            return float(np.exp(np.log(a[size]) + t * (np.log(b[size]) - np.log(a[size]))))
    return None


def run(sweep, rounds):
    """Measure and print benchmark 4 (both sweeps); return its results as plain data."""
    result = {}
    swept = both_sweeps(sweep, rounds)
    for size, other in (("n", "m"), ("m", "n")):
        points = swept[size]
        found = crossover(points, size)
        result[f"vary_{size}"] = {"points": points, "crossover": found}
        rows = [[p[size], f"{p['forward_s'] * 1e3:.2f}", f"{p['reverse_s'] * 1e3:.2f}",
                 "forward" if p["forward_s"] < p["reverse_s"] else "reverse",
                 "ok" if p["checks_passed"] else "FAILED"] for p in points]
        print_table(f"4{'ab'[size == 'm']}. Full Jacobian of f: R^n -> R^m, {other} = {FIXED}, {size} varies "
                    f"(median of {rounds} rounds)",
                    [size, "forward mode ms", "reverse mode ms", "faster", "check vs NumPy"], rows)
        where = "not inside the sweep" if found is None else f"{size} ≈ {found:.1f}"
        print(f"Crossover: {where}; theory: {size} ≈ {other} = {FIXED} (n passes against m passes).")
    # The cost of one pass of each mode: the slope of its time along the sweep where its passes vary.
    forward_pass = pass_cost(result["vary_n"]["points"], "n", "forward_s")
    reverse_pass = pass_cost(result["vary_m"]["points"], "m", "reverse_s")
    result.update(forward_pass_s=forward_pass, reverse_pass_s=reverse_pass)
    print(f"One forward-mode pass costs {forward_pass * 1e6:.0f} µs (it recomputes f), one reverse sweep "
          f"{reverse_pass * 1e6:.0f} µs: with these costs, n passes equal m sweeps at n ≈ "
          f"{reverse_pass / forward_pass:.2f} m, i.e. n ≈ {FIXED * reverse_pass / forward_pass:.1f} for m = {FIXED}, "
          f"m ≈ {FIXED * forward_pass / reverse_pass:.1f} for n = {FIXED}.")
    return result


def pass_cost(points, size, key):
    """Seconds per pass: the least-squares slope of time against the number of passes."""
    return float(np.polyfit([p[size] for p in points], [p[key] for p in points], 1)[0])


def plot(result, path):
    """Time against n (m fixed) and against m (n fixed), both modes, with the line n = m."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (size, other) in zip(axes, (("n", "m"), ("m", "n"))):
        points = result[f"vary_{size}"]["points"]
        sizes = [p[size] for p in points]
        ax.loglog(sizes, [p["forward_s"] for p in points], "o-", label="forward mode (n passes)")
        ax.loglog(sizes, [p["reverse_s"] for p in points], "s-", label="reverse mode (m passes)")
        ax.axvline(FIXED, color="k", linestyle=":", label=f"{size} = {other} = {FIXED}")
        ax.set(xlabel=size, ylabel="seconds per Jacobian", title=f"{other} = {FIXED}, {size} varies")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend()
    save_figure(fig, "minitape: the full Jacobian of f: R^n -> R^m, f(x) = tanh(tanh(x W1) W2)", path)
