"""Control flow as TensorFlow runs it eagerly: Python over recorded ops.

minitape always runs eagerly, as TensorFlow does outside a ``tf.function``
(or after ``tf.config.run_functions_eagerly(True)``). There, ``cond`` calls
the branch the predicate picks, ``while_loop`` is a Python ``while``, and
``map_fn`` (and ``vectorized_map``) a Python ``for`` over the rows of its
input, stacked at the end. A tape records the ops that ran, so gradients flow through the branch taken
and through every iteration, with no rule of their own:

>>> import minitape as mt
>>> x = mt.Variable(2.0)
>>> with mt.GradientTape() as tape:
...     i, y = mt.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, mt.constant(1.0)])
>>> float(y), float(tape.gradient(y, x))  # x³ and 3x²
(8.0, 12.0)

``function``, run as it is, is in :mod:`minitape.tensorflow.eager_function`.

``recompute_grad`` is the one transformation here with a rule of its own:
gradient checkpointing, which trades time for memory.
"""

import contextlib
import functools

import numpy as np

from .. import nest, recording
from .custom_gradient import custom_gradient
from .eager_function import TensorSpec
from ..forward import ForwardAccumulator
from ..ops import identity, stack, zeros
from ..tape import GradientTape
from .tensor_array import TensorArray
from ..tensor import Tensor, convert_to_tensor
from ..variable import Variable


# -- cond, while_loop, map_fn ----------------------------------------------------------------------------
def _truth(value, op_name, what):
    """``value`` (a boolean tensor, a number or a bool) as a Python bool; a tensor must hold one element."""
    array = value.array if isinstance(value, Tensor) else value
    if np.size(array) != 1:
        raise ValueError(f"{op_name}: {what} must be a single boolean, got shape {np.shape(array)}; reduce it to one "
                         f"value first, e.g. mt.reduce_max(x) > 0")
    return bool(value)


def cond(pred, true_fn=None, false_fn=None, name=None):
    """``true_fn()`` if ``pred`` is true, else ``false_fn()``: only the branch taken runs, and records.

    >>> float(cond(convert_to_tensor(3.0) > 0, lambda: 1.0, lambda: -1.0))
    1.0
    """
    for what, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if fn is None:
            raise TypeError(f"cond(): '{what}' argument required")
        if not callable(fn):
            raise TypeError(f"cond: '{what}' must be callable (a function of no arguments), got {fn!r}")
    return true_fn() if _truth(pred, "cond", "pred") else false_fn()


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """``while cond(*loop_vars): loop_vars = body(*loop_vars)``, then the loop variables as tensors.

    ``body`` returns the new loop variables in the structure of
    ``loop_vars`` (a list or tuple; a single variable as a 1-tuple):
    another structure is a ValueError, as in TensorFlow. At most
    ``maximum_iterations`` iterations run, if given. ``shape_invariants``,
    ``parallel_iterations``, ``back_prop`` and ``swap_memory`` tune
    TensorFlow's graph and have no effect in eager code, there as here.
    A TensorArray among the loop variables is returned as it is.

    >>> [int(v) for v in while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), [0, 0])]
    [4, 6]
    """
    if not callable(cond):
        raise TypeError(f"while_loop: 'cond' must be callable, got {cond!r}")
    if not callable(body):
        raise TypeError(f"while_loop: 'body' must be callable, got {body!r}")
    if parallel_iterations < 1:
        raise TypeError(f"while_loop: 'parallel_iterations' must be a positive integer, got {parallel_iterations}")
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise ValueError(f"while_loop: 'loop_vars' must be provided, as a non-empty list or tuple of the loop "
                         f"variables, e.g. [i] or (i, x); got {loop_vars!r}")
    if maximum_iterations is not None:
        if np.ndim(maximum_iterations) != 0:
            raise ValueError(f"while_loop: 'maximum_iterations' must be a scalar, got shape "
                             f"{np.shape(maximum_iterations)}")
        maximum_iterations = int(maximum_iterations)
    loop_vars = nest.map_structure(lambda v: v.value() if isinstance(v, Variable) else v, loop_vars)
    # TensorFlow compares list(new loop variables) with the first ones; with maximum_iterations it compares them
    # inside a pair (counter, loop variables), where a tuple for a list is another type.
    structure = list(loop_vars) if maximum_iterations is None else loop_vars
    iterations = 0
    while (maximum_iterations is None or iterations < maximum_iterations) and \
            _truth(cond(*loop_vars), "while_loop", "the value of cond"):
        loop_vars = body(*loop_vars)
        nest.assert_same_structure(structure, _listed(loop_vars) if maximum_iterations is None else loop_vars)
        iterations += 1
    return nest.map_structure(lambda v: v if isinstance(v, TensorArray) else convert_to_tensor(v), loop_vars)


