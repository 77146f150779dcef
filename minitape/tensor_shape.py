"""``TensorShape``: a tensor's shape, a tuple of ints that also answers TensorFlow's questions about it."""

import numpy as np


class TensorShape(tuple):
    """A tensor's shape: a tuple of ints that also answers TensorFlow's questions.

    >>> s = TensorShape((2, 3))
    >>> s == (2, 3), s == [2, 3], s.rank, s.as_list(), s.num_elements()
    (True, True, 2, [2, 3], 6)
    """

    def __eq__(self, other):
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__

    @property
    def rank(self):
        return len(self)

    def as_list(self):
        return list(self)

    def num_elements(self):
        return int(np.prod(self, dtype=np.int64))

    def __repr__(self):
        return f"TensorShape({list(self)})"

    def is_compatible_with(self, other):
        """True if ``other`` could be this shape: same rank, and each dimension equal or unknown (None).

        ``other`` is a shape, a list or tuple of sizes (None for unknown), or
        None (an unknown rank, compatible with any shape).

        >>> TensorShape((2, 3)).is_compatible_with([None, 3]), TensorShape((2, 3)).is_compatible_with([2])
        (True, False)
        """
        if other is None:
            return True
        sizes = np.asarray(other) if hasattr(other, "__array__") else other  # a tensor or an array: its values
        dims = [None if d is None else int(d) for d in sizes]
        return len(dims) == len(self) and all(a is None or b is None or a == b for a, b in zip(self, dims))

    def assert_is_compatible_with(self, other):
        """Raise ValueError unless :meth:`is_compatible_with` ``other``."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {tuple(self)} and {other} are incompatible")
