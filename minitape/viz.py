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

* :func:`draw` (and :func:`to_dot`, its DOT source) pictures a tape, with
  adjoints (``grads=True``), local derivatives on the edges
  (``partials=True``) or tangents (``accumulator=``);
* :func:`backward_steps` gives one picture per step of the backward pass, to
  walk through with :func:`step_through` (a slider) or :func:`strip` (all in one);
* :func:`tape_mimebundle` is how a notebook shows a tape.

Pictures need Graphviz's ``dot`` program to render; :func:`to_dot` gives
the DOT source without it. Everything is drawn in recording order and named
by it, so the same code always gives the same source, byte for byte. A
picture fits a notebook's width: a long one is laid out top to bottom, a
wide one scaled down.

Every picture also says what it shows in words (``picture.description``:
the inputs, the ops in recording order with their values, the target, and
the adjoints, tangents or local derivatives when drawn), for readers who do
not see it. A notebook gets the picture as an HTML image whose ``alt`` is
that description (:func:`html_image`), and as a PNG for front ends without
HTML; colours are never the only way a picture tells things apart.
"""

import base64
import collections.abc
import contextlib
import html
import re

import graphviz
import numpy as np

from . import nest
from .reading import Op, format_number, format_value, local_partials, read_tape, shape_text, short_text, sweep_steps
from .tensor import Tensor

MAX_NODES = 150  # beyond this a picture is unreadable anyway, and dot's layout time grows fast
MAX_TOLD = 60  # values and ops a description puts into words; a longer one is not listened to anyway

FONT = "Helvetica"
LEGEND_FONT_SIZE = 10
# A notebook's output area is about 760 px wide at a 1400 px window with JupyterLab's file browser open.
# Graphviz's `size` scales a wider drawing down to this many inches; a browser shows an SVG's 72 points per
# inch as 96 px per inch, so 7.5 inches are 720 px. Height is not limited: a tall picture scrolls, while a
# wide one hides its end off to the side.
WIDTH_INCHES, HEIGHT_INCHES = 7.5, 1000
PX_PER_POINT = 96 / 72
PNG_DPI = 144  # 1.5 image pixels per screen pixel: sharp on high-resolution screens, small enough to store

# What each kind of node looks like, and its line in the legend. ColorBrewer
# colours: they stay distinct on a projector and for colour-blind eyes. Colour
# is never the only difference (WCAG 2.1, 1.4.1): each kind also differs in
# shape, corners, outline or weight. Text is black, or at least 4.5:1 against
# its background, and lines at least 3:1 against the white page (WCAG 1.4.3,
# 1.4.11; tests/library/test_viz.py computes every pair).
STYLES = {
    "variable": ("Variable", {"shape": "box", "style": "rounded,filled", "fillcolor": "#c7e9c0"}),
    "watched": ("watched tensor", {"shape": "box", "style": "filled", "fillcolor": "#c6dbef"}),  # square corners
    "constant": ("constant", {"shape": "box", "style": "rounded,dashed", "fontsize": "9"}),
    "result": ("result", {"shape": "box", "style": "rounded"}),
    "target": ("target", {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#fdd0a2"}),
    "op": ("operation", {"shape": "ellipse", "style": "filled", "fillcolor": "#f0f0f0"}),
}
# off the path to the target: grey text (4.7:1) and a dotted grey outline (3.4:1)
GREY = {"color": "#8c8c8c", "fontcolor": "#737373", "fillcolor": "white"}
HIGHLIGHT = {"style": "filled,bold", "fillcolor": "#ffeb3b", "penwidth": "2"}  # the op of this backward step
FLOW = {"color": "#e6550d", "penwidth": "2"}  # the edges its adjoint flows back along: orange and thick
FRAME = {"color": "#8c8c8c"}  # the frame around each picture of a strip


class GraphvizNotFound(graphviz.ExecutableNotFound):
    """Graphviz's ``dot`` program is missing: the message says how to install it."""

    def __init__(self, program="dot"):
        RuntimeError.__init__(self, (
            f"cannot draw: Graphviz's `{program}` program is not installed (or not on PATH). Install Graphviz "
            f"with one of: sudo apt-get install graphviz | brew install graphviz | conda install -c "
            f"conda-forge graphviz. (minitape.viz.to_dot(...) gives the DOT source without it.)"))


