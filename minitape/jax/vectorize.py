"""``vmap``: a function of one example made a function of a batch.

JAX traces the function once and batches each primitive. minitape runs the function once per example, on the
slices of the mapped arguments, and stacks the results along ``out_axes``: a Python loop, always (no op is
batched by its broadcasting). The results are the same for a pure function; the cost is one call per example,
and a Python ``if`` on a value, which JAX refuses under ``vmap``, runs here.

>>> import minitape.jax.numpy as jnp
>>> vmap(lambda x, y: jnp.dot(x, y), in_axes=(0, None))(jnp.ones((3, 2)), jnp.array([1.0, 2.0]))
Array([3., 3., 3.], dtype=float32)
"""

import functools

import numpy as np

from .arrays import asarray
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
        outs = [fun(*tree_unflatten(treedef, [x[i] if a is not None else x for x, a in zip(mapped, axes)]))
                for i in range(size)]
        out_tree = tree_structure(outs[0])
        columns = [tree_flatten(o)[0] for o in outs]
        out_leaves, _, out_spec = _axes_per_leaf(out_axes, outs[0], "out_axes")
        stacked = []
        for j, axis in enumerate(out_spec):
            column = stack([asarray(c[j]) for c in columns])
            stacked.append(column if axis is None or axis == 0 else moveaxis(column, 0, axis))
        return tree_unflatten(out_tree, stacked)

    return vmapped


