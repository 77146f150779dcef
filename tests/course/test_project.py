"""The project's own promises: notebooks stored executed and opening unmodified on every Python, the Pythons claimed
being the ones CI tests, setup that refuses what it cannot use and says how to fix it, the learner's environment files
in step with Binder, make lab serving the course, one repository address, licenses shipped, the book built."""

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

IN_THE_COURSE_EXTRA = "Jupyter's packages are in the course extra: pip install -e '.[course]'"
ROOT = pathlib.Path(__file__).resolve().parents[2]
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


def _environment_packages(path):
    """The package names under an environment file's ``dependencies:``."""
    lines = [line.strip() for line in path.read_text().split("\ndependencies:\n", 1)[1].splitlines()]
    return [_name(line[2:]) for line in lines if line.startswith("- ") and not line.startswith("- -")]


PIP_TO_CONDA = {"graphviz": "python-graphviz"}  # on conda-forge, "graphviz" is the dot binary itself


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_environment_files_hold_the_learners_packages_and_no_more():
    # The conda route and Binder are the learner's make lab: the course's packages; test and book tools come with pip.
    project = _pyproject()["project"]
    declared = {PIP_TO_CONDA.get(_name(r), _name(r)) for r in project["dependencies"] + project["optional-dependencies"]
                ["course"]}
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        listed = set(_environment_packages(path))
        # graphviz: the dot binary; pip: to install minitape itself
        assert listed == declared | {"python", "graphviz", "pip"}, (
            f"{path.relative_to(ROOT)}: lacks {sorted(declared - listed)}, "
            f"has beyond the course {sorted(listed - declared - {'python', 'graphviz', 'pip'})}")


def _ci_pythons():
    return re.search(r'^PYTHONS="([\d. ]+)"$', (ROOT / ".ci" / "run").read_text(), re.MULTILINE)[1].split()


def test_the_python_versions_claimed_are_the_ones_ci_tests():
    tested = _ci_pythons()
    minors = [int(version.split(".")[1]) for version in tested]
    assert minors == list(range(minors[0], minors[-1] + 1)), f"CI tests {tested}: a gap"
    pyproject = _pyproject()
    # No upper bound: a newer Python is not refused (setup.sh says it is untested), since nothing known breaks there.
    assert pyproject["project"]["requires-python"] == f">={tested[0]}"
    claimed = [c.rsplit(" :: ", 1)[1] for c in pyproject["project"]["classifiers"]
               if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert claimed == tested
    assert pyproject["tool"]["ruff"]["target-version"] == f"py3{minors[0]}"
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        assert f"  - python>={tested[0]},<3.{minors[-1] + 1}  " in path.read_text(), (
            f"{path.relative_to(ROOT)} must ask for python>={tested[0]},<3.{minors[-1] + 1}")
    for path in (ROOT / "README.md", ROOT / "INSTRUCTORS.md"):
        assert set(re.findall(r"Python\s+(3\.\d+)", path.read_text())) <= set(tested), path.name
    assert set(tested) <= set(re.findall(r"\b3\.\d+\b", (ROOT / "README.md").read_text())), (
        f"the README must name every Python CI tests: {tested}")


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    # .ci/run runs it as a timed stage: run_stage NAME LOG make test
    assert "make test" in readme and re.search(r"^(run_stage \S+ - )?make test( |$)", ci, re.MULTILINE)


def test_notebook_metadata_script_stores_the_course_kernels_and_changes_nothing_else(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason=IN_THE_COURSE_EXTRA)
    course_kernel = load_script("course_kernel")
    metadata = course_kernel.metadata()
    # What nbconvert stores after executing a lesson with ipykernel's own kernel: its version in language_info.
    executed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1", execution_count=1)], metadata={
        "kernelspec": metadata["kernelspec"], "language_info": {**metadata["language_info"], "version": "3.12.1"},
        "author": "kept"})
    path = tmp_path / "lesson.ipynb"
    nbformat.write(executed, path)
    assert course_kernel.store(path, metadata)
    stored = nbformat.read(path, as_version=4)
    assert stored.metadata == {**metadata, "author": "kept"} and stored.cells == executed.cells
    assert not course_kernel.store(path, metadata), "a second store must leave the file alone"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_stores_the_course_kernels_metadata(path):
    # JupyterLab replaces a different kernelspec or language_info when the kernel connects: the lesson opens modified.
    pytest.importorskip("ipykernel.kernelspec", reason=IN_THE_COURSE_EXTRA)
    expected = load_script("course_kernel").metadata()
    stored = json.loads(path.read_text())["metadata"]
    for key, value in expected.items():
        assert stored.get(key) == value, (
            f"{path.name}: {key} {stored.get(key)}; run python scripts/course_kernel.py store {path.relative_to(ROOT)}")


