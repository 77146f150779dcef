"""Exercises that ask for a method reject a right value computed by the wrong one, and say which method is asked for.

13.4 asks for a loss that never overflows, 12.5 for per-example gradients without a copy of the weights per
example, 10.2 for the REINFORCE estimate derived by hand. Each wrong method below gives the right numbers on the
check's test cases (asserted first, so that the rejection is the method's and not the value's); the check must
still reject it, in words that name the method, and pass the reference solution.
"""

import numpy as np
import pytest
from test_lesson13_checks import define, notebook, problem  # noqa: F401 (notebook is a fixture)

import minitape as mt
from classroom.answers import lesson_10, lesson_12, lesson_13
from classroom.lessons.lesson_10 import REINFORCE_CASES
from classroom.lessons.lesson_12 import PER_EXAMPLE_CASES
from classroom.lessons.lesson_13 import LOSS_CASES

NAIVE_SIGMOIDS = {
    "calling it": """
        def sigmoid_cross_entropy(logits, labels):
            z = as_value(logits)
            loss = np.maximum(z.data, 0.0) - z.data * labels + np.log1p(np.exp(-np.abs(z.data)))
            sigmoid = 1.0 / (1.0 + np.exp(-z.data))   # exp(800) overflows to inf; 1 / inf rounds to the right 0
            return record(loss, [(z, lambda g: g * (sigmoid - labels))])
        """,
    "its VJP": """
        def sigmoid_cross_entropy(logits, labels):
            z = as_value(logits)
            loss = np.maximum(z.data, 0.0) - z.data * labels + np.log1p(np.exp(-np.abs(z.data)))
            return record(loss, [(z, lambda g: g * (1.0 / (1.0 + np.exp(-z.data)) - labels))])
        """,
}


def test_13_4_a_naive_sigmoid_gives_the_right_numbers_with_an_overflow():
    (logits,), _ = LOSS_CASES[0]
    assert np.abs(logits).max() == 800.0
    with np.errstate(all="ignore"):
        naive = 1.0 / (1.0 + np.exp(-logits))
    stable = np.exp(-np.logaddexp(0.0, -logits))
    np.testing.assert_allclose(naive, stable, rtol=1e-12, atol=0)   # the value alone cannot tell the two apart
    with np.errstate(over="raise"), pytest.raises(FloatingPointError):
        1.0 / (1.0 + np.exp(-logits))


@pytest.mark.parametrize("where", NAIVE_SIGMOIDS)
def test_13_4_rejects_a_naive_sigmoid_and_names_the_stable_form(notebook, where):  # noqa: F811
    define(notebook, NAIVE_SIGMOIDS[where])
    said = problem("13.4", notebook["sigmoid_cross_entropy"])
    assert isinstance(said, str), said
    assert said.startswith(f"at logits of ±800 {where} meets overflow") and "logaddexp" in said, said


def test_13_4_passes_the_reference():
    assert problem("13.4", lesson_13.sigmoid_cross_entropy) is None


def per_example_gradients_by_copies(x, t, w):
    copies = mt.constant(np.tile(w, (len(t), 1)))   # (B, P): one copy of w per example, the forbidden method
    with mt.GradientTape() as tape:
        tape.watch(copies)
        total = mt.reduce_sum(mt.nn.softplus(-t * mt.reduce_sum(x * copies, axis=1)))
    return tape.gradient(total, copies).numpy()


def per_example_gradients_by_variable_copies(x, t, w):
    copies = mt.Variable(np.tile(w, (len(t), 1)))   # a Variable is watched when it is read
    with mt.GradientTape() as tape:
        total = mt.reduce_sum(mt.nn.softplus(-t * mt.reduce_sum(x * copies, axis=1)))
    return tape.gradient(total, copies).numpy()


@pytest.mark.parametrize("copies", [per_example_gradients_by_copies, per_example_gradients_by_variable_copies])
def test_12_5_rejects_a_copy_of_the_weights_per_example(copies):
    for x, t, w in PER_EXAMPLE_CASES:
        np.testing.assert_allclose(copies(x, t, w), lesson_12.per_example_gradients(x, t, w), rtol=1e-12)
    said = problem("12.5", copies)
    assert isinstance(said, str), said
    assert "copy of w per example" in said and "logits" in said, said


def test_12_5_passes_the_reference():
    assert problem("12.5", lesson_12.per_example_gradients) is None


def reinforce_estimate_by_tape(theta, actions, rewards):
    logits = mt.Variable(np.asarray(theta, dtype=np.float64))
    with mt.GradientTape() as tape:
        log_pi = mt.gather(mt.nn.log_softmax(logits), actions)
        estimate = mt.reduce_mean(mt.constant(np.asarray(rewards, dtype=np.float64)) * log_pi)
    return tape.gradient(estimate, logits).numpy()


def test_10_2_rejects_an_estimate_asked_of_the_tape():
    for theta, actions, rewards in REINFORCE_CASES:
        np.testing.assert_allclose(reinforce_estimate_by_tape(theta, actions, rewards),
                                   lesson_10.reinforce_estimate(theta, actions, rewards), rtol=1e-9, atol=1e-12)
    said = problem("10.2", reinforce_estimate_by_tape)
    assert isinstance(said, str), said
    assert "minitape ops" in said and "by hand" in said and "NumPy only" in said, said


def test_10_2_passes_the_reference():
    assert problem("10.2", lesson_10.reinforce_estimate) is None
