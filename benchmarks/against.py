"""Is a change faster or slower? minitape now against minitape at a git revision, in one process.

    python benchmarks/against.py HEAD~3          # benchmarks 1 and 2, this checkout against HEAD~3
    python benchmarks/against.py main --rounds 60

Two runs of ``run.py`` on a shared machine differ by more than most changes gain or lose, so
this script measures both versions side by side, taking turns in one process (harness.py's
method, with every other round in reverse order): the revision's ``minitape/`` is unpacked
with ``git archive`` into a temporary folder as a package named ``minitape_before`` (the
library imports itself only relatively), and the per-op chain (benchmark 1) and the MLP step
(benchmark 2) run for NumPy by hand, minitape before, minitape now and, if installed, PyTorch.
Each gradient is checked against NumPy's first. Prints the medians and the ratios now/before, vs NumPy and vs PyTorch.
"""

import single_thread  # noqa: F401  (first: pins every thread pool to one thread before NumPy loads)

import argparse
import importlib
import importlib.util
import io
import pathlib
import subprocess
import sys
import tarfile
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # minitape from this checkout, whether installed or not

import frameworks  # noqa: E402
import harness  # noqa: E402
import mlp  # noqa: E402
import per_op  # noqa: E402


def minitape_at(revision, folder):
    """Import ``minitape/`` as it is at git ``revision``, as the package ``minitape_before``."""
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision, "minitape"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = pathlib.Path(folder) / "minitape_before"
    (pathlib.Path(folder) / "minitape").rename(package)
    spec = importlib.util.spec_from_file_location("minitape_before", package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["minitape_before"] = module
    spec.loader.exec_module(module)
    return module


def measure(benchmark, libraries, rounds, torch):
    """{name: (forward Timing, gradient Timing)} of ``benchmark`` (per_op or mlp), checked, then timed in turns."""
    builders = {"numpy": benchmark.numpy_by_hand}
    for name, module in libraries.items():
        builders[name] = (lambda module=module: benchmark.gradient_tape(module))
    if torch:
        builders["torch"] = benchmark.pytorch
    return harness.compare(builders, [name for name in builders if name not in ("numpy", "minitape")], rounds,
                           alternate=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision to compare with, e.g. HEAD~1 or main")
    parser.add_argument("--rounds", type=int, default=40, help="rounds of each benchmark (default 40)")
    args = parser.parse_args()
    import minitape

    torch = "torch" in frameworks.load()[0]  # imported with its thread settings, or skipped
    if not torch:
        print("(PyTorch is not installed: no ratio to it)")
    with tempfile.TemporaryDirectory() as folder:
        before = minitape_at(args.revision, folder)
        libraries = {"minitape": minitape, "before": before}
        for title, benchmark, per, unit, label in (
                ("1. per-op chain (2,000 ops on float32[8])", per_op, per_op.OPS, 1e-6, "µs/op"),
                ("2. MLP step (784-256-10, batch 256)", mlp, 1, 1e-3, "ms/step")):
            compared = measure(benchmark, libraries, args.rounds, torch)
            print(f"\n{title}: median of {args.rounds} rounds, gradient {label}")
            numpy = compared["numpy"]["gradient"].median
            for name, row in compared.items():
                shown = "minitape now" if name == "minitape" else "minitape at " + args.revision if name == "before" \
                    else name
                check = "ok" if row["check"][0] else f"WRONG (worst error {row['check'][1]:.2g})"
                print(f"  {shown:<24} {row['gradient'].per(per, unit)[0]:>9.3f}   "
                      f"{row['gradient'].median / numpy:5.2f}x NumPy   {check}")
            now, then = compared["minitape"]["gradient"].median, compared["before"]["gradient"].median
            line = f"  now / before: {now / then:.3f}"
            if "torch" in compared:
                line += (f";  now / PyTorch: {now / compared['torch']['gradient'].median:.3f}, before / PyTorch: "
                         f"{then / compared['torch']['gradient'].median:.3f}")
            print(line)


if __name__ == "__main__":
    main()
