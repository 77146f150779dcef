"""Whether ops record: ``torch.no_grad()``, ``torch.enable_grad()``, ``torch.set_grad_enabled(mode)``.

Each is a context manager and a decorator. The flag is per thread, as in PyTorch.

>>> import minitape.torch as torch
>>> x = torch.tensor(2.0, requires_grad=True)
>>> with torch.no_grad():
...     y = x * 3
>>> y.requires_grad, torch.is_grad_enabled()
(False, True)
"""

import functools
import threading


class _State(threading.local):
    enabled = True


_state = _State()


def is_grad_enabled():
    return _state.enabled


class set_grad_enabled:
    """Turn recording on or off: at once when called, and back as it was when its block ends."""

    def __init__(self, mode):
        self.previous = _state.enabled
        self.mode = bool(mode)
        _state.enabled = self.mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _state.enabled = self.previous

    def __call__(self, function):
        _state.enabled = self.previous  # as a decorator it changes nothing until the function runs
        mode = self.mode

        @functools.wraps(function)
        def run(*args, **kwargs):
            with set_grad_enabled(mode):
                return function(*args, **kwargs)
        return run


class _Switch:
    mode = None

    def __enter__(self):
        self.previous = _state.enabled
        _state.enabled = self.mode

    def __exit__(self, *exc):
        _state.enabled = self.previous

    def __call__(self, function):
        switch = type(self)

        @functools.wraps(function)
        def run(*args, **kwargs):
            with switch():
                return function(*args, **kwargs)
        return run


class no_grad(_Switch):
    """Inside the block, no op records: results do not require grad (for updates and evaluation)."""
    mode = False


class enable_grad(_Switch):
    """Inside the block, ops record again (inside a ``no_grad``)."""
    mode = True


inference_mode = no_grad  # minitape has no inference tensors: inference mode is no_grad
