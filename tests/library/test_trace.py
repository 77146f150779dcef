"""Evaluation traces: the classic example of the AD literature, naming, formatting and errors."""

import unicodedata

import numpy as np
import pytest

import minitape as mt
from minitape.viz import traces
from minitape.viz.reading import format_number, local_partials, read_tape


def classic(x1, x2):
    """ln(x1) + x1 x2 - sin(x2), computed in the order of Baydin et al. (2018), Table 2."""
    v1, v2, v3 = mt.math.log(x1), x1 * x2, mt.sin(x2)
    return v1 + v2 - v3


@pytest.fixture
def t():
    return traces.evaluation_trace(classic, x1=2.0, x2=5.0)


def test_primal_trace_has_every_row_of_the_literature(t):
    assert t.primal.rows == [
        ("v-1", "x1", "2"), ("v0", "x2", "5"),
        ("v1", "log(v-1)", "0.693"), ("v2", "v-1 × v0", "10"), ("v3", "sin(v0)", "-0.959"),
        ("v4", "v1 + v2", "10.693"), ("v5", "v4 − v3", "11.652"), ("y", "v5", "11.652")]
    assert t.output.dtype == mt.float64


def test_tangent_trace_gives_the_derivative_along_x1(t):
    rows = {row[0]: row for row in t.tangent.rows}
    assert rows["v̇-1"][-1] == "1" and rows["v̇0"][-1] == "0"
    assert rows["v̇1"] == ("v̇1", "∂v1/∂v-1 v̇-1", "0.5 × 1", "0.5")
    assert rows["v̇2"] == ("v̇2", "∂v2/∂v-1 v̇-1 + ∂v2/∂v0 v̇0", "5 × 1 + 2 × 0", "5")
    assert rows["v̇5"][2:] == ("1 × 5.5 + (-1) × 0", "5.5")
    assert rows["\u1e8f"][-1] == "5.5"
    assert t.tangent.title == "forward tangent trace (\u1e8b1 = 1, \u1e8b2 = 0)"  # ẋ1, ẋ2


def test_direction_chooses_the_input(t):
    along_x2 = traces.evaluation_trace(classic, direction={"x2": 1.0}, x1=2.0, x2=5.0)
    assert along_x2.tangent.rows[-1][-1] == "1.716"


def test_adjoint_trace_follows_the_backward_pass(t):
    rows = t.adjoint.rows
    assert rows[0] == ("v̄5", "\u0233", "", "1")
    assert ("v̄3", "v̄5 ∂v5/∂v3", "1 × (-1)", "-1") in rows
    # v0 gets its adjoint in two steps: from sin first, then from the product
    assert ("v̄0", "v̄3 ∂v3/∂v0", "(-1) × 0.284", "-0.284") in rows
    assert ("v̄0", "v̄0 + v̄2 ∂v2/∂v0", "-0.284 + 1 × 2", "1.716") in rows
    assert rows[-2:] == [("x̄1", "v̄-1", "", "5.5"), ("x̄2", "v̄0", "", "1.716")]


def test_the_tables_agree_with_gradient_and_jvp(t):
    grads = t.tape.gradient(t.output, [t.inputs["x1"], t.inputs["x2"]])
    assert [format_number(g, 3) for g in grads] == ["5.5", "1.716"]
    assert format_number(t.accumulator.jvp(t.output), 3) == "5.5"


def test_text_is_aligned_and_stable(t):
    lines = repr(t.primal).splitlines()
    assert lines[0] == "forward primal trace"
    assert len({line.index(" = ") for line in lines[1:]}) == 1  # the first "=" in one column
    assert len({line.rindex(" = ") for line in lines[1:]}) == 1
    assert repr(t) == repr(traces.evaluation_trace(classic, x1=2.0, x2=5.0))
    assert unicodedata.is_normalized("NFC", repr(t))  # ẋ is one letter, as an editor types it
    # combining marks (the dot of v̇) take no column
    tangent = repr(t.tangent).splitlines()[1:]
    assert len({traces._width(line[:line.index(" = ")]) for line in tangent}) == 1


