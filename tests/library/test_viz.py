"""Pictures of tapes: nodes, edges, labels and styles of small tapes; determinism; rendering; big tapes."""

import base64
import html
import importlib
import re
import struct
import subprocess
import sys

import graphviz
import numpy as np
import pytest

import minitape as mt
from classroom import widgets
from minitape import viz
from minitape.viz.display import PNG_DPI
from minitape.viz.picture import FLOW, FRAME, GREY, HIGHLIGHT, LEGEND_FONT_SIZE, STYLES
from minitape.viz.reading import format_number
from minitape.viz.scene import MAX_NODES, _off_path_looks
from minitape.viz.words import MAX_TOLD


def nodes(source):
    """{node name: its attribute text} for the value and op nodes (n0, n1, ...) of a DOT source."""
    return dict(re.findall(r"^\s*(n\d+) \[(.*)\]$", source, re.MULTILINE))


def edges(source):
    return re.findall(r"^\s*(n\d+) -> (n\d+)", source, re.MULTILINE)


def legend_entries(source):
    """The texts of the legend's entries (cells of the HTML-like label above the picture)."""
    return re.findall(rf'<FONT POINT-SIZE="{LEGEND_FONT_SIZE}" COLOR="[^"]*">([^<]+)</FONT>', source)


def shown_svg(data):
    """The SVG inside a bundle's ``text/html`` (an ``<img>`` with a base64 data URI), and the image's alt text."""
    found = re.fullmatch(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)">', data["text/html"])
    assert found, f"not an image with alt text: {data['text/html'][:200]}"
    return base64.b64decode(found[1]).decode("utf-8"), html.unescape(found[2])


def small_tape():
    """y = x * c + 1 with a Variable x, a watched constant c and an unwatched constant 1."""
    x = mt.Variable(3.0, name="x")
    c = mt.constant(2.0)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(c)
        y = x * c + 1.0
    return tape, x, c, y


def classic(x1, x2):
    v1, v2, v3 = mt.math.log(x1), x1 * x2, mt.sin(x2)
    return v1 + v2 - v3


def test_one_node_per_value_and_op_edges_in_data_flow_order():
    tape, x, c, y = small_tape()
    source = viz.to_dot(tape, y)
    found = nodes(source)
    assert len(found) == 7  # x, c, multiply, v1, 1.0, add, v2
    # c was watched first (n0), x read later (n1); multiply(x, c) then add(v1, 1.0)
    assert edges(source) == [("n1", "n2"), ("n0", "n2"), ("n2", "n3"), ("n3", "n5"), ("n4", "n5"), ("n5", "n6")]
    assert "rankdir=LR" in source and "rankdir=TB" in viz.to_dot(tape, rankdir="TB")


def test_labels_show_name_value_shape_and_dtype():
    tape, x, c, y = small_tape()
    found = nodes(viz.to_dot(tape, y))
    assert found["n0"].startswith('label="v-1\\n2\\n() float32"')  # watched first: the first input
    assert found["n1"].startswith('label="x\\n3\\n() float32"')  # a Variable goes by its name
    assert found["n2"].startswith("label=multiply")
    assert found["n4"].startswith('label="c1\\n1\\n() float32"')
    assert found["n6"].startswith('label="v2\\n7\\n() float32"')


def test_each_kind_has_its_style_and_the_legend_explains_them():
    tape, x, c, y = small_tape()
    source = viz.to_dot(tape, y)
    found = nodes(source)
    assert STYLES["watched"][1]["fillcolor"] in found["n0"]
    assert STYLES["variable"][1]["fillcolor"] in found["n1"]
    assert "dashed" in found["n4"]
    assert "ellipse" in found["n2"] and "ellipse" in found["n5"]
    assert "bold" in found["n6"] and "bold" not in found["n3"]
    looks = {re.sub(r'label=("[^"]*"|\S+) ', "", found[n]) for n in ("n0", "n1", "n2", "n3", "n4", "n6")}
    assert len(looks) == 6  # watched, Variable, op, result, constant, target: all different
    assert legend_entries(source) == ["Variable", "watched tensor", "constant", "result", "target", "operation"]
    assert "<TABLE" not in viz.to_dot(tape, y, legend=False)


