"""Who is listening: the per-thread stack of active recorders.

A *recorder* is anything that wants to hear about every primitive operation
run in this thread: a :class:`~minitape.GradientTape` inside its ``with``
block, a :class:`~minitape.autodiff.ForwardAccumulator`, an op counter. Each
one is a :class:`Recorder`, with two methods:

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


# ``this_thread.recorders`` is the stack itself. Read it with :func:`active`; only the two loops that run on every op
# (``primitive.apply`` and ``engine.add``) read the attribute, to save a function call each time.
this_thread = _ThreadState()


class Recorder:
    """Base of everything that listens to ops: it listens inside its ``with`` block.

    A subclass overrides the hooks it needs; the others hear nothing.

    >>> class Counter(Recorder):
    ...     def __init__(self):
    ...         self.ops = 0
    ...     def record(self, prim, inputs, output, attrs):
    ...         self.ops += 1
    >>> import minitape as mt
    >>> with Counter() as counter:
    ...     y = mt.sin(mt.constant(1.0)) * 2.0
    >>> counter.ops
    2
    """

    def record(self, prim, inputs, output, attrs):
        """Called after every primitive op run in this thread while this recorder listens."""

    def variable_accessed(self, variable):
        """Called when an op reads ``variable`` while this recorder listens."""

    def __enter__(self):
        push(self)
        return self

    def __exit__(self, *exc):
        remove(self)


def active():
    """The list of recorders active in this thread (innermost last)."""
    return this_thread.recorders


def push(recorder):
    this_thread.recorders.append(recorder)


def remove(recorder):
    """Stop ``recorder`` listening in this thread; return where it was (for :func:`insert`)."""
    stack = this_thread.recorders
    for position in range(len(stack) - 1, -1, -1):
        if stack[position] is recorder:
            del stack[position]
            return position
    raise RuntimeError(f"{recorder!r} is not recording in this thread")


def insert(position, recorder):
    this_thread.recorders.insert(position, recorder)


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
        stack = this_thread.recorders
        self.position = position = remove(self.recorder)
        self.inside = stack[position:]
        del stack[position:]
        return position

    def __exit__(self, *exc):
        this_thread.recorders[self.position:self.position] = [self.recorder, *self.inside]


class silenced:
    """Context manager: no recorder in this thread hears anything inside the block.

    For computations *about* a tape (pictures, trace tables) that must not
    change any tape.
    """

    def __enter__(self):
        self.saved, this_thread.recorders = this_thread.recorders, []

    def __exit__(self, *exc):
        this_thread.recorders = self.saved
