"""Nested structures of tensors (lists, tuples, dicts), flattened and rebuilt (``mt.nest``, TensorFlow's ``tf.nest``).

``tape.gradient(loss, {"w": w, "b": b})`` returns ``{"w": dw, "b": db}``: the
tape flattens ``sources`` to a list, computes one gradient per leaf, and packs
the results back into the same structure. As in TensorFlow, a dict's leaves
come in the order of its sorted keys, and a rebuilt dict keeps its own order.

>>> flatten({"b": [1, 2], "a": 3})
[3, 1, 2]
>>> pack_sequence_as({"b": [1, 2], "a": 3}, ["x", "y", "z"])
{'b': ['y', 'z'], 'a': 'x'}
>>> map_structure(lambda x, y: x + y, {"b": [1, 2], "a": 3}, {"a": 10, "b": [20, 30]})
{'b': [21, 32], 'a': 13}
"""


def _is_sequence(x):
    return isinstance(x, (list, tuple, dict))


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(f"nest: a dict's keys must be sortable (its leaves come in the order of its sorted keys), got "
                        f"{list(d)}") from None


def _children(structure):
    """The items of a list or tuple, or the values of a dict in the order of its sorted keys."""
    return [structure[k] for k in _sorted_keys(structure)] if isinstance(structure, dict) else structure


def flatten(structure):
    """The leaves of ``structure`` in order (dicts by sorted keys); a leaf gives ``[leaf]``."""
    if not _is_sequence(structure):
        return [structure]
    return [leaf for child in _children(structure) for leaf in flatten(child)]


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
        return [leaf for k in _sorted_keys(structure) for leaf in flatten_up_to(structure[k], data[k])]
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
        rebuilt = {k: _rebuild(structure[k], leaves) for k in _sorted_keys(structure)}
        return type(structure)((k, rebuilt[k]) for k in structure)
    items = [_rebuild(child, leaves) for child in structure]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # a namedtuple
        return type(structure)(*items)
    return type(structure)(items)


def is_nested(seq):
    """True for a list, tuple or dict (which ``flatten`` opens), False for a leaf."""
    return _is_sequence(seq)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raise unless ``nest1`` and ``nest2`` nest alike: ValueError for another shape, TypeError for another type.

    With ``check_types=False`` a list and a tuple of the same length count as
    alike. (``expand_composites`` is accepted and ignored: minitape has no
    composite tensors.)

    >>> assert_same_structure([1, (2, 3)], ["a", ("b", "c")])
    """
    problem = _difference(nest1, nest2, check_types)
    if problem:
        kind, why = problem
        raise kind(f"The two structures don't have the same nested structure: {why}.\n\nFirst structure: "
                   f"{nest1!r}\n\nSecond structure: {nest2!r}")


def _difference(a, b, check_types):
    """Why ``a`` and ``b`` do not nest alike, as (exception class, reason), or None."""
    if _is_sequence(a) != _is_sequence(b):
        leaf, seq = (a, b) if _is_sequence(b) else (b, a)
        return ValueError, f"{leaf!r} is a leaf where the other has the {type(seq).__name__} {seq!r}"
    if not _is_sequence(a):
        return None
    if check_types and type(a) is not type(b):
        return TypeError, f"a {type(a).__name__} where the other has a {type(b).__name__}"
    if isinstance(a, dict) != isinstance(b, dict):
        return TypeError, f"a {type(a).__name__} where the other has a {type(b).__name__}"
    if isinstance(a, dict) and set(a) != set(b):
        return ValueError, f"dicts with keys {sorted(a, key=repr)} and {sorted(b, key=repr)}"
    if len(a) != len(b):
        return ValueError, f"a {type(a).__name__} of {len(a)} items where the other has {len(b)}"
    pairs = [(a[k], b[k]) for k in _sorted_keys(a)] if isinstance(a, dict) else zip(a, b)
    for x, y in pairs:
        problem = _difference(x, y, check_types)
        if problem:
            return problem
    return None


def map_structure(func, *structure, **kwargs):
    """``func`` applied to the leaves of ``structure`` (several structures: to their leaves side by side).

    The result has the structure of the first one. Keyword arguments:
    ``check_types`` (default True: lists and tuples must match exactly) and
    ``expand_composites`` (ignored), as in TensorFlow.

    >>> map_structure(lambda x: x * 2, (1, [2, 3]))
    (2, [4, 6])
    """
    unknown = set(kwargs) - {"check_types", "expand_composites"}
    if unknown:
        raise ValueError(f"map_structure: the only keyword arguments are check_types and expand_composites, "
                         f"got {sorted(unknown)}")
    if not structure:
        raise ValueError("map_structure: give at least one structure, e.g. map_structure(f, {'a': x})")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=kwargs.get("check_types", True))
    leaves = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*args) for args in zip(*leaves)])
