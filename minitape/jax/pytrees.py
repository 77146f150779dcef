"""Pytrees: nested tuples, lists, dicts and registered classes, with arrays at the leaves (``jax.tree_util``).

Every transformation takes and returns pytrees: ``grad`` flattens its argument to a list of leaves, differentiates
with respect to each, and puts the gradients back in the argument's structure (:func:`tree_unflatten`).

>>> leaves, treedef = tree_flatten({"w": 1.0, "b": (2.0, None)})
>>> leaves
[2.0, 1.0]
>>> treedef
PyTreeDef({'b': (*, None), 'w': *})
>>> tree_unflatten(treedef, [20.0, 10.0])
{'b': (20.0, None), 'w': 10.0}

As in JAX, a dict's leaves come in the order of its sorted keys, and ``None`` is a node with no children (not a leaf).
"""

import collections
import dataclasses
import types

# class -> (flatten(node) -> (children, aux_data), unflatten(aux_data, children) -> node)
_NODES = {}


def register_pytree_node(nodetype, flatten_func, unflatten_func):
    """Make instances of ``nodetype`` pytree nodes: ``flatten_func(x) -> (children, aux_data)`` and
    ``unflatten_func(aux_data, children) -> x``.

    >>> class Pair:
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    >>> register_pytree_node(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    >>> tree_leaves(Pair(1.0, [2.0, 3.0]))
    [1.0, 2.0, 3.0]
    """
    if nodetype in _NODES:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype}.")
    _NODES[nodetype] = (flatten_func, unflatten_func)


def register_pytree_node_class(cls):
    """Class decorator: the class flattens with its method ``tree_flatten()`` and rebuilds with its classmethod
    ``tree_unflatten(aux_data, children)``."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_dataclass(nodetype, data_fields=None, meta_fields=None, drop_fields=()):
    """Make a dataclass a pytree node: its ``data_fields`` are children, its ``meta_fields`` static aux data.

    Without the lists (as a decorator), a field whose metadata says ``static=True`` is a meta field, the
    others data fields.

    >>> import dataclasses
    >>> @register_dataclass
    ... @dataclasses.dataclass
    ... class Layer:
    ...     w: float
    ...     name: str = dataclasses.field(default="dense", metadata=dict(static=True))
    >>> tree_leaves(Layer(2.0))
    [2.0]
    """
    if data_fields is None and meta_fields is None:
        fields = [f for f in dataclasses.fields(nodetype) if f.init]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    data_fields, meta_fields = list(data_fields), list(meta_fields)

    def flatten(x):
        return [getattr(x, f) for f in data_fields], tuple(getattr(x, f) for f in meta_fields)

    def unflatten(meta, children):
        return nodetype(**dict(zip(data_fields, children)), **dict(zip(meta_fields, meta)))

    register_pytree_node(nodetype, flatten, unflatten)
    return nodetype


def _sequence(node):
    return list(node), None


register_pytree_node(tuple, _sequence, lambda aux, children: tuple(children))
register_pytree_node(list, _sequence, lambda aux, children: list(children))
register_pytree_node(dict, lambda d: ([d[k] for k in sorted(d)], sorted(d)),
                     lambda keys, children: dict(zip(keys, children)))
register_pytree_node(collections.OrderedDict, lambda d: (list(d.values()), list(d)),
                     lambda keys, children: collections.OrderedDict(zip(keys, children)))
register_pytree_node(type(None), lambda n: ((), None), lambda aux, children: None)


def _node_functions(x):
    """The (flatten, unflatten) pair of ``x``'s class, or None for a leaf; a namedtuple is a node of its own class."""
    functions = _NODES.get(type(x))
    if functions is None and isinstance(x, tuple) and hasattr(x, "_fields"):
        cls = type(x)
        return (_sequence, lambda aux, children: cls(*children))
    return functions


class PyTreeDef:
    """The structure of a pytree without its leaves: a node type, its aux data and its children's structures."""

    __slots__ = ("node_type", "aux_data", "children", "num_leaves", "_unflatten")

    def __init__(self, node_type, aux_data, children, unflatten):
        self.node_type = node_type  # None for a leaf
        self.aux_data = aux_data
        self.children = tuple(children)
        self._unflatten = unflatten
        self.num_leaves = 1 if node_type is None else sum(c.num_leaves for c in self.children)

    @property
    def num_nodes(self):
        return 1 + sum(c.num_nodes for c in self.children)

    def unflatten(self, leaves):
        return tree_unflatten(self, leaves)

    def __eq__(self, other):
        return (isinstance(other, PyTreeDef) and self.node_type is other.node_type
                and self.aux_data == other.aux_data and self.children == other.children)

    def __hash__(self):
        return hash((self.node_type, self.children))

    def __repr__(self):
        return f"PyTreeDef({self._text()})"

    def _text(self):
        if self.node_type is None:
            return "*"
        inner = [c._text() for c in self.children]
        if self.node_type is type(None):
            return "None"
        if self.node_type is tuple:
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        if self.node_type is list:
            return "[" + ", ".join(inner) + "]"
        if self.node_type is dict:
            return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(self.aux_data, inner)) + "}"
        return f"CustomNode({self.node_type.__name__}[{self.aux_data!r}], [{', '.join(inner)}])"


