"""Every op minitape knows, gathered in one namespace (``mt.ops``).

The ops are grouped by family, one module each:

* :mod:`.elementwise`: math on each element (exp, sin, +, *, maximum, where, ...);
* :mod:`.reductions`: sums, means, maxima, products and norms over axes;
* :mod:`.shapes`: reshape, transpose, slicing, concat, stack, tile, broadcasting;
* :mod:`.indexing`: gather, gather_nd, slice, split, pad, one_hot;
* :mod:`.linalg`: matrix products, einsum, inverses, solves, determinants, Cholesky;
* :mod:`.nn`: softmax, the cross-entropy losses, elu, swish, embedding_lookup;
* :mod:`.creation`: zeros, ones, ranges (constants, never recorded).

Every differentiable op is a :class:`~minitape.primitive.Primitive`: its
NumPy forward, VJP rule and JVP rule are written side by side.

This package also gives :class:`~minitape.Tensor` its operators: ``x * y``
is ``multiply(x, y)``, ``x[i]`` is ``getitem(x, i)``. ``tensor.py`` knows no
ops (the ops are built on it), so they are attached here, once all exist.
"""

from .creation import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403
from .shapes import *  # noqa: F401,F403

# Ops that TensorFlow has only under tf.linalg or tf.nn are in mt.ops (and mt.linalg, mt.nn), not at the top level:
# mt.trace is the module of evaluation traces, mt.linalg.trace the sum of a diagonal.
from .linalg import (cholesky, det, diag, diag_part, inv, logdet, slogdet, solve, tensor_diag,  # noqa: F401,E402
                     tensor_diag_part, trace)
from .nn import elu, embedding_lookup, silu, swish  # noqa: F401,E402

from . import creation, elementwise, indexing, linalg, nn, reductions, shapes  # noqa: E402
from ..tensor import Tensor  # noqa: E402

__all__ = [name for module in (creation, elementwise, indexing, linalg, nn, reductions, shapes)
           for name in module.__all__]


def _reflected(op):
    """``other <op> tensor``, e.g. ``2.0 * x``: Python calls ``x.__rmul__(2.0)``, which is ``op(2.0, x)``."""
    def method(self, other):
        return op(other, self)
    method.__name__ = f"__r{op.__name__}__"
    return method


for _name, _op in [("add", elementwise.add), ("sub", elementwise.subtract), ("mul", elementwise.multiply),
                   ("truediv", elementwise.divide), ("pow", elementwise.pow), ("matmul", linalg.matmul)]:
    setattr(Tensor, f"__{_name}__", _op)
    setattr(Tensor, f"__r{_name}__", _reflected(_op))
# Comparisons give boolean tensors; they have no gradient.
Tensor.__eq__, Tensor.__ne__, Tensor.__lt__ = elementwise.equal, elementwise.not_equal, elementwise.less
Tensor.__le__, Tensor.__gt__, Tensor.__ge__ = elementwise.less_equal, elementwise.greater, elementwise.greater_equal
Tensor.__neg__, Tensor.__abs__, Tensor.__getitem__ = elementwise.negative, elementwise.abs, shapes.getitem
