"""``tf.function`` as TensorFlow runs it eagerly: the function itself, its input signature checked.

minitape always runs eagerly, as TensorFlow does outside a ``tf.function``
(or after ``tf.config.run_functions_eagerly(True)``). ``function`` runs the
function as it is: TensorFlow would trace it into a graph once and run the
graph, and minitape has no graphs (``py_function``, TensorFlow's way to call
Python from a graph, is a plain call too). Python side effects (a ``print``,
appending to a list) therefore happen on every call here, as in TensorFlow's
eager mode, not once per trace.

>>> import minitape as mt
>>> @mt.function
... def square(x):
...     return x * x
>>> square(mt.constant(3.0))
<mt.Tensor: shape=(), dtype=float32, numpy=9.0>
"""

import functools
import inspect
import types

import numpy as np

from .. import nest
from ..dtypes import as_dtype
from ..ops import identity
from ..tensor import Tensor, convert_to_tensor
from ..tensor_shape import TensorShape
from ..variable import Variable


class TensorSpec:
    """The shape (``None`` for a dimension of any size) and dtype a value must have.

    ``function(input_signature=[...])`` checks its inputs against them, and
    ``map_fn(fn_output_signature=...)`` the results of ``fn``.

    >>> spec = TensorSpec(shape=[None, 2], dtype="float32")
    >>> spec.is_compatible_with(convert_to_tensor([[1.0, 2.0]])), spec.is_compatible_with(convert_to_tensor([1.0]))
    (True, False)
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype="float32", name=None):
        self.shape = None if shape is None else TensorShape([None if d is None else int(d) for d in shape])
        self.dtype = as_dtype(dtype)
        self.name = name

    def is_compatible_with(self, spec_or_tensor):
        """True if ``spec_or_tensor`` (a tensor or a spec) has this dtype and a compatible shape."""
        other = spec_or_tensor
        shape = other.shape if isinstance(other, (Tensor, TensorSpec)) else None
        return (other.dtype == self.dtype and (self.shape is None or shape is None
                                               or self.shape.is_compatible_with(shape)))

    def __repr__(self):
        shape = None if self.shape is None else tuple(self.shape)
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"


class Function:
    """What :func:`function` makes of a Python function: the same function, called as it is.

    ``python_function`` is the function itself; ``input_signature`` the specs
    its inputs are checked against (or None).
    """

    def __init__(self, python_function, input_signature=None):
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        functools.update_wrapper(self, python_function)

    def __call__(self, *args, **kwargs):
        if self.input_signature is not None:
            args, kwargs = self._checked_inputs(args, kwargs)
        return nest.map_structure(_as_output, self.python_function(*args, **kwargs))

    def __get__(self, instance, owner=None):
        """A method decorated with ``@mt.function``: ``self`` is bound first; the signature describes the rest."""
        if instance is None:
            return self
        return Function(types.MethodType(self.python_function, instance), self.input_signature)

    def _checked_inputs(self, args, kwargs):
        name = getattr(self.python_function, "__name__", "function")
        try:
            bound = inspect.signature(self.python_function).bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}: binding inputs to the function failed: {e}") from None
        if len(bound.arguments) > len(self.input_signature):
            raise TypeError(f"{name}: the input_signature describes {len(self.input_signature)} input(s), but "
                            f"{len(bound.arguments)} were given")
        for parameter, spec in zip(bound.signature.parameters, self.input_signature):
            if parameter in bound.arguments:
                value = bound.arguments[parameter]
                checked = [_matching(name, s, v) for s, v in zip(nest.flatten(spec), nest.flatten_up_to(spec, value))]
                bound.arguments[parameter] = nest.pack_sequence_as(spec, checked)
        return bound.args, bound.kwargs

    def __repr__(self):
        return f"<mt.function {getattr(self.python_function, '__qualname__', self.python_function)!r}>"


def _matching(name, spec, value):
    """``value`` as a tensor, if it fits ``spec``; a TypeError naming both otherwise (as in TensorFlow)."""
    tensor = convert_to_tensor(value, dtype_hint=spec.dtype)
    if not spec.is_compatible_with(tensor):
        raise TypeError(f"{name}: an input of shape {tuple(tensor.shape)} and dtype {tensor.dtype.name} does not "
                        f"match its input_signature {spec!r}")
    return tensor


def _as_output(value):
    """A result of a function as TensorFlow returns it: a tensor (a Variable is read; None and strings stay)."""
    if value is None or isinstance(value, str):
        return value
    return identity(value) if isinstance(value, Variable) else convert_to_tensor(value)


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None):
    """TensorFlow's ``tf.function``, which in minitape runs the function eagerly, as it is.

    Use it as ``@mt.function``, ``@mt.function(...)`` or ``mt.function(f)``.
    An ``input_signature`` (a list of :class:`TensorSpec`) is checked: inputs
    are converted to tensors, and one of another dtype or shape is a
    TypeError. Results are returned as tensors, as TensorFlow returns them.
    The other options choose how TensorFlow compiles the graph: minitape
    builds none, so they are accepted and have no effect.

    >>> @function
    ... def double(x):
    ...     return x * 2.0
    >>> double(convert_to_tensor(1.5))
    <mt.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    if func is None:
        return functools.partial(function, input_signature=input_signature)
    if not callable(func):
        raise TypeError(f"function: {func!r} is not a callable object; decorate a function, e.g. @mt.function")
    return Function(func, input_signature)


