"""The course's editions: the student build runs unanswered, reference solutions pass, nbgrader grades.

These tests execute notebooks in Jupyter kernels (nbclient, nbgrader), so they take a minute or two.
"""

import os
import pathlib
import re
import shutil
import sys
import warnings

import nbformat
import pytest

from minitape.exercises import answers, notebook

nbclient = pytest.importorskip("nbclient")

ROOT = pathlib.Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
GRADED = ["00_welcome", "01_finite_differences"]  # the lessons nbgrader is run on
REFERENCE_PASSES = re.compile(r"^✅ (\S+): the reference solution passes its check", re.MULTILINE)


@pytest.fixture(autouse=True)
def kernels_import_this_checkout(monkeypatch):
    # kernels are separate processes: they find this minitape through PYTHONPATH, as `make test` would
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)


def execute(nb, folder):
    """Run every cell of ``nb`` in a fresh kernel with ``folder`` as working directory; an error fails."""
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    return nb


def text(cell):
    return "".join(output.get("text", "") for output in cell.get("outputs", []) if output.output_type == "stream")


def role(cell, tag):
    return tag in notebook.tags(cell)


def reference_ids(cell):
    return re.findall(r"""["'](\d+\.\d+[a-z]?)["']""", cell.source.split("\n", 2)[1])


# --- the committed lessons are consistent with their answers and their tags -----------------------------------

@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_exercise_has_an_answer_a_reference_and_current_metadata(path):
    nb = nbformat.read(path, as_version=4)
    checked = [i for cell in nb.cells if role(cell, "check") for i in notebook.check_ids(cell.source)]
    referenced = [i for cell in nb.cells if role(cell, "solution") for i in reference_ids(cell)]
    assert checked, f"{path.name} has no check cell"
    lesson = int(path.name[:2])
    assert all(answers.lesson_of(i) == lesson for i in checked), f"{path.name} checks another lesson's ids"
    assert set(checked) <= set(answers.exercises(lesson)), "an id is checked but has no answer"
    assert sorted(checked) == sorted(referenced), "every checked id needs exactly one reference solution"
    assert notebook.tag(nbformat.from_dict(nb)) == nb, (
        f"{path.name}: nbgrader metadata out of date: python -m minitape.exercises.notebook tag {path}")


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_instructors_guide_states_the_lessons_time(path):
    nb = nbformat.read(path, as_version=4)
    stated = re.search(r"\*\*Time:\*\* about (\d+) minutes", nb.cells[0].source)
    assert stated, f"{path.name}: the first cell states no '**Time:** about N minutes'"
    guide = (ROOT / "INSTRUCTORS.md").read_text()
    row = re.search(rf"^\| `{path.stem}` \| (\d+) min", guide, re.MULTILINE)
    assert row and row.group(1) == stated.group(1), (
        f"INSTRUCTORS.md gives {path.stem} {row.group(1) if row else 'no'} minutes, the lesson {stated.group(1)}")
    assert re.search(r"\*\*Next:\*\*", nb.cells[-1].source), f"{path.name}: the last cell has no **Next:** link"


# --- the student edition runs top to bottom unanswered ----------------------------------------------------------

@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_student_edition_runs_unanswered(path, tmp_path):
    notebook.build_student(tmp_path, [path])
    nb = nbformat.read(tmp_path / path.name, as_version=4)
    assert not any(role(cell, "solution") or cell.source.startswith("# Reference solution")
                   or "with reference_solution" in cell.source for cell in nb.cells), "a solution is left"
    assert all(cell.outputs == [] for cell in nb.cells if role(cell, "exercise") or role(cell, "check"))
    execute(nb, tmp_path)
    checks = [cell for cell in nb.cells if role(cell, "check")]
    for cell in checks:
        lines = text(cell).splitlines()
        assert len(lines) == len(notebook.check_ids(cell.source)), cell.source
        assert all(line.startswith("⏳") for line in lines), lines


