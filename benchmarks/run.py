"""Run the four benchmarks of minitape and report them (``make bench``, or ``python benchmarks/run.py``).

    python benchmarks/run.py            # the full run, up to a tape of 1,000,000 ops (a few minutes)
    python benchmarks/run.py --quick    # fewer rounds, tapes up to 100,000 ops (about a minute)

Prints one table per benchmark and a summary of the targets, and writes under
benchmarks/results/: results.json (every number, the machine and the versions), latest.md
(the same tables in Markdown), frameworks.png, scaling.png and jacobian.png. See benchmarks/README.md for the method.
"""

import single_thread  # noqa: F401  (first: pins every thread pool to one thread before NumPy loads)

import argparse
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # minitape from this checkout, whether installed or not

import frameworks  # noqa: E402
import harness  # noqa: E402
import jacobian  # noqa: E402
import mlp  # noqa: E402
import per_op  # noqa: E402
import scaling  # noqa: E402

RESULTS = HERE / "results"


def source_version():
    """The git commit of the minitape being measured, marked if its files differ from it."""
    try:
        commit = subprocess.run(["git", "-C", str(HERE.parent), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(HERE.parent), "status", "--porcelain", "minitape"],
                                 capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {commit}{' with uncommitted changes' if changed else ''}"


def target(name, measured, limit, text):
    """One row of the summary: met when ``measured`` is at most ``limit`` (``measured`` None: not measured)."""
    return {"target": name, "measured": measured, "limit": limit, "text": text,
            "status": "not measured" if measured is None else "met" if measured <= limit else "missed"}


def ratio(table, name, other, key):
    if name not in table or other not in table:
        return None
    return table[name][key] / table[other][key]


def targets(results):
    """The benchmarks' targets, each as measured in this run."""
    per, net, scale = results["per_op"], results["mlp"], results["scaling"]
    largest = scale["largest"] or {}
    rows = [
        target("per-op record+gradient vs PyTorch", ratio(per, "minitape", "torch", "gradient_us_per_op"), 0.8,
               "minitape µs/op ÷ PyTorch µs/op"),
        target("per-op record+gradient vs HIPS autograd", ratio(per, "minitape", "autograd", "gradient_us_per_op"),
               0.5, "minitape µs/op ÷ autograd µs/op"),
        target("MLP forward+gradient vs hand-written NumPy", ratio(net, "minitape", "numpy", "gradient_ms"), 1.10,
               "minitape ms ÷ NumPy ms"),
        target("per-op gradient cost / forward cost", per["minitape"]["gradient_over_forward"], 3,
               "(record+gradient) ÷ forward, minitape"),
        target("MLP gradient cost / forward cost", net["minitape"]["gradient_over_forward"], 3,
               "(forward+gradient) ÷ forward, minitape"),
        target(f"tape of {largest.get('ops', 0):,} ops: no RecursionError", float(scale["recursion_error"]), 0,
               "RecursionErrors raised"),
        target("tape: time linear in N", scale.get("time_exponent"), 1.10,
               "k in time ~ N^k, fitted over the last decade of N"),
        target("tape: peak memory linear in N", scale.get("peak_exponent"), 1.10,
               "k in peak ~ N^k, fitted over the last decade of N"),
        target("non-persistent tape returns its memory", largest["left"] / largest["held"] if largest else None,
               0.01, f"bytes left after gradient() ÷ bytes held, N = {largest.get('ops', 0):,}"),
    ]
    if not (per["minitape"]["check_passed"] and net["minitape"]["check_passed"]):
        for row in rows[:5]:
            row["status"] = "invalid: minitape's gradient check failed"
    return rows


def print_targets(rows, full):
    table = [[r["target"], "-" if r["measured"] is None else f"{r['measured']:.3g}", f"<= {r['limit']:g}",
              r["status"], r["text"]] for r in rows]
    harness.print_table("Targets (ratios of medians measured in this run)",
                        ["target", "measured", "target", "status", "measured as"], table)
    if not full:
        print("(--quick: the largest tape has 100,000 ops; the full run goes to 1,000,000.)")


def plot(results):
    """The three figures, or a note if matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        print("Plots skipped: matplotlib is not installed (pip install matplotlib).")
        return
    matplotlib.use("Agg")
    harness.plot_comparisons(results["per_op"], results["mlp"], RESULTS / "frameworks.png")
    scaling.plot(results["scaling"], RESULTS / "scaling.png")
    jacobian.plot(results["jacobian"], RESULTS / "jacobian.png")
    print(f"Plots written to {RESULTS}/: frameworks.png, scaling.png, jacobian.png")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and tapes up to 100,000 ops")
    args = parser.parse_args()
    full = not args.quick

    import minitape

    machine = {**harness.machine(), "minitape": f"{minitape.__version__} ({source_version()})"}
    results = {"machine": machine, "quick": not full}
    print("Machine: " + ", ".join(f"{k} {v}" for k, v in machine.items()))
    versions, notes = frameworks.load()
    machine.update(versions)
    results["notes"] = notes
    print("Compared with: " + (", ".join(f"{k} {v}" for k, v in versions.items()) or "NumPy only"))
    for note in notes:
        print("Note: " + note)
    results["per_op"] = per_op.run(versions, rounds=25 if full else 5)
    results["mlp"] = mlp.run(versions, rounds=30 if full else 10)
    results["scaling"] = scaling.run(scaling.FULL_SIZES if full else scaling.QUICK_SIZES)
    results["jacobian"] = jacobian.run(jacobian.FULL_SWEEP if full else jacobian.QUICK_SWEEP,
                                       rounds=15 if full else 5)
    results["targets"] = targets(results)
    print_targets(results["targets"], full)
    machine["load_average_at_end"] = round(os.getloadavg()[0], 2)
    busiest = max(machine["load_average_at_start"], machine["load_average_at_end"])
    if busiest > 1.5:  # this run alone keeps one core busy: a load of 1
        print(f"Warning: other processes were running (1-minute load average up to {busiest} on "
              f"{machine['cores']} cores); the numbers are noisier than on an idle machine.")

    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    (RESULTS / "latest.md").write_text("Machine: " + ", ".join(f"{k} {v}" for k, v in machine.items()) + "\n\n"
                                       + harness.markdown(harness.PRINTED_TABLES))
    print(f"\nResults written to {RESULTS / 'results.json'} and, as Markdown tables, {RESULTS / 'latest.md'}")
    plot(results)


if __name__ == "__main__":
    main()