def test_the_course_kernel_reports_the_stored_language_info_without_the_version():
    manager = pytest.importorskip("jupyter_client.manager", reason=IN_THE_COURSE_EXTRA)
    course_kernel = load_script("course_kernel")
    ipykernel = pytest.importorskip("ipykernel.ipkernel", reason=IN_THE_COURSE_EXTRA)
    kernel, client = manager.start_new_kernel(
        kernel_name="python3", extra_arguments=[f"--IPKernelApp.extra_config_file={course_kernel.KERNEL_SETTING}"])
    try:
        reported = client.kernel_info(reply=True, timeout=30)["content"]["language_info"]
    finally:
        client.stop_channels()
        kernel.shutdown_kernel(now=True)
    assert reported == course_kernel.language_info()
    assert reported == {key: value for key, value in ipykernel.IPythonKernel.language_info.items() if key != "version"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_stores_widgets_as_their_pictures(path):
    # A stored widget view opens with "disconnected" icons in a trusted JupyterLab and as nothing in the book.
    notebook = json.loads(path.read_text())
    views = [c["execution_count"] for c in notebook["cells"] for o in c.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert not views, f"{path.name}: cells {views} store a live widget; run make notebooks (drop_widget_views.py)"
    assert "widgets" not in notebook["metadata"], f"{path.name}: stores widget state no output uses"


def test_dropping_widget_views_keeps_the_picture_and_the_text():
    nbformat = pytest.importorskip("nbformat", reason=IN_THE_COURSE_EXTRA)
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


# A stand-in for an interpreter, answering what scripts/setup.sh asks one, so that its choices can be tested without
# installing anything: its version, its base prefix (which tells interpreters apart), whether it is older than the
# oldest supported, making a venv (whose python is a copy of the stand-in) and pip (which only logs what it was asked).
FAKE_PYTHON = """#!/bin/bash
case "$*" in
  *minitape-course.pth*) echo "$3" > "$(dirname "$0")/../repository-on-path" ;;
  *base_prefix*) echo "{version} {prefix}" ;;
  *sys.exit*) exit {too_old} ;;
  *version_info*) echo "{minor}" ;;
  --version) echo "Python {version}" ;;
  "-c import ensurepip, venv") ;;
  "-m venv "*) mkdir -p "$3/bin" && touch "$3/pyvenv.cfg" && cp "$0" "$3/bin/python" ;;
  "-m pip "*) echo "$*" >> "$(dirname "$0")/../pip.log" ;;
  *) echo "unexpected: $*" >&2; exit 2 ;;
esac
"""


def _fake_python(path, version, prefix, oldest="3.11"):
    minor = ".".join(version.split(".")[:2])
    too_old = int(tuple(map(int, minor.split("."))) < tuple(map(int, oldest.split("."))))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FAKE_PYTHON.format(version=version, prefix=prefix, minor=minor, too_old=too_old))
    path.chmod(0o755)
    return path


def _setup(tmp_path, python, *extras):
    (tmp_path / "tools" / "dot").parent.mkdir(exist_ok=True)
    _fake_python(tmp_path / "tools" / "dot", "0", "/")  # setup.sh only asks whether Graphviz's dot is there
    env = {**os.environ, "PYTHON": str(python), "VENV": str(tmp_path / "venv"),
           "PATH": os.pathsep.join([str(tmp_path / "tools"), os.environ["PATH"]])}
    return subprocess.run(["bash", str(ROOT / "scripts" / "setup.sh"), "venv", *extras], env=env,
                          capture_output=True, text=True, timeout=60)


def test_setup_refuses_a_python_older_than_the_oldest_supported_and_says_how_to_get_one(tmp_path):
    tested = _ci_pythons()
    result = _setup(tmp_path, _fake_python(tmp_path / "old" / "python3", "3.10.13", "/opt/old"), "course")
    assert result.returncode == 1 and result.stdout == ""
    message = result.stderr
    assert f"is Python 3.10; the course needs Python {', '.join(tested[:-1])} or {tested[-1]}." in message
    for way in (f"pyenv install {tested[-1]}", f"uv python install {tested[-1]}", "make lab ENV=conda",
                f"apt-get install python{tested[-1]}-venv"):
        assert way in message, f"setup does not say: {way}"
    assert not (tmp_path / "venv").exists()


def test_setup_makes_the_venv_again_when_another_python_is_asked_for(tmp_path):
    venv = tmp_path / "venv"
    _fake_python(venv / "bin" / "python", "3.11.2", "/usr")  # a .venv made by Debian's Python
    (venv / "pyvenv.cfg").touch()
    (venv / "made-by-3.11.2").touch()
    result = _setup(tmp_path, _fake_python(tmp_path / "py312" / "python3", "3.12.1", "/opt/py312"), "course")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{venv}/bin/python\n"
    assert "was made by Python 3.11.2 (/usr)" in result.stderr and "3.12.1 (/opt/py312)" in result.stderr
    assert not (venv / "made-by-3.11.2").exists()
    assert subprocess.run([venv / "bin" / "python", "-c", "sys.base_prefix"], capture_output=True,
                          text=True).stdout == "3.12.1 /opt/py312\n"
    assert (venv / "pip.log").read_text().splitlines()[-1] == "-m pip install -q --no-compile -e .[course]"


def test_setup_keeps_a_venv_of_the_python_asked_for_and_installs_only_the_extras_it_lacks(tmp_path):
    python = _fake_python(tmp_path / "py313" / "python3", "3.13.0", "/opt/py313")
    assert _setup(tmp_path, python, "course").returncode == 0
    (tmp_path / "venv" / "kept").touch()
    pip_log = tmp_path / "venv" / "pip.log"
    before = pip_log.read_text()
    again = _setup(tmp_path, python, "course")
    assert again.returncode == 0 and pip_log.read_text() == before, "nothing to install the second time"
    more = _setup(tmp_path, python, "course", "test", "book")
    assert more.returncode == 0 and (tmp_path / "venv" / "kept").exists()
    assert pip_log.read_text().splitlines()[-1] == "-m pip install -q --no-compile -e .[test,book]"


def test_setup_says_a_newer_python_than_ci_tests_is_untested_and_goes_on(tmp_path):
    newest = _ci_pythons()[-1]
    newer = f"3.{int(newest.split('.')[1]) + 1}"
    result = _setup(tmp_path, _fake_python(tmp_path / "new" / "python3", f"{newer}.0", "/opt/new"), "course")
    assert result.returncode == 0, result.stderr
    assert f"is Python {newer}, newer than the ones CI tests" in result.stderr and f"use {newest}" in result.stderr


def test_lab_gives_its_kernels_the_course_settings_and_the_repository_on_the_path(tmp_path):
    lab = load_script("lab")
    env = lab.server_environment({"PYTHONPATH": "/mine", "HOME": "/home/learner"})
    assert env["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/mine"]
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(lab.COURSE_CONFIG)]
    assert env["HOME"] == "/home/learner" and len(env["JUPYTER_TOKEN"]) == 48
    # Where the lessons' checks are found: not without the repository on the path (-S: no site-packages, so no
    # .pth file of make's .venv), and with it.
    finds = [sys.executable, "-S", "-c", "import importlib.util as u, sys; sys.exit(not u.find_spec('classroom'))"]
    without = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    outside = subprocess.run(finds, cwd=tmp_path, capture_output=True, env=without)
    inside = subprocess.run(finds, cwd=tmp_path, capture_output=True, env={**without, "PYTHONPATH": env["PYTHONPATH"]})
    assert outside.returncode != 0 and inside.returncode == 0, inside.stderr


