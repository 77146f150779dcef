"""``mt.keras.backend``: the float type Keras computes in, its fuzz factor, and its conversion of inputs.

>>> floatx(), epsilon()
('float32', 1e-07)
"""

from ..ops import cast
from ..tensor import Tensor, convert_to_tensor
from .namespace import missing_names


def floatx():
    """The dtype of Keras's weights and losses: ``"float32"``."""
    return "float32"


def epsilon():
    """The small number Keras adds or clips with, so that ``log`` and division never see 0: 1e-7."""
    return 1e-7


def convert(x, dtype):
    """``x`` as a tensor of ``dtype``; a tensor of another dtype is cast, as Keras's ``convert_to_tensor`` does.

    (``mt.convert_to_tensor`` refuses a tensor of another dtype: Keras converts
    integer labels to float32 silently, so this helper does too.)

    >>> convert(convert_to_tensor([1, 0]), "float32").numpy()
    array([1., 0.], dtype=float32)
    """
    if isinstance(x, Tensor) and x.dtype != dtype:
        return cast(x, dtype)
    return convert_to_tensor(x, dtype=dtype)


__all__ = ["floatx", "epsilon"]
__getattr__ = missing_names("mt.keras.backend", __all__)