def test_nodes_off_the_path_to_the_target_are_grey():
    x = mt.Variable(3.0, name="x")
    w = mt.Variable(2.0, name="w")
    with mt.GradientTape() as tape:
        y = x * w
        unused = mt.sin(x)
    source = viz.to_dot(tape, y)
    grey = {n for n, attrs in nodes(source).items() if GREY["color"] in attrs}
    assert grey == {"n4", "n5"}  # sin and its result
    assert "does not lead to the target" in source
    # with sources: w does not depend on x, so the backward pass from y to x never visits it
    source = viz.to_dot(tape, y, sources=x)
    grey = {n for n, attrs in nodes(source).items() if GREY["color"] in attrs}
    assert grey == {"n1", "n4", "n5"} and "not between sources and target" in source
    assert GREY["color"] not in viz.to_dot(tape, legend=False)  # no target: nothing is off the path
    del unused


def test_grads_show_adjoints_and_partials_label_edges():
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    source = viz.to_dot(t.tape, t.output, grads=True, partials=True)
    labels = [attrs.split('"')[1] for attrs in nodes(source).values() if attrs.startswith('label="')]
    assert labels[0] == "x1\\n2\\n() float64\\nadjoint 5.5"
    assert labels[1] == "x2\\n5\\n() float64\\nadjoint 1.716"
    assert labels[-1] == "v5\\n11.65\\n() float64\\nadjoint 1"
    edge_labels = re.findall(r"^\s*n(\d+) -> n(\d+) \[label=(\S+)\]", source, re.MULTILINE)
    assert ("0", "2", "0.5") in edge_labels  # d log(x1) / d x1 = 1 / x1
    assert ("1", "4", "2") in edge_labels  # d (x1 x2) / d x2 = x1
    assert "edge numbers" in source
    with pytest.raises(ValueError, match="needs targets"):
        viz.draw(t.tape, grads=True)


def test_tangents_of_a_live_accumulator_without_its_arithmetic():
    x = mt.Variable(2.0, name="x")
    with mt.GradientTape() as plain:
        mt.sin(x) * x
    with mt.GradientTape() as tape, mt.autodiff.ForwardAccumulator(x, mt.constant(1.0)) as acc:
        y = mt.sin(x) * x
    assert len(tape) > len(plain)  # the tape also recorded the accumulator's JVP ops...
    source = viz.to_dot(tape, y, accumulator=acc, legend=False)
    assert len(nodes(source)) == 5  # ... which the picture leaves out
    labels = [attrs.split('"')[1] for attrs in nodes(source).values() if attrs.startswith('label="')]
    assert labels[0].endswith("tangent 1") and labels[-1].endswith(f"tangent {format_number(acc.jvp(y))}")


def test_a_long_computation_under_an_accumulator_draws_its_start_and_counts_the_rest():
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape() as tape, mt.autodiff.ForwardAccumulator(x, mt.constant(1.0)) as acc:
        y = x
        for _ in range(3_000):
            y = mt.sin(y)
    source = viz.to_dot(tape, y, accumulator=acc, max_nodes=20)
    assert len(nodes(source)) == 20
    assert "5,981 more values and ops not drawn" in source  # 1 + 2 * 3,000 in all: the JVP ops are left out


def test_a_value_the_tape_did_not_keep_is_computed_again_or_said_to_be_unknown():
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape() as tape:
        y = mt.exp(mt.sin(x))  # exp keeps only its output, so sin's result is not kept...
    assert f'label="v1\\n{np.sin(1.0):.4f}\\n() float32"' in viz.to_dot(tape, y)  # ...but sin(x) runs again
    c = mt.constant(2.0)
    with mt.GradientTape() as tape:
        y = mt.exp(mt.add_n([x, c]))  # add_n keeps nothing, and nothing else holds c
    assert 'label="v1\\nvalue not kept"' in viz.to_dot(tape, y)


def test_same_code_same_source():
    sources, ids = [], []
    for _ in range(2):  # the same code twice: new tensors, new ids
        tape, x, c, y = small_tape()
        sources.append(viz.to_dot(tape, y, grads=True, partials=True))
        ids.append(y.id)
    assert ids[0] != ids[1] and sources[0] == sources[1]


@pytest.fixture
def notebook():
    """The display formatter of an IPython shell in which minitape.viz was imported (as a lesson's kernel)."""
    interactiveshell = pytest.importorskip("IPython.core.interactiveshell")
    shell = interactiveshell.InteractiveShell.instance()
    importlib.reload(viz)  # importing the wing, with a shell running, registers how a tape is shown
    yield shell.display_formatter
    interactiveshell.InteractiveShell.clear_instance()


