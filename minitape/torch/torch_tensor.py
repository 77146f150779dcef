"""``torch.Tensor``: a minitape value with PyTorch's autograd fields on it.

A tensor holds its value in a :class:`Storage` (a minitape tensor and a version counter, shared
by ``t.data`` and ``t.detach()``, which are the same numbers without the graph), and the fields
PyTorch's autograd reads: ``requires_grad``, ``grad_fn`` (the :class:`~minitape.torch.graph.Node`
of the op that made it, ``None`` for a leaf) and ``grad``. Every op goes through :func:`run`,
which records a node only when grad mode is on and an input requires grad. The functions and
methods (``sum``, ``exp``, ``x * y``, ...) are attached in :mod:`minitape.torch.functions`.

>>> import minitape.torch as torch
>>> x = torch.tensor([1.0, 2.0], requires_grad=True)
>>> x * 2
tensor([2., 4.], grad_fn=<MulBackward0>)
>>> x.is_leaf, (x * 2).is_leaf
(True, False)
"""

import re
import warnings

import numpy as np

from .. import ops
from ..tensor import Tensor as Value
from . import scalar_types, formatting, grad_mode
from .devices import CPU
from .graph import AccumulateGrad, Collector, Node, SavedVersion


class Storage:
    """The value of a tensor (a minitape tensor, replaced by an in-place op) and how often it was changed."""

    __slots__ = ("value", "version")

    def __init__(self, value):
        self.value = value
        self.version = 0


class Size(tuple):
    """A shape, printed as PyTorch prints it: ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        return int(np.prod(self, dtype=np.int64))


NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


class Tensor:
    """A PyTorch tensor. Make one with ``torch.tensor(...)`` or another factory function.

    ``torch.Tensor(data)`` itself, the legacy constructor, makes a float32 tensor of ``data``
    (a list or a number); given a minitape value, it wraps that value.
    """

    __array_priority__ = 100  # np_array * tensor goes to Tensor.__rmul__

    def __init__(self, value, requires_grad=False, grad_fn=None, storage=None):
        if storage is None and not isinstance(value, Value):
            value = Value(np.asarray(value, dtype=scalar_types.get_default_dtype().numpy))
        self._storage = storage if storage is not None else Storage(value)
        self._requires_grad = requires_grad or grad_fn is not None
        self.grad_fn = grad_fn
        self._grad = None
        self._retains_grad = False
        self._accumulator = None
        self._is_view = False

    @classmethod
    def wrap(cls, value):
        """A tensor of the minitape tensor ``value``, outside any graph."""
        return cls(value)

    # -- the value -----------------------------------------------------------------
    @property
    def value(self):
        """The minitape tensor that holds the numbers now."""
        return self._storage.value

    @property
    def _version(self):
        return self._storage.version

    @property
    def dtype(self):
        return scalar_types.of(self.value.array.dtype)

    @property
    def shape(self):
        return Size(np.shape(self.value.array))

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return np.ndim(self.value.array)

    ndim = property(dim)

    def numel(self):
        return int(np.size(self.value.array))

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    @property
    def device(self):
        return CPU

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def item(self):
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self.value.array.reshape(()).item()

    def tolist(self):
        return np.asarray(self.value.array).tolist()

    def numpy(self):
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return np.array(self.value.array, copy=True) if np.ndim(self.value.array) else np.asarray(self.value.array)

    def __array__(self, dtype=None, copy=None):
        return np.array(self.numpy(), dtype=dtype)

    def __repr__(self):
        return formatting.tensor_repr(self)

    def __format__(self, spec):
        return format(self.item(), spec) if self.dim() == 0 and spec else repr(self)

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self):
        return id(self)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(len(self)))

    # -- autograd's fields -----------------------------------------------------------------
    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        if not self.is_leaf:
            if requires_grad:
                return self
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach().")
        if requires_grad and not (self.dtype.is_floating_point):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if not self.is_leaf and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad = value

    @property
    def retains_grad(self):
        return self._retains_grad

    def retain_grad(self):
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.is_leaf or self._retains_grad:
            return
        self._retains_grad = True
        self.grad_fn.tensor_hooks.append(_Retainer(self))

    def edge(self):
        """The node a gradient for this tensor goes to: its grad_fn, its AccumulateGrad, or None."""
        if self.grad_fn is not None:
            return self.grad_fn
        if not self._requires_grad:
            return None
        if self._accumulator is None:
            self._accumulator = AccumulateGrad(self)
        return self._accumulator

    def register_hook(self, hook):
        """Run ``hook(grad)`` on this tensor's gradient when it is computed; a tensor it returns replaces it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        hooks = self.edge().tensor_hooks
        hooks.insert(len(hooks) - (1 if self._retains_grad else 0), hook)  # the retained .grad is taken last
        return _Handle(hooks, hook)

    @property
    def data(self):
        """The same numbers outside the graph (in-place changes to it change this tensor)."""
        return Tensor(None, storage=self._storage)

    @data.setter
    def data(self, other):
        self._storage.value = other.value

    def detach(self):
        return Tensor(None, storage=self._storage)

    def detach_(self):
        self.grad_fn = None
        self._requires_grad = False
        return self

    # -- in-place changes ----------------------------------------------------------------
    def _assign(self, name, compute, others=()):
        """Replace this tensor's value by ``compute(value, *other values)``, as PyTorch's in-place ops do."""
        if self._is_view:
            raise NotImplementedError("minitape.torch: a view (a slice, view, reshape, ...) is a copy, not a window "
                                      "on its base, so an in-place change of it would not reach the base; "
                                      "compute the new value out of place, or change the base itself")
        recording = grad_mode.is_grad_enabled() and (self._requires_grad or any(o.requires_grad for o in others))
        if recording and self.is_leaf and self._requires_grad:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        target = self.value.array.dtype

        def in_place(*values):
            out = compute(*values)
            if out.array.dtype == target:
                return out
            if not np.can_cast(out.array.dtype, target, "same_kind"):
                raise RuntimeError(f"result type {scalar_types.of(out.array.dtype).name.capitalize()} can't be cast to "
                                   f"the desired output type {scalar_types.of(target).name.capitalize()}")
            return ops.cast(out, target)
        result = run(name, in_place, [self, *others])
        node = result.grad_fn
        # minitape's values never change, so the records hold the old value itself: only a later change of the
        # new value (one that the node's rules read) has to be caught.
        output_saved = node is not None and any(s.counter is result._storage for s in node.saved)
        if node is not None:
            node.saved = [s for s in node.saved if s.counter not in (self._storage, result._storage)]
        self._storage.value = result.value
        self._storage.version += 1
        if node is not None:
            self.grad_fn = node
            self._requires_grad = True
            if output_saved:
                text = f"{type_name(self)}, which is output 0 of {short_name(name)},"
                node.saved.append(SavedVersion(self._storage, lambda: text))
        return self


