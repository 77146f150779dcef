"""What every benchmark shares: timing side by side, checking gradients, printing tables.

Timing rules (the same for every framework):

* each case runs ``warmup`` times first (caches, lazy imports, TensorFlow's first-call setup);
* then the cases take turns, one call each per round, so a slow drift of the machine (another
  process, the CPU clock) touches all of them alike instead of whichever ran last;
* after the warm-up, every object that exists (the libraries, their caches, the inputs) is
  frozen out of the garbage collector's sight (``gc.freeze``): TensorFlow, JAX and PyTorch leave
  ~500,000 Python objects, and every full collection would walk them all, charging one
  library's heap to whichever library happened to trigger the collection;
* a garbage collection before each call, so nobody pays for the garbage of the case before;
  collections *during* a call are left on, since a library that allocates more pays for them;
* the result is the median of the rounds, with the interquartile range as its spread.
"""

import gc
import importlib
import os
import platform
import statistics
import sys
import time

import numpy as np


class Timing:
    """Seconds per call of one case: the median and the interquartile range of the rounds."""

    def __init__(self, seconds):
        self.seconds = sorted(seconds)
        self.median = statistics.median(self.seconds)
        if len(self.seconds) >= 4:
            q1, _, q3 = statistics.quantiles(self.seconds, n=4)
        else:
            q1, q3 = self.seconds[0], self.seconds[-1]
        self.spread = q3 - q1

    def per(self, count, unit=1e-6):
        """(median, spread) per one of ``count`` items, in ``unit`` (microseconds by default)."""
        return self.median / count / unit, self.spread / count / unit

    def as_dict(self):
        return {"median_s": self.median, "iqr_s": self.spread, "rounds": len(self.seconds)}


def time_side_by_side(cases, rounds, warmup=2, alternate=False):
    """{name: Timing} for the zero-argument callables ``cases``, measured in turns.

    With ``alternate``, every other round takes the cases in reverse order, so that no case
    always runs right after the same one (what ran before leaves the caches warm or cold for
    it: comparing two versions of one library, that alone moved the ratio by up to 7 %).
    """
    for case in cases.values():
        for _ in range(warmup):
            case()
    freeze_the_heap()
    seconds = {name: [] for name in cases}
    order = list(cases.items())
    for round_ in range(rounds):
        for name, case in (order[::-1] if alternate and round_ % 2 else order):
            gc.collect()
            start = time.perf_counter()
            case()
            seconds[name].append(time.perf_counter() - start)
    return {name: Timing(s) for name, s in seconds.items()}


def freeze_the_heap():
    """Collect the garbage, then hide every remaining object from the garbage collector (see above)."""
    gc.collect()
    gc.freeze()


def check_close(got, want, rtol=1e-3):
    """(passed, worst error) of arrays ``got`` against the reference ``want``, elementwise.

    float32 results of long chains or big matmuls differ by rounding between libraries, so
    the tolerance is relative, with an absolute floor scaled to the reference's magnitude
    (an element that is tiny only by cancellation is judged against the largest one).
    """
    worst, passed = 0.0, True
    for g, w in zip(got, want):
        g, w = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
        if g.shape != w.shape:
            return False, float("inf")
        floor = rtol * np.max(np.abs(w))
        passed = passed and np.allclose(g, w, rtol=rtol, atol=floor)
        worst = max(worst, float(np.max(np.abs(g - w) / (np.abs(w) + floor))))
    return passed, worst


def compare(builders, available, rounds, alternate=False):
    """Check NumPy's, minitape's and the ``available`` frameworks' gradients, then time them side by side.

    ``builders`` maps a library's name to a function that sets it up and returns two
    zero-argument callables: ``forward()`` (nothing recorded) and ``gradient()`` (record, then
    differentiate; it returns the gradients as a list of NumPy arrays). The hand-written NumPy
    gradient is the reference; every check runs before any timing, so a wrong gradient is
    known before its time is printed.
    """
    names = ("numpy", "minitape", *available)
    reference = None
    checks, cases = {}, {}
    for name in names:
        forward, gradient = builders[name]()
        result = gradient()
        reference = result if reference is None else reference
        checks[name] = check_close(result, reference)
        cases[name, "forward"], cases[name, "gradient"] = forward, gradient
    timings = time_side_by_side(cases, rounds, alternate=alternate)
    return {name: {"forward": timings[name, "forward"], "gradient": timings[name, "gradient"], "check": checks[name]}
            for name in names}