def _listed(loop_vars):
    """``list(loop_vars)``, as TensorFlow compares them with the structure of the first ones."""
    try:
        return list(loop_vars)
    except TypeError:
        raise TypeError(f"while_loop: body must return the loop variables as a list or tuple, as loop_vars is given; "
                        f"got {type(loop_vars).__name__}. Return a single variable as a 1-tuple: (i + 1,)") from None


def _spec(leaf):
    """A leaf of an output signature as a :class:`TensorSpec` (a dtype alone is a spec of any shape)."""
    return leaf if isinstance(leaf, TensorSpec) else TensorSpec(None, leaf)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """``fn`` applied to each row of ``elems`` (its slices along axis 0), the results stacked.

    ``elems`` may be a structure of tensors (a tuple, a dict) with the same
    number of rows; ``fn`` then receives one row of each, in that structure.
    Its result must have the structure and dtypes of ``elems``, unless
    ``fn_output_signature`` (or its older name ``dtype``) says otherwise.
    The gradient reaches ``elems`` through each row read and each result
    stacked. (``parallel_iterations``, ``back_prop``, ``swap_memory`` and
    ``infer_shape`` tune TensorFlow's graph; in eager code they do nothing.)

    >>> map_fn(lambda row: row * 2.0, convert_to_tensor([1.0, 2.0, 3.0])).numpy()
    array([2., 4., 6.], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"map_fn: fn must be callable, got {fn!r}")
    signature = dtype if fn_output_signature is None else fn_output_signature
    flat, rows = _rows("map_fn", elems)
    if signature is None:
        structure, specs = elems, [TensorSpec(None, e.dtype) for e in flat]
    else:
        structure, specs = signature, [_spec(leaf) for leaf in nest.flatten(signature)]
    results = []
    for i in range(rows):
        out = fn(nest.pack_sequence_as(elems, [e[i] for e in flat]))
        nest.assert_same_structure(structure, out)
        results.append([_result(spec, value) for spec, value in zip(specs, nest.flatten(out))])
    columns = [[row[j] for row in results] for j in range(len(specs))]
    for column in columns:
        shapes = {tuple(t.shape) for t in column}
        if len(shapes) > 1:
            raise ValueError(f"map_fn: fn returned results of different shapes {sorted(shapes)} for different rows; "
                             f"they are stacked, so they must have one shape")
    return nest.pack_sequence_as(structure, [stack(column) if column else zeros((0,) + tuple(spec.shape or ()),
                                                                                 dtype=spec.dtype)
                                             for column, spec in zip(columns, specs)])


def _rows(op_name, elems):
    """The tensors of the structure ``elems``, flattened, and their common number of rows (first dimension)."""
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{op_name}: elems must be a tensor or a (nested) sequence of tensors; got {elems!r}, which "
                         f"holds none")
    if flat[0].array.ndim == 0:
        raise ValueError(f"{op_name}: elements in elems must be 1+ dimensional tensors, not scalars: fn is called on "
                         f"each row (slice along axis 0)")
    rows = flat[0].array.shape[0]
    for e in flat[1:]:
        if e.array.ndim == 0 or e.array.shape[0] != rows:
            raise ValueError(f"{op_name}: every tensor in elems must have {rows} rows, like the first one; got shape "
                             f"{e.array.shape}")
    return flat, rows


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` applied to each row of ``elems``, the results stacked: :func:`map_fn`, with the results' structure
    and dtypes taken from what ``fn`` returns.

    TensorFlow turns ``fn`` into one batched computation; minitape, always
    eager, calls it row by row, which gives the same values and gradients
    (``fallback_to_while_loop`` and ``warn`` are accepted and do nothing).

    >>> vectorized_map(lambda row: (row * 2.0, row[0]), convert_to_tensor([[1.0, 2.0], [3.0, 4.0]]))[1].numpy()
    array([1., 3.], dtype=float32)
    """
    if not callable(fn):
        raise TypeError(f"vectorized_map: fn must be callable, got {fn!r}")
    flat, rows = _rows("vectorized_map", elems)
    results = [fn(nest.pack_sequence_as(elems, [e[i] for e in flat])) for i in range(rows)]
    if not results:
        raise ValueError("vectorized_map: elems has no rows, so fn was never called and the results' shapes are "
                         "unknown; use mt.map_fn with fn_output_signature")
    for out in results[1:]:
        nest.assert_same_structure(results[0], out)
    columns = zip(*[nest.flatten(out) for out in results])
    return nest.pack_sequence_as(results[0], [stack(list(column)) for column in columns])


