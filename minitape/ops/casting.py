"""``cast``: a tensor converted to another dtype; gradients flow between floating dtypes only.

Its own module because ops of every family convert dtypes (``linspace``,
packing a list), while ``cast`` needs nothing but :mod:`minitape.primitive`.
"""

from ..dtypes import as_dtype
from ..primitive import Primitive, apply
from .arguments import convert_inputs
from .exports import exported

_cast = Primitive("cast", lambda x, dtype: x.astype(dtype),
                  vjp=[lambda g, z, x, dtype: cast(g, x.array.dtype)],
                  jvp=[lambda t, z, x, dtype: cast(t, dtype)])


@exported("tf")
def cast(x, dtype):
    """``x`` converted to ``dtype``. Gradients flow between floating dtypes only (as in TF).

    >>> cast([1.7, -1.7], "int32").numpy()
    array([ 1, -1], dtype=int32)
    """
    (x,) = convert_inputs("cast", x)
    try:
        dtype = as_dtype(dtype).as_numpy_dtype
    except TypeError as e:
        raise TypeError(f"cast: {e}") from None
    if x.array.dtype == dtype:
        return x
    return apply(_cast, (x,), {"dtype": dtype})
