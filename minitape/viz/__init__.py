"""The presentation wing: a tape read back, as evaluation traces and as pictures (needs Graphviz).

Nothing in the library imports this package: it reads a tape through the
tape's public records (``tape.records``, ``tape.watched``, ``tape.adjoints``)
and replays :func:`~minitape.engine.sweep` itself; no tape records what it computes.

``draw(tape)`` returns a Graphviz picture that JupyterLab shows inline: a box
per value, an oval per operation, arrows in the direction the data flowed.
A value is called by its Variable name, else by its name in the evaluation
trace: ``v1, v2, ...`` for results in recording order, ``v0, v-1, ...`` for
watched tensors, ``c1, c2, ...`` for constants.

>>> import minitape as mt
>>> from minitape import viz
>>> x = mt.Variable(3.0, name="x")
>>> with mt.GradientTape() as tape:
...     y = x * x
>>> print(viz.to_dot(tape, targets=y, grads=True, legend=False), end="")  # doctest: +NORMALIZE_WHITESPACE
digraph {
    graph [fontname=Helvetica nslimit=2 nslimit1=2 rankdir=LR size="7.5,1000"]
    node [fontname=Helvetica fontsize=11]
    edge [arrowsize=0.7 fontname=Helvetica fontsize=10 weight=2]
    n0 [label="x\\n3\\n() float32\\nadjoint 6" fillcolor="#c7e9c0" shape=box style="rounded,filled"]
    n1 [label=multiply fillcolor="#f0f0f0" shape=ellipse style=filled]
    n2 [label="v1\\n9\\n() float32\\nadjoint 1" fillcolor="#fdd0a2" shape=box style="rounded,filled,bold"]
    n0 -> n1
    n0 -> n1
    n1 -> n2
}

Its modules, each one idea, in the order they build on each other:

* ``reading.py``: the tape read back from its records, every value named
  (:func:`read_tape`), local derivatives (:func:`local_partials`), the
  backward sweep replayed op by op (``sweep_steps``);
* ``traces.py``: the three evaluation-trace tables of the AD literature
  (:func:`evaluation_trace`);
* ``display.py``: how a notebook shows a picture (an HTML image whose alt
  text says what it shows, :func:`html_image`, and a PNG);
* ``picture.py``: :class:`Picture` and the house style (colours, shapes,
  legend, a layout that fits a notebook's width);
* ``scene.py``: a tape read for drawing, and which values are off the path;
* ``words.py``: every picture said in words (``picture.description``: the
  inputs, the ops in recording order with their values, the target, and the
  adjoints, tangents or local derivatives when drawn), for readers who do not see it;
* ``draw.py``: :func:`draw`, :func:`to_dot` (the DOT source, no Graphviz
  program needed) and :func:`tape_mimebundle`;
* ``steps.py``: :func:`backward_steps`, one picture per step of the backward
  pass, and :func:`strip`, all of them in one.

Pictures need Graphviz's ``dot`` program to render. Everything is drawn in
recording order and named by it, so the same code always gives the same
source, byte for byte; colours are never the only way a picture tells
things apart.

A tape shown as a notebook cell's last expression draws itself once this
package is imported: importing it registers :func:`tape_mimebundle` with the
notebook's IPython kernel (:func:`~minitape.viz.display.show_in_notebooks`).
The tape itself has no display code, so the library never imports its
pictures; without ``from minitape import viz`` a tape shows its text,
``<GradientTape: 3 ops>``.
"""

from ..tape import GradientTape
from .display import html_image, show_in_notebooks
from .draw import draw, tape_mimebundle, to_dot
from .picture import FONT, HEIGHT_INCHES, WIDTH_INCHES, GraphvizNotFound, Picture
from .reading import local_partials, read_tape
from .steps import BackwardSteps, backward_steps, strip
from .traces import EvaluationTrace, evaluation_trace

show_in_notebooks(GradientTape, tape_mimebundle)

__all__ = ["BackwardSteps", "EvaluationTrace", "FONT", "GraphvizNotFound", "HEIGHT_INCHES", "Picture",
           "WIDTH_INCHES", "backward_steps", "draw", "evaluation_trace", "html_image", "local_partials", "read_tape",
           "strip", "tape_mimebundle", "to_dot"]
