"""Answers of lesson 13, your tape on arrays.

The reference array tape and its layer library are written out below, as a learner writes them in the lesson:
its parts are this module's names, so that a check finds them as it finds a learner's in the notebook.
The lesson's later cells run on it while the learner's is unfinished, in the full edition only (classroom.tapes).
"""
import numpy as np

from classroom.lessons.lesson_13 import DENSE_CASES, LOSS_CASES, MATMUL_CASES, MLP_CASES, MUL_CASES, UNARY_CASES, \
    dense_probe, mlp_probe, op_probe
from classroom.spec import function


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
    return record(a.data @ b.data, [(a, lambda g: g @ b.data.T), (b, lambda g: a.data.T @ g)])


def tanh(a):
    a = as_value(a)
    t = np.tanh(a.data)
    return record(t, [(a, lambda g: g * (1.0 - t * t))])


def reduce_sum(a):
    a = as_value(a)
    return record(a.data.sum(), [(a, lambda g: np.full(a.data.shape, g))])


def reduce_mean(a):
    a = as_value(a)
    return record(a.data.mean(), [(a, lambda g: np.full(a.data.shape, g / a.data.size))])


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
def reduce_mean_as_sum(a):
    a = as_value(a)
    return record(a.data.mean(), [(a, lambda g: np.full(a.data.shape, g))])


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
    "13.1": op("mul", mul, MUL_CASES, hints=[
        _OP_HINT + " For a product, the gradient reaching a is g times b's array, and the other way round.",
        "Each product g * b.data has the broadcast shape: give it back a's shape with unbroadcast(..., "
        "a.data.shape), as add does, and likewise for b."]),
    "13.2": op("matmul", matmul, MATMUL_CASES, hints=[
        _OP_HINT + " Lesson 12 (exercise 12.1) derived both VJPs; match the shapes to place the transposes.",
        "The gradient for a, of shape (n, k), is g @ b.data.T; the gradient for b, of shape (k, m), is "
        "a.data.T @ g."]),
    "13.3a": op("tanh", tanh, UNARY_CASES, hints=[
        _OP_HINT + " The derivative of tanh is 1 - tanh², entry by entry.",
        "Compute t = np.tanh(a.data) once; the VJP multiplies g by (1 - t * t)."]),
    "13.3b": op("reduce_sum", reduce_sum, UNARY_CASES, hints=[
        "The result is one number (shape ()), and g too. Every entry of a adds to the sum once, so each gets "
        "all of g.",
        "The VJP copies g into an array of a's shape: np.full(a.data.shape, g)."]),
    "13.3c": op("reduce_mean", reduce_mean, UNARY_CASES, mistakes=[
        (reduce_mean_as_sum, "its gradient is off by a constant factor: each entry counts 1/n times in a mean")],
        hints=[
        "Like the sum, with each entry counted 1/n times, n the number of entries (a.data.size).",
        "The VJP is np.full(a.data.shape, g / a.data.size)."]),
    "13.4": op("sigmoid_cross_entropy", sigmoid_cross_entropy, LOSS_CASES, hints=[
        "The forward is max(z, 0) - z y + log(1 + exp(-|z|)) entry by entry (np.maximum, np.abs, np.log1p), "
        "which never exponentiates a large positive number. The only parent is the logits.",
        "The derivative with respect to z is sigmoid(z) - y, so the VJP is g * (sigmoid(z) - y); a stable "
        "sigmoid is np.exp(-np.logaddexp(0, -z))."]),
    "13.5a": function("Dense", reference=Dense, cases=DENSE_CASES, probe=dense_probe, rtol=1e-9, answer="class",
                      needs={"13.2": "matmul", "13.3a": "tanh"}, mistakes=[
        (DenseWithoutActivation, "it ignores activation=tanh: apply the activation to x W + b when one is given")],
        hints=[
        "In __init__ make two Values: the weights (n_in, n_out) drawn with rng.normal and scaled by 1/√n_in, "
        "and the bias of n_out zeros; keep the activation too.",
        "__call__ computes matmul(x, self.weights) + self.bias with your tape's ops and applies the activation "
        "if there is one; trainable_variables returns [self.weights, self.bias]."]),
    "13.5b": function("MLP", reference=MLP, cases=MLP_CASES, probe=mlp_probe, rtol=1e-9, answer="class",
                      needs={"13.5a": "Dense"}, mistakes=[
        (MLPWithTanhOutput, "its output layer applies tanh too: the output should be a logit, with no activation")],
        hints=[
        "An MLP holds two Dense layers: n_in -> n_hidden with activation=tanh, then n_hidden -> 1 without one.",
        "__call__ feeds x through the hidden layer, then the output layer; trainable_variables joins the two "
        "layers' lists (list + list)."]),
}