def test_renders_to_svg_with_dot():
    tape, x, c, y = small_tape()
    svg = viz.draw(tape, y).pipe(format="svg", encoding="utf-8")
    assert svg.count('class="node"') == 7  # the legend is the picture's label, not nodes
    data, metadata = viz.tape_mimebundle(tape)
    assert data["text/plain"] == "<GradientTape: 5 values, 2 ops>"
    assert sorted(data) == ["image/png", "text/html", "text/plain"]
    assert shown_svg(data)[0].count('class="node"') == 7
    data, metadata = viz.tape_mimebundle(tape, exclude=["text/html", "image/png"])
    assert data == {"text/plain": "<GradientTape: 5 values, 2 ops>"} and metadata == {}
    assert repr(viz.draw(tape)) == "<minitape picture: 5 values, 2 ops>"
    formatter = pytest.importorskip("IPython.core.formatters")
    shown, _ = formatter.DisplayFormatter().format(viz.draw(tape))  # what a notebook stores
    assert shown["text/plain"] == "<minitape picture: 5 values, 2 ops>" and "<svg" in shown_svg(shown)[0]
    empty = viz.draw(mt.GradientTape())
    assert repr(empty) == "<minitape picture: 0 values, 0 ops>" and "<TABLE" not in empty.source


def svg_width_px(svg):
    """How wide a browser shows an SVG from Graphviz (its size is in points, 72 to the inch; 96 px to the inch)."""
    return float(re.search(r'<svg width="([\d.]+)pt"', svg)[1]) * 96 / 72


def png_width(data):
    return struct.unpack(">I", base64.b64decode(data)[16:20])[0]  # the IHDR chunk: width, then height


def test_every_picture_carries_a_png_shown_at_the_svg_size(notebook):
    tape, x, c, y = small_tape()
    pictures = [viz.draw(tape, y), viz.strip(viz.backward_steps(tape, y)), viz.backward_steps(tape, y)[1], tape]
    for picture in pictures:
        shown, metadata = notebook.format(picture)  # what a notebook stores
        width = metadata["image/png"]["width"]
        assert width == round(svg_width_px(shown_svg(shown)[0]))
        assert png_width(shown["image/png"]) == pytest.approx(width * PNG_DPI / 96, abs=2)  # sharper than shown
        assert shown["text/plain"].startswith(("<minitape picture: ", "<GradientTape: "))


def test_missing_dot_says_how_to_install_graphviz(monkeypatch, tmp_path):
    tape, x, c, y = small_tape()
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot there
    with pytest.raises(viz.GraphvizNotFound, match="apt-get install graphviz.*brew install graphviz.*conda") as e:
        viz.draw(tape).pipe(format="svg")
    assert isinstance(e.value, graphviz.ExecutableNotFound)
    with pytest.raises(viz.GraphvizNotFound):
        viz.draw(tape).render(tmp_path / "tape", format="svg")
    with pytest.raises(viz.GraphvizNotFound):
        viz.tape_mimebundle(tape)
    assert viz.to_dot(tape).startswith("digraph")


def test_the_png_is_a_small_palette_image_and_a_graphviz_without_gd_still_gives_one(monkeypatch):
    tape, x, c, y = small_tape()
    data, _ = viz.draw(tape, y)._repr_mimebundle_()
    assert base64.b64decode(data["image/png"])[25] == 3  # colour type 3: a palette
    assert data == viz.draw(tape, y)._repr_mimebundle_()[0]  # the same bytes every time
    pipe = viz.Picture.pipe

    def without_gd(self, *args, formatter=None, **kwargs):
        if formatter == "gd":
            raise graphviz.CalledProcessError(1, ["dot"], stderr=b'Format: "png:cairo:gd" not recognized')
        return pipe(self, *args, **kwargs)

    monkeypatch.setattr(viz.Picture, "pipe", without_gd)
    full_colour, _ = viz.draw(tape, y)._repr_mimebundle_()
    assert base64.b64decode(full_colour["image/png"])[25] != 3 and full_colour["text/html"] == data["text/html"]


