"""minitape.jax's transformations against finite differences in float64, and JAX's rules on small cases.

What JAX itself gives is checked in test_jax_fixtures.py; here every derivative is checked against central
differences of the function's own values (in float64: ``jax_enable_x64`` is switched on for these tests).
"""

import numpy as np
import pytest

import minitape as mt
import minitape.jax as jax
import minitape.jax.numpy as jnp


@pytest.fixture
def x64():
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", False)


def numeric_jacobian(f, x, eps=1e-6):
    """d f / d x by central differences: shape f(x).shape + x.shape."""
    x = np.asarray(x, dtype=np.float64)
    columns = []
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = eps
        e = e.reshape(x.shape)
        columns.append((np.asarray(f(jnp.array(x + e))) - np.asarray(f(jnp.array(x - e)))) / (2 * eps))
    out_shape = np.shape(f(jnp.array(x)))
    return np.stack(columns, axis=-1).reshape(out_shape + x.shape)


FUNCTIONS = {
    "tanh_sum": lambda x: jnp.sum(jnp.tanh(x) ** 2),
    "softplus_dot": lambda x: jnp.dot(jnp.log(1.0 + jnp.exp(x)), jnp.arange(3.0) + 1.0),
    "norm_and_max": lambda x: jnp.linalg.norm(x) + jnp.max(x * jnp.sin(x)),
    "det_of_outer": lambda x: jnp.linalg.det(jnp.outer(x, x) + jnp.eye(3)),
    "solve": lambda x: jnp.sum(jnp.linalg.solve(jnp.eye(3) * 3.0 + jnp.outer(x, x), x)),
    "at_set": lambda x: jnp.sum(x.at[1].set(x[0] * x[2]) ** 2),
    "mean_keepdims": lambda x: jnp.sum(jnp.mean(jnp.stack([x, x ** 2]), axis=0, keepdims=True) * x),
}
X = np.array([0.3, -0.7, 1.1])


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_grad_jacrev_jacfwd_and_hessian_match_finite_differences(name, x64):
    f = FUNCTIONS[name]
    x = jnp.array(X)
    assert jax.grad(f)(x).dtype == jnp.float64
    np.testing.assert_allclose(jax.grad(f)(x), numeric_jacobian(f, X), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(jax.jacfwd(f)(x), numeric_jacobian(f, X), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(jax.hessian(f)(x), numeric_jacobian(jax.grad(f), X), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(jax.jacrev(jax.jacfwd(f))(x), jax.hessian(f)(x), rtol=1e-10, atol=1e-12)


def test_vector_valued_jacobians_and_vjp_jvp_agree_with_finite_differences(x64):
    f = lambda x: jnp.sin(x) * jnp.cumsum(x)  # noqa: E731
    x = jnp.array(X)
    expected = numeric_jacobian(f, X)
    np.testing.assert_allclose(jax.jacrev(f)(x), expected, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(jax.jacfwd(f)(x), expected, rtol=1e-6, atol=1e-8)
    v = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(jax.vjp(f, x)[1](jnp.array(v))[0], v @ expected, rtol=1e-6)
    np.testing.assert_allclose(jax.jvp(f, (x,), (jnp.array(v),))[1], expected @ v, rtol=1e-6)
    np.testing.assert_allclose(jax.linearize(f, x)[1](jnp.array(v)), expected @ v, rtol=1e-6)


def test_custom_rules_are_the_derivative_and_nothing_else(x64):
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    f.defjvp(lambda primals, tangents: (f(primals[0]), 5.0 * primals[0] * tangents[0]))  # not sin's derivative
    assert float(jax.grad(f)(2.0)) == 10.0 and float(jax.jvp(f, (2.0,), (1.0,))[1]) == 10.0
    assert float(jax.grad(jax.grad(f))(2.0)) == 5.0  # reverse mode transposes the rule, which is 5 x t

    @jax.custom_vjp
    def g(x, y):
        return x * y

    g.defvjp(lambda x, y: (x * y, (x, y)), lambda res, ct: (ct * res[1], ct * res[0] * 2.0))
    assert [float(d) for d in jax.grad(g, (0, 1))(3.0, 4.0)] == [4.0, 6.0]


def test_arrays_are_minitape_tensors_that_tapes_follow():
    x = jnp.array([1.0, 2.0])
    assert isinstance(x, mt.Tensor) and isinstance(x, jax.Array) and x.shape == (2,)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = jnp.sum(x * x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])


def test_x64_flag_and_promotion():
    assert jnp.array(1.0).dtype == jnp.float32 and jnp.array(np.float64(1.0)).dtype == jnp.float32
    assert (jnp.arange(3) * 2.5).dtype == jnp.float32 and (jnp.arange(3) * 2).dtype == jnp.int32
    assert (jnp.ones(2, dtype=jnp.float16) + jnp.arange(2)).dtype == jnp.float16  # JAX's lattice, not NumPy's
    jax.config.update("jax_enable_x64", True)
    try:
        assert jnp.array(1.0).dtype == jnp.float64 and jnp.arange(2).dtype == jnp.int64
    finally:
        jax.config.update("jax_enable_x64", False)
    with pytest.raises(AttributeError, match="Unrecognized config option"):
        jax.config.update("jax_enable_x65", True)


def test_updates_out_of_bounds_and_modes():
    x = jnp.arange(4.0)
    assert x.at[-1].set(9.0).tolist() == [0.0, 1.0, 2.0, 9.0]
    assert x.at[jnp.array([1, 7])].set(9.0).tolist() == [0.0, 9.0, 2.0, 3.0]  # 7 dropped
    assert x.at[7].set(9.0, mode="clip").tolist() == [0.0, 1.0, 2.0, 9.0]
    assert x.at[jnp.array([0, 9])].get(mode="fill", fill_value=-1.0).tolist() == [0.0, -1.0]
    assert x.at[2].apply(lambda v: v * 10).tolist() == [0.0, 1.0, 20.0, 3.0]
    with pytest.raises(ValueError, match="Unknown mode"):
        x.at[0].get(mode="wrap")
    m = jnp.zeros((2, 3))
    assert m.at[:, 1].add(1.0).tolist() == [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    assert jax.grad(lambda v: jnp.sum(x.at[1:3].multiply(v)))(2.0) == 3.0  # d/dv (1 v + 2 v)


def test_grad_has_the_arguments_structure_with_none_leaves_kept():
    params = {"w": jnp.ones(2), "layers": [(1.0, None)]}
    g = jax.grad(lambda p: jnp.sum(p["w"]) * p["layers"][0][0])(params)
    assert jax.tree_util.tree_structure(g) == jax.tree_util.tree_structure(params)
    assert g["layers"][0][1] is None and g["w"].tolist() == [1.0, 1.0]


def test_vmap_errors_and_out_axes():
    with pytest.raises(ValueError, match="inconsistent sizes"):
        jax.vmap(lambda a, b: a + b)(jnp.ones(2), jnp.ones(3))
    with pytest.raises(ValueError, match="at least one non-None"):
        jax.vmap(lambda a: a, in_axes=None)(jnp.ones(2))
    out = jax.vmap(lambda a: (a, a.sum()), out_axes=(1, 0))(jnp.ones((4, 3)))
    assert out[0].shape == (3, 4) and out[1].shape == (4,)


def test_tree_transpose_and_registration_twice_is_refused():
    outer, inner = jax.tree_util.tree_structure([0, 0, 0]), jax.tree_util.tree_structure({"a": 0, "b": 0})
    flipped = jax.tree_util.tree_transpose(outer, inner, [{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5, "b": 6}])
    assert flipped == {"a": [1, 3, 5], "b": [2, 4, 6]}
    with pytest.raises(ValueError, match="Duplicate"):
        jax.tree_util.register_pytree_node(tuple, lambda t: (t, None), lambda a, c: tuple(c))


def test_jit_runs_eagerly_and_random_is_deterministic():
    calls = []

    @jax.jit
    def f(x):
        calls.append(1)
        return x * 2

    f(1.0), f(1.0)
    assert len(calls) == 2  # no tracing, no cache: the Python runs each time
    key = jax.random.PRNGKey(42)
    assert np.array_equal(jax.random.normal(key, (3,)), jax.random.normal(key, (3,)))
    a, b = jax.random.split(key)
    assert not np.array_equal(jax.random.uniform(a, (3,)), jax.random.uniform(b, (3,)))
