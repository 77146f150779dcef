"""A picture in the house style: a Graphviz graph with a text alternative, its legend and its layout.

:class:`Picture` is what every function of the wing returns; :class:`Sketch`
is what it draws (nodes and edges) before Graphviz lays it out, and chooses
the direction that fits a notebook's width. Colours, shapes and sizes are
here, in one place, so that every picture of the course looks the same.
"""

import collections
import contextlib
import html

import graphviz

from .display import described_svg, mimebundle

FONT = "Helvetica"
LEGEND_FONT_SIZE = 10
# A notebook's output area is about 760 px wide at a 1400 px window with JupyterLab's file browser open.
# Graphviz's `size` scales a wider drawing down to this many inches; a browser shows an SVG's 72 points per
# inch as 96 px per inch, so 7.5 inches are 720 px. Height is not limited: a tall picture scrolls, while a
# wide one hides its end off to the side.
WIDTH_INCHES, HEIGHT_INCHES = 7.5, 1000

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
        return mimebundle(self, repr(self), include, exclude)

    @property
    def text_alternative(self):
        """What a screen reader says instead of showing the picture: its description, else its summary."""
        return self.description or self.summary

    def svg(self):
        """The picture as SVG, named by its text alternative for screen readers (Graphviz would title it "%3")."""
        return described_svg(self.pipe(format="svg", encoding="utf-8"), self.summary, self.text_alternative)

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


def new_picture(rankdir, graph_attr, heading=None):
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


def heading_label(title=None, legend=()):
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