def test_spent_tape_says_why_and_what_to_do(notebook):
    x = mt.Variable(1.0)
    with mt.GradientTape() as tape:
        y = x * x
    tape.gradient(y, x)
    for show in (viz.draw, viz.to_dot):
        with pytest.raises(RuntimeError, match="already answered.*before calling tape.gradient.*persistent=True"):
            show(tape)
    # a notebook showing the tape gets a text, not a traceback
    assert viz.tape_mimebundle(tape) == ({"text/plain": "<GradientTape: spent (a non-persistent tape releases its "
                                                        "records once it has answered)>"}, {})
    shown, _ = notebook.format(tape)
    assert shown == {"text/plain": viz.tape_mimebundle(tape)[0]["text/plain"]}


def test_anything_but_a_tape_is_a_type_error_saying_what_to_pass():
    x = mt.Variable(1.0)
    for show in (viz.draw, viz.to_dot, lambda t: viz.backward_steps(t, x)):
        with pytest.raises(TypeError, match=r"pictures a GradientTape, got str 't': record with `with "
                                            r"mt.GradientTape\(\) as tape"):
            show("t")


def test_a_huge_tape_shows_its_start_and_how_much_was_left_out():
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape() as tape:
        y = x
        for _ in range(10_000):
            y = y * 1.0001
    source = viz.to_dot(tape, y, max_nodes=50)
    assert len(nodes(source)) == 50
    # x, the one shared constant 1.0001, and 10,000 ops with their results: 20,002 nodes in all
    assert "… 19,952 more values and ops not drawn (max_nodes=50)" in source
    assert viz.draw(tape, max_nodes=50).pipe(format="svg")  # and dot draws it
    with pytest.raises(ValueError, match="max_nodes"):
        viz.draw(tape, max_nodes=0)


def test_backward_steps_highlight_one_op_and_fill_in_adjoints():
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    steps = viz.backward_steps(t.tape, t.output)
    assert len(steps) == 6 and repr(steps) == "<backward pass: 5 steps>"
    first, last = steps[0].source, steps[-1].source
    assert first.count("adjoint ?") == 6 and "adjoint 1" in first  # only the target's is known
    assert "adjoint ?" not in last and "adjoint 5.5" in last
    lit = HIGHLIGHT["fillcolor"]
    highlighted = [re.findall(r"label=(\w+) [^\n]*" + lit, steps[k].source) for k in range(len(steps))]
    assert highlighted == [[], ["subtract"], ["add"], ["sin"], ["multiply"], ["log"]]
    assert steps.title(1) == "step 1 of 5: subtract passes the adjoint of v5 to its inputs"
    assert repr(steps[2]) == repr(steps[-4]) == "<minitape picture: backward pass, step 2 of 5>"
    with pytest.raises(ValueError, match="not recorded by this tape"):
        viz.backward_steps(t.tape, mt.constant(1.0))


def test_strip_stacks_chosen_frames_in_one_picture():
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    steps = viz.backward_steps(t.tape, t.output)
    picture = viz.strip(steps, every=2)
    assert re.findall(r"subgraph (cluster_step\d+)", picture.source) == [
        "cluster_step5", "cluster_step4", "cluster_step2", "cluster_step0"]  # dot stacks later ones higher
    assert repr(picture) == "<minitape picture: backward pass, 4 of 6 pictures>"
    assert "<svg" in picture.pipe(format="svg", encoding="utf-8")


def test_step_through_is_a_slider_with_a_stable_text():
    pytest.importorskip("ipywidgets")
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    slider = widgets.step_through(viz.backward_steps(t.tape, t.output))
    bundle, metadata = slider._repr_mimebundle_()
    assert bundle["text/plain"] == "<slider over the 6 pictures of the backward pass>"
    assert "application/vnd.jupyter.widget-view+json" in bundle
    # without a live widget (untrusted, GitHub, a static book) a front end shows the first picture instead
    svg, alt = shown_svg(bundle)
    assert "start: the adjoint of the target is 1" in svg and png_width(bundle["image/png"])
    assert alt.startswith("Backward pass, start: the adjoint of the target is 1.")
    assert metadata["image/png"]["width"] == round(svg_width_px(svg))
    control, picture = slider.widget.children
    assert control.max == 5 and shown_svg({"text/html": picture.value})[1] == alt
    control.value = 3  # moving the slider replaces the picture and its description
    svg, alt = shown_svg({"text/html": picture.value})
    assert "step 3 of 5" in svg and alt.startswith("Backward pass, step 3 of 5: sin passes")