class _Retainer:
    """The hook ``retain_grad`` adds: it keeps the gradient as the tensor's ``.grad``."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __call__(self, grad):
        t = self.tensor
        t._grad = grad if t._grad is None else Tensor.wrap(t._grad.value + grad.value)


class _Handle:
    def __init__(self, hooks, hook):
        self.hooks, self.hook = hooks, hook

    def remove(self):
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)


SCALAR_TYPES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}  # PyTorch's names in messages
# The nodes whose PyTorch rules read no value (only shapes): changing their inputs in place is allowed.
SAVES_NO_VALUES = {"Add", "Sub", "Rsub", "Neg", "Sum", "Mean", "View", "Transpose", "T", "Permute", "Unsqueeze",
                   "Squeeze", "Expand", "Clone", "Cat", "Stack", "Select", "Slice", "Alias", "ToCopy", "Index",
                   "torch::autograd::CopySlices"}


def type_name(t):
    """PyTorch's name of a tensor's type in messages, e.g. ``torch.FloatTensor [3]``."""
    return f"[torch.{SCALAR_TYPES[t.dtype.name]}Tensor [{', '.join(map(str, t.shape))}]]"


def short_name(node_name):
    """A node's name as PyTorch's in-place error names it: ``MulBackward0`` is ``Mul``."""
    return re.sub(r"Backward\d*$", "", node_name)


def _described(t):
    """A saved input as the in-place error describes it, with the op that made its value now."""
    return type_name(t) + (f", which is output 0 of {short_name(t.grad_fn.name())}," if t.grad_fn else "")


def run(name, compute, inputs, view=False, keeps_all=False):
    """Run ``compute`` (minitape ops) on the values of the tensors ``inputs``; the result is a tensor.

    When grad mode is on and an input requires grad, the result gets a node named ``name`` that
    keeps the records of the ops ``compute`` ran, and the versions of the values they saved.
    ``keeps_all`` says that every value the records keep is saved (else :func:`_read_back` decides).
    ``compute`` may return a tuple: the first element is the differentiable result, the others
    (indices) are returned beside it outside the graph.
    """
    values = [t.value for t in inputs]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # PyTorch gives inf and nan silently
        if not (grad_mode.is_grad_enabled() and any(t._requires_grad for t in inputs)):
            return _wrap(compute(*values), None, view)
        with Collector([v.id for t, v in zip(inputs, values) if t._requires_grad]) as collector:
            out = compute(*values)
    first = out[0] if isinstance(out, tuple) else out
    records = collector.records
    if not records:
        return _wrap(out, None, view)
    saved_ids = set()
    for r in records:
        saved_ids.update(x.id for x in r.saved_inputs or ())
        if r.saved_output is not None:
            saved_ids.add(r.output)
    node = Node(name, records, [(v.id, t.edge()) for t, v in zip(inputs, values)], first.id)
    if short_name(name) in SAVES_NO_VALUES:
        saved_ids = set()
    node.saved = [SavedVersion(t._storage, lambda t=t: _described(t)) for k, (t, v) in enumerate(zip(inputs, values))
                  if v.id in saved_ids and (keeps_all or _read_back(inputs, k))]
    result = _wrap(out, node, view)
    first_tensor = result[0] if isinstance(result, tuple) else result
    if first.id in saved_ids:
        text = f"{type_name(first_tensor)}, which is output 0 of {short_name(name)},"
        node.saved.append(SavedVersion(first_tensor._storage, lambda: text))
    return result


def _read_back(inputs, k):
    """Whether PyTorch's node keeps input ``k``: as a rule, when another input needs a gradient (``x * w`` keeps
    ``x`` for ``w``'s gradient only if ``w`` requires grad), or always for a single input (``exp``)."""
    return len(inputs) == 1 or any(t._requires_grad for j, t in enumerate(inputs) if j != k or
                                   t is inputs[k])


def _wrap(out, node, view):
    if isinstance(out, tuple):
        return (_wrap(out[0], node, view),) + tuple(Tensor(o) for o in out[1:])
    t = Tensor(out, grad_fn=node if out.array.dtype.kind == "f" else None)
    t._is_view = view
    return t
