"""scripts/renumber_lesson.py: a lesson's number changes everywhere the course names it, and nowhere else."""

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from repository_scripts import load_script

renumber_lesson = load_script("renumber_lesson")

ANSWERS_10 = '''"""Answers of lesson 10 (its data is classroom/data/lesson_10.json)."""
from classroom.lessons.lesson_10 import CASES
from classroom.spec import value

RATE = 10.0  # a float literal, not an exercise id
EXERCISES = {
    "10.1": value("y", expected=6.0, hints=["Finish exercise 10.1 before 10.2a."]),
    "10.2a": value("z", expected=1.0),
}
'''


def write_notebook(path, cells):
    nbformat.write(new_notebook(cells=cells), path)


def sources(path):
    return [cell.source for cell in nbformat.read(path, as_version=4).cells]


@pytest.fixture
def course(tmp_path):
    """A small course: 09 links to 10, lesson 10 has exercises and an answers file, 11 names 10 in prose."""
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    write_notebook(notebooks / "09_first.ipynb", [
        new_markdown_cell("# 09 · First\n\n| 10 | the tape | build it |"),
        new_markdown_cell("**Next:** [10 · The tape](10_tape.ipynb): build one."),
    ])
    check = new_code_cell('check("10.1", y)', execution_count=2, outputs=[
        new_output("stream", name="stdout", text="⏳ 10.1: not answered yet: replace the ... with your answer.\n")])
    check.metadata["tags"] = ["check"]
    learner = new_code_cell("y = ...  # a float", metadata={"tags": ["exercise"]})
    solution = new_code_cell('# Reference solution\nwith reference_solution("10.1"):\n    y = 6.0',
                             metadata={"tags": ["solution"]})
    write_notebook(notebooks / "10_tape.ipynb", [
        new_markdown_cell("# 10 · The tape\n\n**Prerequisites:** lessons 05 and 09"),
        new_code_cell('rng = np.random.default_rng(10)\nprint(f"{x:>10.4f}")\n'
                      'T = your_parts_or_reference(your_tape, ["10.1"], lesson=10)'),
        new_markdown_cell("### Exercise 10.1 (easy): a value\n\nSee exercise 10.1 of this lesson."),
        learner, check, solution,
    ])
    write_notebook(notebooks / "11_after.ipynb", [
        new_markdown_cell("# 11 · After\n\n**Prerequisites:** lessons 05 and 10; the tape of lesson 10 and "
                          "exercise 10.1. Its step is 10.5 times larger."),
    ])
    (tmp_path / "README.md").write_text("| `10_tape` | build a tape |\n")
    (tmp_path / "INSTRUCTORS.md").write_text("| `10_tape` | 60 min | 05, 09 |\n")
    for folder, name, text in (("answers", "lesson_10.py", ANSWERS_10), ("lessons", "lesson_10.py", "CASES = []\n"),
                               ("data", "lesson_10.json", DATA_10)):
        (tmp_path / "classroom" / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / "classroom" / folder / name).write_text(text)
    return tmp_path


DATA_10 = '{"10.1": {"name": "y", "cases": "classroom.lessons.lesson_10:CASES", "hints": ["See 10.2a."]}}\n'


