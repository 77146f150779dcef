"""A tape read for drawing: which values and ops a picture shows, how each looks, and which are off the path.

:class:`Scene` reads the tape once (:func:`~minitape.viz.reading.read_tape`)
and turns it into a :class:`~minitape.viz.picture.Sketch` for any set of
adjoints, so that the pictures of a backward pass differ only in what they show.
"""

from .. import nest
from ..tensor import Tensor
from .picture import FLOW, GREY, HIGHLIGHT, STYLES, Sketch
from .reading import Op, format_number, format_value, local_partials, read_tape, shape_text, short_text

MAX_NODES = 150  # beyond this a picture is unreadable anyway, and dot's layout time grows fast


def _ids(tensors):
    return None if tensors is None else {t.id for t in nest.flatten(tensors)}


def check_tape(tape, caller):
    """Raise a TypeError that says what to pass if ``tape``, given to ``viz.<caller>()``, is not a tape."""
    if not (hasattr(type(tape), "records") and hasattr(type(tape), "watched")):  # what a picture reads of a tape
        raise TypeError(f"viz.{caller}() pictures a GradientTape, got {type(tape).__name__} {tape!r:.40}: record "
                        f"with `with mt.GradientTape() as tape: ...`, then pass the tape, e.g. viz.{caller}(tape)")


class Scene:
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
