"""The lessons as stored in git: which they are, and what their stored outputs promise a reader."""

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PICTURE_TYPES = ("image/svg+xml", "image/png")


def load(lesson):
    return json.loads(lesson.read_text())


def stored_pictures(notebook):
    """How many stored outputs carry a picture (SVG or PNG), whatever else they carry."""
    return sum(
        any(kind in output.get("data", {}) for kind in PICTURE_TYPES)
        for cell in notebook["cells"] for output in cell.get("outputs", [])
    )


def solution_cells(notebook):
    """Indices of the cells tagged ``solution`` (the reference solutions)."""
    return [i for i, cell in enumerate(notebook["cells"]) if "solution" in cell["metadata"].get("tags", [])]