def _result(spec, value):
    """One result of ``fn`` as a tensor of the signature's dtype, checked against the signature's shape."""
    try:
        tensor = convert_to_tensor(value, dtype=spec.dtype)
    except (TypeError, ValueError):
        raise ValueError(f"map_fn: fn returned {value!r}, but the output signature says {spec.dtype.name}; give the "
                         f"dtype fn returns as fn_output_signature, e.g. fn_output_signature=mt.int32") from None
    if spec.shape is not None and not spec.shape.is_compatible_with(tensor.shape):
        raise ValueError(f"map_fn: fn returned shape {tuple(tensor.shape)}, but the output signature says "
                         f"{tuple(spec.shape)}")
    return tensor


# -- recompute_grad ---------------------------------------------------------------------------------------
@contextlib.contextmanager
def _tapes_stopped():
    """No tape or accumulator of this thread records inside the block (TensorFlow's ``stop_recording``).

    Other listeners (an OpCounter, the Variable watcher of ``custom_gradient``)
    still hear every op.
    """
    stopped = []
    for recorder in reversed(list(recording.active())):
        if isinstance(recorder, (GradientTape, ForwardAccumulator)):
            stopped.append((recording.remove(recorder), recorder))
    try:
        yield
    finally:
        for position, recorder in reversed(stopped):
            recording.insert(position, recorder)


def recompute_grad(f):
    """``f`` with gradient checkpointing: its forward keeps no intermediate value; its backward recomputes them.

    A tape records a call of the returned function as a single op, whose
    inputs are ``f``'s inputs and the trainable Variables ``f`` reads. Its
    gradient runs ``f`` again under a tape of its own and differentiates that
    recording. The memory of ``f``'s intermediates is paid during one backward
    step only, for one extra forward pass of ``f``: lesson 14 builds the same
    thing with ``custom_gradient``. ``f`` must return one tensor (as
    ``custom_gradient`` functions do).

    >>> import minitape as mt
    >>> block = recompute_grad(lambda x: mt.reduce_sum(mt.sin(x) * x))
    >>> x = mt.constant([1.0, 2.0])
    >>> with mt.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = block(x)
    >>> len(tape.records), tape.gradient(y, x).numpy()  # one op on the tape; sin x + x cos x
    (1, array([1.3817732 , 0.07700378], dtype=float32))
    """
    name = getattr(f, "__name__", "f")

    @functools.wraps(f)
    def checkpointed(*inputs, **kwargs):
        with _tapes_stopped():
            result = f(*inputs, **kwargs)
        if not isinstance(result, Tensor):
            raise TypeError(f"recompute_grad: {name} must return a single tensor, got {type(result).__name__}; stack "
                            f"several results into one tensor")

        def grad_fn(upstream, variables=None):
            with GradientTape() as tape:
                # A copy per input, as in TensorFlow: f(x, x) gets one partial derivative per argument.
                copies = [identity(x) for x in inputs]
                sources = [c for c in copies if c.dtype.is_floating] + list(variables or [])
                tape.watch(sources)
                again = f(*copies, **kwargs)
            grads = iter(tape.gradient(again, sources, output_gradients=upstream, unconnected_gradients="zero"))
            input_grads = [next(grads) if x.dtype.is_floating else None for x in inputs]
            return input_grads if variables is None else (input_grads, list(grads))

        return result, grad_fn

    return custom_gradient(checkpointed)


__all__ = ["cond", "while_loop", "map_fn", "vectorized_map", "recompute_grad"]
