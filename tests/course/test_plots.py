"""The lessons' plots: their text alternative (title, what they show, axes, legend) and how a notebook gets them."""

import base64
import html
import re

import pytest

matplotlib = pytest.importorskip("matplotlib")  # the course's dependency, not the library's
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")
plots = pytest.importorskip("classroom.plots")


@pytest.fixture
def shown(monkeypatch):
    """What plots.show displays, as a list of bundles."""
    bundles = []
    monkeypatch.setattr(plots, "display", lambda bundle, raw: bundles.append(bundle))
    yield bundles
    plt.close("all")


def test_a_plot_is_shown_as_an_image_whose_alt_says_what_it_shows(shown):
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([1, 10, 100], [1, 0.1, 0.01], "o-", label="error of $f'(x)$")
    ax.set(xscale="log", yscale="log", xlabel="step $h$", ylabel="relative error", title="Error against $h$")
    ax.legend()
    plots.show("The error falls in proportion to h.")
    alt = ("Plot: Error against h. The error falls in proportion to h. Horizontal axis: step h, log scale; "
           "vertical axis: relative error, log scale; legend: error of f'(x).")
    assert len(shown) == 1 and shown[0]["text/plain"] == alt
    found = re.fullmatch(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="([^"]*)">', shown[0]["text/html"])
    assert found and html.unescape(found[2]) == alt
    png = base64.b64decode(found[1])
    assert png.startswith(b"\x89PNG") and int.from_bytes(png[16:20], "big") <= 600  # 6 inches at 100 dpi, trimmed
    assert not plt.get_fignums()  # closed: the inline backend does not show it a second time


def test_twin_axes_colour_bars_and_panels_are_told_apart():
    fig, left = plt.subplots()
    left.plot([0.8, 0.1])
    left.set(xlabel="step", ylabel="loss (log scale)", yscale="log", title="Training")
    right = left.twinx()
    right.plot([0.3, 3.5])
    right.set_ylabel("‖W‖")
    assert plots.describe(fig, "Loss falls, the norm grows.") == (
        "Plot: Training. Loss falls, the norm grows. Horizontal axis: step; vertical axis: loss (log scale); "
        "vertical axis on the right: ‖W‖.")  # the scale is said once; the twin is the same plot
    fig, (a, b) = plt.subplots(1, 2)
    a.set(title="Loss", xlabel="epoch")
    contours = b.contourf([[0, 1], [1, 2]])
    fig.colorbar(contours, ax=b, label="P(class 1)")
    b.set(title="Boundary", xlabel="$x_1$", ylabel="$x_2$")
    fig.suptitle(r"Two moons, $\sqrt{2}$ apart")
    assert plots.describe(fig, "It learns.") == (
        "2 plots: Two moons, square root of 2 apart. It learns. Left: Loss. Horizontal axis: epoch. "
        "Right: Boundary. Horizontal axis: x1; vertical axis: x2; colour scale: P(class 1).")
    plt.close("all")


def test_a_plot_without_a_sentence_says_what_to_write(shown):
    plt.plot([1, 2])
    for shows in ("", "   ", None):
        with pytest.raises(ValueError, match="needs a sentence saying what the plot shows"):
            plots.show(shows)
    assert not shown and plt.get_fignums()  # nothing shown, the figure kept for the next try
