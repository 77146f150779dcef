"""Store a lesson's live widgets as their static pictures (``make notebooks`` runs it after executing).

A widget output (the step-through slider of ``classroom.widgets.step_through``) carries a widget view, the
widget's first picture (an HTML image with its description, and a PNG), and a text. Kept as it is, a
trusted JupyterLab rebuilds the widget from the stored state and marks it with red "disconnected"
icons until its cell runs again, and a static book has no widget at all. Without the view every front
end shows the picture, and running the cell brings the live slider back. nbval does not compare widget
views, so the lesson still tests the same way.

    python scripts/drop_widget_views.py notebooks/05_reverse_mode.ipynb ...
"""

import argparse
import pathlib

import nbformat

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PICTURES = ("image/svg+xml", "image/png")


def drop_widget_views(nb):
    """Remove the widget view of every output that also holds a picture; the number removed.

    The stored widget state goes too once no view is left to use it.
    """
    dropped = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data and any(mime in data for mime in PICTURES):
                del data[WIDGET_VIEW]
                dropped += 1
    views_left = any(WIDGET_VIEW in output.get("data", {}) for cell in nb.cells for output in cell.get("outputs", []))
    if not views_left:
        nb.metadata.pop("widgets", None)
    return dropped


def main(argv=None):
    parser = argparse.ArgumentParser(description="Store a lesson's live widgets as their static pictures.")
    parser.add_argument("notebooks", nargs="+", type=pathlib.Path)
    for path in parser.parse_args(argv).notebooks:
        nb = nbformat.read(path, as_version=4)
        if drop_widget_views(nb):
            nbformat.write(nb, path)
            print(f"{path}: stored the widgets as their pictures")


if __name__ == "__main__":
    main()