# --- the full edition: reference solutions pass and never overwrite the learner -----------------------------------

@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_reference_solution_passes_its_check(path, tmp_path):
    nb = execute(nbformat.read(path, as_version=4), tmp_path)
    solutions = [cell for cell in nb.cells if role(cell, "solution")]
    assert solutions
    for cell in solutions:
        assert REFERENCE_PASSES.findall(text(cell)) == reference_ids(cell), cell.source


def test_run_all_keeps_a_wrong_learner_answer(tmp_path):
    nb = nbformat.read(ROOT / "notebooks" / "00_welcome.ipynb", as_version=4)
    learner = next(cell for cell in nb.cells if role(cell, "exercise") and "answer_0_1 = ..." in cell.source)
    learner.source = "answer_0_1 = 7  # a wrong answer"
    nb.cells.append(nbformat.v4.new_code_cell('check("0.1", answer_0_1)\nprint(answer_0_1)'))
    execute(nb, tmp_path)
    check_cell = next(cell for cell in nb.cells if role(cell, "check") and '"0.1"' in cell.source)
    assert text(check_cell).startswith("❌ 0.1:")
    assert any(REFERENCE_PASSES.search(text(cell)) for cell in nb.cells if role(cell, "solution"))
    after = text(nb.cells[-1]).splitlines()
    assert after[0].startswith("❌ 0.1:") and after[1] == "7"


# --- nbgrader: generate the assignment, grade the reference and an unanswered copy ------------------------------

def test_nbgrader_generates_and_autogrades(tmp_path, monkeypatch):
    pytest.importorskip("nbgrader")
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from sqlalchemy.exc import SAWarning
    from traitlets.config import Config

    # nbgrader runs the `alembic` command of its environment
    monkeypatch.setenv("PATH", os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ["PATH"]]))
    course = tmp_path / "course"
    notebook.build_nbgrader(course, [ROOT / "notebooks" / f"{name}.ipynb" for name in GRADED])
    config = Config()  # what `nbgrader` run in the course folder would read
    exec((course / "nbgrader_config.py").read_text(), {"get_config": lambda: config})
    config.CourseDirectory.root = str(course)
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SAWarning)  # nbgrader's own use of SQLAlchemy
        for name in GRADED:
            result = api.generate_assignment(name)
            assert result["success"], result["log"]
            release = "\n".join(cell.source for cell in nbformat.read(course / "release" / name / f"{name}.ipynb",
                                                                      as_version=4).cells)
            assert "BEGIN SOLUTION" not in release and "with reference_solution" not in release
            full = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
            visible = "\n".join(cell.source for cell in full.cells if not role(cell, "solution"))
            hidden = [line.strip() for cell in full.cells if role(cell, "solution")
                      for line in notebook.reference_body(cell.source).splitlines()]
            hidden = [line for line in hidden if line and not line.startswith("#") and line not in visible]
            assert hidden and not [line for line in hidden if line in release], f"{name}: the release shows a solution"
            for student, copy in (("reference", "source"), ("unanswered", "release")):
                (course / "submitted" / student / name).mkdir(parents=True)
                shutil.copy(course / copy / name / f"{name}.ipynb", course / "submitted" / student / name)
                result = api.autograde(name, student)
                assert result["success"], result["log"]
        points = {name: sum(cell.metadata["nbgrader"].get("points", 0) for cell in
                            nbformat.read(course / "source" / name / f"{name}.ipynb", as_version=4).cells
                            if cell.metadata.get("nbgrader", {}).get("grade")) for name in GRADED}
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            for name in GRADED:
                reference = gradebook.find_submission(name, "reference")
                unanswered = gradebook.find_submission(name, "unanswered")
                assert reference.max_score == points[name] > 0
                assert reference.score == points[name], f"{name}: the reference scores {reference.score}"
                assert unanswered.score == 0, f"{name}: an unanswered copy scores {unanswered.score}"
