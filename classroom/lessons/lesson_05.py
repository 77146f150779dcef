"""Lesson 05's public test cases and probes, and each student's own numbers (reverse mode)."""
import math

import numpy as np

import minitape as mt
from classroom.probes import Raised, ReturnedNone, Slot, Wrong, call, parts
from classroom.variants import variant

NONZERO_HALVES = [v / 2 for v in range(-8, 9) if v]

VARIANTS = {
    # 5.1: the gradient of g(x1, x2, x3) = x1 x2 x3 + exp(x1) at point, by a backward sweep worked by hand
    "5.1": variant(point=(1.0, 2.0, 3.0),
                   draw=lambda rng: {"point": tuple(float(v) for v in rng.choice(NONZERO_HALVES, size=3))}),
    # 5.2: y = w1 sin(w1) with w1 = w0², backwards from x = w0 = point
    "5.2": variant(point=0.8,
                   draw=lambda rng: {"point": float(rng.choice([-1, 1]) * rng.integers(10, 600) / 200)}),
}


def layer(W, x):
    return mt.tanh(mt.reshape(mt.matmul(W, mt.reshape(x, (-1, 1))), (-1,)))


W_3X4 = mt.constant(np.random.default_rng(1).normal(size=(3, 4)), dtype=mt.float64)


def tanh_of_W_x(x):
    return layer(W_3X4, x)


def three_outputs(x):
    return mt.stack([x[0] * x[1], mt.sin(x[2]), mt.exp(x[0]) + x[3]])


POINTS = [np.array([0.5, -1.0, 2.0, 0.1]), np.array([1.5, 0.2, -0.7, 3.0])]
JACOBIAN_CASES = [(fn, point) for fn in (tanh_of_W_x, three_outputs) for point in POINTS]

# 5.4a: the slip that leaves a VJP with None: differentiating something the tape never recorded
NOT_RECORDED = ("vjp(u) got None from the tape: the tape has no record that leads from what you differentiated back "
                "to x. A y[i] or a product u·y computed after the tape's block has closed is not recorded (a tape "
                "records only inside its block, and u arrives later): differentiate y itself, recorded inside the "
                "block, and start its backward pass from the seed u")


def _as_array(thing):
    """A learner's result as a float NumPy array: a tensor, an array, or a list of either (rows)."""
    if isinstance(thing, (list, tuple)):
        return np.stack([_as_array(row) for row in thing])
    return np.asarray(thing.numpy() if hasattr(thing, "numpy") else thing, dtype=float)


def outputs_of(fn, x):
    """The number of outputs m of fn at x."""
    return fn(mt.constant(x, dtype=mt.float64)).shape[0]


def seeds(m):
    """5.4a: the seeds a VJP is tried on: each unit vector, and one that mixes every output."""
    return [*np.eye(m), np.linspace(-1.0, 2.0, m)]


def vjp_probe(vjp_of, fn, x):
    """5.4a: uᵀJ for each seed u, from the one function vjp_of(fn, x) returns, which may run fn once."""
    runs = []

    def counted(v):
        runs.append(v)
        return fn(v)

    vjp = call(vjp_of, counted, x.copy(), what="vjp_of(fn, x)")
    if not callable(vjp):
        raise Wrong(f"vjp_of returned a {type(vjp).__name__}; it should return a function vjp(u) of the seed u")
    rows = []
    for u in seeds(outputs_of(fn, x)):
        try:
            row = call(vjp, u.copy(), what=f"vjp(u) for u = {np.round(u, 2).tolist()}")
            if isinstance(row, (list, tuple)) and any(r is None for r in row):
                raise ReturnedNone
        except ReturnedNone:
            raise Wrong(NOT_RECORDED) from None
        except Raised as raised:
            if "None" in str(raised.error):
                raise Wrong(NOT_RECORDED) from None
            raise
        row = _as_array(row)
        if row.shape != x.shape:
            raise Wrong(f"vjp(u) returned shape {row.shape}; uᵀJ has one number per input, the shape of x, {x.shape}")
        rows.append(row)
    if len(runs) != 1:
        raise Wrong(f"fn ran {len(runs)} times for {len(rows)} seeds: record y = fn(x) once, in vjp_of, and let "
                    f"every call of vjp reuse that recording")
    return Slot(np.stack(rows), "for some seed u, vjp(u) is not uᵀJ: {}")


