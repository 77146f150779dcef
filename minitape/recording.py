"""Who is listening: the per-thread stack of active recorders.

A *recorder* is anything that wants to hear about every primitive operation
run in this thread: a :class:`~minitape.GradientTape` inside its ``with``
block, a :class:`~minitape.autodiff.ForwardAccumulator`, an op counter. Each
one has two methods:

* ``record(prim, inputs, output, attrs)``, called after every primitive op;
* ``variable_accessed(variable)``, called when an op reads a Variable.

The stack is thread-local (one list per thread), so two threads recording at
the same time never see each other's operations. When the stack is empty,
running an op costs only the NumPy call and a wrapper: nothing is recorded.
"""

import threading


class _ThreadState(threading.local):
    def __init__(self):
        self.recorders = []


_state = _ThreadState()


def active():
    """The list of recorders active in this thread (innermost last)."""
    return _state.recorders


def push(recorder):
    _state.recorders.append(recorder)


def remove(recorder):
    """Stop ``recorder`` listening in this thread; return where it was (for :func:`insert`)."""
    stack = _state.recorders
    for position in range(len(stack) - 1, -1, -1):
        if stack[position] is recorder:
            del stack[position]
            return position
    raise RuntimeError(f"{recorder!r} is not recording in this thread")


def insert(position, recorder):
    _state.recorders.insert(position, recorder)


class paused:
    """Context manager: ``recorder``, and every recorder started after it, hear nothing inside the block.

    A forward accumulator uses it while it computes tangents, so that its
    rule ops are heard by the recorders *outside* it, started before it (a
    tape there differentiates the tangents: reverse over forward; an outer
    accumulator gets second derivatives), but not by itself nor by those
    inside it, as in TensorFlow.
    """

    def __init__(self, recorder):
        self.recorder = recorder

    def __enter__(self):
        """Returns how many recorders are outside: 0 if ``recorder`` was the first."""
        stack = _state.recorders
        self.position = position = remove(self.recorder)
        self.inside = stack[position:]
        del stack[position:]
        return position

    def __exit__(self, *exc):
        _state.recorders[self.position:self.position] = [self.recorder, *self.inside]


class silenced:
    """Context manager: no recorder in this thread hears anything inside the block.

    For computations *about* a tape (pictures, trace tables) that must not
    change any tape.
    """

    def __enter__(self):
        self.saved, _state.recorders = _state.recorders, []

    def __exit__(self, *exc):
        _state.recorders = self.saved
