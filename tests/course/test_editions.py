"""The course's editions: the student build runs unanswered, reference solutions never overwrite the learner, and
nbgrader grades each part. That every reference solution passes its check is seen under nbval (conftest.py).

These tests execute notebooks in Jupyter kernels (nbclient, nbgrader), so they take a few minutes.
"""

import csv
import os
import pathlib
import re
import shutil
import subprocess
import sys

import nbformat
import pytest

from classroom import editions
from classroom.checks import REFERENCE_PASSES, reference_ids

nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra: pip install -e '.[test]'")

ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
GRADED = "05_reverse_mode"  # the lesson nbgrader grades here: multi-part exercises, pictures and tables
VERDICT = re.compile(r"^(✅ \S+: correct\.|❌ \S+: not correct yet: .+|⏳ \S+: not answered yet: .+)$")


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
    return tag in editions.tags(cell)


# --- the committed lessons are consistent with their data and their tags ------------------------------------------

@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_exercise_has_data_a_reference_and_a_tidy_lesson(path):
    nb = nbformat.read(path, as_version=4)
    checked = [c.exercise for cell in nb.cells if role(cell, "check") for c in editions.check_calls(cell.source)]
    referenced = [i for cell in nb.cells if role(cell, "solution") for i in reference_ids(cell.source)]
    assert checked, f"{path.name} has no check cell"
    lesson = int(path.name[:2])
    data = (ROOT / "classroom" / "data" / f"lesson_{lesson:02d}.json").read_text()
    assert all(f'"{i}": {{' in data for i in checked), "an id is checked but has no data"
    assert sorted(checked) == sorted(referenced), "every checked id needs exactly one reference solution"
    assert editions.tidy(nbformat.from_dict(nb)) == nb, (
        f"{path.name} is not tidy (grading metadata, an open or executed solution): "
        f"python -m classroom.editions tidy {path}")


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


# --- the student edition runs top to bottom unanswered ------------------------------------------------------------

@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_student_edition_runs_unanswered(path, tmp_path):
    editions.build_student(tmp_path, [path], wheel=False)
    assert not (tmp_path / "classroom" / "answers").exists()
    nb = nbformat.read(tmp_path / path.name, as_version=4)
    assert not any(role(cell, "solution") or cell.source.startswith("# Reference solution")
                   or "with reference_solution" in cell.source for cell in nb.cells), "a solution is left"
    assert all(cell.outputs == [] for cell in nb.cells if role(cell, "exercise") or role(cell, "check"))
    execute(nb, tmp_path)
    for cell in nb.cells:
        if role(cell, "check"):
            lines = text(cell).splitlines()
            assert len(lines) == len(editions.check_calls(cell.source)), cell.source
            assert all(line.startswith("⏳") and VERDICT.match(line) for line in lines), lines


def test_the_student_edition_stands_alone(tmp_path):
    editions.build_student(tmp_path, LESSONS)
    readme = (tmp_path / "README.md").read_text()
    (wheel,) = (tmp_path / "wheels").glob("minitape-*.whl")
    assert f'pip install "wheels/{wheel.name}[course]"' in readme and "jupyter lab 00_welcome.ipynb" in readme
    assert f"{len(LESSONS)} lessons" in readme and all(f"`{path.name}`" in readme for path in LESSONS)
    for name in ("LICENSE", "LICENSE-lessons"):
        assert (tmp_path / name).read_text() == (ROOT / name).read_text()
    for path in LESSONS:   # nothing sends a student to the repository's make commands or to its Binder
        words = "\n".join(cell.source for cell in nbformat.read(tmp_path / path.name, as_version=4).cells
                          if cell.cell_type == "markdown")
        assert not re.search(r"make (lab|test)|Binder|mybinder|environment\.yml", words), path.name
    assert "README.md in this folder" in (tmp_path / "00_welcome.ipynb").read_text()


def test_an_edition_is_built_from_the_lessons_as_committed(tmp_path, monkeypatch):
    repository = tmp_path / "repository"
    lesson = repository / "notebooks" / "00_welcome.ipynb"
    lesson.parent.mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / lesson.name, lesson)
    git = ["git", "-c", "user.name=teacher", "-c", "user.email=teacher@example.org"]
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "the course"]):
        subprocess.run(git + command, cwd=repository, check=True)
    monkeypatch.setattr(editions, "REPOSITORY", repository)
    editions.refuse_uncommitted([lesson])   # as committed: built
    nb = nbformat.read(lesson, as_version=4)
    learner = next(cell for cell in nb.cells if role(cell, "exercise") and "answer_0_1 = ..." in cell.source)
    learner.source = "answer_0_1 = 3 * 2**2"   # the teacher's own answer, typed into the lesson
    nbformat.write(nb, lesson)
    with pytest.raises(SystemExit, match="notebooks/00_welcome.ipynb differ from the last commit"):
        editions.refuse_uncommitted([lesson])
    subprocess.run(git + ["commit", "-qam", "answered"], cwd=repository, check=True)
    with pytest.raises(SystemExit, match=r"00_welcome.ipynb has answered learner cells \(cells \[\d+\]"):
        editions.refuse_uncommitted([lesson])


# --- the full edition: reference solutions never overwrite the learner --------------------------------------------

