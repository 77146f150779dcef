"""Pictures of a tape: what it recorded, and its backward pass step by step (needs Graphviz).

``draw(tape)`` returns a Graphviz picture that JupyterLab shows inline: a box
per value, an oval per operation, arrows in the direction the data flowed.
A value is called by its Variable name, else by its name in the evaluation
trace (:mod:`minitape.trace`): ``v1, v2, ...`` for results in recording
order, ``v0, v-1, ...`` for watched tensors, ``c1, c2, ...`` for constants.

>>> import minitape as mt
>>> x = mt.Variable(3.0, name="x")
>>> with mt.GradientTape() as tape:
...     y = x * x
>>> print(to_dot(tape, targets=y, grads=True, legend=False), end="")  # doctest: +NORMALIZE_WHITESPACE
digraph {
    graph [fontname=Helvetica rankdir=LR]
    node [fontname=Helvetica fontsize=11]
    edge [arrowsize=0.7 fontname=Helvetica fontsize=10]
    n0 [label="x\\n3\\n() float32\\nadjoint 6" fillcolor="#c7e9c0" shape=box style="rounded,filled"]
    n1 [label=multiply fillcolor="#f0f0f0" shape=ellipse style=filled]
    n0 -> n1
    n0 -> n1
    n1 -> n2
    n2 [label="v1\\n9\\n() float32\\nadjoint 1" fillcolor="#fdd0a2" shape=box style="rounded,filled,bold"]
}

* :func:`draw` (and :func:`to_dot`, its DOT source) pictures a tape, with
  adjoints (``grads=True``), local derivatives on the edges
  (``partials=True``) or tangents (``accumulator=``);
* :func:`backward_steps` gives one picture per step of the backward pass, to
  walk through with :func:`step_through` (a slider) or :func:`strip` (all in one);
* :func:`tape_mimebundle` is how a notebook shows a tape.

Pictures need Graphviz's ``dot`` program to render; :func:`to_dot` gives
the DOT source without it. Everything is drawn in recording order and named
by it, so the same code always gives the same source, byte for byte.
"""

import collections.abc
import contextlib

import graphviz
import numpy as np

from . import nest
from .tensor import Tensor
from .trace import Op, format_number, format_value, local_partials, read_tape, shape_text, short_text

MAX_NODES = 150  # beyond this a picture is unreadable anyway, and dot gets slow

FONT = "Helvetica"

