"""Lesson 13's public test cases and probes (your tape on arrays).

Each probe runs the learner's op or layer on the learner's Values under the learner's Tape (found where the
answer was defined, ``classroom.probes.parts``), asks that tape's own ``gradient`` for the gradients of every
input, with a random upstream gradient, and observes them with the result. The probes hold no sweep of their own.
"""
import numpy as np

from classroom.probes import NotAnswered, Raised, Slot, Wrong, call, parts


def reached(records, values):
    """Whether each of values is an input of some record: otherwise no gradient can reach it."""
    inputs = [inp for _, recorded_parents in records for inp, _ in recorded_parents]
    return [any(inp is v for inp in inputs) for v in values]


def seeded_gradients(tape, out, seed, inputs):
    """The learner's tape's gradients of sum(out * seed), an upstream gradient ``seed`` rather than ones.

    The tape sweeps from ones in its target's shape: one more record, the sum weighted by ``seed``, makes the
    adjoint that reaches ``out`` the seed itself.
    """
    Value = type(out)
    target = Value(np.sum(out.data * seed))
    tape.records.append((target, [(out, lambda g: g * seed)]))
    return tape.gradient(target, inputs)


class FloatingTrouble:
    """The floating-point trouble NumPy met inside ``watching()`` blocks: an overflow, an invalid or infinite result.

    A naive sigmoid, 1 / (1 + exp(-z)), still rounds to the right 0 or 1 at z = ±800, after exp overflowed: the
    value alone cannot tell it from a stable one, but NumPy's overflow flag can. Underflow (exp(-800) rounding to
    0) is what a stable formula does, and is not trouble.

    >>> trouble = FloatingTrouble()
    >>> with trouble.watching():
    ...     s = 1.0 / (1.0 + np.exp(np.array([800.0])))
    >>> s, trouble.seen
    (array([0.]), ['overflow'])
    """

    def __init__(self):
        self.seen = []

    def watching(self):
        return np.errstate(over="call", invalid="call", divide="call", under="ignore", call=self._heard)

    def _heard(self, kind, flag):
        if kind not in self.seen:
            self.seen.append(kind)

    def says(self, where):
        """What the check says of a loss whose ``where`` met trouble on the test's logits of ±800."""
        return (f"at logits of ±800 {where} meets {' and '.join(self.seen)} in NumPy: the value may still come out "
                f"right, but the formula takes exp of a large number, which is inf in float64 from about 710 on, and "
                f"is right only where the inf happens to round away. Use forms that never overflow: max(z, 0) - z y "
                f"+ log1p(exp(-|z|)) for the loss and, for the sigmoid, exp(-logaddexp(0, -z))")


def _normal(*shape):
    return _RNG.normal(size=shape)


_RNG = np.random.default_rng(13)
MUL_CASES = [((_normal(4, 3), _normal(4, 3)), ()), ((_normal(4, 3), _normal(3)), ()),
             ((_normal(4, 1), _normal(1, 3)), ()), ((_normal(), _normal(2, 3)), ())]
MATMUL_CASES = [((_normal(2, 3), _normal(3, 4)), ()), ((_normal(4, 4), _normal(4, 4)), ()),
                ((_normal(1, 5), _normal(5, 2)), ()), ((_normal(3, 2, 4), _normal(4, 4)), ())]
REDUCE_CASES = [((_normal(3, 4),), ()), ((_normal(3, 4),), (0,)), ((_normal(3, 4),), (1,)),
                ((_normal(2, 1, 3),), (2,)), ((_normal(5),), (0,)), ((_normal(2, 1, 3),), ())]
LOSS_CASES = [((np.array([[-800.0], [-3.0], [0.0], [0.5], [4.0], [800.0]]),),
               (np.array([[1.0], [0.0], [1.0], [0.0], [1.0], [0.0]]),)),
              ((_normal(7),), ((_normal(7) > 0).astype(float),))]


