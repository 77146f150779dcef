"""The graph on the tensors: each result keeps the record of the op that made it (its ``grad_fn``).

This is micrograd's design (lesson 11), with minitape's engine inside each node. A torch op runs
minitape ops under a :class:`Collector`, a recorder that keeps the engine's
:class:`~minitape.engine.Record` of every primitive that touched a value requiring grad; the
records go into a :class:`Node`, named as PyTorch names its backward functions
(``MulBackward0``), whose ``next_functions`` are the nodes of its inputs: another op's node, the
:class:`AccumulateGrad` of a leaf, or ``None`` for an input that needs no gradient.

:func:`minitape.torch.autograd.backward` lists the nodes it can reach, puts their records in the
order they ran (minitape's ids are handed out in creation order, so sorting the nodes by their
output's id is a topological order) and hands them to the same :func:`~minitape.engine.sweep`
that a ``GradientTape`` runs.

>>> import minitape.torch as torch
>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> y = (x * x).sum()
>>> y.grad_fn.name(), [r.op.name for r in y.grad_fn.records]
('SumBackward0', ['reduce_sum'])
>>> [(node.name(), k) for node, k in y.grad_fn.next_functions[0][0].next_functions]
[('torch::autograd::AccumulateGrad', 0), ('torch::autograd::AccumulateGrad', 0)]
"""

from ..engine import Record
from ..recording import Recorder


class Collector(Recorder):
    """Keeps the record of every op that reads a tracked value (an id in ``tracked``), like a tape."""

    def __init__(self, tracked):
        self.tracked = set(tracked)
        self.records = []

    def record(self, prim, inputs, out, attrs):
        tracked = self.tracked
        if out.array.dtype.kind != "f" or not any(x.id in tracked for x in inputs):
            return  # a constant as far as the gradient goes, or a value that carries none
        tracked.add(out.id)
        self.records.append(Record((prim, tuple([x.id for x in inputs]), out.id, out if prim.keeps_output else None,
                                    inputs if prim.keeps_inputs else None, attrs)))


class SavedVersion:
    """A value a node's rules read, and the version its tensor had then: a later in-place change is caught."""

    def __init__(self, counter, description):
        """``description()`` is the text that names the value in the error, made only if the error is raised."""
        self.counter = counter
        self.version = counter.version
        self.description = description

    def check(self):
        if self.counter.version != self.version:
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"{self.description()} is at version {self.counter.version}; expected version {self.version} instead. "
                "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")


class Node:
    """A ``grad_fn``: the records of one torch op, the ids and nodes of its inputs, the id of its output.

    ``edges`` has one ``(id, node)`` per tensor input, ``node`` being ``None`` for an input that
    needs no gradient. ``tensor_hooks`` are the hooks of the output tensor (``register_hook``),
    run on its gradient before the gradient goes on to the inputs (:mod:`~minitape.torch.hooks`).
    """

    def __init__(self, name, records, edges, output, saved=()):
        self._name = name
        self.records = records
        self.edges = edges
        self.output = output
        self.saved = list(saved)
        self.freed = False
        self.tensor_hooks = []

    def name(self):
        return self._name

    @property
    def next_functions(self):
        return tuple((node, 0) for _, node in self.edges)

    def register_hook(self, hook):
        raise NotImplementedError("minitape.torch: hooks on a grad_fn are not supported; register the hook on the "
                                  "tensor instead (tensor.register_hook)")

    def __repr__(self):
        return f"<{self._name.rpartition(':')[2]} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: the gradient that reaches it is added to ``variable.grad``."""

    def __init__(self, variable):
        super().__init__("torch::autograd::AccumulateGrad", [], [], None)
        self.variable = variable


def reachable(roots):
    """Every op node (not AccumulateGrad) reachable from ``roots``, in the order the ops ran."""
    seen, stack = {}, [n for n in roots if n is not None and not isinstance(n, AccumulateGrad)]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(n for _, n in node.edges if n is not None and not isinstance(n, AccumulateGrad))
    return sorted(seen.values(), key=lambda n: n.output)
