"""einsum and tensordot: sums of products over labelled axes, with einsum's parser and rules."""

import collections
import string

import numpy as np

from ..primitive import Primitive, apply
from .arguments import convert_inputs
from ..tensor import Tensor
from .creation import eye, ones
from .reductions import reduce_sum
from .exports import exported


# -- einsum ---------------------------------------------------------------------------------------------
_EINSUM_PRIMITIVES = {}  # number of operands -> the einsum primitive with that many rules


def _einsum_primitive(n):
    """The einsum primitive for ``n`` operands: one VJP and one JVP rule per operand."""
    if n not in _EINSUM_PRIMITIVES:
        _EINSUM_PRIMITIVES[n] = Primitive("einsum", _einsum_forward,
                                          vjp=[_einsum_vjp(k) for k in range(n)],
                                          jvp=[_einsum_jvp(k) for k in range(n)])
    return _EINSUM_PRIMITIVES[n]


def _einsum_forward(*arrays, terms, out):
    # NumPy's own loop (one pass over every combination of labels) is quick for small operands; larger ones are
    # worth its contraction path, which hands products to BLAS.
    sizes = {label: d for term, a in zip(terms, arrays) for label, d in zip(term, a.shape)}
    work = np.prod(list(sizes.values()), dtype=float)
    return np.einsum(f"{','.join(terms)}->{out}", *arrays, optimize=bool(work > 1e5))


def _contract(terms, out, tensors):
    """``einsum`` of ``tensors`` on an equation already checked and written out: ``terms`` -> ``out``."""
    return apply(_einsum_primitive(len(tensors)), tuple(tensors), {"terms": tuple(terms), "out": out})


def _einsum_jvp(k):
    def rule(t, ans, *operands, terms, out):  # einsum is linear in each operand: swap the tangent in
        return _contract(terms, out, operands[:k] + (t,) + operands[k + 1:])
    return rule


def _einsum_vjp(k):
    def rule(g, ans, *operands, terms, out):
        return _operand_gradient(g, operands, terms, out, k)
    return rule


def _operand_gradient(g, operands, terms, out, k):
    """The gradient of operand ``k``: contract ``g`` with every other operand, back to operand ``k``'s labels.

    For ``C = einsum("ij,jk->ik", A, B)`` that is ``Ā = einsum("ik,jk->ij", C̄, B)``.
    Labels that occur only in operand ``k`` were summed away, so its gradient
    is the same along them (a broadcast); a label repeated in it (``"ii"``,
    a diagonal) gets the gradient on that diagonal only (a product with the
    identity matrix); and a dimension of size 1 that was broadcast is summed.
    """
    term, x = terms[k], operands[k]
    others = terms[:k] + terms[k + 1:]
    unique = "".join(dict.fromkeys(term))
    elsewhere = set(out).union(*others)
    kept = "".join(label for label in unique if label in elsewhere)
    grad = _contract((out,) + others, kept, (g,) + operands[:k] + operands[k + 1:])
    if kept != term:
        size = dict(zip(term, x.array.shape))
        fresh = iter(sorted(set(string.ascii_letters) - set(out).union(*terms)))
        extra_terms, extra, target, seen = [], [], "", set()
        for label in unique:
            if label not in kept:  # summed within operand k only
                extra_terms.append(label)
                extra.append(ones((size[label],), dtype=x.dtype))
        for label in term:
            if label in seen:  # a repeated label: its gradient lives on the diagonal
                new = next(fresh)
                extra_terms.append(label + new)
                extra.append(eye(size[label], dtype=x.dtype))
                label = new
            seen.add(label)
            target += label
        grad = _contract((kept, *extra_terms), target, (grad, *extra))
    stretched = [i for i, (d, e) in enumerate(zip(x.array.shape, grad.array.shape)) if d == 1 and e != 1]
    return reduce_sum(grad, stretched, keepdims=True) if stretched else grad


def _parse_einsum(equation, shapes):
    """``equation`` checked against the operands' ``shapes``, with every ellipsis written out as letters.

    Returns ``(terms, out)``: one string of labels per operand and one for
    the result. Without ``->`` the output is every label used once, sorted
    (after the ellipsis, if any), as in NumPy and TensorFlow.
    """
    compact = equation.replace(" ", "")
    lhs, arrow, out = compact.partition("->")
    if "->" in out or any(c not in string.ascii_letters + ".," for c in lhs + out) or \
            any("." in t.replace("...", "") or t.count("...") > 1 for t in lhs.split(",") + [out]):
        raise ValueError(f'einsum: the equation {equation!r} has an incorrect format; write it like "ij,jk->ik": '
                         f'letters for the dimensions, a comma between inputs, "..." for any leading dimensions')
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the equation {equation!r} has {len(terms)} input(s), but {len(shapes)} tensor(s) "
                         f"were given")
    free = [c for c in string.ascii_letters if c not in compact]
    n_ellipsis = 0
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        named = len(term.replace("...", ""))
        if ("..." in term and len(shape) < named) or ("..." not in term and len(shape) != named):
            raise ValueError(f"einsum: input {k} has the labels {term!r} but shape {shape} (rank {len(shape)})")
        if "..." in term:
            n_ellipsis = max(n_ellipsis, len(shape) - named)
    letters = "".join(free[:n_ellipsis])
    spelled = [t.replace("...", letters[n_ellipsis - (len(s) - len(t) + 3):] if "..." in t else "")
               for t, s in zip(terms, shapes)]
    if not arrow:
        counts = collections.Counter(lhs.replace("...", "").replace(",", ""))
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, n in counts.items() if n == 1))
    for label in out.replace("...", ""):
        if label not in lhs:
            raise ValueError(f"einsum: the output label {label!r} of {equation!r} is in no input")
        if out.count(label) > 1:
            raise ValueError(f"einsum: the output label {label!r} of {equation!r} appears more than once")
    if letters and "..." not in out:
        raise ValueError(f"einsum: the inputs of {equation!r} have {n_ellipsis} dimension(s) under '...' but the "
                         f"output has no '...'; add it, e.g. '...ik'")
    sizes = {}
    for k, (term, shape) in enumerate(zip(spelled, shapes)):
        for label, d in zip(term, shape):
            seen = sizes.setdefault(label, d)
            if d != seen and not (label in letters and 1 in (d, seen)):
                raise ValueError(f"einsum: label {label!r} stands for dimensions of sizes {seen} and {d} (input "
                                 f"{k}, shape {shape}); a label must have one size")
            if label in letters and seen == 1:
                sizes[label] = d
    return tuple(spelled), out.replace("...", letters)