def op_probe(op, arrays, extra):
    """The op's result and the gradient of each input, swept back from a random upstream gradient g.

    ``extra`` holds the arguments after the inputs: the labels of the loss, the axis of a reduction.
    """
    Value, Tape = parts(op, "Value", "Tape")
    name = op.__name__
    who = ["logits"] if name == "sigmoid_cross_entropy" else ["a", "b"]
    shapes = " and ".join(str(np.shape(a)) for a in arrays) + (f", axis={extra[0]}" if name.startswith("reduce")
                                                               and extra else "")
    inputs = [Value(a.copy()) for a in arrays]
    trouble = FloatingTrouble()
    with Tape() as tape, trouble.watching():  # a naive formula's overflow is reported below, in one sentence
        out = call(op, *inputs, *extra, what=f"{name} on inputs of shapes {shapes}")
    if not isinstance(out, Value):
        raise Wrong(f"{name} returned {type(out).__name__}, not a Value: return what record(...) gives")
    if not tape.records:
        raise Wrong(f"{name} recorded nothing on the tape: build its result with record(data, parents)")
    for _, recorded_parents in tape.records:
        for pair in recorded_parents if isinstance(recorded_parents, (list, tuple)) else [recorded_parents]:
            if not (isinstance(pair, tuple) and len(pair) == 2 and callable(pair[1])):
                raise Wrong(f"{name} records a parent that is not a pair (input Value, function of g): on arrays a "
                            f"record keeps a VJP function per input, as add and neg do, not a number")
    if not np.all(np.isfinite(out.data)):
        raise Wrong(f"on inputs of shapes {shapes} its result has inf or nan: the formula overflows for large "
                    f"logits; rewrite it in the stable form")
    if name == "sigmoid_cross_entropy" and trouble.seen:
        raise Wrong(trouble.says("calling it"))
    seed = np.random.default_rng(31).normal(size=np.shape(out.data))
    missing = [input_name for input_name, got in zip(who, reached(tape.records, inputs)) if not got]
    if missing:
        raise Wrong(f"on inputs of shapes {shapes}, {missing[0]} gets no gradient: list ({missing[0]}, its VJP) "
                    f"among the parents of the record")
    try:
        with trouble.watching():
            grads = seeded_gradients(tape, out, seed, inputs)
    except ValueError as error:  # NumPy's complaint about shapes that do not fit
        raise Wrong(f"its VJP raised ValueError ({error}): check which array each product needs, and its "
                    f"shape") from None
    if name == "sigmoid_cross_entropy" and trouble.seen:
        raise Wrong(trouble.says("its VJP"))
    slots = [Slot(out.data, f"on inputs of shapes {shapes} the result is wrong: {{}}")]
    for input_name, array, g in zip(who, arrays, grads):
        if np.shape(g) != np.shape(array):
            raise Wrong(f"on inputs of shapes {shapes} the gradient of {input_name} has shape {np.shape(g)}, but "
                        f"{input_name} has shape {np.shape(array)}: a gradient has the shape of what it "
                        f"differentiates" + (" (un-broadcast it)" if name in ("mul", "matmul") else ""))
        slots.append(Slot(g, f"on inputs of shapes {shapes} (a random upstream gradient g) the gradient of "
                             f"{input_name} is wrong: {{}}"))
    return slots


# -- 13.5: the layer library ---------------------------------------------------------------------------------------
def variables(model, expected_shapes, what, Value):
    """The model's trainable variables by shape, after checking their number, kind and shapes."""
    found = model.trainable_variables
    if found is ...:
        raise NotAnswered
    if found is None:
        raise Wrong(f"{what}'s trainable_variables returned None: is its return statement missing?")
    if callable(found):
        raise Wrong("trainable_variables is a method here: make it a property (@property), as in the stub")
    found = list(found)
    if len(found) != len(expected_shapes):
        raise Wrong(f"{what}'s trainable_variables has {len(found)} items, it needs {len(expected_shapes)}")
    if not all(isinstance(v, Value) for v in found):
        raise Wrong("every trainable variable must be a Value of your tape, so that the tape records what uses it")
    shapes = [v.data.shape for v in found]
    if sorted(shapes) != sorted(expected_shapes):
        raise Wrong(f"{what}'s variables have shapes {shapes}, the exercise asks for {list(expected_shapes)}")
    return {v.data.shape: v for v in found}