def sweeps_per_seed(vjp_of):
    """5.4a: vjp_of records fn(x) and computes nothing more; each vjp(u) then runs one backward pass."""
    x = POINTS[0]
    with mt.autodiff.OpCounter() as alone:
        tanh_of_W_x(mt.constant(x, dtype=mt.float64))
    with mt.autodiff.OpCounter() as recording:
        vjp = call(vjp_of, tanh_of_W_x, x.copy(), what="vjp_of(fn, x)")
    if recording.total > alone.total:
        return (f"vjp_of runs {recording.total} operations where fn alone runs {alone.total}: it computes more than "
                f"the recording (a whole Jacobian?). Leave the backward passes to vjp(u), one per seed")
    with mt.autodiff.OpCounter() as one:
        call(vjp, np.ones(outputs_of(tanh_of_W_x, x)), what="vjp(u)")
    if one.total == 0:
        return "vjp(u) runs no operation: each call should run one backward pass, seeded with u"
    return None


def rows_probe(jacobian_by_rows, fn, x):
    """5.4b: the matrix jacobian_by_rows builds from a VJP of fn at x and its number of outputs, and nothing else."""
    x = mt.constant(x, dtype=mt.float64)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = fn(x)
    m, n = y.shape[0], x.shape[0]

    def vjp(u):
        u = _as_array(u)
        if u.shape != (m,):
            raise ValueError(f"vjp takes a seed u of shape ({m},), one number per output; it was given shape "
                             f"{u.shape}")
        return tape.gradient(y, x, output_gradients=mt.constant(u, dtype=mt.float64)).numpy()

    J = _as_array(call(jacobian_by_rows, vjp, m, what=f"jacobian_by_rows(vjp, {m})"))
    if J.shape != (m, n):
        raise Wrong(f"it returned shape {J.shape} for {m} outputs and {n} inputs; the Jacobian is m × n, "
                    f"({m}, {n}): one row per output")
    return Slot(J, "the Jacobian is wrong: {}")


# 5.5: a VJP rule of the lesson's define-and-run graph, run on placeholders for the adjoint g and the input a
RULE_CASES = [(1.0, 0.5), (-2.0, 1.3), (0.7, -2.0)]
EVALUATE = {"add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
            "divide": lambda a, b: a / b, "negative": lambda a: -a, "log": math.log, "sin": math.sin,
            "cos": math.cos}


def evaluate(node, feed):
    """The value of a graph node (its ``op``, ``inputs``, a constant's ``value``) for the placeholders in feed."""
    if id(node) in feed:
        return feed[id(node)]
    if node.op == "constant":
        return node.value
    if node.op not in EVALUATE:
        raise Wrong(f"the rule builds a {node.op!r} node, an op the lesson's graph cannot run")
    return EVALUATE[node.op](*(evaluate(i, feed) for i in node.inputs))


def graph_rule(rule, g, a):
    """5.5: the adjoint that a VJP rule builds for its one input, run with the adjoint g at the input a."""
    (placeholder,) = parts(rule, "placeholder")
    g_node, a_node = placeholder(), placeholder()
    built = call(rule, g_node, a_node, what="the rule")
    if not isinstance(built, tuple) or len(built) != 1:
        what = f"a tuple of {len(built)}" if isinstance(built, tuple) else f"a {type(built).__name__}"
        raise Wrong(f"it returns {what}; a rule returns a tuple with one node per input of the op, here (node,)")
    node = built[0]
    if not (hasattr(node, "op") and hasattr(node, "inputs")):
        raise Wrong(f"its adjoint is a {type(node).__name__}, not a node: a rule of this graph builds nodes from "
                    f"the nodes it receives (with the graph's functions and operators), and computes nothing")
    return evaluate(node, {id(g_node): g, id(a_node): a})
