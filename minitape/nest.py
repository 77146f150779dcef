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


def pack_sequence_as(structure, flat):
    """Rebuild ``structure`` with its leaves replaced, in order, by the items of ``flat``."""
    leaves = iter(flat)

    def rebuild(s):
        if not _is_sequence(s):
            return next(leaves)
        if isinstance(s, dict):
            return type(s)((k, rebuild(v)) for k, v in s.items())
        items = [rebuild(child) for child in s]
        if isinstance(s, tuple) and hasattr(s, "_fields"):  # a namedtuple
            return type(s)(*items)
        return type(s)(items)

    return rebuild(structure)
