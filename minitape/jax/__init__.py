"""JAX's API on minitape's engine: ``import minitape.jax as jax`` and ``import minitape.jax.numpy as jnp``.
"""

from . import numpy
from .config import config
from .arrays import Array