class Picture(graphviz.Digraph):
    """A ``graphviz.Digraph`` with a stable text form and a text alternative, whose rendering errors say how to
    install Graphviz.

    ``summary`` names it in a few words (its text form and its SVG's title);
    ``description`` says in sentences what it shows, for readers who do not
    see it. A notebook gets it as an HTML image of the SVG whose ``alt`` is
    the description, and as a PNG (see :func:`html_image` for why).
    """

    summary = ""
    description = ""

    def __repr__(self):
        return f"<minitape picture: {self.summary}>"

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        return _bundle(self, repr(self), include, exclude)

    @property
    def text_alternative(self):
        """What a screen reader says instead of showing the picture: its description, else its summary."""
        return self.description or self.summary

    def svg(self):
        """The picture as SVG, named by its text alternative for screen readers (Graphviz would title it "%3")."""
        return _described_svg(self.pipe(format="svg", encoding="utf-8"), self.summary, self.text_alternative)

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


def html_image(data, mime, alt):
    """An HTML ``<img>`` of ``data`` (bytes of type ``mime``), with ``alt`` as its text alternative.

    This is how a notebook shows a picture with words for a screen reader.
    JupyterLab (4.x) prefers ``text/html`` to any image type and renders it
    in untrusted notebooks too (a fresh clone, a student's copy on a
    JupyterHub), sanitized: an ``<img>`` keeps its ``alt`` and its ``data:``
    source there, while an ``image/png`` output is shown with no alt at all
    and an ``image/svg+xml`` one not at all. MyST-NB, which builds the book,
    also prefers ``text/html``. An SVG inside an ``<img>`` runs no script,
    and stays sharp when a reader zooms in.

    >>> html_image(b"<svg/>", "image/svg+xml", 'a "box"')
    '<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="a &quot;box&quot;">'
    """
    payload = base64.b64encode(data).decode("ascii")
    text = html.escape(alt, quote=False).replace('"', "&quot;")  # an apostrophe stays one
    return f'<img src="data:{mime};base64,{payload}" alt="{text}">'


def _described_svg(svg, title, description):
    """Graphviz's ``svg`` with role="img", the ``<title>`` ``description`` (its accessible name, as an alt)
    and its graph titled ``title``; the titles of nodes and edges (n0, n0->n1), which tooltips show, are dropped."""
    svg = re.sub(r"<title>[^<]*</title>\n?|<!-- Title: [^\n]*-->\n", "", svg)  # "%3", n0, n0->n1, ...
    svg = re.sub(r'<g id="graph0" class="graph"[^>]*>\n', lambda m: f"{m[0]}<title>{html.escape(title)}</title>\n",
                 svg, count=1)
    return re.sub(r"<svg\b[^>]*?(?=>)", lambda m: f'{m[0]} role="img">\n<title>{html.escape(description)}</title',
                  svg, count=1)


def _bundle(picture, text, include=None, exclude=None):
    """``(data, metadata)`` for IPython: ``text``, the picture as HTML (its SVG and its description), and
    a PNG shown at the SVG's width for front ends without HTML."""
    def wanted(mime):
        return (include is None or mime in include) and mime not in (exclude or ())

    data, metadata = {"text/plain": text}, {}
    if not (wanted("text/html") or wanted("image/png")):
        return data, metadata
    svg = picture.svg()
    if wanted("text/html"):
        data["text/html"] = html_image(svg.encode("utf-8"), "image/svg+xml", picture.text_alternative)
    if wanted("image/png"):
        sharp = picture.copy()
        sharp.attr(dpi=str(PNG_DPI))
        try:  # drawn by cairo, stored with 256 colours by gd: a third of the bytes, and notebooks store it
            png = sharp.pipe(format="png", renderer="cairo", formatter="gd")
        except graphviz.CalledProcessError:  # a Graphviz built without gd
            png = sharp.pipe(format="png")
        data["image/png"] = base64.b64encode(png).decode("ascii")
        width_points = float(re.search(r'<svg width="([\d.]+)pt"', svg)[1])
        metadata["image/png"] = {"width": round(width_points * PX_PER_POINT)}
    return data, metadata


