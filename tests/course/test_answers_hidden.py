"""No edition a student receives shows an exercise's answer before the learner has answered it.

Two things are tested on every lesson as committed:

* the student edition and the graded (nbgrader) release keep no stored output of an exercise, check or reveal cell
  (a reveal cell is the run after a "predict, then run" check, whose output is the answer);
* for every exercise whose answer is a value (``value`` and ``choice`` in ``classroom/answers/``, at the lesson's
  own numbers), no stored output of a cell before the exercise's check, and no markdown before it, shows that value
  as Python or NumPy print it, rounded to three significant digits or more, in either edition
  (``classroom.editions.answers_shown``, which ``python -m classroom.editions tidy`` also refuses).

What is compared, honestly: the answers of value exercises only (a function exercise's answer is code, which no
output prints); a number is looked for only where its printed form has at least three significant digits, and a
tuple (a shape) only in outputs, since a small count, 0.5 or a shape that the question itself states would be
found in almost any lesson, answer or not. Those short answers are hidden where the lesson tags the cell that
prints them ``reveal`` (the first test), after the check (``classroom.editions.tidy`` refuses it before); this test
cannot tell an untagged cell that prints one. An exercise with no check cell is
a demonstration of the checks (lesson 00's 0.0), whose answer the lesson gives on purpose; and where the question
states the answer's numbers itself, ``classroom.editions.STATED`` says so.
"""

import pathlib
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from classroom import editions, variants

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
EDITIONS = {"student": editions.student_edition, "graded": editions.nbgrader_source}


def read(path):
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_no_edition_keeps_the_outputs_of_exercise_check_or_reveal_cells(path):
    for edition in (make(read(path)) for make in EDITIONS.values()):
        kept = [index for index, cell in enumerate(edition.cells)
                if editions.cleared_roles(cell) and (cell.get("outputs") or cell.get("execution_count"))]
        assert not kept, f"{path.name}: cells {kept} keep their outputs"


def test_tidy_refuses_a_reveal_cell_before_its_exercises_check():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("### Exercise 9.9 (easy): predict, then run"),
        nbformat.v4.new_code_cell("guess = ...", metadata={"tags": ["exercise"]}),
        nbformat.v4.new_code_cell("print(6)", metadata={"tags": ["reveal"]}),
        nbformat.v4.new_code_cell('check("9.9", guess)', metadata={"tags": ["check"]})])
    with pytest.raises(ValueError, match=r"cell 2 is tagged reveal .* 9\.9\) but comes before that exercise's check"):
        editions.tidy(nb)
    nb.cells[2], nb.cells[3] = nb.cells[3], nb.cells[2]
    editions.tidy(nb)   # after the check it is where it belongs


def shown_before_the_check(path, edition="student"):
    """(exercise id, cell index, what it shows) for every answer shown before its check in an edition."""
    return editions.answers_shown(EDITIONS[edition](read(path)), int(path.stem[:2]))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_no_answer_is_shown_before_its_exercises_check(path, edition):
    assert shown_before_the_check(path, edition) == []


def test_the_scan_finds_an_answer_printed_before_its_check(tmp_path):
    """The scan itself: lesson 03 with the worked example's numbers given back to exercise 3.2 shows its answer."""
    nb = read(NOTEBOOKS / "03_chain_rule.ipynb")
    edge_table = next(index for index, cell in enumerate(nb.cells) if "u2 -> x5" in editions.shown(cell))
    x1, x2, x4, x6 = variants.numbers("3.2").inputs
    u2 = np.log(x1 * x2) * x4
    nb.cells[edge_table].outputs = [nbformat.v4.new_output("stream", text=f"u2 -> x5  {1 / (2 * np.sqrt(u2)):.4f}\n")]
    nbformat.write(nb, tmp_path / "03_chain_rule.ipynb")
    assert [(exercise, what) for exercise, _, what in shown_before_the_check(tmp_path / "03_chain_rule.ipynb")] \
        == [("3.2a", f"{1 / (2 * np.sqrt(u2)):.4f}")]


def test_tidy_refuses_a_lesson_that_shows_an_answer_before_its_check(tmp_path):
    nb = read(NOTEBOOKS / "03_chain_rule.ipynb")
    x1, x2, x4, x6 = variants.numbers("3.2").inputs
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text=f"{1 / (2 * np.sqrt(np.log(x1 * x2) * x4)):.6f}\n")]
    nbformat.write(nbformat.from_dict(nb), tmp_path / "03_chain_rule.ipynb")
    ran = subprocess.run([sys.executable, "-m", "classroom.editions", "tidy", str(tmp_path / "03_chain_rule.ipynb")],
                         capture_output=True, text=True, cwd=NOTEBOOKS.parent)
    assert ran.returncode == 1
    assert "cell 1 shows '0.496619', the answer of exercise 3.2a, before its check" in ran.stderr, ran.stderr
