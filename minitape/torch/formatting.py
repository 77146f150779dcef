"""How PyTorch prints a tensor: ``tensor([2., 4.], grad_fn=<MulBackward0>)``.

Floats that are all whole numbers print as ``2.``; others with four decimals (``0.5000``), or in
scientific notation when they span more than three orders of magnitude, exceed 1e8 or go below
1e-4. Every element is padded to the widest one (of the nonzero finite ones, for floats). The
dtype is shown unless it is the default float dtype, ``int64`` or ``bool``.

>>> import numpy as np
>>> format_array(np.array([[1.0, 2.5], [3.0, 4.0]], dtype=np.float32), indent=7)
'[[1.0000, 2.5000],\\n        [3.0000, 4.0000]]'
"""

import numpy as np

from . import scalar_types

LINE_WIDTH = 80  # PyTorch's default print option


def _element_format(array):
    """A function turning one element into its text (before padding)."""
    if array.dtype.kind == "b":
        return lambda v: str(bool(v))
    if array.dtype.kind in "iu":
        return lambda v: str(int(v))
    finite = np.abs(array[np.isfinite(array)].astype(np.float64))
    nonzero = finite[finite != 0]
    whole = bool(np.all(np.ceil(finite) == finite))
    if nonzero.size:
        big, small = nonzero.max(), nonzero.min()
        scientific = big / small > 1000.0 or big > 1.0e8 or (not whole and small < 1.0e-4)
    else:
        scientific = False
    if scientific:
        return lambda v: _special(v) or f"{v:.4e}"
    if whole:
        return lambda v: _special(v) or f"{v:.0f}."
    return lambda v: _special(v) or f"{v:.4f}"


def _special(v):
    return ("nan" if np.isnan(v) else "inf" if v > 0 else "-inf") if not np.isfinite(v) else None


def format_array(array, indent):
    """The nested-list text of ``array``, rows after the first indented by ``indent`` + their depth."""
    form = _element_format(array)
    values = array.reshape(-1).tolist() if array.size else []
    texts = [form(v) for v in values]
    # PyTorch pads to the widest nonzero finite float (inf, nan and zeros do not count), or the widest integer
    counted = texts if array.dtype.kind != "f" else [t for t, v in zip(texts, values) if v != 0 and np.isfinite(v)]
    width = max([1] + [len(t) for t in counted])
    padded = iter(t.rjust(width) for t in texts)

    def nest(shape, depth):
        if not shape:
            return next(padded)
        if len(shape) == 1:  # a row: as many elements on a line as fit in 80 characters
            elements = [next(padded) for _ in range(shape[0])]
            per_line = max(1, (LINE_WIDTH - indent - depth) // (width + 2))
            lines = [", ".join(elements[k:k + per_line]) for k in range(0, len(elements), per_line)]
            return "[" + (",\n" + " " * (indent + depth + 1)).join(lines) + "]"
        parts = [nest(shape[1:], depth + 1) for _ in range(shape[0])]
        return "[" + ("," + "\n" * (len(shape) - 1) + " " * (indent + depth + 1)).join(parts) + "]"
    return nest(array.shape, 0)


def _with_suffixes(text, suffixes, indent):
    """``text`` and its suffixes (``grad_fn=<...>``), each on the last line if it fits in 80 characters."""
    line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line + len(suffix) + 2 > LINE_WIDTH:
            text += ",\n" + " " * indent + suffix
            line = indent + len(suffix)
        else:
            text += ", " + suffix
            line += len(suffix) + 2
    return text + ")"


def tensor_repr(t):
    array = np.asarray(t.value.array)
    suffixes = []
    if array.size == 0 and array.shape != (0,):
        suffixes.append(f"size={tuple(array.shape)}")
    if t.dtype not in (scalar_types.get_default_dtype(), scalar_types.int64, scalar_types.bool):
        suffixes.append(f"dtype={t.dtype!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rpartition(':')[2]}>")  # without C++'s namespace
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    body = "[]" if array.size == 0 else format_array(array, len("tensor("))
    return _with_suffixes("tensor(" + body, suffixes, len("tensor("))
