"""Where each op is found: every op names its namespaces once, where it is declared.

TensorFlow has most ops at its top level (``tf.sin``), some only under ``tf.math``, ``tf.nn`` or
``tf.linalg`` (``tf.math.erf``, ``tf.linalg.inv``), many in several. PyTorch and JAX call some of the
same ops by other names (``torch.asin``, ``jnp.arcsin``). An op says where it goes beside its
declaration, as a list of namespaces, each optionally with the name it has there::

    @exported("tf", "tf.math")
    def reduce_sum(input_tensor, axis=None, keepdims=False, name=None): ...

    asin = unary("asin", np.arcsin, ..., names=("tf", "tf.math", "torch", "jnp:arcsin"))

Namespaces are named as one imports them from the real library: ``"tf"`` is TensorFlow's top
level (``mt.sin``), ``"tf.math"`` is ``mt.math``, ``"torch"`` is ``minitape.torch``, ``"jnp"`` is
``minitape.jax.numpy``. Each front end makes its namespaces from :func:`names`; a PyTorch or JAX
namespace wraps the op in that library's conventions (its dtype rules, its argument names), so only
ops that take the same arguments there are listed under it.

>>> names("tf.math")["atan"].__name__
'atan'
>>> names("tf.math")["truediv"] is names("tf")["divide"]
True
"""

_TABLE = {}  # namespace -> {name there: op}, in the order declared


def export(op, names):
    """List ``op`` in each namespace of ``names`` ("tf.math", or "tf.math:truediv" for another name); returns it."""
    for entry in names:
        namespace, _, name = entry.partition(":")
        _TABLE.setdefault(namespace, {})[name or op.__name__] = op
    return op


def exported(*names):
    """Decorator: ``@exported("tf", "tf.math")`` lists the function in those namespaces (:func:`export`)."""
    return lambda op: export(op, names)


def names(namespace):
    """The ops of ``namespace`` (``"tf"``, ``"tf.math"``, ``"torch"``, ...), as a new dict {name: op}."""
    return dict(_TABLE.get(namespace, ()))


def namespaces():
    """Every namespace some op is listed in."""
    return list(_TABLE)
