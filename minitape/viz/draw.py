"""A picture of a tape: a box per value, an oval per operation, arrows in the direction the data flowed.

:func:`draw` reads the tape through a :class:`~minitape.viz.scene.Scene`, lays
it out as a :class:`~minitape.viz.picture.Picture` and says it in words
(:mod:`minitape.viz.words`); :func:`to_dot` is its DOT source, which needs no
Graphviz program; :func:`tape_mimebundle` is how a notebook shows a bare tape.
"""

from .display import mimebundle
from .picture import heading_label, new_picture
from .scene import MAX_NODES, Scene, check_tape
from .words import counts, describe


def draw(tape, targets=None, sources=None, *, grads=False, partials=False, accumulator=None, names=None,
         legend=True, max_nodes=MAX_NODES, rankdir=None, **graph_attr):
    """A picture of what ``tape`` recorded: a ``graphviz.Digraph`` that Jupyter shows inline.

    Args:
      targets, sources: tensors (or lists of them). Targets are marked; values
        that do not lead to a target, or do not depend on a source, are grey.
      grads: show each value's adjoint, d target / d value (needs ``targets``).
      partials: label edges with the local derivative ∂ output / ∂ input (scalar ops).
      accumulator: a ForwardAccumulator that was active while the tape
        recorded: show each value's tangent (the ops the accumulator ran
        to compute tangents are left out).
      names: labels for values, e.g. ``{"x3": x3, "y": y}`` (by default a
        result is called by its place in the trace: v1, v2, ...).
      legend: explain the node styles in one row above the picture.
      max_nodes: draw at most this many values and ops (``None``: all), and
        say how many were left out. A constant used by several ops is
        drawn once per use, as extra small boxes.
      rankdir: ``"LR"`` (left to right) or ``"TB"`` (top to bottom); by
        default LR if that fits a notebook's width, else the narrower one.
      **graph_attr: more Graphviz graph attributes, e.g. ``size="6,4"``
        (by default a picture wider than a notebook is scaled down to fit).

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> draw(tape, targets=y, grads=True)  # a notebook shows the picture itself
    <minitape picture: 3 values, 2 ops>
    """
    check_tape(tape, "draw")
    if grads and targets is None:
        raise ValueError("draw(grads=True) needs targets=...: an adjoint is d target / d value, so say which "
                         "target")
    scene = Scene(tape, targets, sources, accumulator, partials, max_nodes, names)
    adjoints = tape.adjoints(targets) if grads else {}
    sketch = scene.sketch(adjoints)
    heading = heading_label(legend=scene.legend(sketch.used) if legend else ())
    picture = new_picture(rankdir or sketch.direction(), graph_attr, heading)
    sketch.draw_into(picture)
    picture.summary = scene.summary()
    picture.description = f"Graph of a tape with {counts(scene)}. {describe(scene, adjoints)}"
    return picture


def to_dot(tape, targets=None, sources=None, **options):
    """The DOT source of ``draw(tape, targets, sources, **options)``: text, no Graphviz program needed."""
    return draw(tape, targets, sources, **options).source


def tape_mimebundle(tape, include=None, exclude=None):
    """What Jupyter shows for a tape: ``(data, metadata)`` with its picture (HTML and PNG) and a stable text.

    This is ``GradientTape._repr_mimebundle_``. A spent tape (non-persistent,
    already answered) has nothing left to draw: it shows a text saying so.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> tape_mimebundle(tape, include=["text/plain"])
    ({'text/plain': '<GradientTape: 3 values, 2 ops>'}, {})
    >>> _ = tape.gradient(y, x)
    >>> tape_mimebundle(tape)[0]["text/plain"]
    '<GradientTape: spent (a non-persistent tape releases its records once it has answered)>'
    """
    if tape.spent:
        return {"text/plain": "<GradientTape: spent (a non-persistent tape releases its records once it has "
                              "answered)>"}, {}
    picture = draw(tape)
    return mimebundle(picture, f"<GradientTape: {picture.summary}>", include, exclude)
