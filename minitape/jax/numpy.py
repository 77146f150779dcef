"""``jax.numpy`` on minitape's ops: NumPy's names, JAX's dtypes (``import minitape.jax.numpy as jnp``).

Every function here converts its arguments by JAX's rules (:mod:`.arrays`), runs minitape's op and returns an
:class:`~minitape.jax.arrays.Array`; the derivative rules are the ops' own. The elementwise functions are those
that ``minitape/ops/exports.py`` lists under ``"jnp"``; the rest are NumPy's names for minitape's other ops.

>>> import minitape.jax.numpy as jnp
>>> x = jnp.arange(3.0)
>>> jnp.sum(jnp.sin(x) * 2, axis=0)
Array(3.5015368, dtype=float32)
>>> jnp.ones(2, dtype=jnp.int32) * 2.5
Array([2.5, 2.5], dtype=float32)
"""

import builtins
import types

import numpy as np

from .. import ops
from ..ops import exports
from .arrays import (Array, as_array, asarray as _asarray, canonical, default_float, promoted, result_dtype,
                     without_gradient)

_math, _linalg = exports.names("tf.math"), exports.names("tf.linalg")  # the ops only TF's namespaces name

ndarray = Array
bool_ = np.bool_
float16, float32, float64 = np.float16, np.float32, np.float64
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint32 = np.uint8, np.uint32
pi, e, inf, nan, newaxis = np.pi, np.e, np.inf, np.nan, None
printoptions = np.printoptions  # an Array prints with NumPy's array2string, so NumPy's options apply

# The elementwise ops that keep integers integers; the others (sin, exp, divide, ...) compute in floating point.
_INTEGER_OPS = {"abs", "add", "maximum", "minimum", "mod", "multiply", "negative", "power", "pow", "remainder",
                "sign", "square", "subtract"}


def _refuse_lists(name, args):
    """JAX's functions take arrays and scalars, not lists (a list would be one array per call): only jnp.array
    converts them."""
    for k, a in enumerate(args):
        if isinstance(a, (list, tuple)):
            raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(a)} at position {k}.")


def _elementwise(name, op):
    def function(*args):
        _refuse_lists(name, args)
        dtype = result_dtype(*args)
        if name not in _INTEGER_OPS and dtype.kind != "f":
            dtype = default_float()
        return as_array(op(*promoted(*args, dtype=dtype)))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``jnp.{name}``: minitape's op ``{op.__name__}`` on arrays promoted by JAX's rules."
    function.elementwise = True  # vmap batches it by broadcasting
    return function


globals().update({name: _elementwise(name, op) for name, op in exports.names("jnp").items()})


def _array(x):
    return x if isinstance(x, Array) else _asarray(x)


# -- creation -------------------------------------------------------------------------------------------------------
def array(object, dtype=None, copy=True):
    """An array holding ``object`` (a number, a nested list, a NumPy array or an array)."""
    return _asarray(object, dtype)


def asarray(a, dtype=None):
    return _asarray(a, dtype)


def _dtype(dtype, default):
    return canonical(default if dtype is None else dtype)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def zeros(shape, dtype=None):
    return Array(np.zeros(_shape(shape), _dtype(dtype, default_float())))


def ones(shape, dtype=None):
    return Array(np.ones(_shape(shape), _dtype(dtype, default_float())))


def full(shape, fill_value, dtype=None):
    return Array(np.full(_shape(shape), fill_value, _dtype(dtype, result_dtype(fill_value))))


def zeros_like(a, dtype=None):
    return zeros(np.shape(a), dtype if dtype is not None else _array(a).array.dtype)


def ones_like(a, dtype=None):
    return ones(np.shape(a), dtype if dtype is not None else _array(a).array.dtype)


def full_like(a, fill_value, dtype=None):
    return full(np.shape(a), fill_value, dtype if dtype is not None else _array(a).array.dtype)


def arange(start, stop=None, step=1, dtype=None):
    """``jnp.arange(3)`` is int32 [0, 1, 2]; a float anywhere makes it float32 (float64 with x64)."""
    values = np.arange(start, stop, step) if stop is not None else np.arange(start)
    return Array(values.astype(_dtype(dtype, result_dtype(start, *(() if stop is None else (stop,)), step))))


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    return Array(np.linspace(start, stop, num, endpoint=endpoint).astype(_dtype(dtype, default_float())))


def eye(N, M=None, k=0, dtype=None):
    return Array(np.eye(N, M, k).astype(_dtype(dtype, default_float())))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