def test_the_library_loads_no_picture_until_asked():
    """The core never imports the wing (nor graphviz, nor IPython): mt.viz loads it on first use."""
    script = ("import sys\n"
              "import minitape as mt\n"
              "def loaded():\n"
              "    return sorted({m.split('.')[0] for m in sys.modules if m.startswith(('minitape.viz', 'graphviz', "
              "'IPython'))})\n"
              "x = mt.Variable(2.0)\n"
              "with mt.GradientTape() as tape:\n"
              "    y = x * x\n"
              "print(repr(tape), float(tape.gradient(y, x)), loaded())\n"
              "draw = mt.viz.draw\n"
              "print(loaded())\n")
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert shown.splitlines() == ["<GradientTape: 1 ops> 4.0 []", "['graphviz', 'minitape']"]


def test_a_tape_draws_itself_in_a_notebook_that_imported_viz(notebook):
    tape, x, c, y = small_tape()
    bundle, metadata = notebook.format(tape)
    assert bundle["text/plain"] == "<GradientTape: 5 values, 2 ops>" and "<svg" in shown_svg(bundle)[0]
    assert metadata["image/png"]["width"] > 0
    formatter = pytest.importorskip("IPython.core.formatters")
    assert formatter.DisplayFormatter().format(tape)[0] == {"text/plain": repr(tape)}  # where nothing registered it


def test_drawing_inside_the_with_block_changes_no_tape():
    x = mt.Variable(2.0, name="x")
    with mt.GradientTape(persistent=True) as outer:
        with mt.GradientTape(persistent=True) as tape:
            y = mt.sin(x) * x
            before = (len(tape), len(outer))
            viz.to_dot(tape, targets=y, grads=True, partials=True)
            viz.backward_steps(tape, y)
        assert (len(tape), len(outer)) == before


def test_values_can_be_given_names():
    x = mt.Variable(2.0, name="x")
    with mt.GradientTape() as tape:
        s = mt.sin(x)
        y = s * x
    source = viz.to_dot(tape, targets=y, names={"s": s, "y": y}, legend=False)
    assert 'label="s\\n' in source and 'label="y\\n' in source and "v1" not in source
    with pytest.raises(ValueError, match="names\\['z'\\] must be a tensor recorded on this tape"):
        viz.to_dot(tape, names={"z": mt.constant(1.0)})


def test_edges_are_labelled_even_when_the_result_was_not_kept():
    x = mt.Variable(2.0, name="x")
    with mt.GradientTape() as tape:
        y = mt.exp(x * 0.5)  # exp keeps only its output: x * 0.5 is not kept, and is computed again
    source = viz.to_dot(tape, targets=y, partials=True, legend=False)
    assert 'label="v1\\n1\\n() float32"' in source
    assert "n0 -> n2 [label=0.5]" in source and "n1 -> n2 [label=2 weight=1]" in source  # d(x*c)/dx = c, d/dc = x
    assert "n3 -> n4 [label=2.718]" in source  # d exp(v1) / d v1 = exp(1)


def bounded_layout(source):
    """True if the graph bounds dot's network-simplex iterations (nslimit, nslimit1).

    Without the bound, dot takes about a minute on a tape whose one value feeds 74 ops, and about 20 s when one
    constant node is shared by all of them; with it, hundredths of a second (benchmarks/ measures the time).
    """
    graph = re.search(r"^\s*graph \[(.*)\]$", source, re.MULTILINE)[1]
    return "nslimit=2" in graph and "nslimit1=2" in graph


def scale(svg):
    """How much Graphviz scaled the drawing down to fit its ``size`` (1: not at all)."""
    found = re.search(r'transform="scale\(([\d.]+)', svg)
    return float(found[1]) if found else 1.0


def loop_tape(steps):
    """``y = y * 0.9``, ``steps`` times: every multiply reads the same cached constant 0.9."""
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape(persistent=True) as tape:
        y = x
        for _ in range(steps):
            y = y * 0.9
    return tape, y


