"""Each op names its namespaces once, where it is declared (minitape/ops/exports.py); namespaces are made from it."""

import numpy as np

import minitape as mt
from minitape.ops import elementwise, exports


def test_each_tensorflow_namespace_holds_exactly_the_ops_that_name_it():
    for namespace, module in (("tf", mt), ("tf.math", mt.math), ("tf.nn", mt.nn), ("tf.linalg", mt.linalg)):
        declared = exports.names(namespace)
        assert declared, namespace
        assert sorted(name for name, op in declared.items() if getattr(module, name, None) is not op) == [], namespace
    assert set(exports.names("tf.math")) == set(mt.math.__all__)
    assert set(exports.names("tf.linalg")) == set(mt.linalg.__all__)
    assert set(mt.nn.__all__) == {*exports.names("tf.nn"), "dropout"}  # dropout draws from mt.random: nn.py's own


def test_tensorflow_puts_some_ops_in_one_namespace_only_and_others_under_two_names():
    assert "relu" not in exports.names("tf.math") and not hasattr(mt.math, "relu")  # tf.nn.relu, no tf.math.relu
    assert "erf" not in exports.names("tf") and not hasattr(mt, "erf") and mt.math.erf is mt.ops.erf  # tf.math.erf only
    assert not hasattr(mt, "inv") and mt.linalg.inv is mt.ops.inv
    assert mt.math.truediv is mt.divide and mt.math.mod is mt.floormod
    assert mt.nn.silu is mt.nn.swish


def test_an_elementwise_declaration_is_all_it_takes_to_appear_in_its_namespaces(monkeypatch):
    monkeypatch.setattr(exports, "_TABLE", {space: exports.names(space) for space in exports.namespaces()})
    monkeypatch.setattr(elementwise, "DECLARED", dict(elementwise.DECLARED))
    cube = elementwise.unary("cube", lambda x: x ** 3, lambda s, y, x: s * (3.0 * x * x), "x ** 3.",
                             names=("tf.math", "torch", "jnp:power3"))
    assert exports.names("tf.math")["cube"] is cube and exports.names("torch")["cube"] is cube
    assert exports.names("jnp")["power3"] is cube and "cube" not in exports.names("jnp")
    assert "cube" not in exports.names("tf")
    x = mt.Variable(2.0)
    with mt.GradientTape() as tape:
        y = cube(x)
    assert float(y) == 8.0 and float(tape.gradient(y, x)) == 12.0


def test_the_pytorch_and_jax_names_are_those_of_ops_declared_here():
    for namespace in ("torch", "jnp"):
        declared = exports.names(namespace)
        assert {"sin", "exp", "add", "multiply", "maximum"} <= set(declared), namespace
        assert all(callable(op) and op.__name__ in vars(mt.ops) for op in declared.values()), namespace
    assert exports.names("jnp")["arcsin"] is mt.asin and exports.names("torch")["neg"] is mt.negative
    np.testing.assert_allclose(exports.names("jnp")["power"](2.0, 3.0).numpy(), 8.0)
