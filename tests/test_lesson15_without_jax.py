"""Lesson 15 runs JAX beside minitape, but JAX is optional: without it the lesson still runs top to bottom, and each
cell that would run JAX says so instead of failing (its stored output, from a run with JAX, is what a learner reads).
"""

import os
import pathlib

import nbformat
import pytest

nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra: pip install -e '.[test]'")

ROOT = pathlib.Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "15_function_transformations.ipynb"
SAYS = "JAX is not installed: the stored output shows what it printed"


def test_lesson_15_runs_without_jax_and_says_where_jax_would_run(tmp_path, monkeypatch):
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
    asked = 0
    for ran, kept in zip(nb.cells, stored.cells):
        if ran.cell_type != "code" or "solution" in ran.metadata.get("tags", []) or "def have_jax" in ran.source:
            continue
        uses_jax = "beside(" in ran.source or "have_jax()" in ran.source  # the cells that run JAX ask first
        assert (SAYS in text(ran)) == uses_jax, ran.source
        assert SAYS not in text(kept), "the stored output must be a run with JAX"
        asked += uses_jax
    assert asked >= 8, f"only {asked} cells ask for JAX"


def text(cell):
    return "".join(output.get("text", "") for output in cell.outputs)