def test_a_shared_constant_gets_a_node_per_use_and_a_bounded_layout():
    tape, y = loop_tape(74)
    assert len({op.inputs[1] for op in viz.read_tape(tape).ops}) == 1  # one constant, read by all 74 ops
    for targets in (None, y):
        picture = viz.draw(tape, targets, max_nodes=None)
        copies = re.findall(r'^\s*(n\d+_in1) \[label="c1\\n0.9', picture.source, re.MULTILINE)
        assert len(set(copies)) == 73  # one node per use: the first use is the constant's own node, n1
        assert len(re.findall(r"^\s*n1 -> ", picture.source, re.MULTILINE)) == 1  # the shared node feeds one op
        assert bounded_layout(picture.source)
        svg = picture.pipe(format="svg", encoding="utf-8")
        assert svg_width_px(svg) <= viz.WIDTH_INCHES * 96 + 1


def test_a_variable_read_by_every_op_gets_a_bounded_layout_that_fits_the_page():
    x = mt.Variable(0.9, name="x")
    with mt.GradientTape() as tape:
        y = x
        for _ in range(74):
            y = y * x  # 74 edges from x, each across many ranks
    picture = viz.draw(tape, targets=y)
    assert bounded_layout(picture.source)
    svg = picture.pipe(format="svg", encoding="utf-8")
    assert svg_width_px(svg) <= viz.WIDTH_INCHES * 96 + 1


def test_a_long_chain_cut_to_max_nodes_draws_top_to_bottom_legibly():
    tape, y = loop_tape(10_000)
    picture = viz.draw(tape, targets=y)
    assert "rankdir=TB" in picture.source  # left to right it would be hundreds of boxes wide
    assert "… 19,852 more values and ops not drawn (max_nodes=150)" in picture.source
    assert bounded_layout(picture.source)
    svg = picture.pipe(format="svg", encoding="utf-8")
    assert svg_width_px(svg) <= viz.WIDTH_INCHES * 96 + 1 and scale(svg) >= 0.75  # fits, fonts stay >= 9 px


def test_a_wide_fan_out_draws_left_to_right_and_fits():
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape() as tape:
        ys = [mt.sin(x), mt.cos(x), mt.exp(x), mt.tanh(x), mt.sigmoid(x), mt.square(x)] * 5  # 30 ops read x
    picture = viz.draw(tape, targets=ys)
    assert "rankdir=LR" in picture.source  # top to bottom, 30 ops side by side would be far too wide
    assert bounded_layout(picture.source)
    svg = picture.pipe(format="svg", encoding="utf-8")
    assert svg_width_px(svg) <= viz.WIDTH_INCHES * 96 + 1 and scale(svg) >= 0.75


def test_a_picture_wider_than_a_notebook_is_scaled_down_to_fit():
    x = mt.Variable(1.0, name="a Variable with a name so long that a picture of it is wider than a notebook")
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(mt.stack([x * float(k) for k in range(3)]))
    svg = viz.draw(tape, targets=y).pipe(format="svg", encoding="utf-8")
    assert scale(svg) < 1 and svg_width_px(svg) <= viz.WIDTH_INCHES * 96 + 1
    wide = viz.draw(tape, targets=y, size="20,20").pipe(format="svg", encoding="utf-8")  # the caller's size wins
    assert svg_width_px(wide) > viz.WIDTH_INCHES * 96


# -- what a picture says to a reader who does not see it ------------------------------------------------------
def test_a_picture_says_in_words_what_it_draws():
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    picture = viz.draw(t.tape, t.output, grads=True, partials=True)
    assert picture.description == (
        "Graph of a tape with 7 values and 5 operations. "
        "Inputs: x1 = 2 (Variable), adjoint 5.5; x2 = 5 (Variable), adjoint 1.716. "
        "Operations in recording order: "
        "v1 = log(x1) = 0.6931, adjoint 1 (local derivatives: 0.5 for x1); "
        "v2 = multiply(x1, x2) = 10, adjoint 1 (local derivatives: 5 for x1, 2 for x2); "
        "v3 = sin(x2) = -0.9589, adjoint -1 (local derivatives: 0.2837 for x2); "
        "v4 = add(v1, v2) = 10.69, adjoint 1 (local derivatives: 1 for v1, 1 for v2); "
        "v5 = subtract(v4, v3) = 11.65, adjoint 1 (local derivatives: 1 for v4, -1 for v3). "
        "Target: v5.")
    # the same words reach the notebook: the image's alt text, and the SVG's accessible name
    svg, alt = shown_svg(picture._repr_mimebundle_()[0])
    assert alt == picture.description
    assert re.search(r'<svg [^>]*role="img">\n<title>Graph of a tape with 7 values and 5 operations\. Inputs', svg)
    assert "%3" not in svg and "<title>n0</title>" not in svg and svg.count("<title>") == 2  # the graph's: summary
    x = mt.Variable(3.0, name="x")
    with mt.GradientTape() as tape:
        y = x * x
    assert viz.draw(tape, y).description == ("Graph of a tape with 2 values and 1 operation. Inputs: x = 3 "
                                             "(Variable). Operations in recording order: v1 = multiply(x, x) = 9. "
                                             "Target: v1.")
    plain = viz.draw(t.tape, t.output).description  # without grads: no adjoints, no derivatives
    assert "adjoint" not in plain and "derivatives" not in plain and "v2 = multiply(x1, x2) = 10;" in plain