def _output_and_gradients(model, x, shapes, found, Value, Tape, what):
    """The model's output on x and the gradient of sum(output) for each variable, in the order of ``shapes``."""
    with Tape() as tape:
        out = call(model, Value(x), what=f"calling {what}")
    if not isinstance(out, Value):
        raise Wrong(f"calling {what} returned {type(out).__name__}, not a Value of your tape")
    if not all(reached(tape.records, [found[s] for s in shapes])):
        raise Wrong("a variable gets no gradient: compute the output with your tape's ops on the Values themselves "
                    "(matmul, +, the activation), never on their .data arrays")
    return out.data, tape.gradient(out, [found[s] for s in shapes])


DENSE_CASES = [(None,), ("tanh",)]


def dense_probe(Dense, activation_name, n_in=3, n_out=2, seed=1):
    """13.5a: a Dense layer's initial variables, then its output and gradients with set weights and bias, for a
    layer of ``n_in`` inputs and ``n_out`` outputs on a batch drawn with ``seed``."""
    Value, Tape = parts(Dense, "Value", "Tape")
    activation = parts(Dense, activation_name)[0] if activation_name else None
    try:
        layer = Dense(3, 2, np.random.default_rng(0))
    except Exception as error:  # the learner's code failed: say how
        raise Raised(error, "Dense(3, 2, rng)") from None
    found = variables(layer, [(3, 2), (2,)], "Dense(3, 2, rng)", Value)
    if np.ptp(found[3, 2].data) == 0:
        raise Wrong("its weights start all equal: then every unit of a layer computes the same thing, gets the same "
                    "gradient and stays a copy of the others; draw them from rng")
    if np.any(found[2,].data != 0):
        raise Wrong("the bias should start at zeros")
    wide = variables(Dense(400, 50, np.random.default_rng(0)), [(400, 50), (50,)], "Dense(400, 50, rng)", Value)
    spread = np.std(wide[400, 50].data)
    if not 0.8 < spread * np.sqrt(400) < 1.2:
        raise Wrong(f"the initial weights of Dense(400, 50, rng) have a standard deviation of {spread:.3g}: the "
                    f"exercise asks for rng.normal scaled by 1/√n_in")
    shapes = [(n_in, n_out), (n_out,)]
    layer = Dense(n_in, n_out, np.random.default_rng(0), activation=activation)
    found = variables(layer, shapes, f"Dense({n_in}, {n_out}, rng)", Value)
    found[shapes[0]].data = np.arange(n_in * n_out, dtype=float).reshape(shapes[0]) / (n_in * n_out)
    found[shapes[1]].data = np.linspace(0.5, -1.0, n_out)
    x = np.random.default_rng(seed).normal(size=(5, n_in))
    kind = "with activation=tanh" if activation else "without an activation"
    out, grads = _output_and_gradients(layer, x, shapes, found, Value, Tape, "the layer")
    return [Slot(out, f"its output {kind} is wrong: {{}}"),
            Slot(grads[0], f"{kind}, the gradient of the weights (shape {shapes[0]}) is wrong: {{}}"),
            Slot(grads[1], f"{kind}, the gradient of the bias (shape {shapes[1]}) is wrong: {{}}")]


MLP_CASES = [()]


def mlp_probe(MLP, n_in=2, n_hidden=5, seed=2):
    """13.5b: the output of MLP(n_in, n_hidden, rng) and the gradient of each of its four variables, set to values
    drawn with ``seed``."""
    Value, Tape = parts(MLP, "Value", "Tape")
    made = f"MLP({n_in}, {n_hidden}, rng)"
    try:
        model = MLP(n_in, n_hidden, np.random.default_rng(0))
    except Exception as error:  # the learner's code failed: say how
        raise Raised(error, made) from None
    shapes = [(n_in, n_hidden), (n_hidden,), (n_hidden, 1), (1,)]
    found = variables(model, shapes, made, Value)
    rng = np.random.default_rng(seed)
    for shape in shapes:
        found[shape].data = rng.normal(size=shape)
    x = rng.normal(size=(7, n_in))
    out, grads = _output_and_gradients(model, x, shapes, found, Value, Tape, "the MLP")
    return [Slot(out, "its output is wrong: {}")] + [
        Slot(g, f"the gradient of the variable of shape {shape} is wrong: {{}}") for shape, g in zip(shapes, grads)]
