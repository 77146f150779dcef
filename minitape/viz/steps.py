"""The backward pass step by step: one picture per op it processes, and all of them in one strip.

:func:`backward_steps` replays :func:`~minitape.engine.sweep` op by op
(:func:`~minitape.viz.reading.sweep_steps`) and keeps what each step changed;
:func:`strip` stacks the pictures for a reader without a kernel (the course's
``classroom.widgets.step_through`` puts them under a slider).
"""

import collections.abc

import numpy as np

from ..tensor import Tensor
from .picture import FRAME, heading_label, new_picture
from .reading import sweep_steps
from .scene import MAX_NODES, Scene, check_tape
from .words import describe, tensor_words


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
        heading = heading_label(self.title(k), self._legend_for(sketch.used))
        picture = new_picture(self._rankdir, self._graph_attr, heading)
        sketch.draw_into(picture)
        picture.summary = f"backward pass, step {k} of {len(self) - 1}"
        op = self._frames[k][0]
        picture.description = (f"Backward pass, {self.title(k)}. Adjoints set: {self.change(k)}. Graph of the "
                               f"tape: {describe(self._scene, self._adjoints(k), self._final, op)}")
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
        return ", ".join(f"{values[i].name} = {tensor_words(adjoint)}" for i, adjoint in changed.items())

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

    Show them with ``classroom.widgets.step_through`` (a slider, in a live notebook) or
    :func:`strip` (one static picture). Options are those of :func:`~minitape.viz.draw`.

    >>> import minitape as mt
    >>> x = mt.Variable(2.0, name="x")
    >>> with mt.GradientTape() as tape:
    ...     y = mt.sin(x * x)
    >>> steps = backward_steps(tape, y)
    >>> steps, steps.title(1)
    (<backward pass: 2 steps>, 'step 1 of 2: sin passes the adjoint of v2 to its inputs')
    """
    check_tape(tape, "backward_steps")
    scene = Scene(tape, target, sources, partials=partials, max_nodes=max_nodes)
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
    picture = new_picture("LR", steps._graph_attr, heading_label(legend=steps._legend_for(used)))
    for k in reversed(chosen):  # dot stacks the later ones higher up
        with picture.subgraph(name=f"cluster_step{k}") as frame:
            frame.attr(label=steps.title(k), labeljust="l", **FRAME)
            sketches[k].draw_into(frame)
    picture.summary = f"backward pass, {len(chosen)} of {len(steps)} pictures"
    told = [f"{steps.title(k)}; adjoints set: {steps.change(k, since=previous)}"
            for previous, k in zip([None, *chosen], chosen)]
    picture.description = (f"Backward pass in {len(chosen)} pictures of the same graph, from top to bottom. "
                           f"The graph: {describe(steps._scene)} Pictures: {'. '.join(told)}.")
    return picture