def test_a_lesson_and_its_answers_move_and_every_mention_follows(course):
    renumber_lesson.renumber(course, "10", 12)
    notebooks = course / "notebooks"
    assert not (notebooks / "10_tape.ipynb").exists() and (notebooks / "12_tape.ipynb").exists()
    title, code, heading, _, check, solution = sources(notebooks / "12_tape.ipynb")
    assert title.startswith("# 12 · The tape") and "lessons 05 and 09" in title   # 09 is another lesson
    assert code == ('rng = np.random.default_rng(10)\nprint(f"{x:>10.4f}")\n'
                    'T = your_parts_or_reference(your_tape, ["12.1"], lesson=12)')
    assert heading == "### Exercise 12.1 (easy): a value\n\nSee exercise 12.1 of this lesson."
    assert check == 'check("12.1", y)' and 'reference_solution("12.1")' in solution
    cells = nbformat.read(notebooks / "12_tape.ipynb", as_version=4).cells
    assert cells[4].outputs[0].text.startswith("⏳ 12.1: not answered yet")
    assert cells[5].metadata.jupyter == {"source_hidden": True}   # the renamed lesson is tidy

    folder = course / "classroom"
    assert not any((folder / sub / f"lesson_10{suffix}").exists()
                   for sub, suffix in (("answers", ".py"), ("lessons", ".py"), ("data", ".json")))
    source = (folder / "answers" / "lesson_12.py").read_text()
    assert '"12.1": value' in source and '"12.2a": value' in source and "exercise 12.1 before 12.2a" in source
    assert "RATE = 10.0" in source and "data/lesson_12.json" in source and "lessons.lesson_12 import" in source
    assert (folder / "data" / "lesson_12.json").read_text() == (
        '{"12.1": {"name": "y", "cases": "classroom.lessons.lesson_12:CASES", "hints": ["See 12.2a."]}}\n')

    first, link = sources(notebooks / "09_first.ipynb")
    assert "| 12 | the tape |" in first and link.startswith("**Next:** [12 · The tape](12_tape.ipynb)")
    (after,) = sources(notebooks / "11_after.ipynb")
    assert after == ("# 11 · After\n\n**Prerequisites:** lessons 05 and 12; the tape of lesson 12 and "
                     "exercise 12.1. Its step is 10.5 times larger.")
    assert (course / "README.md").read_text() == "| `12_tape` | build a tape |\n"
    assert (course / "INSTRUCTORS.md").read_text() == "| `12_tape` | 60 min | 05, 09 |\n"   # a list for a reader


def test_a_number_that_is_taken_is_refused(course):
    with pytest.raises(SystemExit, match="renumber it first"):
        renumber_lesson.renumber(course, "10", 11)
    assert (course / "notebooks" / "10_tape.ipynb").exists()


def test_two_lessons_with_one_number_need_the_notebook_named(course):
    write_notebook(course / "notebooks" / "10_other.ipynb", [new_markdown_cell("# 10 · Other")])
    with pytest.raises(SystemExit, match="several notebooks have number 10"):
        renumber_lesson.renumber(course, "10", 13)


def test_only_rewrites_the_mentions_in_the_files_named(course):
    renumber_lesson.renumber(course, "10", 12, only=["notebooks/11_after.ipynb"])
    assert (course / "notebooks" / "10_tape.ipynb").exists()
    assert "lessons 05 and 12" in sources(course / "notebooks" / "11_after.ipynb")[0]
    assert (course / "README.md").read_text() == "| `10_tape` | build a tape |\n"


def test_a_lesson_without_a_notebook_here_has_its_mentions_moved(course):
    (course / "notebooks" / "10_tape.ipynb").unlink()   # a lesson still on another branch
    renumber_lesson.renumber(course, "11", 12)
    renumber_lesson.renumber(course, "10", 11)
    assert "lessons 05 and 11; the tape of lesson 11" in sources(course / "notebooks" / "12_after.ipynb")[0]
    assert sources(course / "notebooks" / "09_first.ipynb")[1].startswith("**Next:** [11 · The tape](11_tape.ipynb)")
    assert (course / "README.md").read_text() == "| `11_tape` | build a tape |\n"


def test_after_a_merge_two_lessons_with_one_number_are_told_apart(course):
    """Two branches each added a lesson 10: the named one moves with its links; the prose stays for a reader."""
    write_notebook(course / "notebooks" / "10_other.ipynb", [
        new_markdown_cell("# 10 · Other\n\nAfter lesson 09. See [10 · The tape](10_tape.ipynb).")])
    renumber_lesson.renumber(course, "10_other", 13)
    (other,) = sources(course / "notebooks" / "13_other.ipynb")
    assert other.startswith("# 13 · Other") and "[10 · The tape](10_tape.ipynb)" in other
    assert (course / "classroom" / "answers" / "lesson_10.py").exists()   # the tape's, untouched
    assert "lessons 05 and 10" in sources(course / "notebooks" / "11_after.ipynb")[0]
