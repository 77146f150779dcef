"""``mt.print``: TensorFlow's ``tf.print``, with tensors written as TensorFlow's kernels write them.

This is not NumPy's way: elements are separated by spaces with no padding,
booleans are 1 and 0, a float keeps as few digits as give it back exactly
(up to 9 for float32, 17 for float64), and a long axis shows its first and
last ``summarize`` entries around ``...``:

>>> import sys
>>> import minitape as mt
>>> print(mt.range(10), [0.5, mt.constant([True, False])], output_stream=sys.stdout)
[0 1 2 ... 7 8 9] [0.5, [1 0]]
"""

import sys

import numpy as np

from ..tensor import Tensor


def _element(x):
    """One element, as TensorFlow prints it: the shortest of %.6g and %.9g (float32; %.15g and %.17g for float64)
    that reads back as the same number."""
    if x.dtype.kind == "b":
        return "1" if x else "0"
    if x.dtype.kind != "f":
        return str(x)
    same, short, full = (np.float64, 15, 17) if x.dtype == np.float64 else (np.float32, 6, 9)
    text = f"{float(x):.{short}g}"
    return text if same(text) == same(x) else f"{float(x):.{full}g}"


def _summary(array, summarize):
    """``array`` as TensorFlow prints it: nested brackets, each axis cut to its first and last ``summarize``
    entries (all of them if ``summarize`` is negative)."""
    ends = array.size if summarize < 0 else min(summarize, array.size)

    def spacing(axis):  # between two entries of this axis: a space on the last axis, else new lines and an indent
        return " " if axis == array.ndim - 1 else "\n" * (array.ndim - axis - 1) + " " * (axis + 1)

    def text(part, axis):
        if axis == array.ndim:
            return _element(part)
        n = len(part)
        pieces = [text(part[i], axis + 1) for i in range(min(ends, n))]
        if n > 2 * ends:
            pieces.append("...")
        pieces += [text(part[i], axis + 1) for i in range(max(ends, n - ends), n)]
        if not pieces:
            return "[]"
        # TensorFlow puts the spacing before "..." even when no entry precedes it (ends = 0: an empty tensor).
        lead = spacing(axis) if pieces[0] == "..." else ""
        return "[" + lead + spacing(axis).join(pieces) + "]"

    return text(array, 0)


class _Printed:
    """A tensor inside a Python structure: ``str([x, 1])`` shows the tensor as :func:`print` writes it."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _argument(value, summarize):
    if isinstance(value, Tensor):
        return _summary(np.asarray(value.array), summarize)
    if isinstance(value, (list, tuple, dict)):
        return str(_with_tensors_printed(value, summarize))
    return str(value)


def _with_tensors_printed(value, summarize):
    if isinstance(value, Tensor):
        return _Printed(_summary(np.asarray(value.array), summarize))
    if isinstance(value, dict):
        return {k: _with_tensors_printed(v, summarize) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_with_tensors_printed(v, summarize) for v in value)
    return value


def print(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001 (TensorFlow's name)
    """Print ``inputs`` (tensors, Python values, lists and dicts of them) as TensorFlow's ``tf.print`` does.

    ``output_stream`` is ``sys.stderr`` when not given (TensorFlow's
    default), ``sys.stdout``, any object with a ``write`` method, or
    ``"file://<path>"`` to append to a file. ``summarize`` is how many entries
    to show at each end of an axis (-1: all). In TensorFlow a ``tf.print``
    inside a ``tf.function`` prints when the graph runs, where Python's
    ``print`` prints once, while tracing; minitape runs eagerly, so both print
    on every call.
    """
    text = sep.join(_argument(value, summarize) for value in inputs) + end
    if output_stream is None:
        output_stream = sys.stderr
    if isinstance(output_stream, str):
        if not output_stream.startswith("file://"):
            raise ValueError(f"print: output_stream {output_stream!r} is not a stream; give sys.stdout, sys.stderr "
                             f"or 'file://<path>'")
        with open(output_stream.removeprefix("file://"), "a") as f:
            f.write(text)
    elif hasattr(output_stream, "write"):
        output_stream.write(text)
    else:
        raise ValueError(f"print: output_stream {output_stream!r} is not a stream; give sys.stdout, sys.stderr or "
                         f"'file://<path>'")


__all__ = ["print"]