def _picture(rankdir, graph_attr, heading=None):
    """An empty Picture with the house style; ``graph_attr`` are Graphviz graph attributes (e.g. size="6,4")."""
    fit = {"size": f"{WIDTH_INCHES},{HEIGHT_INCHES}"}
    top = {"label": heading, "labelloc": "t", "labeljust": "l"} if heading else {}
    # dot places nodes by network simplex, which by default runs until the layout is optimal: with a value read
    # by many ops far apart (x in `y = y * x`, repeated) its edges cross thousands of ranks and that takes
    # minutes. Stopping after twice as many iterations as there are nodes leaves small pictures as they are
    # and bounds the time of big ones.
    bounded = {"nslimit": "2", "nslimit1": "2"}
    return Picture(graph_attr={"fontname": FONT, "rankdir": rankdir, **fit, **bounded, **top, **graph_attr},
                   node_attr={"fontname": FONT, "fontsize": "11"},
                   edge_attr={"fontname": FONT, "fontsize": "10", "arrowsize": "0.7", "weight": "2"})


def _ids(tensors):
    return None if tensors is None else {t.id for t in nest.flatten(tensors)}


def _check_tape(tape, caller):
    if not (hasattr(type(tape), "records") and hasattr(type(tape), "watched")):  # what a picture reads of a tape
        raise TypeError(f"viz.{caller}() pictures a GradientTape, got {type(tape).__name__} {tape!r:.40}: record "
                        f"with `with mt.GradientTape() as tape: ...`, then pass the tape, e.g. viz.{caller}(tape)")


class Sketch:
    """What a picture draws, before it is handed to Graphviz: its nodes, its edges, the styles it ``used``.

    ``nodes`` are ``(name, label, attrs)`` and ``edges`` ``(tail, head,
    label, attrs)``, both in drawing order, in which a node's incoming
    edges come from nodes drawn before it.
    """

    def __init__(self):
        self.nodes, self.edges, self.used = [], [], set()

    def draw_into(self, graph):
        for name, label, attrs in self.nodes:
            graph.node(name, label, **attrs)
        for tail, head, label, attrs in self.edges:
            graph.edge(tail, head, label, **attrs)

    def direction(self):
        """``"LR"`` if the picture fits a notebook's width left to right, else the narrower of LR and TB.

        Graphviz puts the nodes of one rank (here: steps from the inputs) in
        a column (LR) or a row (TB): a long chain is wide from left to right
        and narrow from top to bottom, a wide fan-out the other way round.
        Left to right may be scaled down to 80% (9-point text stays above 9 px).
        The sizes are estimates from the labels' lengths, enough to choose.
        """
        ranks = self._ranks()
        widths = {name: _node_width(label, attrs) for name, label, attrs in self.nodes}
        columns, rows = collections.defaultdict(float), collections.defaultdict(float)
        for name, rank in ranks.items():
            columns[rank] = max(columns[rank], widths[name])
            rows[rank] += widths[name] + 18  # Graphviz's nodesep: 0.25 inch
        edge_labels = max((len(label) for _, _, label, _ in self.edges if label), default=0)
        left_to_right = sum(columns.values()) + (len(columns) - 1) * (36 + 4 * edge_labels)  # ranksep 0.5 inch
        top_to_bottom = max(rows.values(), default=0)
        fits = left_to_right * 0.8 <= WIDTH_INCHES * 72
        return "LR" if fits or left_to_right <= top_to_bottom else "TB"

    def _ranks(self):
        """Each node's rank as dot assigns it: the longest path from an input; an input just before its first use."""
        rank = {name: 0 for name, _, _ in self.nodes}
        uses = collections.defaultdict(list)
        for tail, head, _, _ in self.edges:
            rank[head] = max(rank[head], rank[tail] + 1)
            uses[tail].append(head)
        fed = {head for _, head, _, _ in self.edges}
        for name in rank:
            if name not in fed and uses[name]:
                rank[name] = min(rank[head] for head in uses[name]) - 1
        return rank