# -- reductions ------------------------------------------------------------------------------------------------------
def _reduction(name, op, floating=False):
    def function(a, axis=None, keepdims=False):
        _refuse_lists(name, (a,))
        a = _array(a)
        if floating and a.array.dtype.kind != "f":
            a, = promoted(a, dtype=default_float())
        elif a.array.dtype.kind == "b":
            a, = promoted(a, dtype=np.int32)
        return as_array(op(a, axis=axis, keepdims=keepdims))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``jnp.{name}(a, axis=None, keepdims=False)``: minitape's ``{op.__name__}``."
    return function


sum = _reduction("sum", ops.reduce_sum)  # noqa: A001 (NumPy's name)
prod = _reduction("prod", ops.reduce_prod)
mean = _reduction("mean", ops.reduce_mean, floating=True)
max = _reduction("max", ops.reduce_max)  # noqa: A001
min = _reduction("min", ops.reduce_min)  # noqa: A001
amax, amin = max, min
var = _reduction("var", _math["reduce_variance"], floating=True)
std = _reduction("std", _math["reduce_std"], floating=True)


def logsumexp(a, axis=None, keepdims=False):
    a, = promoted(a, dtype=result_dtype(a) if result_dtype(a).kind == "f" else default_float())
    return as_array(ops.reduce_logsumexp(a, axis=axis, keepdims=keepdims))


@without_gradient
def all(a, axis=None, keepdims=False):  # noqa: A001
    return as_array(ops.reduce_all(ops.cast(_array(a), "bool"), axis=axis, keepdims=keepdims))


@without_gradient
def any(a, axis=None, keepdims=False):  # noqa: A001
    return as_array(ops.reduce_any(ops.cast(_array(a), "bool"), axis=axis, keepdims=keepdims))