@exported("tf", "tf.linalg")
def einsum(equation, *inputs, **kwargs):
    """Sums of products over labelled dimensions, as written in ``equation`` (Einstein's notation).

    ``"ij,jk->ik"`` is a matrix product, ``"bij,bjk->bik"`` a batch of them,
    ``"ii->"`` a trace, ``"ij->ji"`` a transpose, ``"i,j->ij"`` an outer
    product; ``"..."`` stands for any leading dimensions, which broadcast.
    Without ``->`` the output is the labels used once, in alphabetical order.
    The gradient of each input is another einsum, of the output's gradient
    with the other inputs (``name`` and ``optimize`` are accepted and ignored).

    >>> einsum("ij,jk->ik", [[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    >>> float(einsum("ii", [[1.0, 2.0], [3.0, 4.0]]))
    5.0
    """
    unknown = set(kwargs) - {"name", "optimize"}
    if unknown:
        raise TypeError(f"einsum: unexpected keyword argument(s) {sorted(unknown)}; it takes name and optimize")
    tensors = convert_inputs("einsum", *inputs)
    terms, out = _parse_einsum(equation, [t.array.shape for t in tensors])
    return _contract(terms, out, tensors)


def _tensordot_axes(axes, ra, rb):
    """The axes of ``a`` and of ``b`` that ``tensordot`` sums over, as two lists of non-negative axes."""
    if np.ndim(axes.array if isinstance(axes, Tensor) else axes) == 0:
        n = int(axes.array if isinstance(axes, Tensor) else axes)
        if not 0 <= n <= min(ra, rb):
            raise ValueError(f"tensordot: axes={n} must be between 0 and {min(ra, rb)}, the smaller rank of the two "
                             f"tensors (ranks {ra} and {rb})")
        return list(range(ra - n, ra)), list(range(n))
    if len(axes) != 2:
        raise ValueError(f"tensordot: axes must be an integer or a pair [axes of a, axes of b], got {axes!r}")
    pair = [[int(i) for i in np.reshape(side, -1)] for side in axes]
    if len(pair[0]) != len(pair[1]):
        raise ValueError(f"tensordot: axes {axes!r} name {len(pair[0])} axes of a but {len(pair[1])} of b; they are "
                         f"summed in pairs")
    for which, side, rank in (("a", pair[0], ra), ("b", pair[1], rb)):
        if any(not -rank <= i < rank for i in side):
            raise ValueError(f"tensordot: axes {side} are out of range for {which}, of rank {rank}")
    return [i % ra for i in pair[0]], [i % rb for i in pair[1]]


@exported("tf", "tf.linalg")
def tensordot(a, b, axes, name=None):
    """Sums of products of ``a`` and ``b`` over pairs of axes: a matrix product generalized to any rank.

    ``axes=n`` pairs the last ``n`` axes of ``a`` with the first ``n`` of
    ``b`` (``n=1``: a matrix product, ``n=0``: an outer product);
    ``axes=[[i, ...], [j, ...]]`` pairs axis ``i`` of ``a`` with axis ``j``
    of ``b``. The result's axes are ``a``'s free ones, then ``b``'s. It is
    an :func:`einsum` with one label per pair, so its gradient is einsum's.

    >>> tensordot([[1.0, 2.0]], [[3.0], [4.0]], 1).numpy()
    array([[11.]], dtype=float32)
    """
    a, b = convert_inputs("tensordot", a, b)
    sa, sb = a.array.shape, b.array.shape
    a_axes, b_axes = _tensordot_axes(axes, len(sa), len(sb))
    for i, j in zip(a_axes, b_axes):
        if sa[i] != sb[j]:
            raise ValueError(f"tensordot: axis {i} of a (shape {sa}) has size {sa[i]} but axis {j} of b (shape {sb}) "
                             f"has size {sb[j]}; axes summed together must have the same size")
    term_a = string.ascii_letters[:len(sa)]
    term_b = [string.ascii_letters[len(sa) + j] for j in range(len(sb))]
    for i, j in zip(a_axes, b_axes):
        term_b[j] = term_a[i]
    out = "".join(term_a[i] for i in range(len(sa)) if i not in a_axes) + \
        "".join(term_b[j] for j in range(len(sb)) if j not in b_axes)
    return _contract((term_a, "".join(term_b)), out, (a, b))