def _node_width(label, attrs):
    """About how wide Graphviz draws a node, in points (a Helvetica character is about 0.55 of its size)."""
    text = max(len(line) for line in label.split("\\n")) * 0.55 * float(attrs.get("fontsize", 11))
    return max(54.0, text * (1.4 if attrs.get("shape") == "ellipse" else 1) + 16)


def _legend_cell(text, attrs):
    """One entry of the legend: an HTML-like table cell that looks like the node it explains."""
    style, looks = attrs.get("style", ""), {}
    if attrs.get("shape") != "plaintext":
        looks["BORDER"] = "2" if "bold" in style else "1"
        corners = ["rounded"] if "rounded" in style or attrs.get("shape") == "ellipse" else []
        if corners or "dashed" in style or "dotted" in style:
            looks["STYLE"] = ",".join(corners + [line for line in ("dashed", "dotted") if line in style])
    if "filled" in style:
        looks["BGCOLOR"] = attrs["fillcolor"]
    if "color" in attrs:
        looks["COLOR"] = attrs["color"]
    font = f'<FONT POINT-SIZE="{LEGEND_FONT_SIZE}" COLOR="{attrs.get("fontcolor", "black")}">'
    cell = " ".join(f'{key}="{value}"' for key, value in looks.items())
    return f"<TD {cell}>{font}{html.escape(text)}</FONT></TD>"


def _heading(title=None, legend=()):
    """The title and the legend (one row of small entries) as an HTML-like label above the picture.

    A graph's label is placed after the layout, so unlike legend nodes it
    never changes where the picture's nodes go or how long dot takes.
    """
    rows = [f'<TR><TD ALIGN="LEFT">{html.escape(title)}</TD></TR>'] if title else []
    if legend:
        cells = "".join(_legend_cell(text, attrs) for text, attrs in legend)
        rows.append(f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3" CELLPADDING="2"><TR>{cells}</TR>'
                    f'</TABLE></TD></TR>')
    return f'<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">{"".join(rows)}</TABLE>>' if rows else None


