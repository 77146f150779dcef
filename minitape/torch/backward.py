"""``backward`` and ``torch.autograd.grad``: the nodes a result reaches, swept by minitape's engine.

Both list the nodes behind the outputs in the order their ops ran, put each node's records (and a
record for the hooks of its tensor, :func:`~minitape.torch.graph.hook_record`) in one list, and
hand it to :func:`minitape.engine.sweep`, the loop every ``GradientTape`` gradient runs. What
comes out at a leaf's id is added to its ``.grad`` (``backward``) or returned (``grad``). With
``create_graph``, the ops of the sweep itself are recorded, and each gradient gets a node that
holds the forward records and those: its ``backward`` is a second derivative.

>>> import minitape.torch as torch
>>> x = torch.tensor(3.0, requires_grad=True)
>>> (dx,) = torch.autograd.grad(x ** 3, x, create_graph=True)
>>> dx, torch.autograd.grad(dx, x)
(tensor(27., grad_fn=<MulBackward0>), (tensor(18.),))
"""

import warnings

import numpy as np

from .. import engine
from ..tensor import Tensor as Value
from .pointwise import node_name
from .graph import AccumulateGrad, Collector, Node, reachable
from .hooks import hook_record, run_hooks
from .torch_tensor import Tensor

SECOND_TIME = ("Trying to backward through the graph a second time (or directly access saved tensors after they "
               "have already been freed). Saved intermediate values of the graph are freed when you call "
               ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
               "graph a second time or if you need to access saved tensors after calling backward.")

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak.")


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _seed(output, gradient, position):
    if not output.requires_grad:
        raise RuntimeError(f"element {position} of tensors does not require grad and does not have a grad_fn")
    if gradient is None:
        if output.numel() != 1:
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
        return Value(np.ones(np.shape(output.value.array), output.value.array.dtype))
    if not isinstance(gradient, Tensor):
        gradient = Tensor(Value(np.asarray(gradient, output.value.array.dtype)))
    if gradient.shape != output.shape:
        raise RuntimeError(f"Mismatch in shape: grad_output[{position}] has a shape of {gradient.shape!r} and "
                           f"output[{position}] has a shape of {output.shape!r}.")
    return gradient.value


def _sweep(outputs, gradients, retain_graph, create_graph, retain=()):
    """Sweep the graph behind ``outputs``; returns (adjoints by id, {leaf id: AccumulateGrad}, grad node maker)."""
    seeds = {}
    for position, (output, gradient) in enumerate(zip(outputs, gradients)):
        seed = _seed(output, gradient, position)
        key = output.value.id
        seeds[key] = seed if key not in seeds else Value(seeds[key].array + seed.array)
    nodes = reachable([o.grad_fn for o in outputs])
    records, needed, leaves = [], set(), {}
    for node in nodes:
        if node.freed:
            raise RuntimeError(SECOND_TIME)
        for saved in node.saved:
            saved.check()
        records.extend(node.records)
        if node.tensor_hooks:
            records.append(hook_record(node))
        needed.update(r.output for r in node.records)
        for i, edge in node.edges:
            if edge is not None:
                needed.add(i)
                if isinstance(edge, AccumulateGrad):
                    leaves[i] = edge
    for output in outputs:
        if output.is_leaf:
            leaves[output.value.id] = output.edge()
    needed.update(leaves)
    # a gradient given with requires_grad (the double-VJP trick) is an input of the gradients' graph too
    seed_edges = [(g.value.id, g.edge()) for g in gradients if isinstance(g, Tensor) and g.requires_grad]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # PyTorch gives inf and nan silently
        if create_graph:
            with Collector(needed | {i for i, _ in seed_edges}) as collector:
                adjoints = engine.sweep(records, seeds, needed, retain)
        else:
            adjoints = engine.sweep(records, seeds, needed, retain)
    if not retain_graph:
        for node in nodes:
            node.freed = bool(node.saved)

    def gradient_tensor(g, name=None):
        """The tensor of the adjoint ``g``: with ``create_graph``, in a graph of its own back to the leaves."""
        if not create_graph:
            return Tensor(g)
        made = [r for r in collector.records if r.output == g.id]
        if not made:
            return Tensor(g)
        edges = [(i, edge) for i, edge in leaves.items() if edge.variable.requires_grad] + seed_edges
        name = name or node_name(made[-1].op.name)
        return Tensor(g, grad_fn=Node(name, records + collector.records, edges, g.id))
    return adjoints, leaves, gradient_tensor


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Add d(tensors)/d(leaf) to every leaf's ``.grad`` (``grad_tensors``: the vectors of the VJPs)."""
    outputs = _as_list(tensors)
    gradients = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(outputs)
    retain_graph = create_graph if retain_graph is None else retain_graph
    if create_graph:
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    adjoints, leaves, gradient_tensor = _sweep(outputs, gradients, retain_graph, create_graph)
    only = None if inputs is None else {id(t) for t in _as_list(inputs)}
    totals = {}
    for i, accumulator in leaves.items():
        g = adjoints.get(i)
        if g is not None and (only is None or id(accumulator.variable) in only):
            previous = totals.get(id(accumulator))
            totals[id(accumulator)] = (accumulator, g if previous is None else previous[1] + g)
    for accumulator, g in totals.values():
        g = run_hooks(g, accumulator.tensor_hooks)
        leaf = accumulator.variable
        new = gradient_tensor(g, "torch::autograd::CopyBackwards")
        if leaf._grad is None:
            leaf._grad = new if create_graph else Tensor(Value(np.array(g.array, copy=True)))
        elif create_graph:
            leaf._grad = leaf._grad + new
        else:
            leaf._grad._storage.value = Value(leaf._grad.value.array + g.array)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None,
         materialize_grads=False):
    """d(outputs)/d(inputs), a tuple with one tensor per input (``None`` for an unused one, if allowed)."""
    outputs, inputs = _as_list(outputs), _as_list(inputs)
    gradients = _as_list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    retain_graph = create_graph if retain_graph is None else retain_graph
    ids = [t.value.id for t in inputs]
    adjoints, _, gradient_tensor = _sweep(outputs, gradients, retain_graph, create_graph, retain=set(ids))
    results = []
    for position, (t, i) in enumerate(zip(inputs, ids)):
        g = adjoints.get(i)
        if g is None:
            if not (allow_unused or materialize_grads):
                raise RuntimeError(f"The differentiated Tensor at index {position} appears to not have been used in "
                                   "the graph. Set allow_unused=True if this is the desired behavior.")
            results.append(Tensor(Value(np.zeros_like(t.value.array))) if materialize_grads else None)
        else:
            results.append(gradient_tensor(g))
    return tuple(results)
