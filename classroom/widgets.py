"""The step-through slider of the lessons: a backward pass's pictures under a slider (needs ipywidgets).

This is the course's plumbing between a picture and JupyterLab's widgets, so it
lives with the course, not in the library: ``minitape.viz`` draws the pictures.
"""

import ipywidgets

from minitape.viz.display import mimebundle


class _StableWidget:
    """Shows ``widget`` in a live notebook; a stored notebook also keeps a picture and a stable text.

    How front ends show the stored output: JupyterLab renders the widget
    view only in a trusted notebook (its renderer is registered as unsafe),
    from the widget state that nbconvert stored, marked "disconnected" until
    the cell runs again; that marker is JupyterLab's and no output can
    remove it. Untrusted notebooks (a fresh clone, a student's copy), GitHub,
    nbviewer and static books have no live widget: they pick the best other
    type in the bundle. So the bundle carries ``fallback``, the slider's
    first picture as HTML and PNG, and they show a picture instead of the
    bare text (or a broken widget). The course stores its lessons without
    the widget view (``scripts/drop_widget_views.py``), so a trusted
    JupyterLab shows that picture too until the cell runs. nbval compares
    the texts: the widget's and the picture's description.
    """

    def __init__(self, widget, text, fallback):
        self.widget, self.text, self.fallback = widget, text, fallback

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        data, metadata = mimebundle(self.fallback, self.text, include, exclude)
        return {**data, **(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {}),
                "text/plain": self.text}, metadata

    def __repr__(self):
        return self.text


def step_through(steps):
    """A slider over the pictures of ``steps``; it needs a live kernel with ipywidgets.

    In a notebook, ``step_through(viz.backward_steps(tape, y))``; show
    ``viz.strip(...)`` of the same steps too, for readers without a kernel.
    The picture (an image with its description as alt text) lives in an
    HTML widget whose value the slider replaces, so nothing is displayed
    outside the widget (a stored notebook holds only the widget, its first
    picture and its text).
    """
    def image(k):  # the picture with its description, as a notebook shows any picture
        return mimebundle(steps[k], "", include=["text/html"])[0]["text/html"]

    slider = ipywidgets.IntSlider(value=0, min=0, max=len(steps) - 1, description="step")
    picture = ipywidgets.HTML(value=image(0))
    slider.observe(lambda change: setattr(picture, "value", image(change["new"])), names="value")
    text = f"<slider over the {len(steps)} pictures of the backward pass>"
    return _StableWidget(ipywidgets.VBox([slider, picture]), text, steps[0])
