"""Benchmark 3: how a tape grows, from 1,000 to 1,000,000 recorded ops.

The chain of benchmark 1 (sin, mul, mul, add, repeated) runs on a float32 vector of length 1,
so the NumPy arrays are as small as they get and what grows is the tape itself. For each
length N the tape records N ops (plus the final sum) and ``gradient()`` plays them back.

* Time: recording and gradient measured separately, median of 3 rounds in which the sizes take
  turns (a tape shorter than 10^5 ops runs several times per round, 10^5 ops in all, averaged),
  then a least-squares fit of log(time) against log(N): an exponent of 1 is linear growth.
  Two fits are reported: over N >= 10^4 (below, fixed costs dominate), and over the last decade
  of N, the asymptotic growth the target is about. On the way the tape outgrows the CPU's
  caches and the garbage collector starts walking it (full collections in CPython 3.11 come
  each time the surviving objects grow by a quarter: a constant cost per object, but one that
  appears only for long tapes), so the time per op may step up before it levels off.
* Memory: ``tracemalloc`` counts every byte Python and NumPy allocate (NumPy reports its
  array buffers to it). In a separate run, so its bookkeeping does not slow the timed one:
  ``held`` = bytes allocated by recording that are still alive when the ``with`` block ends
  (the tape, the values it keeps, the result); ``peak`` = the most ever alive during recording
  and ``gradient()``; ``left`` = still alive after a non-persistent ``gradient()``, with the
  tape object, the loss and the gradient still referenced (a persistent tape, for contrast,
  keeps everything).
* Bytes per op beyond the arrays: the VJP rules of this chain need one array per four-op step
  (the input of ``sin``; the rules of mul-by-constant and add need no array). The traced size
  of such an array is measured, that much is taken off ``held``, and the rest, divided by N,
  is what the tape spends per recorded op on its own bookkeeping (records, ids, Tensor
  wrappers, any extra arrays it keeps).
"""

import gc
import time
import tracemalloc

import numpy as np

from harness import Timing, freeze_the_heap, print_table, save_figure
from per_op import chain

FULL_SIZES = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
QUICK_SIZES = (1_000, 3_000, 10_000, 30_000, 100_000)
ROUNDS = 3
OPS_PER_ROUND = 100_000  # a shorter tape is timed this many ops' worth of times per round
FIT_FROM = 10_000  # the wide fit; the asymptotic one starts at a tenth of the largest N
CONTRAST_SIZE = 10_000  # where the persistent tape is measured too


