"""No edition a student receives shows an exercise's answer before the learner has answered it.

Two things are tested on every lesson as committed:

* the student edition and the graded (nbgrader) release keep no stored output of an exercise, check or reveal cell
  (a reveal cell is the run after a "predict, then run" check, whose output is the answer);
* for every exercise whose answer is a value (``value`` and ``choice`` in ``classroom/answers/``, at the lesson's
  own numbers), no stored output of a cell before the exercise's check, and no markdown before it, shows that value
  as Python or NumPy print it, rounded to three significant digits or more, in either edition.

What is compared, honestly: the answers of value exercises only (a function exercise's answer is code, which no
output prints); a number is looked for only where its printed form has at least three significant digits, and a
tuple (a shape) only in outputs, since a small count, 0.5 or a shape that the question itself states would be
found in almost any lesson, answer or not. Those short answers are hidden where the lesson tags the cell that
prints them ``reveal`` (the first test), after the check (``classroom.editions.tidy`` refuses it before); this test
cannot tell an untagged cell that prints one. An exercise with no check cell is
a demonstration of the checks (lesson 00's 0.0), whose answer the lesson gives on purpose; and where the question
states the answer's numbers itself, ``STATED`` says so.
"""

import importlib
import math
import pathlib
import re

import nbformat
import numpy as np
import pytest

from classroom import editions, variants
from classroom.editions import tags

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
SHOWN = ("text/plain", "text/markdown", "text/html", "text/latex")
EDITIONS = {"student": editions.student_edition, "graded": editions.nbgrader_source}
# Exercises whose question shows their answer's numbers, on purpose: what the learner finds is another thing.
STATED = {"13.1a": "the question is whether naive_mul gives b's gradient the shape (3,) of b or the shape (4, 3) of "
                   "X, which the lesson shows (as it must) before asking"}


def read(path):
    return nbformat.read(path, as_version=4)


def shown(cell):
    """What a cell shows before it is run: a markdown cell's text, or a code cell's stored outputs."""
    if cell.cell_type == "markdown":
        return cell.source
    texts = []
    for output in cell.get("outputs", []):
        texts.append(output.get("text", ""))
        texts += [str(output.get("data", {}).get(kind, "")) for kind in SHOWN]
        texts.append(output.get("evalue", ""))
    return "\n".join(texts)


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


def significant_digits(text):
    """How many significant digits a printed number has: "0.1244" has 4, "6.0" and "0.50" have 1."""
    digits = re.sub(r"[^0-9]", "", text.split("e")[0]).strip("0")
    return len(digits)


def printed_forms(number):
    """The ways a lesson prints ``number`` (Python's repr, NumPy's, f-strings rounded to 1-12 digits) that are
    distinctive: three significant digits or more. A rounded answer shows it as well as an exact one, even where the
    check's tolerance would refuse it typed back."""
    number = float(number)
    if not math.isfinite(number):
        return set()
    forms = {repr(number), str(np.float64(number)), np.format_float_positional(number)}
    for digits in range(1, 13):
        forms |= {f"{number:.{digits}f}", f"{number:.{digits}g}", f"{number:.{digits}e}"}
    return {form for form in forms if significant_digits(form) >= 3}


def answers(lesson):
    """(exercise id, its right value at the lesson's own numbers) of a lesson's value exercises."""
    module = importlib.import_module(f"classroom.answers.lesson_{lesson:02d}")
    for exercise_id, spec in module.EXERCISES.items():
        if spec.reference is not None or spec.expected is None or spec.answer != "value":
            continue
        yield exercise_id, spec.expected_for(variants.numbers(exercise_id))


def looked_for(right):
    """(pattern, in markdown too) for each way the answer ``right`` can be shown."""
    if isinstance(right, (str, bool, np.bool_)):
        return []  # a word or a yes/no: the prose of any lesson holds them
    if isinstance(right, tuple) and all(isinstance(n, (int, np.integer)) for n in right):
        return [(re.escape(str(tuple(int(n) for n in right))), False)]
    array = np.asarray(getattr(right, "numpy", lambda: right)(), dtype=np.float64)
    patterns = [(rf"(?<![\d.]){re.escape(form)}(?![\d])", True)
                for number in np.unique(array.ravel()) for form in printed_forms(number)]
    if array.size > 1:
        patterns += [(re.escape(text), False) for text in {str(array), repr(array), str(array.tolist())}]
    return patterns


def check_cell_of(nb, exercise_id):
    """The index of the check cell of ``exercise_id``, or None for an exercise the lesson only demonstrates."""
    for index, cell in enumerate(nb.cells):
        if "check" in tags(cell) and any(call.exercise == exercise_id for call in editions.check_calls(cell.source)):
            return index
    return None


def shown_before_the_check(path, edition="student"):
    """(exercise id, cell index, what it shows) for every answer shown before its check in an edition."""
    nb = EDITIONS[edition](read(path))
    found = []
    for exercise_id, right in answers(int(path.stem[:2])):
        before = check_cell_of(nb, exercise_id)
        if before is None or exercise_id in STATED:
            continue
        for pattern, in_markdown in looked_for(right):
            for index, cell in enumerate(nb.cells[:before]):
                if cell.cell_type == "markdown" and not in_markdown:
                    continue
                match = re.search(pattern, shown(cell))
                if match:
                    found.append((exercise_id, index, match.group(0)))
    return found


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("path", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_no_answer_is_shown_before_its_exercises_check(path, edition):
    assert shown_before_the_check(path, edition) == []


def test_the_scan_finds_an_answer_printed_before_its_check(tmp_path):
    """The scan itself: lesson 03 with the worked example's numbers given back to exercise 3.2 shows its answer."""
    nb = read(NOTEBOOKS / "03_chain_rule.ipynb")
    edge_table = next(index for index, cell in enumerate(nb.cells) if "u2 -> x5" in shown(cell))
    x1, x2, x4, x6 = variants.numbers("3.2").inputs
    u2 = np.log(x1 * x2) * x4
    nb.cells[edge_table].outputs = [nbformat.v4.new_output("stream", text=f"u2 -> x5  {1 / (2 * np.sqrt(u2)):.4f}\n")]
    nbformat.write(nb, tmp_path / "03_chain_rule.ipynb")
    assert [(exercise, what) for exercise, _, what in shown_before_the_check(tmp_path / "03_chain_rule.ipynb")] \
        == [("3.2a", f"{1 / (2 * np.sqrt(u2)):.4f}")]