# What each kind of node looks like, and its line in the legend. ColorBrewer
# colours: they stay distinct on a projector and for colour-blind eyes.
STYLES = {
    "variable": ("Variable", {"shape": "box", "style": "rounded,filled", "fillcolor": "#c7e9c0"}),
    "watched": ("watched tensor", {"shape": "box", "style": "rounded,filled", "fillcolor": "#c6dbef"}),
    "constant": ("constant (not watched)", {"shape": "box", "style": "rounded,dashed"}),
    "result": ("result of an op", {"shape": "box", "style": "rounded"}),
    "target": ("target", {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#fdd0a2"}),
    "op": ("operation", {"shape": "ellipse", "style": "filled", "fillcolor": "#f0f0f0"}),
}
GREY = {"color": "#bdbdbd", "fontcolor": "#969696", "fillcolor": "white"}  # off the path to the target
HIGHLIGHT = {"style": "filled,bold", "fillcolor": "#ffeb3b", "penwidth": "2"}  # the op of this backward step
FLOW = {"color": "#e6550d", "penwidth": "2"}  # the edges its adjoint flows back along


class GraphvizNotFound(graphviz.ExecutableNotFound):
    """Graphviz's ``dot`` program is missing: the message says how to install it."""

    def __init__(self, program="dot"):
        RuntimeError.__init__(self, (
            f"cannot draw: Graphviz's `{program}` program is not installed (or not on PATH). Install Graphviz "
            f"with one of: sudo apt-get install graphviz | brew install graphviz | conda install -c "
            f"conda-forge graphviz. (minitape.viz.to_dot(...) gives the DOT source without it.)"))


class Picture(graphviz.Digraph):
    """A ``graphviz.Digraph`` with a stable text form, whose rendering errors say how to install Graphviz."""

    summary = ""

    def __repr__(self):
        return f"<minitape picture: {self.summary}>"

    def pipe(self, *args, **kwargs):
        with _dot_needed(self.engine):
            return super().pipe(*args, **kwargs)

    def render(self, *args, **kwargs):
        with _dot_needed(self.engine):
            return super().render(*args, **kwargs)


@contextlib.contextmanager
def _dot_needed(program):
    try:
        yield
    except graphviz.ExecutableNotFound:
        raise GraphvizNotFound(program) from None


def _picture(rankdir, graph_attr, title=None):
    """An empty Picture with the house style; ``graph_attr`` are Graphviz graph attributes (e.g. size="6,4")."""
    heading = {"label": title, "labelloc": "t", "labeljust": "l"} if title else {}
    return Picture(graph_attr={"fontname": FONT, "rankdir": rankdir, **heading, **graph_attr},
                   node_attr={"fontname": FONT, "fontsize": "11"},
                   edge_attr={"fontname": FONT, "fontsize": "10", "arrowsize": "0.7"})


def _ids(tensors):
    return None if tensors is None else {t._id for t in nest.flatten(tensors)}


class _Scene:
    """A tape read for drawing: its values and ops, the targets, and which nodes are off the path."""

    def __init__(self, tape, targets=None, sources=None, accumulator=None, partials=False, max_nodes=MAX_NODES,
                 names=None):
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1 (or None to draw everything), got {max_nodes}")
        self.reading = read_tape(tape, accumulator)
        for label, tensor in (names or {}).items():  # the caller's names for values, e.g. {"y": y}
            if not isinstance(tensor, Tensor) or tensor._id not in self.reading.values:
                raise ValueError(f"names[{label!r}] must be a tensor recorded on this tape")
            self.reading.values[tensor._id].name = label
        self.targets = _ids(targets) or set()
        self.off = _off_path(self.reading, _ids(targets), _ids(sources))
        self.off_text = "does not lead to the target" if sources is None else "not between sources and target"
        self.tangents = {} if accumulator is None else accumulator._tangents
        self.partials, self.max_nodes = partials, max_nodes

    def summary(self):
        return f"{len(self.reading.values)} values, {len(self.reading.ops)} ops"

    def draw_into(self, graph, adjoints, pending=(), highlight=None, prefix=""):
        """Add the nodes and edges to ``graph``; return the legend entries they need.

        ``adjoints`` are shown beside values, ``pending`` ids show ``adjoint ?``,
        ``highlight`` is the op whose backward step this picture shows.
        """
        drawn = self.reading.nodes[:self.max_nodes]  # values and ops in recording order: cut anywhere
        used = set()
        for node in drawn:
            key = "op" if isinstance(node, Op) else "target" if node.id in self.targets else node.kind
            attrs = {**STYLES[key][1], **(GREY if node.index in self.off else {}),
                     **(HIGHLIGHT if node is highlight else {})}
            used.update([key, "off"] if node.index in self.off else [key])
            if key == "op":
                graph.node(f"{prefix}n{node.index}", node.name, **attrs)
                self._edges(graph, node, len(drawn), node is highlight, prefix)
            else:
                label = _label(node, adjoints.get(node.id), self.tangents.get(node.id), node.id in pending)
                graph.node(f"{prefix}n{node.index}", label, **attrs)
        left = len(self.reading.nodes) - len(drawn)
        if left:
            graph.node(f"{prefix}more", f"… {left:,} more values and ops not drawn (max_nodes={self.max_nodes})",
                       shape="note")
            graph.edge(f"{prefix}n{drawn[-1].index}", f"{prefix}more", style="dashed", arrowhead="none")
        return used | ({"partials"} if self.partials else set())

    def _edges(self, graph, op, n_drawn, flowing, prefix):
        """Edges into ``op`` (labelled with local partial derivatives if asked) and out to its result."""
        values = self.reading.values
        partials = local_partials(op, values) if self.partials else None
        for k, i in enumerate(op.inputs):  # inputs come before their op: always drawn
            label = None if partials is None or partials[k] is None else format_number(partials[k])
            graph.edge(f"{prefix}n{values[i].index}", f"{prefix}n{op.index}", label, **(FLOW if flowing else {}))
        if values[op.output].index < n_drawn:
            graph.edge(f"{prefix}n{op.index}", f"{prefix}n{values[op.output].index}")

    def legend(self, graph, used):
        """A small box explaining the node styles present in the picture."""
        if not used:
            return
        with graph.subgraph(name="cluster_legend") as legend:
            legend.attr(label="legend", style="rounded", color="#bdbdbd", fontcolor="#636363")
            entries = [(f"legend_{key}", text, attrs) for key, (text, attrs) in STYLES.items() if key in used]
            if "off" in used:
                entries.append(("legend_off", self.off_text, {**STYLES["result"][1], **GREY}))
            if "partials" in used:
                entries.append(("legend_partials", "edge numbers: ∂ output / ∂ input", {"shape": "plaintext"}))
            for name, text, attrs in entries:
                legend.node(name, text, fontsize="10", **attrs)
            for (a, *_), (b, *_) in zip(entries, entries[1:]):
                legend.edge(a, b, style="invis")  # one row (or column), in this order


def _label(value, adjoint, tangent, pending):
    """A value's box: name, value (when small), shape and dtype, then its tangent and adjoint if known."""
    lines = [value.name]
    if value.tensor is None:
        lines.append("value not kept")  # the tape keeps only what its VJP rules need
    else:
        small = format_value(value.tensor)
        lines += ([small] if small else []) + [shape_text(value.tensor)]
    if tangent is not None:
        lines.append(f"tangent {short_text(tangent)}")
    if adjoint is not None or pending:
        lines.append(f"adjoint {'?' if adjoint is None else short_text(adjoint)}")
    return "\\n".join(lines)


def _off_path(reading, target_ids, source_ids):
    """Indices of the nodes a gradient from the sources to the targets never visits (none if neither is given)."""
    on = set(reading.values)
    if target_ids is not None:  # what leads to a target: walk back from the targets
        leads = set(target_ids)
        for op in reversed(reading.ops):
            if op.output in leads:
                leads.update(op.inputs)
        on &= leads
    if source_ids is not None:  # what depends on a source: walk forward from the sources
        depends = set(source_ids)
        for op in reading.ops:
            if not depends.isdisjoint(op.inputs):
                depends.add(op.output)
        on &= depends
    off = {v.index for v in reading.values.values() if v.id not in on}
    return off | {op.index for op in reading.ops if op.output not in on}  # an op is where its result is


def draw(tape, targets=None, sources=None, *, grads=False, partials=False, accumulator=None, names=None,
         legend=True, max_nodes=MAX_NODES, rankdir="LR", **graph_attr):
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
      legend: explain the node styles in a small box.
      max_nodes: draw at most this many values and ops (``None``: all), and
        say how many were left out.
      rankdir: ``"LR"`` (left to right) or ``"TB"`` (top to bottom).
      **graph_attr: more Graphviz graph attributes, e.g. ``size="6,4"``.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> draw(tape, targets=y, grads=True)  # a notebook shows the picture itself
    <minitape picture: 3 values, 2 ops>
    """
    if grads and targets is None:
        raise ValueError("draw(grads=True) needs targets=...: an adjoint is d target / d value, so say which "
                         "target")
    scene = _Scene(tape, targets, sources, accumulator, partials, max_nodes, names)
    picture = _picture(rankdir, graph_attr)
    used = scene.draw_into(picture, tape._all_adjoints(targets) if grads else {})
    if legend:
        scene.legend(picture, used)
    picture.summary = scene.summary()
    return picture


def to_dot(tape, targets=None, sources=None, **options):
    """The DOT source of ``draw(tape, targets, sources, **options)``: text, no Graphviz program needed."""
    return draw(tape, targets, sources, **options).source


def tape_mimebundle(tape, include=None, exclude=None):
    """What Jupyter shows for a tape: its picture as SVG, and a stable text.

    This is ``GradientTape._repr_mimebundle_``.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> tape_mimebundle(tape, exclude=["image/svg+xml"])
    {'text/plain': '<GradientTape: 3 values, 2 ops>'}
    """
    picture = draw(tape)
    bundle = {"text/plain": f"<GradientTape: {picture.summary}>"}
    if (include is None or "image/svg+xml" in include) and "image/svg+xml" not in (exclude or ()):
        bundle["image/svg+xml"] = picture.pipe(format="svg", encoding="utf-8")
    return bundle


# -- the backward pass, step by step ---------------------------------------------------------------------
class BackwardSteps(collections.abc.Sequence):
    """The pictures of a backward pass: ``steps[0]`` before it starts, ``steps[k]`` after its k-th op.

    Each picture highlights the op just processed and shows the adjoints
    computed so far; the others read ``adjoint ?``.
    """

    def __init__(self, scene, frames, final, legend, rankdir, graph_attr):
        self._scene, self._frames, self._final = scene, frames, final
        self._legend, self._rankdir, self._graph_attr = legend, rankdir, graph_attr

    def __len__(self):
        return len(self._frames)

    def __getitem__(self, k):
        k = range(len(self))[k]  # a negative k counts from the end; out of range raises IndexError
        picture = _picture(self._rankdir, self._graph_attr, title=self.title(k))
        used = self._draw_frame(picture, k)
        if self._legend:
            self._scene.legend(picture, used)
        picture.summary = f"backward pass, step {k} of {len(self) - 1}"
        return picture

    def title(self, k):
        """What picture ``k`` shows, in words."""
        op, _ = self._frames[k]
        if op is None:
            return "start: the adjoint of the target is 1"
        out = self._scene.reading.values[op.output].name
        return f"step {k} of {len(self) - 1}: {op.name} passes the adjoint of {out} to its inputs"

    def _draw_frame(self, graph, k, prefix=""):
        adjoints = {}
        for _, changed in self._frames[:k + 1]:  # replay the changes up to step k
            adjoints.update(changed)
        op = self._frames[k][0]
        return self._scene.draw_into(graph, adjoints, pending=self._final, highlight=op, prefix=prefix)

    def __repr__(self):
        return f"<backward pass: {len(self) - 1} steps>"


def backward_steps(tape, target, sources=None, *, partials=False, legend=True, max_nodes=MAX_NODES, rankdir="LR",
                   **graph_attr):
    """The reverse sweep from ``target``, one picture per step (a :class:`BackwardSteps`).

    Show them with :func:`step_through` (a slider, in a live notebook) or
    :func:`strip` (one static picture). Options are those of :func:`draw`.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x * x)
    >>> steps = backward_steps(tape, y)
    >>> steps, steps.title(1)
    (<backward pass: 2 steps>, 'step 1 of 2: sin passes the adjoint of v2 to its inputs')
    """
    scene = _Scene(tape, target, sources, partials=partials, max_nodes=max_nodes)
    if target._id not in scene.reading.values:
        raise ValueError("backward_steps: the target was not recorded by this tape; pass the tensor your "
                         "function returned inside the tape's `with` block")
    ops = {op.output: op for op in scene.reading.ops}
    frames = [(None, {target._id: Tensor(np.ones_like(target._value))})]  # the seed: d target / d target = 1

    def on_step(record, adjoints):  # keep what this step changed: the adjoints of the op's inputs
        frames.append((ops[record[2]], {i: adjoints[i] for i in record[1] if i in adjoints}))

    final = tape._all_adjoints(target, on_step=on_step)
    return BackwardSteps(scene, frames, final, legend, rankdir, graph_attr)


def strip(steps, every=1):
    """The pictures of ``steps`` stacked in one, to read without a kernel: every ``every``-th, and the last.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> strip(backward_steps(tape, y))
    <minitape picture: backward pass, 3 of 3 pictures>
    """
    chosen = sorted(set(range(0, len(steps), every)) | {len(steps) - 1})
    picture = _picture(steps._rankdir, steps._graph_attr)
    used = set()
    for k in reversed(chosen):  # dot stacks the later ones higher up
        with picture.subgraph(name=f"cluster_step{k}") as frame:
            frame.attr(label=steps.title(k), labeljust="l", color="#d9d9d9")
            used |= steps._draw_frame(frame, k, prefix=f"s{k}_")
    if steps._legend:
        steps._scene.legend(picture, used)
    picture.summary = f"backward pass, {len(chosen)} of {len(steps)} pictures"
    return picture


class _StableWidget:
    """Shows ``widget`` in a live notebook, with a stable text for stored outputs (nbval compares it)."""

    def __init__(self, widget, text):
        self.widget, self.text = widget, text

    def _repr_mimebundle_(self, **kwargs):
        return {**(self.widget._repr_mimebundle_(**kwargs) or {}), "text/plain": self.text}

    def __repr__(self):
        return self.text


def step_through(steps):
    """A slider over the pictures of ``steps``; it needs a live kernel with ipywidgets.

    In a notebook, ``step_through(backward_steps(tape, y))``; show
    ``strip(...)`` of the same steps too, for readers without a kernel.
    The picture lives in an HTML widget whose value the slider replaces, so
    nothing is displayed outside the widget (a stored notebook holds only
    the widget and its text).
    """
    import ipywidgets  # the course's dependency, not the library's

    def svg(k):
        return steps[k].pipe(format="svg", encoding="utf-8")

    slider = ipywidgets.IntSlider(value=0, min=0, max=len(steps) - 1, description="step")
    picture = ipywidgets.HTML(value=svg(0))
    slider.observe(lambda change: setattr(picture, "value", svg(change["new"])), names="value")
    text = f"<slider over the {len(steps)} pictures of the backward pass>"
    return _StableWidget(ipywidgets.VBox([slider, picture]), text)
