"""Answers of lesson 13, your tape on arrays.

The reference array tape and its layer library are written out below, as a learner writes them in the lesson:
its parts are this module's names, so that a check finds them as it finds a learner's in the notebook.
The lesson's later cells run on it while the learner's is unfinished, in the full edition only (classroom.tapes).
"""
import numpy as np

from classroom.lessons.lesson_13 import DENSE_CASES, LOSS_CASES, MATMUL_CASES, MLP_CASES, MUL_CASES, REDUCE_CASES, \
    dense_probe, mlp_probe, op_probe
from classroom.spec import choice, function


class Value:
    """An array that a Tape can record operations on."""

    def __init__(self, data):
        self.data = np.asarray(data, dtype=np.float64)

    def __repr__(self):
        return f"Value(shape={self.data.shape})"

    def __add__(self, other): return add(self, other)
    def __radd__(self, other): return add(other, self)
    def __sub__(self, other): return add(self, neg(other))
    def __rsub__(self, other): return add(other, neg(self))
    def __mul__(self, other): return mul(self, other)
    def __rmul__(self, other): return mul(other, self)
    def __neg__(self): return neg(self)
    def __matmul__(self, other): return matmul(self, other)
    def __rmatmul__(self, other): return matmul(other, self)


def as_value(x):
    return x if isinstance(x, Value) else Value(x)


class Tape:
    active = None

    def __enter__(self):
        self.records = []
        Tape.active = self
        return self

    def __exit__(self, *exc):
        Tape.active = None

    def gradient(self, target, sources):
        return reverse_sweep(self.records, target, sources)


def record(data, parents):
    out = Value(data)
    if Tape.active is not None:
        Tape.active.records.append((out, parents))
    return out


def reverse_sweep(records, target, sources):
    adjoint = {target: np.ones_like(target.data)}
    for out, parents in reversed(records):
        g = adjoint.get(out)
        if g is None:
            continue
        for inp, vjp in parents:
            adjoint[inp] = adjoint.get(inp, 0.0) + vjp(g)
    return [adjoint.get(s, np.zeros_like(s.data)) for s in sources]


def unbroadcast(g, shape):
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    stretched = tuple(k for k, n in enumerate(shape) if n == 1)
    return g.sum(axis=stretched, keepdims=True).reshape(shape)


def add(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data + b.data, [(a, lambda g: unbroadcast(g, a.data.shape)),
                                    (b, lambda g: unbroadcast(g, b.data.shape))])


def neg(a):
    a = as_value(a)
    return record(-a.data, [(a, lambda g: -g)])


def mul(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data * b.data, [(a, lambda g: unbroadcast(g * b.data, a.data.shape)),
                                    (b, lambda g: unbroadcast(g * a.data, b.data.shape))])


def matmul(a, b):
    a, b = as_value(a), as_value(b)
    return record(a.data @ b.data, [(a, lambda g: g @ b.data.T),
                                    (b, lambda g: unbroadcast(np.swapaxes(a.data, -1, -2) @ g, b.data.shape))])


def tanh(a):
    a = as_value(a)
    t = np.tanh(a.data)
    return record(t, [(a, lambda g: g * (1.0 - t * t))])


def spread(g, axis, shape):
    return np.broadcast_to(g if axis is None else np.expand_dims(g, axis), shape)


def reduce_sum(a, axis=None):
    a = as_value(a)
    return record(a.data.sum(axis=axis), [(a, lambda g: spread(g, axis, a.data.shape))])


def reduce_mean(a, axis=None, count=None):
    a = as_value(a)
    count = count or a.data.size // np.size(a.data.sum(axis=axis))
    return record(a.data.mean(axis=axis), [(a, lambda g: spread(g / count, axis, a.data.shape))])


def sigmoid_cross_entropy(logits, labels):
    z, y = as_value(logits), np.asarray(labels, dtype=np.float64)
    loss = np.maximum(z.data, 0.0) - z.data * y + np.log1p(np.exp(-np.abs(z.data)))
    sigmoid = np.exp(-np.logaddexp(0.0, -z.data))
    return record(loss, [(z, lambda g: g * (sigmoid - y))])


class Dense:
    def __init__(self, n_in, n_out, rng, activation=None):
        self.weights = Value(rng.normal(0.0, 1.0 / np.sqrt(n_in), size=(n_in, n_out)))
        self.bias = Value(np.zeros(n_out))
        self.activation = activation

    def __call__(self, x):
        y = matmul(x, self.weights) + self.bias
        return y if self.activation is None else self.activation(y)

    @property
    def trainable_variables(self):
        return [self.weights, self.bias]


class MLP:
    def __init__(self, n_in, n_hidden, rng):
        self.hidden = Dense(n_in, n_hidden, rng, activation=tanh)
        self.output = Dense(n_hidden, 1, rng)

    def __call__(self, x):
        return self.output(self.hidden(x))

    @property
    def trainable_variables(self):
        return self.hidden.trainable_variables + self.output.trainable_variables




