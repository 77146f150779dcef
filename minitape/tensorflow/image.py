"""``mt.image``: the one image op a learner meets in TensorFlow's tutorials on the tape, ``total_variation``."""

from ..ops import abs, getitem, reduce_sum  # noqa: A004
from ..ops.arguments import check_dtype, convert_inputs
from ..dtypes import SIGNED


def total_variation(images, name=None):
    """How much neighbouring pixels differ: the sum of ``|x[i + 1, j] - x[i, j]|`` and ``|x[i, j + 1] - x[i, j]|``.

    ``images`` is one image (height, width, channels), giving a scalar, or a
    batch of them (batch, height, width, channels), giving one number per
    image. Style transfer adds it to the loss to keep the picture smooth. Its
    gradient pushes each pixel toward its neighbours; where two neighbours are
    equal, that difference sends no gradient (the slope of ``abs`` at 0 is 0,
    as in TensorFlow).

    >>> float(total_variation([[[0.0], [1.0]], [[3.0], [1.0]]]))  # |3 - 0| + |1 - 1| + |1 - 0| + |1 - 3|
    6.0
    """
    (x,) = convert_inputs("image.total_variation", images)
    check_dtype("image.total_variation", x, SIGNED)
    rank = x.array.ndim
    if rank not in (3, 4):
        raise ValueError(f"image.total_variation: images must have 3 dimensions (height, width, channels) or 4 (a "
                         f"batch of them), got shape {x.array.shape}")
    lead = (slice(None),) * (rank - 3)  # the batch dimension, if there is one
    down = getitem(x, lead + (slice(1, None),)) - getitem(x, lead + (slice(None, -1),))
    across = getitem(x, lead + (slice(None), slice(1, None))) - getitem(x, lead + (slice(None), slice(None, -1)))
    per_image = [-3, -2, -1]
    return reduce_sum(abs(down), per_image) + reduce_sum(abs(across), per_image)