class _Scene:
    """A tape read for drawing: its values and ops, the targets, and which nodes are off the path."""

    def __init__(self, tape, targets=None, sources=None, accumulator=None, partials=False, max_nodes=MAX_NODES,
                 names=None):
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1 (or None to draw everything), got {max_nodes}")
        known = {t.id: t for t in nest.flatten([targets, list((names or {}).values())]) if isinstance(t, Tensor)}
        self.reading = read_tape(tape, accumulator, known)
        for label, tensor in (names or {}).items():  # the caller's names for values, e.g. {"y": y}
            if not isinstance(tensor, Tensor) or tensor.id not in self.reading.values:
                raise ValueError(f"names[{label!r}] must be a tensor recorded on this tape")
            self.reading.values[tensor.id].name = label
        self.targets = _ids(targets) or set()
        self.off = _off_path(self.reading, _ids(targets), _ids(sources))
        self.off_text = "does not lead to the target" if sources is None else "not between sources and target"
        self.tangents = {} if accumulator is None else accumulator.tangents
        self.partials, self.max_nodes = partials, max_nodes

    def summary(self):
        return f"{len(self.reading.values)} values, {len(self.reading.ops)} ops"

    def counts(self):
        """The summary in words: ``2 values and 1 operation``."""
        return f"{_count(len(self.reading.values), 'value')} and {_count(len(self.reading.ops), 'operation')}"

    def sketch(self, adjoints, pending=(), highlight=None, prefix=""):
        """The nodes and edges of the picture, as a :class:`Sketch`.

        ``adjoints`` are shown beside values, ``pending`` ids show ``adjoint ?``,
        ``highlight`` is the op whose backward step this picture shows.
        """
        sketch = Sketch()
        drawn = self.reading.nodes[:self.max_nodes]  # values and ops in recording order: cut anywhere
        looks, placed = {}, set()  # a value's label and attributes; the constants already joined to an op
        for node in drawn:
            key = "op" if isinstance(node, Op) else "target" if node.id in self.targets else node.kind
            attrs = {**STYLES[key][1], **(_off_path_looks(STYLES[key][1]) if node.index in self.off else {}),
                     **(HIGHLIGHT if node is highlight else {})}
            sketch.used.update([key, "off"] if node.index in self.off else [key])
            if node is highlight:
                sketch.used.add("highlight")
            if key == "op":
                sketch.nodes.append((f"{prefix}n{node.index}", node.name, attrs))
                self._edges(sketch, node, len(drawn), looks, placed, node is highlight, prefix)
            else:
                label = _label(node, adjoints.get(node.id), self.tangents.get(node.id), node.id in pending)
                looks[node.id] = (label, attrs)
                sketch.nodes.append((f"{prefix}n{node.index}", label, attrs))
        left = len(self.reading.nodes) - len(drawn)
        if left:
            sketch.nodes.append((f"{prefix}more", f"… {left:,} more values and ops not drawn "
                                 f"(max_nodes={self.max_nodes})", {"shape": "note"}))
            sketch.edges.append((f"{prefix}n{drawn[-1].index}", f"{prefix}more", None,
                                 {"style": "dashed", "arrowhead": "none"}))
        if self.partials:
            sketch.used.add("partials")
        return sketch

    def _edges(self, sketch, op, n_drawn, looks, placed, flowing, prefix):
        """Edges into ``op`` (labelled with local partial derivatives if asked) and out to its result.

        A constant gets a node of its own for each use after the first: one
        node shared by every op (``y = y * 0.9`` in a loop reuses one cached
        constant) would tie the whole picture together and make dot's layout
        take minutes.
        """
        values = self.reading.values
        partials = local_partials(op, values) if self.partials else None
        for k, i in enumerate(op.inputs):  # inputs come before their op: always drawn
            label = None if partials is None or partials[k] is None else format_number(partials[k])
            tail, constant = f"{prefix}n{values[i].index}", values[i].kind == "constant"
            if constant and i in placed:  # a later use: a copy of the constant's box, named after input k
                tail = f"{prefix}n{op.index}_in{k}"
                sketch.nodes.append((tail, *looks[i]))
            if constant:
                placed.add(i)
            # an edge from a constant pulls less than the others (weight 1, not 2), so an op lines up with its
            # other input: `y = y * 0.9` repeated is a straight line, not a slope leaning on the constants
            light = {"weight": "1"} if constant else {}
            sketch.edges.append((tail, f"{prefix}n{op.index}", label, {**light, **(FLOW if flowing else {})}))
        if values[op.output].index < n_drawn:
            sketch.edges.append((f"{prefix}n{op.index}", f"{prefix}n{values[op.output].index}", None, {}))

    def describe(self, adjoints=None, pending=(), highlight=None):
        """The picture in words, for readers who do not see it: the inputs, the ops in recording order with
        the values they computed, the targets, what is off the path, and the adjoints, tangents and local
        derivatives the picture shows (``adjoints``, ``pending`` and ``highlight`` as for :meth:`sketch`).
        """
        adjoints, values = adjoints or {}, self.reading.values
        drawn = self.reading.nodes[:self.max_nodes]
        told = drawn[:MAX_TOLD]

        def words(value, expression=None, kind=None):  # "v1 = multiply(x, x) = 9, adjoint 1"
            return _value_words(value, expression, kind, adjoints.get(value.id), self.tangents.get(value.id),
                                value.id in pending)

        inputs = [words(v, kind=STYLES[v.kind][0]) for v in told if not isinstance(v, Op) and v.kind in
                  ("variable", "watched")]
        constants = [words(v) for v in told if not isinstance(v, Op) and v.kind == "constant"]
        ops = []
        for op in (node for node in told if isinstance(node, Op)):
            out = values[op.output]
            expression = f"{op.name}({', '.join(values[i].name for i in op.inputs)})"
            phrase = words(out, expression) if out.index < len(drawn) else f"{out.name} = {expression}"
            partials = local_partials(op, values) if self.partials else None
            if partials is not None and any(p is not None for p in partials):
                phrase += " (local derivatives: " + ", ".join(
                    f"{format_number(p)} for {values[i].name}" for p, i in zip(partials, op.inputs)
                    if p is not None) + ")"
            ops.append(phrase + (", the operation of this step" if op is highlight else ""))
        sentences = [f"Inputs: {'; '.join(inputs)}" if inputs else "",
                     f"Constants: {'; '.join(constants)}" if constants else "",
                     f"Operations in recording order: {'; '.join(ops)}" if ops else "No operations recorded"]
        targets = [v.name for v in values.values() if v.id in self.targets]
        if targets:
            sentences.append(f"Target{'s' if len(targets) > 1 else ''}: {', '.join(targets)}")
        off = [node.name for node in told if not isinstance(node, Op) and node.index in self.off]
        if off:
            sentences.append(f"Dotted and grey, since they {self.off_text.replace('does', 'do')}: {', '.join(off)}")
        if len(drawn) > len(told):
            sentences.append(f"Described up to the first {len(told)} of the {len(drawn)} values and operations "
                             f"drawn")
        if len(self.reading.nodes) > len(drawn):
            sentences.append(f"{len(self.reading.nodes) - len(drawn):,} more values and operations are not drawn")
        return "".join(f"{sentence}. " for sentence in sentences if sentence).rstrip()

    def legend(self, used):
        """The legend's entries, ``(text, attrs)``, for the node styles in ``used``."""
        entries = [(text, attrs) for key, (text, attrs) in STYLES.items() if key in used]
        if "off" in used:
            entries.append((self.off_text, {**STYLES["result"][1], **_off_path_looks(STYLES["result"][1])}))
        if "highlight" in used:
            entries.append(("this step's operation", {**STYLES["op"][1], **HIGHLIGHT}))
        if "partials" in used:
            entries.append(("edge numbers: ∂ output / ∂ input", {"shape": "plaintext"}))
        return entries


