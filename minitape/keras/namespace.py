"""The names each ``mt.keras`` namespace holds, and the error for any other name.

minitape's Keras is the part a custom training loop needs. A learner who
reaches for more (``mt.keras.layers.Conv2D``, ``mt.keras.callbacks``) gets
an error that lists what exists, rather than a bare AttributeError.
"""


def missing_names(namespace, names):
    """A module-level ``__getattr__`` for ``namespace`` (e.g. ``"mt.keras.layers"``) that holds ``names``.

    >>> lookup = missing_names("mt.keras.layers", ["Dense", "Flatten"])
    >>> lookup("Conv2D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    AttributeError: mt.keras.layers.Conv2D is not in minitape's Keras, ...; mt.keras.layers has: Dense, Flatten. ...
    """
    listed = ", ".join(names)

    def __getattr__(name):
        if name.startswith("__"):  # Python's own questions (__path__, __wrapped__) get the plain answer
            raise AttributeError(f"module {namespace!r} has no attribute {name!r}")
        raise AttributeError(f"{namespace}.{name} is not in minitape's Keras, which holds what a custom training "
                             f"loop needs; {namespace} has: {listed}. Write the rest with mt ops, or use "
                             f"TensorFlow's Keras")

    return __getattr__