def test_lab_adds_allow_root_exactly_when_root():
    command = load_script("lab").lab_command(["--port", "9999"])
    assert ("--allow-root" in command) == (os.geteuid() == 0)
    assert command[-2:] == ["--port", "9999"], "the user's JupyterLab options come last, so they win"
    # What make lab runs, read from make itself (a dry run), not from the Makefile's text.
    dry_run = subprocess.run(["make", "-n", "-s", "lab", "LAB_ARGS=--port 9999"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert dry_run[-3:] == ["scripts/lab.py", "--port", "9999"], f"make lab must run lab.py with $(LAB_ARGS): {dry_run}"


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
    pytest.importorskip("jupyterlab", reason="make lab's JupyterLab is in the course extra (make lab installs it)")
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
        assert "@jupyterlab/apputils-extension:announcements" in config["disabledExtensions"], (
            "the announcements plugin asks a learner on first open whether to fetch Jupyter's news")
        token = url.split("token=")[1]
        status, listing = _get(f"http://127.0.0.1:{port}/api/contents/minitape?token={token}")
        assert status == 200 and "tape.py" in {entry["name"] for entry in json.loads(listing)["content"]}, (
            "JupyterLab must serve the repository root, so that minitape/ can be browsed")
        assert (tmp_path / "data" / "nbsignatures.db").exists(), "the lessons were not trusted before starting"
        installed = pathlib.Path(sys.prefix) / "etc" / "ipython" / "ipython_kernel_config.py"
        assert installed.read_bytes() == load_script("course_kernel").KERNEL_SETTING.read_bytes(), (
            "make lab must install the course's kernel setting into its environment")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


def test_binder_builds_the_conda_environment_without_installing_the_package_there():
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        # repo2docker builds the environment before the repository is copied in: "-e ." there fails.
        assert not re.search(r"^\s*(- )?(pip:|-e |- -e )", path.read_text(), re.MULTILINE), (
            f"{path.relative_to(ROOT)}: install minitape in postBuild instead of a pip section")
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert re.search(r"pip install --no-deps -e \.$", post_build, re.MULTILINE)
    assert "jupyter trust notebooks/*.ipynb" in post_build
    # make lab's JupyterLab: the course's kernel and page settings (scripts/lab.py)
    assert re.search(r"^python scripts/course_kernel\.py install$", post_build, re.MULTILINE)
    assert "cp scripts/lab-config/labconfig/page_config.json " in post_build
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
    pytest.importorskip("sphinx", reason="the book's tools are the book extra (make book installs them)")
    build_book = load_script("build_book")
    badge = load_script("binder_links").badge("https://github.com/o/r")
    nbformat = pytest.importorskip("nbformat", reason=IN_THE_COURSE_EXTRA)
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(f"# 00\n\n{badge}\n"),
        nbformat.v4.new_code_cell("# Reference solution\n", metadata={"tags": ["solution"]}),
        nbformat.v4.new_code_cell("x = 1\n"),
        nbformat.v4.new_markdown_cell("Read [the tape](../minitape/tape.py), then "
                                      "[lesson 05](05_reverse_mode.ipynb).\n")])
    copy = build_book.book_copy(nbformat.writes(notebook), "https://github.com/o/r")
    cells = nbformat.reads(copy, as_version=4).cells
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