def test_run_all_keeps_a_wrong_learner_answer(tmp_path):
    nb = nbformat.read(ROOT / "notebooks" / "00_welcome.ipynb", as_version=4)
    learner = next(cell for cell in nb.cells if role(cell, "exercise") and "answer_0_1 = ..." in cell.source)
    learner.source = learner.source.replace("answer_0_1 = ...", "answer_0_1 = 7")   # a wrong answer, own numbers kept
    nb.cells.append(nbformat.v4.new_code_cell('check("0.1", answer_0_1)\nprint(answer_0_1)'))
    execute(nb, tmp_path)
    check_cell = next(cell for cell in nb.cells if role(cell, "check") and '"0.1"' in cell.source)
    assert text(check_cell).startswith("❌ 0.1: not correct yet:")
    assert any(REFERENCE_PASSES.search(text(cell)) for cell in nb.cells if role(cell, "solution"))
    after = text(nb.cells[-1]).replace("\n   ", " ").splitlines()   # the check's line, unwrapped
    assert after[0].startswith("❌ 0.1: not correct yet:") and after[1] == "7"


# --- nbgrader: the release keeps the lesson's pictures; the trusted grader scores each part on its own -----------

def nbgrader(course, *args):
    """``nbgrader ARGS`` run in the course folder as INSTRUCTORS.md says: with the course's environment activated
    (nbgrader runs its own helpers, such as alembic, from the PATH)."""
    environment = {**os.environ, "PATH": os.pathsep.join([str(pathlib.Path(sys.executable).parent),
                                                          os.environ["PATH"]])}
    done = subprocess.run(["nbgrader", *args], cwd=course, env=environment, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def submit(course, student, notebook):
    folder = course / "submitted" / student / GRADED
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / f"{GRADED}.ipynb")


def scores(course):
    """Each graded cell's score, by student and grade id, from the gradebook, and the totals nbgrader exports."""
    nbgrader(course, "export")
    with open(course / "grades.csv") as grades:
        totals = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(grades)}
    from nbgrader.api import Gradebook
    by_cell = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student in totals:
            notebook = gradebook.find_submission_notebook(GRADED, GRADED, student)
            by_cell[student] = {grade.name: grade.score for grade in notebook.grades}
    return totals, by_cell


def test_nbgrader_release_keeps_the_lessons_outputs_and_the_grader_scores_each_part(tmp_path):
    pytest.importorskip("nbgrader", reason="nbgrader is in the grading extra: pip install -e '.[grading]'")
    course = tmp_path / "course"
    editions.build_nbgrader(course, [ROOT / "notebooks" / f"{GRADED}.ipynb"])
    nbgrader(course, "generate_assignment", GRADED)

    source = nbformat.read(course / "source" / GRADED / f"{GRADED}.ipynb", as_version=4)
    release = nbformat.read(course / "release" / GRADED / f"{GRADED}.ipynb", as_version=4)
    released = "\n".join(cell.source for cell in release.cells)
    assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released
    assert not (course / "release" / GRADED / "classroom" / "answers").exists()
    full = nbformat.read(ROOT / "notebooks" / f"{GRADED}.ipynb", as_version=4)
    def pictures(nb):
        def picture(output):  # a tape or a plot: an <img> with its text alternative, or an image type
            data = output.get("data", {})
            return "<img" in data.get("text/html", "") or any(kind.startswith("image/") for kind in data)
        return sum(any(picture(o) for o in cell.get("outputs", [])) for cell in nb.cells)

    def teaching_outputs(nb):
        return sum(bool(cell.get("outputs")) for cell in nb.cells if not editions.tags(cell))

    assert pictures(full) > 0 and pictures(release) == pictures(full), "the release lost the lesson's pictures"
    assert teaching_outputs(release) == teaching_outputs(full) > 0
    assert not any(cell.outputs for cell in release.cells if role(cell, "exercise") or role(cell, "check"))

    points = {cell.metadata.nbgrader["grade_id"]: cell.metadata.nbgrader["points"] for cell in source.cells
              if cell.metadata.get("nbgrader", {}).get("grade")}
    assert {"ex5_5a-check", "ex5_5b-check"} <= points.keys()   # 5.5a and 5.5b: one graded cell each
    submit(course, "reference", source)
    one_wrong = nbformat.from_dict(source)
    cell = next(c for c in one_wrong.cells if "def negative_vjp" in c.source and role(c, "exercise"))
    cell.source = cell.source.replace("return (-g,)", "return (g,)")   # 5.5b wrong, the rest right
    assert "return (g,)" in cell.source
    submit(course, "one_part_wrong", one_wrong)
    environment = {**os.environ, "PATH": os.pathsep.join([str(pathlib.Path(sys.executable).parent),
                                                          os.environ["PATH"]])}
    refused = subprocess.run(["nbgrader", "autograde", GRADED], cwd=course, env=environment, capture_output=True,
                             text=True, timeout=900)   # it would score every check that runs: the course refuses it
    assert refused.returncode != 0 and "not by nbgrader autograde: run make grade" in refused.stdout + refused.stderr
    graded = subprocess.run([sys.executable, "-m", "classroom.grader", str(course)], capture_output=True, text=True,
                            timeout=900)
    assert graded.returncode == 0, graded.stdout + graded.stderr

    totals, by_cell = scores(course)
    total = sum(points.values())
    assert totals["reference"] == pytest.approx(total) and by_cell["reference"] == pytest.approx(points)
    assert by_cell["one_part_wrong"] == pytest.approx({**points, "ex5_5b-check": 0.0})
    assert totals["one_part_wrong"] == pytest.approx(total - points["ex5_5b-check"])
    feedback = nbformat.read(course / "autograded" / "one_part_wrong" / GRADED / f"{GRADED}.ipynb", as_version=4)
    assert ("❌ 5.5b: 0 of 0.5 points: on test case 1 of 3 its result is wrong in this way: the sign is wrong"
            in feedback.cells[0].source)