def _off_path_looks(attrs):
    """What a node off the path looks like: grey, unfilled, and outlined with dots (not by colour alone)."""
    corners = ["rounded"] if "rounded" in attrs.get("style", "") else []
    return {**GREY, "style": ",".join(corners + ["dotted"])}


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _value_words(value, expression, kind, adjoint, tangent, pending):
    """A value in words: ``x = 3 (Variable), tangent 1, adjoint 6``, with the op ``expression`` that computed it
    and its ``kind`` if given."""
    known = "value not kept" if value.tensor is None else _tensor_words(value.tensor)
    phrase = " = ".join(part for part in (value.name, expression) if part)
    phrase += (f", {known}" if value.tensor is None else f" = {known}") + (f" ({kind})" if kind else "")
    if tangent is not None:
        phrase += f", tangent {_tensor_words(tangent)}"
    if adjoint is not None or pending:
        phrase += ", adjoint not yet known" if adjoint is None else f", adjoint {_tensor_words(adjoint)}"
    return phrase


def _tensor_words(tensor):
    """A small tensor's numbers, else what it is: ``[1, 2.5]``, ``a (3, 3) float32 array``."""
    return format_value(tensor) or f"a {shape_text(tensor)} array"


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
    _check_tape(tape, "draw")
    if grads and targets is None:
        raise ValueError("draw(grads=True) needs targets=...: an adjoint is d target / d value, so say which "
                         "target")
    scene = _Scene(tape, targets, sources, accumulator, partials, max_nodes, names)
    adjoints = tape.adjoints(targets) if grads else {}
    sketch = scene.sketch(adjoints)
    heading = _heading(legend=scene.legend(sketch.used) if legend else ())
    picture = _picture(rankdir or sketch.direction(), graph_attr, heading)
    sketch.draw_into(picture)
    picture.summary = scene.summary()
    picture.description = f"Graph of a tape with {scene.counts()}. {scene.describe(adjoints)}"
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
    return _bundle(picture, f"<GradientTape: {picture.summary}>", include, exclude)


