"""The lessons' plots, shown with a text alternative: ``plots.show("what it shows")`` instead of ``plt.show()``.

A reader who does not see a plot hears its alt text instead. :func:`show`
writes that text from the figure itself (its title, its axes and their
scales, the entries of its legend) and from the sentence the lesson gives it
about what the plot shows, which no program can read off the lines::

    ax.set(xlabel="step $h$", ylabel="error", xscale="log", yscale="log", title="Error against the step")
    ax.legend()
    plots.show("The error falls as h shrinks, down to about 1e-8, then rises again.")

The notebook stores the figure as an HTML image (a PNG) whose ``alt`` is that
text; :func:`minitape.viz.html_image` says why this reaches the reader in
JupyterLab, trusted or not, and in the book. Numbers in the sentence are
computed by the lesson, like every number it prints.
"""

import re

import matplotlib.pyplot as plt
from IPython.core.pylabtools import print_figure
from IPython.display import display

from minitape.viz import html_image

# TeX in labels (matplotlib's mathtext), as a screen reader should say it
SPOKEN_TEX = [
    (r"\\sqrt\[3\]\{([^}]*)\}", r"cube root of \1"),
    (r"\\sqrt\{([^}]*)\}", r"square root of \1"),
    (r"\\varepsilon|\\epsilon", "epsilon"),
    (r"_\{?(\w+)\}?", r"\1"),  # x_1: x1
    (r"[{}$\\]", ""),
]


def spoken(text):
    """A label as words, without mathtext's markup.

    >>> spoken(r"$\\sqrt[3]{\\varepsilon}$ and $x_1$")
    'cube root of epsilon and x1'
    """
    for pattern, words in SPOKEN_TEX:
        text = re.sub(pattern, words, text)
    return " ".join(text.split())


def _axes_words(ax):
    """One plot's title, and its axes (with their scales) and legend in words."""
    parts = []
    for side, axis, scale in (("horizontal", ax.xaxis, ax.get_xscale()), ("vertical", ax.yaxis, ax.get_yscale())):
        label = spoken(axis.get_label_text())
        if label:
            where = " on the right" if side == "vertical" and axis.get_label_position() == "right" else ""
            said = scale == "linear" or scale in label  # "loss (log scale)" says it already
            parts.append(f"{side} axis{where}: {label}" + ("" if said else f", {scale} scale"))
    legend = ax.get_legend()
    if legend is not None:
        parts.append("legend: " + "; ".join(spoken(text.get_text()) for text in legend.get_texts()))
    return spoken(ax.get_title()), "; ".join(parts)


def describe(fig, shows):
    """The text alternative of ``fig``: its title, what it ``shows`` (the lesson's sentence), then its axes.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([1, 2, 3], [1, 4, 9], label="$x^2$")
    >>> _ = ax.set(xlabel="$x$", ylabel="value", yscale="log", title="Squares")
    >>> _ = ax.legend()
    >>> describe(fig, "They grow.")
    'Plot: Squares. They grow. Horizontal axis: x; vertical axis: value, log scale; legend: x^2.'
    >>> plt.close(fig)
    """
    panels = {}  # position -> (title, axes in words): a twin (ax.twinx()) joins the plot it sits on
    for ax in fig.axes:
        title, axes = _axes_words(ax)
        if ax.get_label() == "<colorbar>" and panels:  # a colour bar tells what the last plot's colours mean
            title, axes = "", f"colour scale: {spoken(ax.yaxis.get_label_text() or ax.xaxis.get_label_text())}"
            position = list(panels)[-1]
        else:
            position = tuple(round(x, 3) for x in ax.get_position().bounds)
        before = panels.get(position, ("", ""))
        panels[position] = (before[0] or title, "; ".join(part for part in (before[1], axes) if part))
    panels = [panel for panel in panels.values() if any(panel)]
    title = spoken(fig.get_suptitle())
    if len(panels) == 1:  # one plot, perhaps with a second vertical axis on the right (twinx)
        heading = ", ".join(part for part in (title, panels[0][0]) if part)
        return f"Plot{': ' + heading if heading else ''}. {shows} {_sentence(panels[0][1])}".rstrip()
    places = ["Left", "Right"] if len(panels) == 2 else [f"Plot {k + 1}" for k in range(len(panels))]
    told = " ".join(f"{place}: " + " ".join(filter(None, (_sentence(name), _sentence(axes))))
                    for place, (name, axes) in zip(places, panels))
    return f"{len(panels)} plots{': ' + title if title else ''}. {shows} {told}"


def _sentence(text):
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def show(shows, fig=None):
    """Show ``fig`` (by default the current figure) with its text alternative, and close it.

    ``shows`` is a sentence saying what the plot shows (the trend, the
    crossing, the winner), not what it is: :func:`describe` adds the title,
    axes and legend. The cell's output is an HTML image with that alt text.
    """
    fig = plt.gcf() if fig is None else fig
    if not isinstance(shows, str) or not shows.strip():
        raise ValueError('plots.show("...") needs a sentence saying what the plot shows, e.g. "The loss falls '
                         'by a factor of 100 in 50 steps." A reader who cannot see the plot hears it instead.')
    alt = describe(fig, shows.strip())
    png = print_figure(fig, "png", bbox_inches="tight", facecolor="white")
    display({"text/plain": alt, "text/html": html_image(png, "image/png", alt)}, raw=True)
    plt.close(fig)
