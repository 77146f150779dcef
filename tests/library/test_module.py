"""mt.Module and mt.name_scope: what TensorFlow's recordings (fixtures/tf_programs_module.py) do not show.

The order of the Variables, names and scopes are compared with TensorFlow
there; here: a training step through a module's Variables, each Variable
found once however often it is held, scopes restored after an error and kept
apart between threads, and the errors that say what to fix.
"""

import threading

import numpy as np
import pytest

import minitape as mt


class Affine(mt.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = mt.Variable([[1.0], [2.0]], name="w")
        self.b = mt.Variable([0.5], name="b")

    def __call__(self, x):
        return x @ self.w + self.b


def test_a_gradient_step_updates_the_modules_variables():
    model = Affine()
    x, y = mt.constant([[1.0, 1.0]]), mt.constant([[0.0]])
    with mt.GradientTape() as tape:
        loss = mt.reduce_sum((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)  # (b, w): residual 3.5, so 2 * 3.5 = 7
    for g, v in zip(grads, model.trainable_variables):
        v.assign_sub(0.1 * g)
    np.testing.assert_allclose(model.b.numpy(), [-0.2])
    np.testing.assert_allclose(model.w.numpy(), [[0.3], [1.3]])


def test_a_variable_held_twice_is_found_once():
    model = Affine()
    model.again = {"w": model.w, "pair": (model.b, model.w)}
    assert [v.name for v in model.variables] == ["b:0", "w:0"]


def test_a_module_held_in_a_dict_is_a_submodule_and_gives_its_variables():
    outer = mt.Module(name="outer")
    outer.parts = {"second": Affine(name="second"), "first": Affine(name="first")}
    assert [m.name for m in outer.submodules] == ["first", "second"]  # sorted keys, as mt.nest flattens a dict
    assert len(outer.trainable_variables) == 4


def test_without_super_init_the_name_says_what_to_add():
    class Bare(mt.Module):
        def __init__(self):
            self.w = mt.Variable(1.0)

    with pytest.raises(AttributeError, match=r"super\(\).__init__\(\)"):
        _ = Bare().name


def test_an_invalid_name_says_what_a_name_is():
    with pytest.raises(ValueError, match="Python identifier"):
        mt.Module(name="2nd layer")


def test_with_name_scope_leaves_the_scope_when_the_method_raises():
    class Failing(mt.Module):
        @mt.Module.with_name_scope
        def __call__(self):
            raise RuntimeError("inside")

    with pytest.raises(RuntimeError):
        Failing()()
    assert mt.Variable(1.0, name="after").name == "after:0"


def test_a_scope_entered_twice_nests_and_unwinds():
    scope = mt.name_scope("s")
    with scope as first:
        with scope as second:
            inner = mt.Variable(1.0, name="v").name
        middle = mt.Variable(1.0, name="v").name
    assert (first, second, inner, middle) == ("s/", "s/s/", "s/s/v:0", "s/v:0")


def test_each_thread_has_its_own_scope():
    names = {}

    def make(key):
        names[key] = mt.Variable(1.0, name="v").name

    with mt.name_scope("main"):
        worker = threading.Thread(target=make, args=("thread",))
        worker.start()
        worker.join()
        make("main")
    assert names == {"thread": "v:0", "main": "main/v:0"}
