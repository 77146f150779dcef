"""Lesson 13's checks on the learner's array tape: right answers pass, typical slips get a sentence that names them."""

import linecache
import pathlib
import textwrap

import nbformat
import numpy as np
import pytest

from classroom.checks import assess

LESSON = pathlib.Path(__file__).resolve().parents[2] / "notebooks" / "13_your_tape_on_arrays.ipynb"


def given_cells():
    """The source of the lesson's cells that define the tape and the worked rules (what a learner builds on)."""
    cells = nbformat.read(LESSON, as_version=4).cells
    return [cell.source for cell in cells if cell.cell_type == "code"
            and ("class Value" in cell.source or "def unbroadcast" in cell.source)]


@pytest.fixture
def notebook():
    """A namespace like the lesson's kernel after its given cells ran: the learner's answers are defined in it."""
    namespace = {"np": np, "__name__": "__main__"}
    for source in given_cells():
        exec(compile(source, "<lesson 13>", "exec"), namespace)
    return namespace


def define(namespace, *sources):
    """Run the learner's cells (each indented as written in this file) in the lesson's namespace, as a kernel
    does: their source is kept, so that a check can tell a stub from code."""
    for number, source in enumerate(sources):
        code = textwrap.dedent(source)
        name = f"<learner cell {number}: {hash(code)}>"
        linecache.cache[name] = (len(code), None, code.splitlines(True), name)
        exec(compile(code, name, "exec"), namespace)


def problem(exercise, answer):
    """What the student's check says of ``answer``: None when right, ... when unanswered, else a sentence."""
    status, what = assess(exercise, answer)
    return None if status == "correct" else ... if status == "unanswered" else what


RIGHT = {
    "13.1b": ("mul", """
        def mul(a, b):
            a, b = as_value(a), as_value(b)
            return record(a.data * b.data, [(a, lambda g: unbroadcast(g * b.data, a.data.shape)),
                                            (b, lambda g: unbroadcast(g * a.data, b.data.shape))])
        """),
    "13.2": ("matmul", """
        def matmul(a, b):
            a, b = as_value(a), as_value(b)
            return record(a.data @ b.data, [(a, lambda g: g @ b.data.T),
                                            (b, lambda g: (np.swapaxes(a.data, -1, -2) @ g).reshape(
                                                -1, *b.data.shape).sum(axis=0))])
        """),
    "13.3a": ("reduce_sum", """
        def reduce_sum(a, axis=None):
            a = as_value(a)
            def vjp(g):
                return g * np.ones_like(a.data) if axis is None else np.repeat(np.expand_dims(g, axis),
                                                                               a.data.shape[axis], axis)
            return record(a.data.sum(axis=axis), [(a, vjp)])
        """),
    "13.3b": ("reduce_mean", """
        def reduce_mean(a, axis=None):
            a = as_value(a)
            n = a.data.size if axis is None else a.data.shape[axis]
            shape = [1 if axis is None or k == axis else size for k, size in enumerate(a.data.shape)]
            return record(a.data.mean(axis=axis), [(a, lambda g: np.broadcast_to(np.reshape(g, shape) / n,
                                                                                 a.data.shape))])
        """),
    "13.4": ("sigmoid_cross_entropy", """
        def sigmoid_cross_entropy(logits, labels):
            z = as_value(logits)
            loss = np.maximum(z.data, 0.0) - z.data * labels + np.log1p(np.exp(-np.abs(z.data)))
            return record(loss, [(z, lambda g: g * (np.exp(-np.logaddexp(0.0, -z.data)) - labels))])
        """),
}

