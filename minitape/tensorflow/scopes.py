"""Name scopes: the prefixes TensorFlow puts on the names of Variables (``mt.name_scope``).

A Variable created inside ``with mt.name_scope("layer"):`` is called
``layer/w:0``; scopes nest (``outer/layer/w:0``), and a scope name that ends
with ``/`` is taken whole, not nested. In eager code a Variable's name is the
only thing a scope changes (tensors have no names there), so that is all
minitape keeps: the current prefix, one per thread, as in TensorFlow (``minitape.variable.name_prefix``).

>>> import minitape as mt
>>> with mt.name_scope("outer"):
...     with mt.name_scope("layer") as scope:
...         w = mt.Variable(1.0, name="w")
>>> scope, w.name
('outer/layer/', 'outer/layer/w:0')
"""

from ..variable import name_prefix


class name_scope:
    """A context manager that prefixes the names of Variables created inside it; entering it gives the prefix.

    Entering is allowed again and again (a Module enters its own scope on
    every call of a method decorated with ``Module.with_name_scope``); names
    are not made unique, as in TensorFlow's eager mode.
    """

    __slots__ = ("_name", "_outer")

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError(f"name_scope: the name must be a string, got {name!r}")
        self._name = name
        self._outer = []  # the prefixes to restore, one per entry not yet left

    @property
    def name(self):
        return self._name

    def __enter__(self):
        outer = name_prefix.value
        if not self._name:
            prefix = ""
        elif self._name.endswith("/"):
            prefix = self._name  # a full scope name, as a Module keeps its own
        else:
            prefix = f"{outer}{self._name}/"
        self._outer.append(outer)
        name_prefix.value = prefix
        return prefix

    def __exit__(self, *exc):
        name_prefix.value = self._outer.pop()
        return False

    def __repr__(self):
        return f"name_scope({self._name!r})"


__all__ = ["name_scope"]