# -- the backward pass, step by step ---------------------------------------------------------------------
class BackwardSteps(collections.abc.Sequence):
    """The pictures of a backward pass: ``steps[0]`` before it starts, ``steps[k]`` after its k-th op.

    Each picture highlights the op just processed and shows the adjoints
    computed so far; the others read ``adjoint ?``.
    """

    def __init__(self, scene, frames, final, legend, rankdir, graph_attr):
        self._scene, self._frames, self._final = scene, frames, final
        self._legend, self._graph_attr = legend, graph_attr
        # every picture is laid out the same way (the one with all adjoints known is the widest), so that the
        # picture does not jump from one direction to the other as a slider moves
        self._rankdir = rankdir or self.sketch(len(self) - 1).direction()

    def __len__(self):
        return len(self._frames)

    def __getitem__(self, k):
        k = range(len(self))[k]  # a negative k counts from the end; out of range raises IndexError
        sketch = self.sketch(k)
        picture = _picture(self._rankdir, self._graph_attr, _heading(self.title(k), self._legend_for(sketch.used)))
        sketch.draw_into(picture)
        picture.summary = f"backward pass, step {k} of {len(self) - 1}"
        op = self._frames[k][0]
        picture.description = (f"Backward pass, {self.title(k)}. Adjoints set: {self.change(k)}. Graph of the "
                               f"tape: {self._scene.describe(self._adjoints(k), self._final, op)}")
        return picture

    def title(self, k):
        """What picture ``k`` shows, in words."""
        op, _ = self._frames[k]
        if op is None:
            return "start: the adjoint of the target is 1"
        out = self._scene.reading.values[op.output].name
        return f"step {k} of {len(self) - 1}: {op.name} passes the adjoint of {out} to its inputs"

    def change(self, k, since=None):
        """The adjoints step ``k`` (or the steps after ``since`` up to ``k``) set, in words: ``x = 6, w = 3``."""
        changed = {}
        for _, adjoints in self._frames[k if since is None else since + 1:k + 1]:
            changed.update(adjoints)
        values = self._scene.reading.values
        return ", ".join(f"{values[i].name} = {_tensor_words(adjoint)}" for i, adjoint in changed.items())

    def sketch(self, k, prefix=""):
        """The nodes and edges of picture ``k`` (a :class:`Sketch`)."""
        op = self._frames[k][0]
        return self._scene.sketch(self._adjoints(k), pending=self._final, highlight=op, prefix=prefix)

    def _adjoints(self, k):
        adjoints = {}
        for _, changed in self._frames[:k + 1]:  # replay the changes up to step k
            adjoints.update(changed)
        return adjoints

    def _legend_for(self, used):
        return self._scene.legend(used) if self._legend else ()

    def __repr__(self):
        return f"<backward pass: {len(self) - 1} steps>"