def test_html_tables(t):
    html = t._repr_html_()
    assert html.count("<table>") == 3
    assert t.primal._repr_html_().count("<tr>") == len(t.primal.rows) == 8
    assert "<caption>reverse adjoint trace</caption>" in html
    # every cell carries its own padding, so that no stylesheet runs two columns together
    assert html.count("<td ") == html.count('<td style="text-align: left; padding: 0.1em 0.6em">') > 0


def test_small_constants_are_written_inline_and_repeated_inputs_twice():
    t = traces.evaluation_trace(lambda x: x * x * 3.0, x=2.0)
    assert t.primal.rows[1:3] == [("v1", "v0 × v0", "4"), ("v2", "v1 × 3", "12")]
    assert ("v̄0", "v̄1 ∂v1/∂v0 + v̄1 ∂v1/∂v0", "3 × 2 + 3 × 2", "12") in t.adjoint.rows


def test_arrays_are_shown_compactly():
    t = traces.evaluation_trace(lambda w: mt.reduce_sum(w * w), w=[1.0, 2.0])
    assert t.primal.rows[0] == ("v0", "w", "[1, 2]")
    assert t.adjoint.rows[-1] == ("w̄", "v̄0", "", "[2, 4]")
    assert t.tangent.rows[-1][-1] == "6"  # direction (1, 1): 2 * 1 + 2 * 2
    big = traces.evaluation_trace(lambda w: mt.reduce_sum(w), w=np.zeros(10))
    assert big.primal.rows[0][-1] == "(10,) float64"


def test_errors_say_what_to_do():
    with pytest.raises(ValueError, match=r"not inputs.*\['x1', 'x2'\]"):
        traces.evaluation_trace(classic, direction={"x3": 1.0}, x1=2.0, x2=5.0)
    with pytest.raises(TypeError, match="must return one minitape tensor"):
        traces.evaluation_trace(lambda x: [x, x], x=1.0)
    with pytest.raises(TypeError, match="give the inputs by name"):
        traces.evaluation_trace(classic)


def test_read_tape_names_values_in_recording_order():
    x, w = mt.Variable(1.0), mt.Variable(2.0, name="w")
    c = mt.constant(3.0)
    with mt.GradientTape() as tape:
        tape.watch(c)
        (x + w) * c - 1.0
    reading = read_tape(tape)
    assert [(v.symbol, v.name, v.kind) for v in reading.values.values()] == [
        ("v-2", "v-2", "watched"), ("v-1", "v-1", "variable"), ("v0", "w", "variable"),
        ("v1", "v1", "result"), ("v2", "v2", "result"), ("c1", "c1", "constant"), ("v3", "v3", "result")]
    assert [op.name for op in reading.ops] == ["add", "multiply", "subtract"]


def test_spent_tape_says_why_and_what_to_do():
    x = mt.Variable(1.0)
    with mt.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"already answered.*before calling tape.gradient.*persistent=True"):
        read_tape(tape)


def test_local_partials_only_for_scalars():
    x = mt.Variable([1.0, 2.0])
    s = mt.Variable(3.0)
    with mt.GradientTape() as tape:
        y = x * s
        z = s / 2.0
    ops = read_tape(tape)
    values = ops.values
    assert local_partials(ops.ops[0], values) is None
    assert local_partials(ops.ops[1], values) == [0.5, -0.75]
    del y, z


@pytest.mark.parametrize("x, decimals, text", [
    (11.6521, None, "11.65"), (11.6521, 3, "11.652"), (2.0, 3, "2"), (-0.95892, 3, "-0.959"),
    (1e-7, None, "1e-07"), (123456.0, None, "1.235e+05"), (0.0, None, "0")])
def test_format_number(x, decimals, text):
    assert format_number(x, decimals) == text
