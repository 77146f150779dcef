"""Every op minitape knows, gathered in one namespace (``mt.ops``).

The ops are grouped by family, one module each:

* :mod:`.elementwise`: math on each element (exp, sin, +, *, maximum, where, ...);
* :mod:`.reductions`: sums, means, maxima, products and norms over axes;
* :mod:`.shapes`: reshape, transpose, slicing, concat, stack, tile, broadcasting;
* :mod:`.linalg`: matrix multiplication;
* :mod:`.nn`: softmax and the cross-entropy losses;
* :mod:`.creation`: zeros, ones, ranges (constants, never recorded).

Every differentiable op is a :class:`~minitape.primitive.Primitive`: its
NumPy forward, VJP rule and JVP rule are written side by side.
"""

from .creation import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .reductions import *  # noqa: F401,F403
from .shapes import *  # noqa: F401,F403

from . import creation, elementwise, linalg, nn, reductions, shapes  # noqa: E402

__all__ = [name for module in (creation, elementwise, linalg, nn, reductions, shapes) for name in module.__all__]
