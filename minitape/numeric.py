"""Derivatives from function values alone: finite differences, the complex step, gradient checks.

Finite differences need nothing but the ability to call ``f``, which makes
them the referee of every other method, and slow (one or two calls of ``f``
per input) and inexact: a step ``h`` too large leaves a truncation error
(O(h) forward, O(h²) central), a step too small drowns the difference in
round-off (O(eps/h)). The best ``h`` balances the two: near sqrt(eps) for a
forward difference, cbrt(eps) for a central one.

>>> import numpy as np
>>> round(float(central_difference(np.sin, 0.0)), 9)  # cos(0), up to an error of h²/6
1.0
"""

import collections

import numpy as np

from .ops import concat, reduce_sum, reshape, zeros_like
from .tape import GradientTape
from .tensor import Tensor, constant, convert_to_tensor


# -- one scalar input --------------------------------------------------------------------------
def _point_and_step(x, h, default_power):
    """``x`` as a NumPy float scalar, and a valid step in the same dtype (default: eps ** power)."""
    x = np.asarray(x.array if isinstance(x, Tensor) else x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    if h is None:
        h = np.finfo(x.dtype).eps ** default_power * max(1.0, abs(float(x)))
    if not np.isfinite(h) or h <= 0:
        raise ValueError(f"the step h must be a positive finite number, got {h!r}")
    return x[()], x.dtype.type(h)


def _scalar(f, x):
    """f(x) as a NumPy scalar, or a ValueError if f does not return one value."""
    y = f(x)
    y = np.asarray(y.array if isinstance(y, Tensor) else y)
    if y.ndim != 0:
        raise ValueError(f"f must return a single number here, but returned an array of shape {y.shape}; "
                         f"use numeric.difference_jacobian for functions with several outputs")
    return y[()]


def forward_difference(f, x, h=None):
    """(f(x + h) - f(x)) / h: error O(h). Default h: sqrt(eps) scaled by |x|. Two calls of f."""
    x, h = _point_and_step(x, h, 1 / 2)
    return (_scalar(f, x + h) - _scalar(f, x)) / h


def backward_difference(f, x, h=None):
    """(f(x) - f(x - h)) / h: error O(h). Default h: sqrt(eps) scaled by |x|. Two calls of f."""
    x, h = _point_and_step(x, h, 1 / 2)
    return (_scalar(f, x) - _scalar(f, x - h)) / h


def central_difference(f, x, h=None):
    """(f(x + h) - f(x - h)) / 2h: error O(h²). Default h: cbrt(eps) scaled by |x|. Two calls of f."""
    x, h = _point_and_step(x, h, 1 / 3)
    return (_scalar(f, x + h) - _scalar(f, x - h)) / (2 * h)


def second_difference(f, x, h=None):
    """(f(x + h) - 2 f(x) + f(x - h)) / h²: the second derivative, error O(h²). Three calls of f."""
    x, h = _point_and_step(x, h, 1 / 4)
    return (_scalar(f, x + h) - 2 * _scalar(f, x) + _scalar(f, x - h)) / (h * h)


def complex_step(f, x, h=1e-20):
    """Im f(x + ih) / h: no subtraction, hence no round-off, so h can be tiny. One call of f.

    ``f`` must be written with NumPy functions that accept complex numbers
    (``np.sin``, ``*``, ``**``; not ``abs``, ``float()`` or comparisons).

    >>> complex_step(np.exp, 0.0)
    np.float64(1.0)
    """
    x, h = _point_and_step(x, h, 1)
    y = f(x + 1j * h)
    y = np.asarray(y.array if isinstance(y, Tensor) else y)
    if y.ndim != 0:
        raise ValueError(f"f must return a single number here, but returned an array of shape {y.shape}")
    if not np.iscomplexobj(y):
        raise ValueError("complex_step: f returned a real number, so it dropped the imaginary part of its "
                         "input (abs, float(), np.real, a comparison or a non-NumPy function does that); "
                         "write f with NumPy functions that accept complex input")
    return np.imag(y[()]) / h


# -- the step-size trade-off ---------------------------------------------------------------------
ErrorCurve = collections.namedtuple("ErrorCurve", "steps errors best_step")
_DIFFERENCES = {"forward": forward_difference, "backward": backward_difference, "central": central_difference}


def error_curve(f, derivative, x, method="forward", dtype="float64", steps=None):
    """The relative error of a finite difference at ``x`` for every step in ``steps``.

    ``f`` is evaluated in ``dtype`` (write it with NumPy functions, which keep
    float32 as float32) and compared with the exact ``derivative(x)``. The
    returned ``best_step`` is the step with the smallest error: near
    sqrt(eps) for forward and backward differences, cbrt(eps) for central.

    >>> curve = error_curve(np.exp, np.exp, 1.0, "forward")
    >>> 1e-9 < curve.best_step < 1e-7  # sqrt(eps) is 1.5e-8 in float64
    True
    """
    if method not in _DIFFERENCES:
        raise ValueError(f"method must be one of {sorted(_DIFFERENCES)}, got {method!r}")
    dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
    if steps is None:
        steps = np.logspace(-16, 0, 129)
        steps = steps[dtype.type(steps) > 0]  # float16 cannot even hold the smallest ones
    steps = np.asarray(steps, dtype=np.float64)
    x = dtype.type(x)
    exact = float(derivative(np.float64(x)))
    with np.errstate(all="ignore"):
        estimates = np.array([float(_DIFFERENCES[method](f, x, dtype.type(h))) for h in steps])
    errors = np.abs(estimates - exact) / max(abs(exact), np.finfo(np.float64).tiny)
    return ErrorCurve(steps, errors, float(steps[np.nanargmin(errors)]))


# -- functions of arrays ----------------------------------------------------------------------------
def difference_jacobian(f, x, h=None, method="central"):
    """The Jacobian of f at the array ``x``, shaped ``f(x).shape + x.shape``, by finite differences.

    ``method="central"`` costs 2 calls of f per element of x (error O(h²));
    ``"forward"`` costs one call per element plus one (error O(h)). Named
    apart from ``tape.jacobian``, the exact one.

    >>> difference_jacobian(lambda v: v ** 2, np.array([1.0, 2.0])).round(6)
    array([[2., 0.],
           [0., 4.]])
    """
    if method not in ("central", "forward"):
        raise ValueError(f"method must be 'central' or 'forward', got {method!r}")
    x = np.array(x.array if isinstance(x, Tensor) else x)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    power = 1 / 3 if method == "central" else 1 / 2
    steps = _steps(x, h, power)

    def call(point):
        y = f(point)
        return np.asarray(y.array if isinstance(y, Tensor) else y, dtype=np.float64)

    base = call(x) if method == "forward" else None
    columns = []
    for i in range(x.size):
        up = x.copy()
        up.flat[i] += steps.flat[i]
        if method == "forward":
            columns.append((call(up) - base) / steps.flat[i])
        else:
            down = x.copy()
            down.flat[i] -= steps.flat[i]
            columns.append((call(up) - call(down)) / (2 * steps.flat[i]))
    out_shape = columns[0].shape if columns else call(x).shape
    return np.stack(columns, axis=-1).reshape(out_shape + x.shape) if columns else np.zeros(out_shape + x.shape)


def gradient(f, x, h=None, method="central"):
    """The gradient of a scalar function f at the array ``x``, shaped like ``x`` (see :func:`difference_jacobian`).

    >>> gradient(lambda v: (v ** 2).sum(), np.array([1.0, 2.0])).round(6)
    array([2., 4.])
    """
    g = difference_jacobian(f, x, h, method)
    if g.ndim != np.ndim(x):
        raise ValueError(f"f must return a single number for a gradient, but returned shape "
                         f"{g.shape[:g.ndim - np.ndim(x)]}; use numeric.difference_jacobian")
    return g


def _steps(x, h, power):
    if h is None:
        return np.finfo(x.dtype).eps ** power * np.maximum(1.0, np.abs(x))
    if not np.isfinite(h) or h <= 0:
        raise ValueError(f"the step h must be a positive finite number, got {h!r}")
    return np.full(x.shape, h, dtype=x.dtype)


# -- checking a tape against finite differences -------------------------------------------------------
def compute_gradient(f, x, delta=None):
    """TensorFlow's ``tf.test.compute_gradient``: the tape's Jacobians and central-difference ones.

    ``x`` is a list of the arguments of ``f``. Returns ``(theoretical,
    numerical)``: two tuples with one 2-d array per argument, shaped
    ``(f(x).size, x[i].size)``. ``delta`` is the step (default 1e-3, as in
    TensorFlow); arithmetic happens in each argument's own dtype.

    >>> theoretical, numerical = compute_gradient(lambda x: x * x, [1.0])
    >>> theoretical, numerical
    ((array([[2.]], dtype=float32),), (array([[2.000004]], dtype=float32),))
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"x must be a list or tuple of the arguments of f, not a {type(x).__name__}")
    delta = 1e-3 if delta is None else delta
    if not np.isfinite(delta) or delta <= 0:
        raise ValueError(f"delta must be a positive finite number, got {delta!r}")
    xs = [convert_to_tensor(v) for v in x]
    for k, v in enumerate(xs):
        if not v.dtype.is_floating:
            raise TypeError(f"compute_gradient: argument {k} has dtype {v.dtype.name}; only floating "
                            f"arguments have gradients")
    with GradientTape() as tape:
        tape.watch(xs)
        y = _tensor_result(f, xs)
    y_size = y.array.size
    theoretical = [np.zeros((y_size, v.array.size), dtype=v.array.dtype) if j is None
                   else np.reshape(j.array, (y_size, v.array.size))
                   for v, j in zip(xs, tape.jacobian(y, xs))]
    numerical = [_numeric_jacobian_2d(f, xs, k, delta, y.array.dtype) for k in range(len(xs))]
    return tuple(theoretical), tuple(numerical)


def _tensor_result(f, args):
    """``f(*args)`` as a tensor, or a TypeError that names ``f`` if it returned something else (None, say)."""
    result = f(*args)
    try:
        return convert_to_tensor(result)
    except (TypeError, ValueError):
        code = getattr(f, "__code__", None)
        where = f", defined at {code.co_filename}:{code.co_firstlineno}," if code else ""
        raise TypeError(f"the function {getattr(f, '__name__', f)!s}{where} returned "
                        f"{type(result).__name__} ({result!r}) instead of a tensor; the function being "
                        f"checked must return its value (did it forget a `return`?)") from None


def _numeric_jacobian_2d(f, xs, k, delta, y_dtype):
    """Central differences for argument ``k`` in its own dtype: columns of the (y_size, x_size) Jacobian."""
    x = np.array(xs[k].array)
    delta = x.dtype.type(delta)
    columns = []
    for i in range(x.size):
        values = []
        for sign in (1, -1):
            moved = x.copy()
            moved.flat[i] += sign * delta
            args = list(xs)
            args[k] = constant(moved)
            values.append(_tensor_result(f, args).array.ravel())
        columns.append((values[0] - values[1]) / np.asarray(2 * delta, dtype=y_dtype))
    return np.stack(columns, axis=1).astype(x.dtype) if columns else np.zeros((0, 0), dtype=x.dtype)


def check_gradients(f, *args, rtol=1e-5, atol=1e-7, order=1, delta=1e-6, allow_float32=False):
    """Check the tape's derivatives of ``f(*args)`` against central differences; raise if they differ.

    Every argument's full Jacobian is compared elementwise:
    ``|tape - numeric| <= atol + rtol * |numeric|``. On failure the
    ``AssertionError`` names, per argument, the worst element, both values
    and the relative error. ``order=2`` checks the second derivatives too
    (the tape's gradient, differentiated by a second tape, against finite
    differences of that gradient).

    Arguments are converted to float64: float32 has about 7 digits, and a
    finite difference loses half of them to round-off, so it cannot check a
    gradient tightly. Pass ``allow_float32=True`` (and looser tolerances) to
    check float32 anyway.

    >>> import minitape as mt
    >>> check_gradients(mt.sin, 0.5)                    # silent: the gradient is right
    >>> check_gradients(lambda x: x * x * x, 2.0, order=2)
    """
    if order not in (1, 2):
        raise ValueError(f"order must be 1 or 2, got {order!r}")
    xs = [_float64_argument(a, k, allow_float32) for k, a in enumerate(args)]
    _assert_close(f, xs, rtol, atol, delta, "")
    if order == 2:
        _assert_close(_gradient_function(f), xs, rtol, atol, delta, "second derivatives (order=2): ")


def _float64_argument(a, k, allow_float32):
    if isinstance(a, Tensor) or isinstance(a, np.ndarray):
        t = convert_to_tensor(a)
        if t.dtype.name == "float32" and not allow_float32:
            raise ValueError(f"check_gradients: argument {k} is float32. A float32 finite difference keeps "
                             f"only about 3 of its 7 digits (round-off grows like eps/h), too few to check a "
                             f"gradient; pass float64 values, or allow_float32=True with looser rtol/atol.")
        if not t.dtype.is_floating:
            raise TypeError(f"check_gradients: argument {k} has dtype {t.dtype.name}; only floating "
                            f"arguments have gradients")
        return t
    return constant(a, dtype="float64")


def _gradient_function(f):
    """x -> the tape's gradients of sum(f(x)) with respect to every argument, flattened and joined."""
    def grad_f(*xs):
        with GradientTape() as tape:
            tape.watch(list(xs))
            y = reduce_sum(f(*xs))
        grads = tape.gradient(y, list(xs))
        return concat([reshape(zeros_like(x) if g is None else g, (-1,)) for g, x in zip(grads, xs)], axis=0)

    return grad_f


def _assert_close(f, xs, rtol, atol, delta, what):
    theoretical, numerical = compute_gradient(f, xs, delta)
    problems = []
    for k, (t, n) in enumerate(zip(theoretical, numerical)):
        excess = np.abs(t - n) - (atol + rtol * np.abs(n))
        if excess.size and (np.nanmax(excess) > 0 or np.isnan(excess).any()):
            row, col = np.unravel_index(np.nanargmax(np.where(np.isnan(excess), np.inf, excess)), excess.shape)
            error = abs(t[row, col] - n[row, col])
            relative = f"{error / abs(n[row, col]):.3g}" if n[row, col] else "inf"
            problems.append(f"  argument {k} (shape {tuple(xs[k].shape)}): worst element is d output[{row}] / "
                            f"d input[{col}] (flat indices): tape {t[row, col]:.10g}, finite differences "
                            f"{n[row, col]:.10g}, relative error {relative} (absolute {error:.3g})")
    if problems:
        raise AssertionError(f"{what}the tape's derivatives differ from central finite differences "
                             f"(rtol={rtol}, atol={atol}):\n" + "\n".join(problems))


__all__ = ["forward_difference", "backward_difference", "central_difference", "second_difference",
           "complex_step", "error_curve", "difference_jacobian", "gradient", "compute_gradient", "check_gradients"]