@without_gradient
def argmax(a, axis=None):
    a = _array(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return as_array(ops.argmax(a, axis=axis, output_type=canonical(np.int64)))


@without_gradient
def argmin(a, axis=None):
    a = _array(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return as_array(ops.argmin(a, axis=axis, output_type=canonical(np.int64)))


def cumsum(a, axis=None):
    a = _array(a)
    if axis is None:
        a, axis = ops.reshape(a, [-1]), 0
    return as_array(ops.cumsum(a, axis=axis))


# -- elementwise beyond the exported list ------------------------------------------------------------------------------
def where(condition, x=None, y=None):
    """``jnp.where(c, x, y)``: x where c holds, else y (both promoted to one dtype, broadcast)."""
    if x is None or y is None:
        raise ValueError("minitape's jnp.where needs x and y: the one-argument form (nonzero) is not provided")
    condition = ops.cast(_array(condition), "bool")
    x, y = promoted(x, y)
    return as_array(ops.where(condition, x, y))


def clip(a, a_min=None, a_max=None):
    a = _array(a)
    if a_min is not None:
        a = maximum(a, a_min)  # noqa: F821 (made from exports.names("jnp") above)
    if a_max is not None:
        a = minimum(a, a_max)  # noqa: F821
    return a


def _comparison(name, op):
    def function(x, y):
        return as_array(op(*promoted(x, y)))
    function.__name__ = function.__qualname__ = name
    return without_gradient(function)


equal = _comparison("equal", ops.equal)
not_equal = _comparison("not_equal", ops.not_equal)
less = _comparison("less", ops.less)
less_equal = _comparison("less_equal", ops.less_equal)
greater = _comparison("greater", ops.greater)
greater_equal = _comparison("greater_equal", ops.greater_equal)


@without_gradient
def logical_not(x):
    return as_array(ops.logical_not(ops.cast(_array(x), "bool")))


def _logical(name, op):
    def function(x, y):
        return as_array(op(*[ops.cast(_array(v), "bool") for v in (x, y)]))
    function.__name__ = function.__qualname__ = name
    return without_gradient(function)


logical_and = _logical("logical_and", ops.logical_and)
logical_or = _logical("logical_or", ops.logical_or)
logical_xor = _logical("logical_xor", ops.logical_xor)


@without_gradient
def floor(x):
    return as_array(ops.floor(*promoted(x, dtype=result_dtype(x) if result_dtype(x).kind == "f" else default_float())))


@without_gradient
def isnan(x):
    return as_array(_math["is_nan"](_array(x)))


@without_gradient
def isfinite(x):
    return as_array(_math["is_finite"](_array(x)))


def _floating(x):
    return promoted(x, dtype=result_dtype(x) if result_dtype(x).kind == "f" else default_float())[0]


def log2(x):
    return log(x) / np.log(2.0)  # noqa: F821 (made from exports.names("jnp") above)


def log10(x):
    return log(x) / np.log(10.0)  # noqa: F821


def logaddexp(x, y):
    return logsumexp(stack(promoted(x, y)), axis=0)


def sinc(x):
    x = _floating(x)
    safe = where(equal(x, 0), 1.0, x)
    return where(equal(x, 0), 1.0, sin(pi * safe) / (pi * safe))  # noqa: F821


def astype(x, dtype):
    return as_array(ops.cast(_array(x), canonical(dtype)))


# -- shapes -----------------------------------------------------------------------------------------------------------
def reshape(a, shape=None, newshape=None):
    shape = shape if shape is not None else newshape
    return as_array(ops.reshape(_array(a), list(_shape(shape))))


def ravel(a):
    return reshape(a, (-1,))


def transpose(a, axes=None):
    return as_array(ops.transpose(_array(a), perm=None if axes is None else list(axes)))


def swapaxes(a, axis1, axis2):
    a = _array(a)
    perm = list(range(a.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return transpose(a, perm)


def moveaxis(a, source, destination):
    a = _array(a)
    perm = [k for k in range(a.ndim) if k != source % a.ndim]
    perm.insert(destination % a.ndim, source % a.ndim)
    return transpose(a, perm)


def expand_dims(a, axis):
    return as_array(ops.expand_dims(_array(a), axis))


def squeeze(a, axis=None):
    return as_array(ops.squeeze(_array(a), axis))


def stack(arrays, axis=0):
    return as_array(ops.stack(promoted(*arrays), axis=axis))


def concatenate(arrays, axis=0):
    return as_array(ops.concat(promoted(*arrays), axis=axis))


def hstack(arrays):
    arrays = [atleast_1d(a) for a in arrays]
    return concatenate(arrays, axis=0 if arrays[0].ndim == 1 else 1)


def vstack(arrays):
    return concatenate([reshape(a, (1, -1)) if np.ndim(a) < 2 else a for a in arrays], axis=0)


def atleast_1d(a):
    a = _array(a)
    return reshape(a, (1,)) if a.ndim == 0 else a


def broadcast_to(a, shape):
    return as_array(ops.broadcast_to(_array(a), list(_shape(shape))))


def tile(a, reps):
    return as_array(ops.tile(_array(a), list(_shape(reps))))


def flip(a, axis=None):
    a = _array(a)
    return as_array(ops.reverse(a, list(range(a.ndim)) if axis is None else list(_shape(axis))))


def take(a, indices, axis=None):
    a = _array(a)
    if axis is None:
        a, axis = ravel(a), 0
    n = a.shape[axis]
    indices = np.clip(np.asarray(indices), -n, n - 1) % builtins.max(n, 1)
    return as_array(ops.gather(a, indices, axis=axis))


def diag(v, k=0):
    v = _array(v)
    if k != 0:
        raise NotImplementedError("minitape's jnp.diag takes k=0 only")
    return as_array(_linalg["diag"](v) if v.ndim == 1 else _linalg["diag_part"](v))


def trace(a):
    return as_array(_linalg["trace"](_array(a)))


def shape(a):
    return np.shape(a)


def ndim(a):
    return np.ndim(a)


def size(a):
    return int(np.size(a))


# -- products ---------------------------------------------------------------------------------------------------------
def matmul(a, b):
    a, b = promoted(a, b)
    if a.ndim == 1 and b.ndim == 1:
        return as_array(ops.reduce_sum(a * b))
    if a.ndim == 1:
        return as_array(ops.squeeze(ops.matmul(ops.expand_dims(a, 0), b), -2))
    if b.ndim == 1:
        return as_array(ops.squeeze(ops.matmul(a, ops.expand_dims(b, -1)), -1))
    return as_array(ops.matmul(a, b))


def dot(a, b):
    """NumPy's dot: a product of scalars, an inner product of vectors, matmul otherwise (last axis of a with
    second-to-last of b)."""
    a, b = promoted(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return as_array(a * b)
    if b.ndim <= 2:
        return matmul(a, b)
    return as_array(ops.tensordot(a, b, [[a.ndim - 1], [b.ndim - 2]]))


def vdot(a, b):
    return dot(ravel(a), ravel(b))


def inner(a, b):
    a, b = promoted(a, b)
    return as_array(ops.tensordot(a, b, [[a.ndim - 1], [b.ndim - 1]]))


def outer(a, b):
    return as_array(ops.multiply(*promoted(reshape(a, (-1, 1)), ravel(b))))


def tensordot(a, b, axes=2):
    return as_array(ops.tensordot(*promoted(a, b), axes))


def einsum(subscripts, *operands):
    return as_array(ops.einsum(subscripts, *promoted(*operands)))


def cross(a, b):
    return as_array(_linalg["cross"](*promoted(a, b)))


# -- linear algebra ---------------------------------------------------------------------------------------------------
def _norm(x, ord=None, axis=None, keepdims=False):
    """``jnp.linalg.norm``: 2-norm of a vector, Frobenius of a matrix, or ``ord`` = 1, 2, inf, 'fro'."""
    x = _floating(x)
    if ord is None or ord == "fro":
        return sqrt(sum(x * x, axis=axis, keepdims=keepdims))  # noqa: F821
    return as_array(ops.norm(x, ord=ord, axis=axis, keepdims=keepdims))


def _square_matrices(name, op):
    def function(a, *rest):
        return as_array(op(*promoted(_floating(a), *rest, dtype=_floating(a).array.dtype)))
    function.__name__ = function.__qualname__ = name
    return function


def _solve(a, b):
    a, b = promoted(_floating(a), b, dtype=_floating(a).array.dtype)
    if b.ndim == a.ndim - 1:
        return as_array(ops.squeeze(_linalg["solve"](a, ops.expand_dims(b, -1)), -1))
    return as_array(_linalg["solve"](a, b))


def _slogdet(a):
    sign, logabsdet = _linalg["slogdet"](_floating(a))
    return as_array(sign), as_array(logabsdet)


def _eigh(a):
    values, vectors = _linalg["eigh"](_floating(a))
    return as_array(values), as_array(vectors)


linalg = types.SimpleNamespace(
    norm=_norm, solve=_solve, slogdet=_slogdet, eigh=_eigh,
    inv=_square_matrices("inv", _linalg["inv"]), det=_square_matrices("det", _linalg["det"]),
    cholesky=_square_matrices("cholesky", _linalg["cholesky"]),
    eigvalsh=_square_matrices("eigvalsh", _linalg["eigvalsh"]))


# -- Array's operators are these functions ----------------------------------------------------------------------------
def _operators():
    def binary(f):
        return lambda self, other: f(self, other)

    def reflected(f):
        return lambda self, other: f(other, self)

    for name, f in [("add", add), ("sub", subtract), ("mul", multiply), ("truediv", true_divide),  # noqa: F821
                    ("pow", power), ("mod", remainder), ("matmul", matmul)]:  # noqa: F821
        setattr(Array, f"__{name}__", binary(f))
        setattr(Array, f"__r{name}__", reflected(f))
    for name, f in [("eq", equal), ("ne", not_equal), ("lt", less), ("le", less_equal), ("gt", greater),
                    ("ge", greater_equal)]:
        setattr(Array, f"__{name}__", binary(f))
    for name, f in [("and", logical_and), ("or", logical_or), ("xor", logical_xor)]:  # on booleans only
        setattr(Array, f"__{name}__", binary(f))
        setattr(Array, f"__r{name}__", reflected(f))
    Array.__invert__ = lambda self: logical_not(self)
    Array.__neg__ = lambda self: negative(self)  # noqa: F821
    Array.__abs__ = lambda self: abs(self)
    Array.__hash__ = None
    for name, f in [("sum", sum), ("mean", mean), ("max", max), ("min", min), ("prod", prod), ("var", var),
                    ("std", std), ("argmax", argmax), ("argmin", argmin), ("ravel", ravel), ("squeeze", squeeze),
                    ("astype", astype), ("dot", dot), ("clip", clip), ("take", take), ("cumsum", cumsum),
                    ("swapaxes", swapaxes), ("all", all), ("any", any)]:
        setattr(Array, name, f)
    Array.reshape = lambda self, *shape: reshape(self, shape[0] if len(shape) == 1 else shape)
    Array.transpose = lambda self, *axes: transpose(self, (axes[0] if len(axes) == 1 else axes) or None)


_operators()
__all__ = [name for name, value in globals().items() if not name.startswith("_")
           and name not in ("builtins", "types", "np", "ops", "exports")
           and (callable(value) or isinstance(value, (float, types.SimpleNamespace)) or value is None)]
