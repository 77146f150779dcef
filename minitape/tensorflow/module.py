"""Modules: objects that hold Variables and other modules, and find them all (TensorFlow's ``tf.Module``).

A model is a class whose attributes are its parameters. Subclass
:class:`Module`, keep Variables (and sub-modules, also in lists, tuples and
dicts) as attributes, and ``trainable_variables`` finds them all for the tape
and the update:

>>> import minitape as mt
>>> class Line(mt.Module):
...     def __init__(self):
...         super().__init__()
...         self.w = mt.Variable(2.0, name="w")
...         self.b = mt.Variable(0.5, name="b")
...     def __call__(self, x):
...         return self.w * x + self.b
>>> line = Line()
>>> with mt.GradientTape() as tape:
...     loss = (line(3.0) - 1.0) ** 2
>>> grads = tape.gradient(loss, line.trainable_variables)
>>> [(v.name, float(g)) for v, g in zip(line.trainable_variables, grads)]  # attributes sorted by name: b, w
[('b:0', 11.0), ('w:0', 33.0)]

Nothing is registered when an attribute is set: the Variables are found by
reading the object's attributes when asked, as TensorFlow does. So a
subclass that never calls ``super().__init__()`` (as TensorFlow's Core API
guides write them) still finds its Variables; only ``name`` and
``name_scope`` need the call.
"""

import functools
import re

from .. import nest
from .scopes import name_scope
from ..variable import Variable


def _snake_case(class_name):
    """A class name as a module name, as TensorFlow spells it.

    >>> _snake_case("MyMLP"), _snake_case("HTTPServer"), _snake_case("Dense2D")
    ('my_mlp', 'http_server', 'dense2_d')
    """
    # A word starts at a capital after a small letter or digit, and at the last capital of a run before a small letter.
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<!^)(?=[A-Z][a-z])", "_", class_name).lower()


class Module:
    """A container of Variables and sub-modules, found through its attributes.

    Args:
      name: the module's name, a Python identifier; by default the class
        name in snake case (``MyModel`` gives ``my_model``).

    ``variables`` lists the Variables held in the module's attributes, in the
    order of the attributes' names (inside an attribute, in ``mt.nest``
    order: lists in order, dicts by sorted key), then those of each
    sub-module in turn, breadth first; each Variable once. The module's
    ``name_scope`` is made when the module is, inside the scopes active then.
    """

    def __init__(self, name=None):
        if name is None:
            name = _snake_case(type(self).__name__)
        elif not (isinstance(name, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)):
            raise ValueError(f"{name!r} is not a valid module name: a module's name must be a Python identifier "
                             f"(letters, digits and _, not starting with a digit), e.g. 'dense_1'")
        self._name = name
        with name_scope(name) as scope:
            self._name_scope = name_scope(scope)  # the full name, e.g. "outer/my_model/": entered as it is

    @property
    def name(self):
        """The name given to the constructor (or the class name in snake case), without the enclosing scopes."""
        return self._initialized("name")._name

    @property
    def name_scope(self):
        """This module's scope: ``with self.name_scope:`` names the Variables created inside after the module."""
        return self._initialized("name_scope")._name_scope

    def _initialized(self, what):
        if "_name" not in vars(self):
            raise AttributeError(f"{type(self).__name__}.{what}: the module has no name, because its __init__ did "
                                 f"not call Module's: add super().__init__() (or super().__init__(name=...)) at the "
                                 f"start of {type(self).__name__}.__init__")
        return self

    @property
    def variables(self):
        """Every Variable of this module and its sub-modules (a tuple)."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self):
        """The Variables that are trainable (what a tape watches and an optimizer updates), as a tuple."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def non_trainable_variables(self):
        """The Variables made with ``trainable=False``, as a tuple."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Variable) and not v.trainable))

    @property
    def submodules(self):
        """Every module held by this one, by its sub-modules, and so on, breadth first (a tuple)."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Module)))

    def _flatten(self, recursive=True, predicate=None, seen=None):
        """The values in this module's attributes (and, if ``recursive``, its sub-modules') that ``predicate`` accepts.

        Attributes are read in the order of their names, each one flattened
        as ``mt.nest`` does; a value met twice is given once (``seen`` holds
        the ids of the values met). Sub-modules are read after all of this
        module's attributes, so a module's own Variables come first.
        """
        seen = {id(self)} if seen is None else seen
        submodules = []
        for key in sorted(vars(self)):
            for leaf in nest.flatten(vars(self)[key]):
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
                if predicate is None or predicate(leaf):
                    yield leaf
                if recursive and isinstance(leaf, Module):
                    submodules.append(leaf)
        for module in submodules:
            yield from module._flatten(recursive, predicate, seen)

    @classmethod
    def with_name_scope(cls, method):
        """Decorate a method so that it runs inside the module's ``name_scope``.

        >>> import minitape as mt
        >>> class Lazy(mt.Module):
        ...     @mt.Module.with_name_scope
        ...     def __call__(self, x):
        ...         if not hasattr(self, "w"):
        ...             self.w = mt.Variable(mt.ones([x.shape[-1]]))
        ...         return x * self.w
        >>> lazy = Lazy()
        >>> _ = lazy(mt.ones([2]))
        >>> lazy.w.name
        'lazy/Variable:0'
        """
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope


__all__ = ["Module"]