# -- typical slips, recognised by what they observe ---------------------------------------------------------------
def reduce_mean_as_sum(a, axis=None):
    return reduce_mean(a, axis, count=1)


def reduce_mean_over_everything(a, axis=None):
    return reduce_mean(a, axis, count=a.data.size)



class DenseWithoutActivation(Dense):
    def __call__(self, x):
        return matmul(x, self.weights) + self.bias


class MLPWithTanhOutput(MLP):
    def __init__(self, n_in, n_hidden, rng):
        self.hidden = Dense(n_in, n_hidden, rng, activation=tanh)
        self.output = Dense(n_hidden, 1, rng, activation=tanh)


_OP_HINT = ("Follow add and neg: convert the inputs with as_value, then return record(result, parents), with "
            "one (input, lambda g: ...) pair per input.")


def op(name, reference, cases, hints, mistakes=()):
    return function(name, reference=reference, cases=cases, probe=op_probe, rtol=1e-10, hints=hints,
                    mistakes=mistakes)


EXERCISES = {
    "13.1a": choice("shape_b", expected=(4, 3), mistakes=[
        ((3,), "that is the shape a gradient of b must have; follow what naive_mul's VJP for b computes: g, of the "
               "product's shape, times a's array")], hints=[
        "The VJP naive_mul records for b multiplies g by a's array. What shape has g, the adjoint of the product?",
        "Nothing in naive_mul sums anything: the result keeps the shape of g."]),
    "13.1b": op("mul", mul, MUL_CASES, hints=[
        _OP_HINT + " The VJPs of naive_mul have the right numbers and the wrong shapes.",
        "A product that broadcast b copied b along the axes it added or stretched; its gradient must be summed "
        "over those axes, as add does for its inputs."]),
    "13.2": op("matmul", matmul, MATMUL_CASES, hints=[
        _OP_HINT + " Lesson 12 (exercise 12.1) derived both VJPs for two matrices; match the shapes to place the "
        "transposes.",
        "On a stack, the gradient of each matrix of a is its own product, as for one matrix; b is used by every "
        "matrix of the stack, so its gradient adds one product per matrix: the stack's axis is summed away, as "
        "broadcasting's is. A stack is transposed by swapping its last two axes only."]),
    "13.3a": op("reduce_sum", reduce_sum, REDUCE_CASES, hints=[
        "g has the result's shape, without the reduced axis. Each entry of a added to exactly one entry of the "
        "result, so it gets that entry of g.",
        "Put the reduced axis back into g with size 1, then let broadcasting copy g along it to a's shape (NumPy "
        "has a function for each of these two steps)."]),
    "13.3b": op("reduce_mean", reduce_mean, REDUCE_CASES, mistakes=[
        (reduce_mean_as_sum, "its gradient is off by a constant factor: each entry counts 1/n times in a mean of n "
                             "entries"),
        (reduce_mean_over_everything, "it divides by the number of all entries; a mean over one axis averages only "
                                      "the entries along that axis")], hints=[
        "Like the sum, with each entry counted 1/n times, n the number of entries that each mean averages.",
        "Over one axis, n is the length of that axis; over everything, the size of a."]),
    "13.4": op("sigmoid_cross_entropy", sigmoid_cross_entropy, LOSS_CASES, hints=[
        "The forward is max(z, 0) - z y + log(1 + exp(-|z|)) entry by entry, which never exponentiates a large "
        "positive number. The only parent is the logits. For the VJP, differentiate it where z > 0 and where z < 0.",
        "Both pieces simplify to the same expression: the sigmoid of z minus the label. A sigmoid that never "
        "overflows can be written with np.logaddexp."]),
    "13.5a": function("Dense", reference=Dense, cases=DENSE_CASES, probe=dense_probe, rtol=1e-9, answer="class",
                      needs={"13.2": "matmul"}, mistakes=[
        (DenseWithoutActivation, "it ignores activation=tanh: apply the activation to x W + b when one is given")],
        hints=[
        "In __init__ make two Values: the weights (n_in, n_out) drawn with rng.normal and scaled by 1/√n_in, "
        "and the bias of n_out zeros; keep the activation too.",
        "__call__ computes x W + b with your tape's ops (matmul, then +) and applies the activation if there is "
        "one; trainable_variables lists the two Values."]),
    "13.5b": function("MLP", reference=MLP, cases=MLP_CASES, probe=mlp_probe, rtol=1e-9, answer="class",
                      needs={"13.5a": "Dense"}, mistakes=[
        (MLPWithTanhOutput, "its output layer applies tanh too: the output should be a logit, with no activation")],
        hints=[
        "An MLP holds two Dense layers: n_in -> n_hidden with activation=tanh, then n_hidden -> 1 without one.",
        "__call__ feeds x through the hidden layer, then the output layer; trainable_variables joins the two "
        "layers' lists."]),
}
