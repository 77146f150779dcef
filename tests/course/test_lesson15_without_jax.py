"""Lesson 15 runs JAX beside minitape, but JAX is optional: without it the lesson still runs top to bottom, and each
cell that would run JAX shows what JAX gave in a run with it (kept in classroom/data/lesson_15_jax.json), and says
that it is recorded.
"""

import os
import pathlib

import nbformat
import pytest

nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra: pip install -e '.[test]'")

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "15_function_transformations.ipynb"
SAYS = "JAX is not installed here"


def test_lesson_15_without_jax_shows_what_jax_printed_and_says_it_is_recorded(tmp_path, monkeypatch):
    hidden = tmp_path / "no-jax" / "jax"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("JAX is hidden for this test")\n')
    # the kernel is a process of its own: this folder first on its path hides an installed JAX
    path = [str(hidden.parent), str(ROOT), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, path)))
    stored = nbformat.read(LESSON, as_version=4)
    nb = nbformat.read(LESSON, as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(LESSON.parent)}}).execute()  # an error fails
    shown = 0
    for ran, kept in zip(nb.cells, stored.cells):
        if ran.cell_type != "code" or "solution" in ran.metadata.get("tags", []) or "def from_jax" in ran.source:
            continue
        assert SAYS not in text(kept) + markdown(kept), "the stored output must be a run with JAX"
        if "nbval-ignore-output" in ran.metadata.get("tags", []):  # a timing: not recorded, said so
            assert "not timed: JAX is not installed here" in text(ran), ran.source
            continue
        if "beside(" in ran.source or "from_jax(" in ran.source:
            assert SAYS in text(ran), ran.source
            missing = [line for line in text(kept).splitlines() if line not in text(ran).splitlines()]
            assert not missing, f"lines JAX printed that a reader without JAX does not see: {missing}"
            shown += 1
        elif "jax_text(" in ran.source:  # a table: its JAX column is recorded, and its heading says so
            assert markdown(ran).replace(" (recorded)", "") == markdown(kept) != markdown(ran), ran.source
            shown += 1
        else:
            assert text(ran) == text(kept), ran.source
    assert shown >= 10, f"only {shown} cells show JAX's results"


def text(cell):
    return "".join(output.get("text", "") for output in cell.outputs)


def markdown(cell):
    return "".join(output.get("data", {}).get("text/markdown", "") for output in cell.outputs)
