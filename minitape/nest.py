"""Nested structures of tensors (lists, tuples, dicts), flattened and rebuilt.

``tape.gradient(loss, {"w": w, "b": b})`` returns ``{"w": dw, "b": db}``: the
tape flattens ``sources`` to a list, computes one gradient per leaf, and packs
the results back into the same structure.

>>> flatten({"b": [1, 2], "a": 3})
[1, 2, 3]
>>> pack_sequence_as({"b": [1, 2], "a": 3}, ["x", "y", "z"])
{'b': ['x', 'y'], 'a': 'z'}
"""


def _is_sequence(x):
    return isinstance(x, (list, tuple, dict))


def flatten(structure):
    """The leaves of ``structure`` in order (dicts in insertion order); a leaf gives ``[leaf]``."""
    if not _is_sequence(structure):
        return [structure]
    children = structure.values() if isinstance(structure, dict) else structure
    return [leaf for child in children for leaf in flatten(child)]


def flatten_up_to(structure, data):
    """Flatten ``data`` only as deep as ``structure`` goes: one item per leaf of ``structure``.

    A tangent or an output gradient given as a list of numbers stays one item:

    >>> flatten_up_to(["x", "y"], [[1.0, 2.0], 3.0])
    [[1.0, 2.0], 3.0]
    """
    if not _is_sequence(structure):
        return [data]
    if isinstance(structure, dict):
        if not isinstance(data, dict) or set(data) != set(structure):
            raise ValueError(f"expected a dict with keys {sorted(structure)}, got {data!r}")
        return [leaf for k in structure for leaf in flatten_up_to(structure[k], data[k])]
    if not isinstance(data, (list, tuple)) or len(data) != len(structure):
        raise ValueError(f"expected a sequence of {len(structure)} items to match {structure!r}, got {data!r}")
    return [leaf for s, d in zip(structure, data) for leaf in flatten_up_to(s, d)]


def pack_sequence_as(structure, flat):
    """Rebuild ``structure`` with its leaves replaced, in order, by the items of ``flat``."""
    return _rebuild(structure, iter(flat))


def _rebuild(structure, leaves):
    # A module-level function, not a closure: a recursive closure is a reference cycle, which
    # would keep the leaves (gradients, often large) alive until the cycle collector runs.
    if not _is_sequence(structure):
        return next(leaves)
    if isinstance(structure, dict):
        return type(structure)((k, _rebuild(v, leaves)) for k, v in structure.items())
    items = [_rebuild(child, leaves) for child in structure]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # a namedtuple
        return type(structure)(*items)
    return type(structure)(items)