WRONG = [
    ("13.1b", "mul", """
        def mul(a, b):
            a, b = as_value(a), as_value(b)
            return record(a.data * b.data, [(a, lambda g: g * b.data), (b, lambda g: g * a.data)])
        """, "un-broadcast it"),
    ("13.2", "matmul", """
        def matmul(a, b):
            a, b = as_value(a), as_value(b)
            return record(a.data @ b.data, [(a, lambda g: g @ b.data), (b, lambda g: a.data.T @ g)])
        """, "check which array each product needs"),
    ("13.2", "matmul", """
        def matmul(a, b):
            a, b = as_value(a), as_value(b)
            return record(a.data @ b.data, [(a, lambda g: g @ b.data.T),
                                            (b, lambda g: np.swapaxes(a.data, -1, -2) @ g)])
        """, "(un-broadcast it)"),
    ("13.3a", "reduce_sum", """
        def reduce_sum(a, axis=None):
            a = as_value(a)
            return record(a.data.sum(axis=axis), [(a, lambda g: np.full(a.data.shape, g))])
        """, "check which array each product needs"),
    ("13.3a", "reduce_sum", """
        def reduce_sum(a, axis=None):
            a = as_value(a)
            return record(a.data.sum(axis=axis), [(a, 1.0)])
        """, "not a number"),
    ("13.3b", "reduce_mean", """
        def reduce_mean(a, axis=None):
            a = as_value(a)
            shape = a.data.shape
            return record(a.data.mean(axis=axis),
                          [(a, lambda g: np.broadcast_to(g if axis is None else np.expand_dims(g, axis), shape))])
        """, "constant factor"),
    ("13.3b", "reduce_mean", """
        def reduce_mean(a, axis=None):
            a = as_value(a)
            shape = a.data.shape
            return record(a.data.mean(axis=axis), [(a, lambda g: np.broadcast_to(
                (g if axis is None else np.expand_dims(g, axis)) / a.data.size, shape))])
        """, "number of all entries"),
    ("13.4", "sigmoid_cross_entropy", """
        def sigmoid_cross_entropy(logits, labels):
            z = as_value(logits)
            s = 1.0 / (1.0 + np.exp(-z.data))
            return record(-labels * np.log(s) - (1 - labels) * np.log(1 - s), [(z, lambda g: g * (s - labels))])
        """, "overflows"),
]


def test_the_prediction_of_13_1_is_judged_and_its_slip_named():
    assert problem("13.1a", (4, 3)) is None
    assert "follow what naive_mul's VJP for b computes" in problem("13.1a", (3,))


@pytest.mark.parametrize("exercise", RIGHT)
def test_a_right_rule_passes(notebook, exercise):
    name, source = RIGHT[exercise]
    define(notebook, source)
    assert problem(exercise, notebook[name]) is None


@pytest.mark.parametrize("exercise, name, source, says", WRONG, ids=[f"{w[0]}-{w[3]}" for w in WRONG])
def test_a_typical_slip_is_named(notebook, exercise, name, source, says):
    define(notebook, source)
    said = problem(exercise, notebook[name])
    assert isinstance(said, str) and says in said, said


DENSE = """
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
    """


def test_dense_waits_for_the_rules_it_builds_on(notebook):
    define(notebook, DENSE, "def matmul(a, b):\n    return ...\n")   # the stub
    assert problem("13.5a", notebook["Dense"]) == ("it builds on your matmul, which does not pass exercise 13.2 "
                                                   "yet: finish that first")


def test_dense_on_the_learners_rules_passes_and_one_computed_on_data_gets_no_gradient(notebook):
    define(notebook, RIGHT["13.2"][1], DENSE)
    assert problem("13.5a", notebook["Dense"]) is None
    define(notebook, DENSE.replace("matmul(x, self.weights) + self.bias",
                                   "Value(np.asarray(x.data) @ self.weights.data + self.bias.data)"))
    assert "gets no gradient" in problem("13.5a", notebook["Dense"])


def test_an_mlp_whose_output_has_an_activation_is_told_so(notebook):
    define(notebook, RIGHT["13.1b"][1], RIGHT["13.2"][1], DENSE, """
    class MLP:
        def __init__(self, n_in, n_hidden, rng):
            self.hidden = Dense(n_in, n_hidden, rng, activation=tanh)
            self.output = Dense(n_hidden, 1, rng, activation=tanh)

        def __call__(self, x):
            return self.output(self.hidden(x))

        @property
        def trainable_variables(self):
            return self.hidden.trainable_variables + self.output.trainable_variables
    """)
    assert "output layer applies tanh" in problem("13.5b", notebook["MLP"])
