"""Every lesson fits one sitting and says what it asks: goals, time, prerequisites, exercises.

A lesson's time is estimated by one rule, so that the times the lessons state are comparable:
a minute per 100 words of prose, half a minute per code cell a learner runs (reference solutions
are not run), and 5, 10 or 15 minutes per exercise by its level (warm-up and easy, medium, stretch).
"""

import pathlib
import re

import nbformat
import pytest

LESSONS = sorted((pathlib.Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
EXERCISE = re.compile(r"^#+\s*Exercise\s+\d+\.\d+\s*\(([^)]*)\)", re.MULTILINE)
MINUTES_PER_EXERCISE = {"warm-up": 5, "easy": 5, "medium": 10, "stretch": 15}
MOST_MINUTES, MOST_WORDS, FEWEST_EXERCISES = 75, 2600, 3


def estimate(nb):
    """``(words of prose, estimated minutes, exercise levels)`` of a lesson, by the rule above.

    >>> prose = nbformat.v4.new_markdown_cell("### Exercise 1.1 (medium): go " + "w " * 98)
    >>> nb = nbformat.v4.new_notebook(cells=[prose, nbformat.v4.new_code_cell("x = 1")])
    >>> estimate(nb)
    (103, 11.53, ['medium'])
    """
    prose = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    words = len(prose.split())
    runs = [cell for cell in nb.cells if cell.cell_type == "code" and "solution" not in cell.metadata.get("tags", [])]
    levels = [level.strip().lower() for level in EXERCISE.findall(prose)]
    unknown = set(levels) - MINUTES_PER_EXERCISE.keys()
    if unknown:
        raise ValueError(f"exercise levels {sorted(unknown)} are not among {sorted(MINUTES_PER_EXERCISE)}")
    minutes = words / 100 + 0.5 * len(runs) + sum(MINUTES_PER_EXERCISE[level] for level in levels)
    return words, round(minutes, 2), levels


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_fits_one_sitting_and_states_its_time(path):
    nb = nbformat.read(path, as_version=4)
    words, minutes, levels = estimate(nb)
    assert words <= MOST_WORDS, f"{path.name}: {words} words of prose, more than {MOST_WORDS}"
    assert 5 * round(minutes / 5) <= MOST_MINUTES, f"{path.name}: about {minutes:.0f} minutes by the rule, more than 75"
    assert len(levels) >= FEWEST_EXERCISES, f"{path.name}: {len(levels)} exercises, fewer than {FEWEST_EXERCISES}"
    first = nb.cells[0].source
    stated = re.search(r"\*\*Time:\*\* about (\d+) minutes", first)
    assert stated and int(stated.group(1)) == 5 * round(minutes / 5), (
        f"{path.name} states {stated and stated.group(1)} minutes; the rule gives {minutes:.1f}, "
        f"so say about {5 * round(minutes / 5)}")
    assert re.search(r"\*\*After this (lesson|notebook) you will be able to\*\*", first), f"{path.name}: no goals"
    assert "**Prerequisites:**" in first, f"{path.name}: no prerequisites"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_has_an_exercise_that_asks_for_a_prediction_first(path):
    # Predicting what a tape will do before running it is how the course makes a learner think rather than copy.
    headings = [line for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "markdown"
                for line in cell.source.splitlines() if EXERCISE.match(line)]
    assert any("predict" in heading.lower() for heading in headings), (
        f"{path.name}: no exercise heading asks the learner to predict; its exercises: {headings}")