def test_the_words_name_constants_tangents_unkept_values_and_what_is_off_the_path():
    tape, x, c, y = small_tape()
    assert viz.draw(tape, y).description == (
        "Graph of a tape with 5 values and 2 operations. Inputs: v-1 = 2 (watched tensor); x = 3 (Variable). "
        "Constants: c1 = 1. Operations in recording order: v1 = multiply(x, v-1) = 6; v2 = add(v1, c1) = 7. "
        "Target: v2.")
    x, one = mt.Variable(2.0, name="x"), mt.constant(1.0)
    with mt.GradientTape() as tape, mt.autodiff.ForwardAccumulator(x, mt.constant(1.0)) as acc:
        y = mt.exp(mt.add_n([mt.sin(x), one])) * x  # add_n keeps nothing: its result is not kept
        unused = mt.cos(x)
    words = viz.draw(tape, y, accumulator=acc, legend=False).description
    assert "x = 2 (Variable), tangent 1." in words
    assert "Constants: c1, value not kept." in words  # only add_n read it, and add_n keeps nothing
    assert "v2 = add_n(v1, c1), value not kept; v3 = exp(v2) = 6.748, tangent -2.808;" in words  # e^(sin 2 + 1)
    assert words.endswith("Target: v4. Dotted and grey, since they do not lead to the target: v5.")
    del unused


def test_big_values_are_named_by_shape_and_a_long_description_stops_and_says_so():
    w = mt.Variable(mt.ones((3, 3)), name="W")
    with mt.GradientTape() as tape:
        y = mt.reduce_sum(w * w)
    assert "W = a (3, 3) float32 array (Variable)" in viz.draw(tape, y).description
    x = mt.Variable(1.0, name="x")
    with mt.GradientTape() as tape:
        y = x
        for _ in range(200):
            y = y * 1.0001
    words = viz.draw(tape, y).description
    assert words.endswith(f"Described up to the first {MAX_TOLD} of the {MAX_NODES} values and operations "
                          f"drawn. 252 more values and operations are not drawn.")
    assert len(words) < 2500


def test_each_backward_step_says_which_step_and_what_it_set():
    t = viz.evaluation_trace(classic, x1=2.0, x2=5.0)
    steps = viz.backward_steps(t.tape, t.output)
    assert steps[0].description.startswith(
        "Backward pass, start: the adjoint of the target is 1. Adjoints set: v5 = 1. Graph of the tape: Inputs: "
        "x1 = 2 (Variable), adjoint not yet known;")
    third = steps[3].description
    assert third.startswith("Backward pass, step 3 of 5: sin passes the adjoint of v3 to its inputs. Adjoints set: "
                            "x2 = -0.2837. ")
    assert "v3 = sin(x2) = -0.9589, adjoint -1, the operation of this step;" in third
    assert "x1 = 2 (Variable), adjoint not yet known;" in third and "v1 = log(x1) = 0.6931, adjoint 1;" in third
    strip = viz.strip(steps, every=2)
    assert strip.description.startswith("Backward pass in 4 pictures of the same graph, from top to bottom. The graph: "
                                        "Inputs: x1 = 2 (Variable); x2 = 5 (Variable).")
    assert strip.description.endswith(  # each picture: what was set since the one above it
        "Pictures: start: the adjoint of the target is 1; adjoints set: v5 = 1. step 2 of 5: add passes the "
        "adjoint of v4 to its inputs; adjoints set: v4 = 1, v3 = -1, v1 = 1, v2 = 1. step 4 of 5: multiply passes "
        "the adjoint of v2 to its inputs; adjoints set: x2 = 1.716, x1 = 5. step 5 of 5: log passes the adjoint of "
        "v1 to its inputs; adjoints set: x1 = 5.5.")