def get_static_value(tensor, partial=False):
    """The value of ``tensor`` as NumPy, if it is known without running anything; else None.

    In eager code every tensor's value is known: its NumPy copy. A Variable
    gives None, as in TensorFlow (its value may change); anything that is not
    a tensor is returned as it is.

    >>> get_static_value(convert_to_tensor([1, 2]))
    array([1, 2], dtype=int32)
    """
    if isinstance(tensor, Variable):
        return None
    if isinstance(tensor, Tensor):
        return np.copy(tensor.numpy())[()] if tensor.ndim == 0 else np.copy(tensor.numpy())
    return tensor


def py_function(func=None, inp=None, Tout=None, name=None):
    """``func(*inp)``: a Python function of tensors, its results converted to the dtypes ``Tout``.

    TensorFlow wraps ``func`` in an op so that a graph can call Python;
    minitape runs eagerly, so it calls ``func``, with ``inp`` converted to
    tensors. ``Tout`` is one dtype (one tensor returned) or a list of dtypes
    (a list of tensors). Gradients reach ``inp`` through the minitape ops
    ``func`` runs. Two differences from TensorFlow, which differentiates the
    op with respect to ``inp`` only: a Variable that ``func`` reads without
    being given it in ``inp`` gets its gradient here (None there), and a
    result computed with NumPy is a constant, with gradient None (zeros
    there). An exception inside ``func`` reaches the caller as it is.

    >>> import numpy as np
    >>> py_function(lambda x: np.sinc(x.numpy()), [0.5], Tout="float32")
    <mt.Tensor: shape=(), dtype=float32, numpy=0.63661975>
    """
    if func is None:  # @mt.py_function(Tout=...)
        return functools.partial(py_function, Tout=Tout, name=name)
    if inp is None:  # the decorated function: its arguments are the inputs
        return functools.wraps(func)(lambda *args: py_function(func, args, Tout, name))
    if Tout is None:
        raise TypeError("py_function: Tout is required: the dtype of func's result (e.g. Tout=mt.float32), or a list "
                        "of dtypes for several results")
    inputs = [convert_to_tensor(x) for x in inp]
    results = func(*inputs)
    if not isinstance(Tout, (list, tuple)):
        return convert_to_tensor(results, dtype=Tout)
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    if len(results) != len(Tout):
        raise ValueError(f"py_function: func returned {len(results)} value(s), but Tout lists {len(Tout)} dtype(s)")
    return [convert_to_tensor(r, dtype=t) for r, t in zip(results, Tout)]


__all__ = ["TensorSpec", "function", "get_static_value", "py_function"]
