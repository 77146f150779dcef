"""``jax.config``: the one flag minitape's JAX reads, ``jax_enable_x64``.

JAX computes in 32 bits unless told otherwise: ``jnp.array(1.0)`` is float32 and a float64 NumPy array becomes
float32. ``jax.config.update("jax_enable_x64", True)`` makes 64 bits the default (and keeps float64 values).

>>> config.jax_enable_x64
False
"""


class Config:
    """The flags, read as attributes (``config.jax_enable_x64``) and set with ``update(name, value)``."""

    _FLAGS = {"jax_enable_x64": False}

    def __init__(self):
        self._values = dict(self._FLAGS)

    def update(self, name, value):
        if name not in self._values:
            raise AttributeError(f"Unrecognized config option: {name}")
        self._values[name] = bool(value)

    def read(self, name):
        return self._values[name]

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None


config = Config()
