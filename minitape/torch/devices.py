"""``torch.device``: minitape computes with NumPy, on the CPU only.

>>> device("cpu"), CPU == "cpu"
(device(type='cpu'), True)
"""


class device:
    """Where a tensor lives: minitape has only ``device("cpu")``."""

    def __init__(self, kind="cpu"):
        if str(kind) != "cpu":
            raise RuntimeError(f"minitape.torch runs on the CPU only, not on {kind!r}")
        self.type = "cpu"

    def __repr__(self):
        return "device(type='cpu')"

    def __eq__(self, other):
        return str(other) == "cpu" or isinstance(other, device)

    def __str__(self):
        return "cpu"

    __hash__ = object.__hash__


CPU = device("cpu")