_LEAF = PyTreeDef(None, None, (), None)


def tree_flatten(tree, is_leaf=None):
    """``(leaves, treedef)``: the leaves from left to right, and the structure to rebuild the tree."""
    leaves = []
    return leaves, _flatten(tree, is_leaf, leaves)


def _flatten(x, is_leaf, leaves):
    functions = None if is_leaf is not None and is_leaf(x) else _node_functions(x)
    if functions is None:
        leaves.append(x)
        return _LEAF
    children, aux = functions[0](x)
    return PyTreeDef(type(x), aux, [_flatten(c, is_leaf, leaves) for c in children], functions[1])


def tree_unflatten(treedef, leaves):
    """The tree of structure ``treedef`` with ``leaves`` (an iterable, in order) at its leaves."""
    leaves = list(leaves)
    if len(leaves) != treedef.num_leaves:
        raise ValueError(f"Too {'few' if len(leaves) < treedef.num_leaves else 'many'} leaves for PyTreeDef; "
                         f"expected {treedef.num_leaves}, got {len(leaves)}.")
    return _build(treedef, iter(leaves))


def _build(treedef, leaves):
    if treedef.node_type is None:
        return next(leaves)
    return treedef._unflatten(treedef.aux_data, [_build(c, leaves) for c in treedef.children])


def tree_leaves(tree, is_leaf=None):
    """The leaves of ``tree``, from left to right."""
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    """The :class:`PyTreeDef` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def flatten_up_to(treedef, tree):
    """The subtrees of ``tree`` at the leaves of ``treedef`` (``tree`` has ``treedef``'s structure, or is deeper)."""
    if treedef.node_type is None:
        return [tree]
    functions = _node_functions(tree)
    if type(tree) is not treedef.node_type or functions is None:
        raise ValueError(f"Tree structures do not match: expected {treedef}, got {type(tree).__name__} {tree!r}")
    children, aux = functions[0](tree)
    if aux != treedef.aux_data or len(children) != len(treedef.children):
        raise ValueError(f"Tree structures do not match: expected {treedef}, got {tree_structure(tree)}")
    return [leaf for c, d in zip(children, treedef.children) for leaf in flatten_up_to(d, c)]


def tree_map(f, tree, *rest, is_leaf=None):
    """``f`` applied leaf by leaf: ``tree_map(f, a, b)`` calls ``f(leaf_of_a, leaf_of_b)`` (``b`` has ``a``'s
    structure, or a deeper one) and returns a tree of ``a``'s structure.

    >>> tree_map(lambda x, y: x + y, [1, {"k": 2}], [10, {"k": 20}])
    [11, {'k': 22}]
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = [flatten_up_to(treedef, r) for r in rest]
    return tree_unflatten(treedef, [f(*xs) for xs in zip(leaves, *others)])


def tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose):
    """An outer tree of inner trees becomes an inner tree of outer trees.

    >>> tree_transpose(tree_structure([0, 0]), tree_structure((0, 0)), [(1, 2), (3, 4)])
    ([1, 3], [2, 4])
    """
    inner = flatten_up_to(outer_treedef, pytree_to_transpose)
    columns = [flatten_up_to(inner_treedef, x) for x in inner]
    return tree_unflatten(inner_treedef, [tree_unflatten(outer_treedef, list(c)) for c in zip(*columns)])


# jax.tree: the same functions under shorter names (jax.tree.map is tree_util.tree_map).
tree = types.SimpleNamespace(map=tree_map, flatten=tree_flatten, unflatten=tree_unflatten, leaves=tree_leaves,
                             structure=tree_structure, transpose=tree_transpose)

__all__ = ["PyTreeDef", "register_dataclass", "register_pytree_node", "register_pytree_node_class", "tree_flatten",
           "tree_leaves", "tree_map", "tree_structure", "tree_transpose", "tree_unflatten"]
