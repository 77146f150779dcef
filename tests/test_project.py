"""The project's own promises: notebooks stored executed and opening unmodified, environment files complete and in
step with Binder, make lab serving the course, one repository address, licenses shipped, the book built."""

import json
import os
import pathlib
import re
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from repository_scripts import load_script

from classroom.editions import tags

tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_was_executed_top_to_bottom(path):
    # nbval silently skips cells that were never executed, so a cleared notebook would "pass".
    # Reference solutions are executed too but store neither outputs nor a count (make notebooks clears them).
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    assert cells, f"{path.name} has no code cells"
    solutions = [c for c in cells if "solution" in tags(c)]
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


def test_the_python_versions_claimed_are_the_one_ci_tests():
    ci = re.search(r"Python (3\.\d+)", (ROOT / ".ci" / "run").read_text()).group(1)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    minor = int(ci.split(".")[1])
    assert pyproject["project"]["requires-python"] == f">=3.{minor},<3.{minor + 1}"
    claimed = [c.rsplit(" :: ", 1)[1] for c in pyproject["project"]["classifiers"]
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert claimed == [ci]
    assert pyproject["tool"]["ruff"]["target-version"] == f"py3{minor}"
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        assert f"  - python={ci}\n" in path.read_text(), f"{path.relative_to(ROOT)} must pin python={ci}"
    for path in (ROOT / "README.md", ROOT / "INSTRUCTORS.md"):
        assert set(re.findall(r"Python\s+(3\.\d+)", path.read_text())) <= {ci}, path.name


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme and re.search(r"^make test$", ci, re.MULTILINE)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_stores_the_kernelspec_of_the_installed_ipykernel(path):
    # JupyterLab replaces a different kernelspec when the kernel starts: the lesson opens modified.
    pytest.importorskip("ipykernel.kernelspec")
    expected = load_script("store_kernelspec").ipykernel_kernelspec()
    stored = json.loads(path.read_text())["metadata"].get("kernelspec")
    assert stored == expected, f"{path.name}: kernelspec {stored}; run python scripts/store_kernelspec.py"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_stores_widgets_as_their_pictures(path):
    # A stored widget view opens with "disconnected" icons in a trusted JupyterLab and as nothing in the book.
    notebook = json.loads(path.read_text())
    views = [c["execution_count"] for c in notebook["cells"] for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert not views, f"{path.name}: cells {views} store a live widget; run make notebooks (drop_widget_views.py)"
    assert "widgets" not in notebook["metadata"], f"{path.name}: stores widget state no output uses"


def test_dropping_widget_views_keeps_the_picture_and_the_text():
    nbformat = pytest.importorskip("nbformat")
    widget = nbformat.v4.new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": {"model_id": "a1", "version_major": 2, "version_minor": 0},
        "image/svg+xml": "<svg/>", "image/png": "iVBORw0KGgo=", "text/plain": "<slider>"})
    bare = nbformat.v4.new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": {"model_id": "b2", "version_major": 2, "version_minor": 0},
        "text/plain": "<a widget without a picture>"})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[widget]),
                                         nbformat.v4.new_code_cell(outputs=[bare])],
                                  metadata={"widgets": {"state": {}}})
    drop_widget_views = load_script("drop_widget_views").drop_widget_views
    assert drop_widget_views(nb) == 1
    assert sorted(nb.cells[0].outputs[0].data) == ["image/png", "image/svg+xml", "text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in nb.cells[1].outputs[0].data  # nothing else to show
    assert "widgets" in nb.metadata  # still used by the view that stays
    nb.cells.pop()
    assert drop_widget_views(nb) == 0 and "widgets" not in nb.metadata


def test_lab_adds_allow_root_exactly_when_root():
    command = load_script("lab").lab_command(["--port", "9999"])
    assert ("--allow-root" in command) == (os.geteuid() == 0)
    assert command[-2:] == ["--port", "9999"], "the user's JupyterLab options come last, so they win"
    assert re.search(r"^lab:\n\t\$\(PY\) scripts/lab\.py \$\(LAB_ARGS\)$", (ROOT / "Makefile").read_text(),
                     re.MULTILINE), "make lab must run scripts/lab.py with $(LAB_ARGS)"


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _read_line_containing(stream, text, timeout):
    # A thread reads, so that a server that prints nothing cannot block the test past its timeout.
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if text in line:
            return line
    pytest.fail(f"no line containing {text!r} within {timeout} s; printed: {''.join(seen)!r}")


def _get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read()


def test_lab_serves_the_repository_and_prints_the_url_of_lesson_00(tmp_path):
    port = _free_port()
    # Its own runtime and data directories: the server's files and the trust database stay out of the user's.
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "lab.py"), "--no-browser", "--port", str(port),
         "--ServerApp.ip=127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, start_new_session=True)
    try:
        line = _read_line_containing(server.stdout, "http://", timeout=120)
        urls = re.findall(r"http://\S+", line)
        assert len(urls) == 1, f"one URL on the line, got {line!r}"
        url = urls[0]
        assert url.startswith(f"http://127.0.0.1:{port}/lab/tree/notebooks/00_welcome.ipynb?token=")
        status, page = _get(url)
        assert status == 200 and b"JupyterLab" in page
        config = json.loads(re.search(rb'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                      page, re.DOTALL)[1])
        assert "@jupyter/nbgrader" in config["disabledExtensions"], "nbgrader's menus are for instructors"
        token = url.split("token=")[1]
        status, listing = _get(f"http://127.0.0.1:{port}/api/contents/minitape?token={token}")
        assert status == 200 and "tape.py" in {entry["name"] for entry in json.loads(listing)["content"]}, (
            "JupyterLab must serve the repository root, so that minitape/ can be browsed")
        assert (tmp_path / "data" / "nbsignatures.db").exists(), "the lessons were not trusted before starting"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


def _environment_packages(path):
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [_name(line[2:]) for line in lines if line.startswith("- ") and not line.startswith("- -")]


def test_binder_builds_the_conda_environment_without_installing_the_package_there():
    conda = _environment_packages(ROOT / "environment.yml")
    binder = _environment_packages(ROOT / "binder" / "environment.yml")
    assert sorted(binder) == sorted(conda), (
        f"binder/environment.yml and environment.yml differ: {sorted(set(binder) ^ set(conda))}")
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        # repo2docker builds the environment before the repository is copied in: "-e ." there fails.
        assert not re.search(r"^\s*(- )?(pip:|-e |- -e )", path.read_text(), re.MULTILINE), (
            f"{path.relative_to(ROOT)}: install minitape in postBuild instead of a pip section")
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert re.search(r"pip install --no-deps -e \.$", post_build, re.MULTILINE)
    assert "jupyter trust notebooks/*.ipynb" in post_build
    assert os.access(ROOT / "binder" / "postBuild", os.X_OK), "repo2docker runs postBuild only if it is executable"


def test_binder_badges_use_the_repository_address_of_pyproject():
    links = load_script("binder_links")
    repository = links.repository_url()
    badge = links.badge(repository)
    assert badge in (ROOT / "README.md").read_text().splitlines(), "README: run python scripts/binder_links.py"
    top_cell = json.loads((ROOT / links.FIRST_LESSON).read_text())["cells"][0]
    assert top_cell["cell_type"] == "markdown" and badge in "".join(top_cell["source"]).splitlines(), (
        "lesson 00's first cell: run python scripts/binder_links.py")
    copies = [path.relative_to(ROOT) for pattern in ("*.md", "book/*", "scripts/*", "notebooks/*.ipynb", "binder/*")
              for path in ROOT.glob(pattern) if path.is_file() and repository in path.read_text(errors="replace")]
    assert not copies, f"the repository address is written out in {copies}; keep it in pyproject.toml only"


def test_licenses_are_declared_once_and_shipped():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = pyproject["project"]
    # A license table is deprecated by setuptools (and warned about on every install): an SPDX string.
    assert project["license"] == "MIT"
    assert sorted(project["license-files"]) == ["LICENSE", "LICENSE-lessons"]
    assert any(re.fullmatch(r"setuptools>=(7[7-9]|[89]\d|\d{3,})(\.\d+)*", r)
               for r in pyproject["build-system"]["requires"]), "SPDX license strings need setuptools>=77"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert "creativecommons.org/licenses/by/4.0" in (ROOT / "LICENSE-lessons").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "`LICENSE`" in readme and "`LICENSE-lessons`" in readme and "CC BY 4.0" in readme


def test_book_copy_folds_solutions_drops_the_badge_and_links_other_files_into_the_repository():
    build_book = load_script("build_book")
    badge = load_script("binder_links").badge("https://github.com/o/r")
    notebook = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# 00\n", "\n", badge + "\n"]},
        {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": ["# Reference solution\n"]},
        {"cell_type": "code", "metadata": {}, "source": ["x = 1\n"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["Read [the tape](../minitape/tape.py), then "
                                                             "[lesson 05](05_reverse_mode.ipynb).\n"]}]}
    cells = json.loads(build_book.book_copy(json.dumps(notebook), "https://github.com/o/r"))["cells"]
    assert "mybinder" not in cells[0]["source"]
    assert cells[1]["metadata"]["tags"] == ["solution", "hide-cell"]
    assert cells[2]["metadata"] == {}
    assert cells[3]["source"] == ("Read [the tape](https://github.com/o/r/blob/HEAD/minitape/tape.py), then "
                                  "[lesson 05](05_reverse_mode.ipynb).\n")


BOOK = ROOT / "build" / "book"


@pytest.mark.skipif(not (BOOK / "index.html").exists(), reason="the book is not built: make book (make test builds it)")
def test_built_book_has_every_lesson_folded_solutions_local_maths_and_binder_links():
    index = (BOOK / "index.html").read_text()
    for path in (p for p in NOTEBOOKS if p.name[0].isdigit()):
        page = BOOK / f"{path.stem}.html"
        assert page.exists(), f"the book has no page {page.name}"
        assert f'href="{page.name}"' in index, f"the table of contents does not link {page.name}"
        html = page.read_text()
        solutions = sum("solution" in tags(c) for c in json.loads(path.read_text())["cells"])
        assert html.count("Show the reference solution") == solutions, f"{page.name}: a solution is not folded"
        assert "<details" in html and "<details open" not in html
        assert f"urlpath=lab/tree/notebooks/{path.name}" in html, f"{page.name} has no launch-on-Binder link"
        assert not re.findall(r'<(?:script|img|link)[^>]*(?:src|href)="(?:https?:)?//', html), (
            f"{page.name} loads something from the network")
        if "$" in "".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"]):
            assert 'src="_static/mathjax/MathJax.js' in html, f"{page.name}: maths without the bundled MathJax"
    assert (BOOK / "_static" / "mathjax" / "MathJax.js").exists()
