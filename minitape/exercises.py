"""Self-checking exercises for the course notebooks.

An exercise cell leaves ``...`` for the learner to replace; the check cell
after it prints a pass, or says what is wrong and gives a hint:

>>> check("1.1 derivative of x² at 3", 6.0, expected=6.0)
✅ 1.1 derivative of x² at 3: correct.
>>> check("1.1 derivative of x² at 3", ..., expected=6.0)
⏳ 1.1 derivative of x² at 3: not answered yet: replace the ... with your answer.
>>> check("1.1 derivative of x² at 3", 9.0, expected=6.0, hint="d(x²)/dx = 2x")
❌ 1.1 derivative of x² at 3: expected 6, got 9. Hint: d(x²)/dx = 2x

Numbers, arrays and minitape tensors are compared with a relative
tolerance; the messages are plain text, so a notebook's stored output stays
the same from run to run.
"""

import numpy as np

from .tensor import Tensor


def _plain(value):
    """A tensor as NumPy; anything else unchanged."""
    return value.numpy() if isinstance(value, Tensor) else value


def _show(value):
    value = np.asarray(_plain(value))
    if value.ndim == 0 and value.dtype.kind in "fc":
        return f"{float(value):.6g}"
    return np.array2string(value, precision=6, separator=", ")


def _unanswered(value):
    return value is ... or value is None


def check(label, answer, expected, rtol=1e-6, atol=1e-12, hint=None):
    """Print whether ``answer`` equals ``expected`` (numbers, arrays or tensors, within rtol/atol)."""
    if _unanswered(answer):
        print(f"⏳ {label}: not answered yet: replace the ... with your answer.")
        return
    got, want = np.asarray(_plain(answer)), np.asarray(_plain(expected))
    problem = None
    if got.shape != want.shape:
        problem = f"expected shape {want.shape}, got shape {got.shape}"
    elif not np.allclose(got.astype(float), want.astype(float), rtol=rtol, atol=atol, equal_nan=True):
        problem = f"expected {_show(want)}, got {_show(got)}"
    _report(label, problem, hint)


def check_function(label, function, reference, inputs, rtol=1e-6, atol=1e-12, hint=None):
    """Call ``function`` and ``reference`` on each item of ``inputs`` (argument tuples) and compare."""
    for args in inputs:
        args = args if isinstance(args, tuple) else (args,)
        try:
            got = function(*args)
        except Exception as e:  # the learner's code failed: say how, do not crash the notebook
            _report(label, f"calling it with {_args(args)} raised {type(e).__name__}: {e}", hint)
            return
        if _unanswered(got):
            print(f"⏳ {label}: not answered yet: your function returned {got!r} (replace the ... with your code).")
            return
        got, want = np.asarray(_plain(got), dtype=float), np.asarray(_plain(reference(*args)), dtype=float)
        if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
            _report(label, f"for {_args(args)} expected {_show(want)}, got {_show(got)}", hint)
            return
    _report(label, None, hint)


def check_that(label, condition, failure, hint=None):
    """Print a pass if ``condition`` holds, else ``failure`` (a sentence saying what is wrong)."""
    if _unanswered(condition):
        print(f"⏳ {label}: not answered yet: replace the ... with your answer.")
        return
    _report(label, None if condition else failure, hint)


def _args(args):
    return ", ".join(_show(a) for a in args)


def _report(label, problem, hint):
    if problem is None:
        print(f"✅ {label}: correct.")
    else:
        print(f"❌ {label}: {problem}." + (f" Hint: {hint}" if hint else ""))