def with_module(builder, module_name):
    """A builder that imports ``module_name`` when called and hands it to ``builder`` (``mt`` or ``tf``)."""
    return lambda: builder(importlib.import_module(module_name))


def report(title, compared, per, unit, label, key):
    """Print a comparison from :func:`compare` as a table; return it as plain data for results.json.

    Times are shown per ``per`` items (ops, steps) in ``unit`` seconds, headed ``label`` in the
    table (``"µs/op"``) and named by ``key`` in the data (``"us_per_op"``); ratios are of medians.
    """
    numpy_gradient = compared["numpy"]["gradient"].median
    rows, data = [], {}
    for name, r in compared.items():
        forward, gradient = r["forward"].per(per, unit), r["gradient"].per(per, unit)
        cost_ratio = r["gradient"].median / r["forward"].median
        vs_numpy = r["gradient"].median / numpy_gradient
        rows.append([name, with_spread(*forward), with_spread(*gradient), f"{cost_ratio:.2f}", f"{vs_numpy:.2f}x",
                     check_note(r["check"])])
        data[name] = {f"forward_{key}": forward[0], f"forward_iqr_{key}": forward[1],
                      f"gradient_{key}": gradient[0], f"gradient_iqr_{key}": gradient[1],
                      "gradient_over_forward": cost_ratio, "gradient_vs_numpy": vs_numpy,
                      "check_passed": bool(r["check"][0]), "check_worst_error": r["check"][1],
                      "rounds": len(r["gradient"].seconds)}
    print_table(title, ["framework", f"forward {label}", f"record+gradient {label}",
                        "(fwd+grad)/fwd", "vs NumPy", "gradient check"], rows)
    return data


def check_note(check):
    passed, worst = check
    return "ok" if passed else f"FAILED (rel. error {worst:.1e})"


PRINTED_TABLES = []  # (title, headers, rows) of every table printed, for results/latest.md


def print_table(title, headers, rows):
    """A plain text table; the first column left-aligned, the others right-aligned."""
    PRINTED_TABLES.append((title, headers, rows))
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))

    print(f"\n{title}\n" + line(cells[0]) + "\n" + "  ".join("-" * w for w in widths))
    for row in cells[1:]:
        print(line(row))


def markdown(tables):
    """The tables ``(title, headers, rows)`` as Markdown."""
    parts = []
    for title, headers, rows in tables:
        lines = [f"**{title}**", "", "| " + " | ".join(map(str, headers)) + " |",
                 "|" + "|".join(["---"] + ["--:"] * (len(headers) - 1)) + "|"]
        lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def with_spread(median, spread, digits=2):
    """``12.3 ±0.4``: a median and its interquartile range."""
    return f"{median:.{digits}f} ±{spread:.{digits}f}"


def machine():
    """What the numbers were measured on."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    blas = np.__config__.CONFIG.get("Build Dependencies", {}).get("blas", {})
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "blas": f"{blas.get('name', '?')} {blas.get('version', '')}".strip(),
        "threads": 1,
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }


def save_figure(fig, title, path):
    """Give ``fig`` its title, lay it out, write it to ``path`` in the house resolution and free it."""
    import matplotlib.pyplot as plt

    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_comparisons(per_op, mlp, path):
    """Benchmarks 1 and 2 side by side: each library's forward and record+gradient time."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    # Per-op costs span three decades (NumPy to JAX eager): a log scale; MLP steps fit a linear one.
    for ax, data, key, label, scale in ((axes[0], per_op, "us_per_op", "µs per op (log scale)", "log"),
                                        (axes[1], mlp, "ms", "ms per training step", "linear")):
        names = list(data)[::-1]  # NumPy at the top
        rows = np.arange(len(names))
        ax.barh(rows + 0.2, [data[n][f"forward_{key}"] for n in names], height=0.4, label="forward")
        ax.barh(rows - 0.2, [data[n][f"gradient_{key}"] for n in names], height=0.4, label="record + gradient")
        ax.set_yticks(rows, names)
        ax.set_xscale(scale)
        ax.set_xlabel(label)
        ax.grid(True, axis="x", which="major", alpha=0.3)
        ax.legend(loc="upper right")
    axes[0].set_title("1. 2,000 elementwise ops on float32[8]")
    axes[1].set_title("2. MLP 784-256-10 step, batch 256")
    save_figure(fig, "Each library's own time, one thread, medians of one run", path)