def backward_steps(tape, target, sources=None, *, partials=False, legend=True, max_nodes=MAX_NODES, rankdir=None,
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
    _check_tape(tape, "backward_steps")
    scene = _Scene(tape, target, sources, partials=partials, max_nodes=max_nodes)
    if target.id not in scene.reading.values:
        raise ValueError("backward_steps: the target was not recorded by this tape; pass the tensor your "
                         "function returned inside the tape's `with` block")
    ops = {op.output: op for op in scene.reading.ops}
    frames = [(None, {target.id: Tensor(np.ones_like(target.array))})]  # the seed: d target / d target = 1
    final = frames[0][1]
    for record, final in sweep_steps(tape, target):  # keep what each step changed: the adjoints of the op's inputs
        frames.append((ops[record.output], {i: final[i] for i in record.inputs if i in final}))
    return BackwardSteps(scene, frames, final, legend, rankdir, graph_attr)


def strip(steps, every=1):
    """The pictures of ``steps`` stacked in one, to read without a kernel: every ``every``-th, and the last.

    The pictures are stacked top to bottom, each laid out left to right (a
    dot drawing has one direction: top-to-bottom pictures would sit side by
    side, far too wide); a strip wider than a notebook is scaled down.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x) * x
    >>> strip(backward_steps(tape, y))
    <minitape picture: backward pass, 3 of 3 pictures>
    """
    chosen = sorted(set(range(0, len(steps), every)) | {len(steps) - 1})
    sketches = {k: steps.sketch(k, prefix=f"s{k}_") for k in chosen}
    used = set().union(*(sketch.used for sketch in sketches.values()))
    picture = _picture("LR", steps._graph_attr, _heading(legend=steps._legend_for(used)))
    for k in reversed(chosen):  # dot stacks the later ones higher up
        with picture.subgraph(name=f"cluster_step{k}") as frame:
            frame.attr(label=steps.title(k), labeljust="l", **FRAME)
            sketches[k].draw_into(frame)
    picture.summary = f"backward pass, {len(chosen)} of {len(steps)} pictures"
    told = [f"{steps.title(k)}; adjoints set: {steps.change(k, since=previous)}"
            for previous, k in zip([None, *chosen], chosen)]
    picture.description = (f"Backward pass in {len(chosen)} pictures of the same graph, from top to bottom. "
                           f"The graph: {steps._scene.describe()} Pictures: {'. '.join(told)}.")
    return picture


class _StableWidget:
    """Shows ``widget`` in a live notebook; a stored notebook also keeps a picture and a stable text.

    How front ends show the stored output: JupyterLab renders the widget
    view only in a trusted notebook (its renderer is registered as unsafe),
    from the widget state that nbconvert stored, marked "disconnected" until
    the cell runs again; that marker is JupyterLab's and no output can
    remove it. Untrusted notebooks (a fresh clone, a student's copy), GitHub,
    nbviewer and static books have no live widget: they pick the best other
    type in the bundle. So the bundle carries ``fallback``, the slider's
    first picture as HTML and PNG, and they show a picture instead of the
    bare text (or a broken widget). The course stores its lessons without
    the widget view (``scripts/drop_widget_views.py``), so a trusted
    JupyterLab shows that picture too until the cell runs. nbval compares
    the texts: the widget's and the picture's description.
    """

    def __init__(self, widget, text, fallback):
        self.widget, self.text, self.fallback = widget, text, fallback

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        data, metadata = _bundle(self.fallback, self.text, include, exclude)
        return {**data, **(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {}),
                "text/plain": self.text}, metadata

    def __repr__(self):
        return self.text


def step_through(steps):
    """A slider over the pictures of ``steps``; it needs a live kernel with ipywidgets.

    In a notebook, ``step_through(backward_steps(tape, y))``; show
    ``strip(...)`` of the same steps too, for readers without a kernel.
    The picture (an image with its description as alt text) lives in an
    HTML widget whose value the slider replaces, so nothing is displayed
    outside the widget (a stored notebook holds only the widget, its first
    picture and its text).
    """
    import ipywidgets  # the course's dependency, not the library's

    def image(k):  # the picture with its description, as a notebook shows any picture
        return _bundle(steps[k], "", include=["text/html"])[0]["text/html"]

    slider = ipywidgets.IntSlider(value=0, min=0, max=len(steps) - 1, description="step")
    picture = ipywidgets.HTML(value=image(0))
    slider.observe(lambda change: setattr(picture, "value", image(change["new"])), names="value")
    text = f"<slider over the {len(steps)} pictures of the backward pass>"
    return _StableWidget(ipywidgets.VBox([slider, picture]), text, steps[0])