def record_chain(n_ops, persistent=False):
    """A tape holding ``n_ops`` chain ops and their sum, on a length-1 tensor: (tape, loss, x)."""
    import minitape as mt

    x = mt.constant(np.ones(1, dtype=np.float32))
    with mt.GradientTape(persistent=persistent) as tape:
        tape.watch(x)
        loss = mt.reduce_sum(chain(mt.sin, x, steps=n_ops // 4))
    return tape, loss, x


def time_tape(n_ops):
    """(record seconds, gradient seconds) of one tape of ``n_ops`` ops."""
    gc.collect()
    start = time.perf_counter()
    tape, loss, x = record_chain(n_ops)
    recorded = time.perf_counter()
    tape.gradient(loss, x)
    return recorded - start, time.perf_counter() - recorded


def time_sizes(sizes):
    """{N: (record Timing, gradient Timing), or the message of a RecursionError}.

    The sizes take turns in each of the ``ROUNDS`` rounds, so a drift of the machine touches
    them alike; a tape shorter than ``OPS_PER_ROUND`` is run several times per round, averaged.
    """
    seconds, failed = {n: ([], []) for n in sizes}, {}
    for _ in range(ROUNDS):
        for n in sizes:
            if n in failed:
                continue
            repeats = max(1, OPS_PER_ROUND // n)
            try:
                runs = [time_tape(n) for _ in range(repeats)]
            except RecursionError as error:
                failed[n] = str(error)
                continue
            seconds[n][0].append(sum(r for r, _ in runs) / repeats)
            seconds[n][1].append(sum(g for _, g in runs) / repeats)
    return {n: failed.get(n) or (Timing(record), Timing(gradient)) for n, (record, gradient) in seconds.items()}


def tape_memory(n_ops, persistent=False):
    """{held, peak, left} in bytes (see the module's docstring) for a tape of ``n_ops`` ops."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tape, loss, x = record_chain(n_ops, persistent)
        held = tracemalloc.get_traced_memory()[0] - base
        grad = tape.gradient(loss, x)
        left, peak = (m - base for m in tracemalloc.get_traced_memory())
        del tape, loss, x, grad
    finally:
        tracemalloc.stop()
    return {"held": held, "peak": peak, "left": left}


def traced_bytes_per_array(count=10_000):
    """The traced size of one length-1 float32 array, as the chain makes them (the array the tape needs)."""
    x = np.ones(1, dtype=np.float32)
    arrays = [None] * count  # allocated before tracing, so only the arrays are counted
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(count):
        arrays[i] = np.sin(x)
    size = (tracemalloc.get_traced_memory()[0] - base) / count
    tracemalloc.stop()
    return size


def exponent(sizes, values):
    """The slope of log(value) against log(size): 1 for linear growth."""
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def run(sizes):
    """Measure and print benchmark 3 over the tape lengths ``sizes``; return its results as plain data."""
    array_bytes = traced_bytes_per_array()
    time_tape(1_000)  # warm-up
    freeze_the_heap()
    timings = time_sizes(sizes)
    points, rows = [], []
    for n in sizes:
        point = {"ops": n}
        try:
            if isinstance(timings[n], str):
                raise RecursionError(timings[n])
            record, gradient = timings[n]
            point.update(tape_memory(n))
        except RecursionError as error:
            point["recursion_error"] = str(error)
            points.append(point)
            rows.append([f"{n:,}", "RecursionError"] + [""] * 7)
            continue
        total = record.median + gradient.median
        point.update(record_s=record.median, gradient_s=gradient.median, us_per_op=total / n * 1e6,
                     overhead_bytes_per_op=(point["held"] - n // 4 * array_bytes) / n)
        points.append(point)
        rows.append([f"{n:,}", f"{record.median * 1e3:.1f}", f"{gradient.median * 1e3:.1f}",
                     f"{point['us_per_op']:.2f}", f"{point['held'] / 2**20:.2f}", f"{point['peak'] / 2**20:.2f}",
                     f"{point['left']:,}", f"{point['held'] / n:.0f}", f"{point['overhead_bytes_per_op']:.0f}"])
    print_table("3. Scaling: a tape of N ops (the chain on float32[1]), recorded and differentiated once "
                "(non-persistent); memory by tracemalloc",
                ["N ops", "record ms", "gradient ms", "µs/op", "held MiB", "peak MiB", "left after gradient (B)",
                 "held B/op", "tape overhead B/op"], rows)

    measured = [p for p in points if "recursion_error" not in p]
    persistent = tape_memory(CONTRAST_SIZE, persistent=True)
    result = {"points": points, "array_bytes": array_bytes,
              "persistent_contrast": dict(ops=CONTRAST_SIZE, **persistent),
              "recursion_error": len(measured) < len(points), "largest": measured[-1] if measured else None}
    printed = None
    for suffix, smallest in (("_from_1e4", FIT_FROM), ("", measured[-1]["ops"] / 10 if measured else 0)):
        fitted = [p for p in measured if p["ops"] >= smallest]
        if len(fitted) < 2:
            continue
        sizes = [p["ops"] for p in fitted]
        result["time_exponent" + suffix] = exponent(sizes, [p["record_s"] + p["gradient_s"] for p in fitted])
        result["peak_exponent" + suffix] = exponent(sizes, [p["peak"] for p in fitted])
        if sizes != printed:  # the two fits coincide when the sizes span one decade only
            print(f"Fit over {sizes[0]:,} <= N <= {sizes[-1]:,}: time grows as "
                  f"N^{result['time_exponent' + suffix]:.3f}, peak memory as N^{result['peak_exponent' + suffix]:.3f} "
                  f"(1 = linear).")
            printed = sizes
    print(f"A length-1 float32 array costs {array_bytes:.0f} traced bytes; the chain's VJP rules need one per four "
          f"ops, the rest of 'held' is the tape's own overhead.")
    print(f"Contrast: a persistent tape of {CONTRAST_SIZE:,} ops still holds {persistent['left'] / 2**20:.2f} MiB "
          f"after gradient() (it may answer again); the non-persistent one above gives it back.")
    return result


def plot(result, path):
    """Time, time per op and memory against N, with lines of slope 1 for reference."""
    import matplotlib.pyplot as plt

    points = [p for p in result["points"] if "recursion_error" not in p]
    n = np.array([p["ops"] for p in points], dtype=float)
    record = np.array([p["record_s"] for p in points])
    gradient = np.array([p["gradient_s"] for p in points])
    fig, (times, per_op, memory) = plt.subplots(1, 3, figsize=(14, 4.2))
    times.loglog(n, record, "o-", label="record")
    times.loglog(n, gradient, "s-", label="gradient()")
    times.loglog(n, (record + gradient)[-1] * n / n[-1], "k:", label="linear (slope 1)")
    times.set(xlabel="ops on the tape (N)", ylabel="seconds", title="Time")
    per_op.semilogx(n, record / n * 1e6, "o-", label="record")
    per_op.semilogx(n, gradient / n * 1e6, "s-", label="gradient()")
    per_op.set(xlabel="ops on the tape (N)", ylabel="µs per op", title="Time per op (flat = linear)", ylim=(0, None))
    memory.loglog(n, [p["peak"] for p in points], "o-", label="peak (record + gradient)")
    memory.loglog(n, [p["held"] for p in points], "s-", label="held after recording")
    memory.loglog(n, [max(p["left"], 1) for p in points], "^-", label="left after gradient()")
    memory.loglog(n, points[-1]["peak"] * n / n[-1], "k:", label="linear (slope 1)")
    memory.set(xlabel="ops on the tape (N)", ylabel="bytes (tracemalloc)", title="Memory")
    for ax in (times, per_op, memory):
        ax.grid(True, which="major", alpha=0.3)
        ax.legend()
    save_figure(fig, "minitape: a tape of N elementwise ops on float32[1], one non-persistent gradient()", path)
