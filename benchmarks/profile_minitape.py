"""Where minitape's time goes on benchmarks 1 and 2: a cProfile of the record+gradient step.

    python benchmarks/profile_minitape.py            # both benchmarks, the 25 costliest functions each
    python benchmarks/profile_minitape.py --top 40

Prints, for each function, its calls per op (or per step), its own time per call and its
share of the total. cProfile adds roughly a microsecond to every Python call it sees, so
the absolute times are inflated, most for the smallest functions; the shares and the call
counts are what to read. Garbage collection is reported separately: it runs inside
whatever function happens to allocate, so cProfile spreads it over them.
"""

import single_thread  # noqa: F401  (first: pins every thread pool to one thread before NumPy loads)

import argparse
import cProfile
import gc
import pathlib
import pstats
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import minitape as mt
import mlp
import per_op
from harness import print_table, time_side_by_side


def profile(gradient, calls, per, what, top):
    """Profile ``calls`` calls of ``gradient``; print the ``top`` functions by own time, per ``per`` items."""
    gradient()  # warm-up
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        gradient()
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # {(file, line, name): (calls, primitive calls, own s, cumulative s, callers)}
    total = sum(own for _, _, own, _, _ in stats.values())
    rows = []
    for (file, line, name), (_, ncalls, own, cumulative, _) in sorted(stats.items(), key=lambda s: -s[1][2])[:top]:
        where = f"{pathlib.Path(file).name}:{line}" if line else "built-in"
        rows.append([f"{name} ({where})", f"{ncalls / (calls * per):.2f}", f"{own / ncalls * 1e6:.2f}",
                     f"{cumulative / (calls * per) * 1e6:.2f}", f"{own / total:.1%}"])
    print_table(f"{what}: the {top} functions with the most own time (under cProfile)",
                ["function", f"calls per {'op' if per > 1 else 'step'}", "own µs per call",
                 f"cumulative µs per {'op' if per > 1 else 'step'}", "share of own time"], rows)


def garbage_collection_share(gradient, rounds=21):
    """The fraction of the time spent in the garbage collector: calls with it on and off, in turns."""
    def collector_off():
        gc.disable()
        try:
            gradient()
        finally:
            gc.enable()

    timings = time_side_by_side({"on": gradient, "off": collector_off}, rounds)
    return 1 - timings["off"].median / timings["on"].median


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=25, help="how many functions to list")
    args = parser.parse_args()
    for module, calls, per, what in ((per_op, 20, per_op.OPS, "1. Per-op record+gradient"),
                                     (mlp, 20, 1, "2. MLP forward+gradient")):
        _, gradient = module.gradient_tape(mt)
        profile(gradient, calls, per, what, args.top)
        print(f"Garbage collection: {garbage_collection_share(gradient):.0%} of the time (medians of calls "
              f"with the collector on and off, in turns).")


if __name__ == "__main__":
    main()
