"""``vmap``: a function of one example made a function of a batch.

JAX traces the function once and batches each primitive. minitape does one of two things:

* ``jnp``'s elementwise functions (``vmap(jnp.sin)``, ``vmap(jnp.multiply, in_axes=(0, None))``, marked
  ``elementwise``) run once on the whole batch, through the op's own broadcasting, when the mapped arguments
  have one rank per example and the unmapped ones no more;
* any other function runs once per example, on the slices of the mapped arguments, and the results are stacked
  along ``out_axes``: a Python loop, one call per example. A Python ``if`` on a value that depends on a mapped
  argument is refused with JAX's ``TracerBoolConversionError``, as JAX refuses it (``lax.cond`` and
  ``jnp.where`` are the ways to branch).

>>> import minitape.jax.numpy as jnp
>>> vmap(lambda x, y: jnp.dot(x, y), in_axes=(0, None))(jnp.ones((3, 2)), jnp.array([1.0, 2.0]))
Array([3., 3., 3.], dtype=float32)
"""

import functools

import numpy as np

from .arrays import MappedValues, asarray
from .numpy import moveaxis, stack
from .pytrees import flatten_up_to, tree_flatten, tree_structure, tree_unflatten


def _axes_per_leaf(spec, tree, what):
    """The axis (or None) of each leaf of ``tree``, from ``spec``: an int/None for all, or a prefix tree of them."""
    leaves, treedef = tree_flatten(tree)
    if spec is None or isinstance(spec, int):
        return leaves, treedef, [spec] * len(leaves)
    spec_leaves, spec_tree = tree_flatten(spec, is_leaf=lambda x: x is None)
    try:
        subtrees = flatten_up_to(spec_tree, tree)
    except ValueError:
        raise ValueError(f"vmap {what} specification must be a tree prefix of the corresponding value, got "
                         f"specification {spec} for value tree {treedef}.") from None
    axes = [a for a, sub in zip(spec_leaves, subtrees) for _ in tree_flatten(sub)[0]]
    return leaves, treedef, axes


def _broadcasts(fun, mapped, axes):
    """True if ``fun`` is elementwise and the batch axis, in front, lines up in every mapped argument."""
    if not getattr(fun, "elementwise", False):
        return False
    ranks = {np.ndim(x) for x, a in zip(mapped, axes) if a is not None}
    return len(ranks) == 1 and all(np.ndim(x) < min(ranks) for x, a in zip(mapped, axes) if a is None)


def vmap(fun, in_axes=0, out_axes=0, axis_size=None):
    """``fun`` mapped over axis ``in_axes`` of its arguments (an int, None, or one per argument, as trees)."""
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)

    @functools.wraps(fun)
    def vmapped(*args):
        spec = in_axes if not isinstance(in_axes, tuple) else in_axes
        if isinstance(spec, tuple) and len(spec) != len(args):
            raise ValueError(f"vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                             f"positional arguments passed to the function, but got len(in_axes)={len(spec)}, "
                             f"len(args)={len(args)}")
        leaves, treedef, axes = _axes_per_leaf(spec, args, "in_axes")
        leaves = [asarray(x) if a is not None else x for x, a in zip(leaves, axes)]
        sizes = {np.shape(x)[a] for x, a in zip(leaves, axes) if a is not None}
        if not sizes and axis_size is None:
            raise ValueError("vmap must have at least one non-None value in in_axes")
        if len(sizes) > 1:
            raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n" + "\n".join(
                f"  argument leaf {k} has shape {np.shape(x)} and axis {a} is to be mapped"
                for k, (x, a) in enumerate(zip(leaves, axes)) if a is not None))
        size = sizes.pop() if sizes else axis_size
        mapped = [moveaxis(x, a, 0) if a is not None else x for x, a in zip(leaves, axes)]
        if _broadcasts(fun, mapped, axes) and (out_axes == 0 or out_axes is None):
            return fun(*tree_unflatten(treedef, mapped))
        outs = []
        for i in range(size):
            example = [x[i] if a is not None else x for x, a in zip(mapped, axes)]
            with MappedValues(x.id for x, a in zip(example, axes) if a is not None):
                outs.append(fun(*tree_unflatten(treedef, example)))
        out_tree = tree_structure(outs[0])
        columns = [tree_flatten(o)[0] for o in outs]
        out_leaves, _, out_spec = _axes_per_leaf(out_axes, outs[0], "out_axes")
        stacked = []
        for j, axis in enumerate(out_spec):
            column = stack([asarray(c[j]) for c in columns])
            stacked.append(column if axis is None or axis == 0 else moveaxis(column, 0, axis))
        return tree_unflatten(out_tree, stacked)

    return vmapped


