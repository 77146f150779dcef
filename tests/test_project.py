"""The project's own promises: notebooks stored executed, environment.yml complete, set-up scripts sane."""

import json
import pathlib
import re


import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_was_executed_top_to_bottom(path):
    # nbval silently skips cells that were never executed, so a cleared notebook would "pass".
    # Reference solutions are executed too but store neither outputs nor a count (make notebooks clears them).
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    assert cells, f"{path.name} has no code cells"
    solutions = [c for c in cells if "solution" in c["metadata"].get("tags", [])]
    counts = [c.get("execution_count") for c in cells if c not in solutions]
    assert None not in counts, f"{path.name}: {counts.count(None)} code cell(s) were never executed"
    assert not any(c.get("execution_count") or c.get("outputs") for c in solutions), (
        f"{path.name}: a solution cell stores its execution count or outputs: make notebooks clears them")
    expected = [n for n, c in enumerate(cells, 1) if c not in solutions]
    assert counts == expected, (
        f"{path.name}: execution counts {counts} are not 1..N (solution cells' numbers left out): re-run it top "
        f"to bottom in a fresh kernel (make notebooks)")


def _name(requirement):
    return re.split(r"[<>=!~;\[ #]", requirement.strip(), maxsplit=1)[0].lower()


PIP_TO_CONDA = {"graphviz": "python-graphviz"}  # on conda-forge, "graphviz" is the dot binary itself


def test_environment_yml_lists_every_declared_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    declared = {PIP_TO_CONDA.get(_name(r), _name(r)) for r in requirements}
    listed = {_name(line.strip()[2:]) for line in (ROOT / "environment.yml").read_text().splitlines()
              if line.strip().startswith("- ") and not line.strip().startswith("- -")}
    assert declared <= listed, f"environment.yml lacks {sorted(declared - listed)}"
    assert "graphviz" in listed, "environment.yml must install Graphviz's dot binary (conda package graphviz)"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and re.search(r"^make test$", ci, re.MULTILINE)