def test_a_picture_without_a_description_is_named_by_its_summary():
    tree = viz.Picture()
    tree.node("a")
    tree.summary = "one node"
    assert shown_svg(tree._repr_mimebundle_()[0])[1] == "one node"


# -- contrast and colour (WCAG 2.1: 1.4.1 use of colour, 1.4.3 text 4.5:1, 1.4.11 graphics 3:1) -----------------
NAMED = {"black": "#000000", "white": "#ffffff"}


def luminance(colour):
    """WCAG 2.1's relative luminance of an sRGB colour ``#rrggbb`` (or black, white)."""
    colour = NAMED.get(colour, colour)
    channels = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_ratios_are_computed_as_wcag_defines_them():
    assert contrast("black", "white") == pytest.approx(21)
    assert contrast("#767676", "white") == pytest.approx(4.54, abs=0.01)  # the well-known lightest AA grey
    assert contrast("#969696", "white") == pytest.approx(2.96, abs=0.01)  # too light for text


def every_picture_source():
    """DOT sources using every style viz has: kinds, off the path, partials, a backward step, a strip."""
    x, w = mt.Variable(3.0, name="x"), mt.Variable(2.0, name="w")
    c = mt.constant(1.0)
    with mt.GradientTape(persistent=True) as tape:
        tape.watch(c)
        y = x * w * 2.0 + c
        unused = mt.sin(x)
    steps = viz.backward_steps(tape, y)
    del unused
    return [viz.to_dot(tape, y, grads=True, partials=True), steps[2].source, viz.strip(steps).source]


def test_text_and_lines_in_pictures_meet_wcag_contrast():
    """Text at least 4.5:1 against what it is drawn on; outlines, arrows and frames at least 3:1 against white."""
    pairs = []  # (what, foreground, background, needed)
    for source in every_picture_source():
        for statement in re.findall(r"^\s*\S+(?: -> \S+)? \[(.*)\]$", source, re.MULTILINE):  # nodes and edges
            attrs = {key: value.strip('"') for key, value in re.findall(r'(\w+)=("[^"]*"|\S+)', statement)}
            background = attrs.get("fillcolor", "white") if "filled" in attrs.get("style", "") else "white"
            pairs.append((statement[:60], attrs.get("fontcolor", "black"), background, 4.5))
            pairs.append((statement[:60], attrs.get("color", "black"), "white", 3))
        for colour in re.findall(r'^\s*color=("[^"]*"|\S+)', source, re.MULTILINE):  # a strip's frames
            pairs.append(("frame", colour.strip('"'), "white", 3))
        for cell in re.findall(r"<TD ([^>]*)><FONT [^>]*COLOR=\"([^\"]+)\">", source):  # the legend
            looks = dict(re.findall(r'(\w+)="([^"]*)"', cell[0]))
            pairs.append(("legend", cell[1], looks.get("BGCOLOR", "white"), 4.5))
            pairs.append(("legend", looks.get("COLOR", "black"), "white", 3))
    colours = {foreground for _, foreground, _, _ in pairs}
    assert {GREY["fontcolor"], GREY["color"], FLOW["color"], FRAME["color"],
            HIGHLIGHT["fillcolor"]} <= colours | {background for _, _, background, _ in pairs}
    low = [(what, f, b, round(contrast(f, b), 2)) for what, f, b, needed in pairs if contrast(f, b) < needed]
    assert not low, f"too little contrast: {low}"


def test_no_kind_of_node_differs_from_another_by_colour_alone():
    def without_colour(attrs):
        return {key: value for key, value in attrs.items() if "color" not in key}

    looks = {key: without_colour(attrs) for key, (_, attrs) in STYLES.items()}
    looks["off the path"] = without_colour({**STYLES["result"][1], **_off_path_looks(STYLES["result"][1])})
    looks["this step's op"] = without_colour({**STYLES["op"][1], **HIGHLIGHT})
    names = list(looks)
    same = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if looks[a] == looks[b]]
    assert not same, f"told apart by colour only: {same}"
    assert "dotted" in looks["off the path"]["style"] and FLOW["penwidth"] != "1"  # arrows of a step: thick
