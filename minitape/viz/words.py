"""A picture in words, for readers who do not see it: what :attr:`Picture.description` says.

:func:`describe` tells a :class:`~minitape.viz.scene.Scene`: the inputs, the
ops in recording order with the values they computed, the targets, what is
off the path, and the adjoints, tangents and local derivatives the picture shows.
"""

from .picture import STYLES
from .reading import Op, format_number, format_value, local_partials, shape_text

MAX_TOLD = 60  # values and ops a description puts into words; a longer one is not listened to anyway


def counts(scene):
    """The summary in words: ``2 values and 1 operation``."""
    return f"{_count(len(scene.reading.values), 'value')} and {_count(len(scene.reading.ops), 'operation')}"


def describe(scene, adjoints=None, pending=(), highlight=None):
    """``scene`` in words, for readers who do not see it: the inputs, the ops in recording order with
    the values they computed, the targets, what is off the path, and the adjoints, tangents and local
    derivatives the picture shows (``adjoints``, ``pending`` and ``highlight`` as for :meth:`Scene.sketch`).
    """
    adjoints, values = adjoints or {}, scene.reading.values
    drawn = scene.reading.nodes[:scene.max_nodes]
    told = drawn[:MAX_TOLD]

    def words(value, expression=None, kind=None):  # "v1 = multiply(x, x) = 9, adjoint 1"
        return _value_words(value, expression, kind, adjoints.get(value.id), scene.tangents.get(value.id),
                            value.id in pending)

    inputs = [words(v, kind=STYLES[v.kind][0]) for v in told if not isinstance(v, Op) and v.kind in
              ("variable", "watched")]
    constants = [words(v) for v in told if not isinstance(v, Op) and v.kind == "constant"]
    ops = []
    for op in (node for node in told if isinstance(node, Op)):
        out = values[op.output]
        expression = f"{op.name}({', '.join(values[i].name for i in op.inputs)})"
        phrase = words(out, expression) if out.index < len(drawn) else f"{out.name} = {expression}"
        partials = local_partials(op, values) if scene.partials else None
        if partials is not None and any(p is not None for p in partials):
            phrase += " (local derivatives: " + ", ".join(
                f"{format_number(p)} for {values[i].name}" for p, i in zip(partials, op.inputs)
                if p is not None) + ")"
        ops.append(phrase + (", the operation of this step" if op is highlight else ""))
    sentences = [f"Inputs: {'; '.join(inputs)}" if inputs else "",
                 f"Constants: {'; '.join(constants)}" if constants else "",
                 f"Operations in recording order: {'; '.join(ops)}" if ops else "No operations recorded"]
    targets = [v.name for v in values.values() if v.id in scene.targets]
    if targets:
        sentences.append(f"Target{'s' if len(targets) > 1 else ''}: {', '.join(targets)}")
    off = [node.name for node in told if not isinstance(node, Op) and node.index in scene.off]
    if off:
        sentences.append(f"Dotted and grey, since they {scene.off_text.replace('does', 'do')}: {', '.join(off)}")
    if len(drawn) > len(told):
        sentences.append(f"Described up to the first {len(told)} of the {len(drawn)} values and operations "
                         f"drawn")
    if len(scene.reading.nodes) > len(drawn):
        sentences.append(f"{len(scene.reading.nodes) - len(drawn):,} more values and operations are not drawn")
    return "".join(f"{sentence}. " for sentence in sentences if sentence).rstrip()


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _value_words(value, expression, kind, adjoint, tangent, pending):
    """A value in words: ``x = 3 (Variable), tangent 1, adjoint 6``, with the op ``expression`` that computed it
    and its ``kind`` if given."""
    known = "value not kept" if value.tensor is None else tensor_words(value.tensor)
    phrase = " = ".join(part for part in (value.name, expression) if part)
    phrase += (f", {known}" if value.tensor is None else f" = {known}") + (f" ({kind})" if kind else "")
    if tangent is not None:
        phrase += f", tangent {tensor_words(tangent)}"
    if adjoint is not None or pending:
        phrase += ", adjoint not yet known" if adjoint is None else f", adjoint {tensor_words(adjoint)}"
    return phrase


def tensor_words(tensor):
    """A small tensor's numbers, else what it is: ``[1, 2.5]``, ``a (3, 3) float32 array``."""
    return format_value(tensor) or f"a {shape_text(tensor)} array"
