"""JAX's API on minitape's engine: ``import minitape.jax as jax`` and ``import minitape.jax.numpy as jnp``.

>>> import minitape.jax as jax
>>> import minitape.jax.numpy as jnp
>>> def loss(w, x):
...     return jnp.sum(jnp.tanh(x @ w) ** 2)
>>> jax.grad(loss)(jnp.array([1.0, -1.0]), jnp.array([[1.0, 2.0]])).shape
(2,)

JAX's transformations are minitape's two recorders inside closures: ``grad``, ``vjp``, ``jacrev`` a
:class:`~minitape.GradientTape` and its ``sweep``; ``jvp``, ``jacfwd`` a forward accumulator
(:mod:`.transformations`). Where to read, in order:

* :mod:`.config` (``jax_enable_x64``), :mod:`.arrays` (an Array is a minitape Tensor with JAX's dtype rules,
  immutability and ``x.at[]``), :mod:`.numpy` (``jnp``: NumPy's names for minitape's ops);
* :mod:`.pytrees` (``jax.tree_util``, ``jax.tree``), :mod:`.transformations` (``grad`` ... ``hessian``);
* :mod:`.vectorize` (``vmap``, a loop), :mod:`.custom_derivatives` (``custom_jvp``, ``custom_vjp``),
  :mod:`.lax` (``stop_gradient``, control flow), :mod:`.prng` (``jax.random``: minitape's own numbers).

``jit`` runs the function as it is, eagerly, every call: there is no compiler here.
"""

import functools
import types

import numpy as np

from . import lax, numpy, prng as random, pytrees as tree_util
from .arrays import Array
from .config import config
from .custom_derivatives import custom_jvp, custom_vjp
from .pytrees import tree
from .transformations import grad, hessian, jacfwd, jacobian, jacrev, jvp, linearize, value_and_grad, vjp
from .vectorize import vmap


def jit(fun=None, *, static_argnums=None, static_argnames=None, donate_argnums=None):
    """``fun`` itself, run eagerly at every call (minitape compiles nothing); usable as ``@jit`` or ``@jit(...)``."""
    if fun is None:
        return lambda f: jit(f)
    return functools.wraps(fun)(lambda *args, **kwargs: fun(*args, **kwargs))


def device_get(x):
    """``x`` as NumPy values: there is no device."""
    return tree_util.tree_map(np.asarray, x)


# jax.Array, jax.numpy.ndarray: one class
typing = types.SimpleNamespace(Array=Array)

__all__ = ["Array", "config", "custom_jvp", "custom_vjp", "device_get", "grad", "hessian", "jacfwd", "jacobian",
           "jacrev", "jit", "jvp", "lax", "linearize", "numpy", "random", "tree", "tree_util", "value_and_grad",
           "vjp", "vmap"]
