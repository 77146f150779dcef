"""The trusted grader's judgement, in this process: every reference scores on the hidden cases, a stub and a wrong
answer do not, malformed data scores nothing, and each student is judged on their own numbers.

The sandbox and the whole route (nbgrader's gradebook, attacks by a student) are
tests/course/test_cheating_student.py's.
"""

import json
import pathlib

import nbformat
import numpy as np
import pytest

from classroom import editions, safe_data, variants
from classroom.grader import harvest, verdicts
from classroom.spec import value


def graded_exercises():
    """(exercise id, the reference answer) of every part the grader gives points for."""
    found = []
    for lesson in safe_data.lessons():
        for exercise_id, spec in verdicts.specs(lesson).items():
            if editions.graded(exercise_id):
                found.append((exercise_id, spec.reference if spec.reference is not None else spec.expected))
    return found


def harvested(exercise_id, answer, student=None):
    """What the harvest cell exports of ``answer`` on the exercise's hidden cases, through JSON as it travels."""
    spec = verdicts.specs(int(exercise_id.split(".")[0]))[exercise_id]
    if spec.reference is None and callable(answer):
        answer = answer(variants.numbers(exercise_id, student))
    cases = verdicts.hidden_cases(int(exercise_id.split(".")[0])).get(exercise_id) or spec.cases or [()]
    return json.loads(json.dumps(harvest.observations(exercise_id, answer, cases)))


def judged(exercise_id, answer, student=None):
    spec = verdicts.specs(int(exercise_id.split(".")[0]))[exercise_id]
    return verdicts.judged(spec, verdicts.reference(exercise_id, student), harvested(exercise_id, answer, student))


@pytest.mark.parametrize("exercise_id, right", graded_exercises(), ids=[i for i, _ in graded_exercises()])
def test_every_reference_scores_and_a_stub_does_not(exercise_id, right):
    assert judged(exercise_id, right) == (True, None)
    assert judged(exercise_id, ...) == (False, harvest.NOT_ANSWERED)


def predict_exercises():
    """The exercises whose heading says "predict": formative, so they carry no points and need no hidden cases."""
    found = set()
    for path in sorted((pathlib.Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9]*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            heading = editions.exercise_heading(cell.source) if cell.cell_type == "markdown" else None
            if heading and any(editions.PREDICT.search(line) for line in cell.source.splitlines()
                               if editions.HEADING.match(line)):
                found.add(heading[0])
    return found


def test_every_graded_function_is_graded_on_hidden_cases_of_its_own():
    predicted = predict_exercises()
    functions = [exercise_id for exercise_id, _ in graded_exercises()
                 if verdicts.specs(int(exercise_id.split(".")[0]))[exercise_id].reference is not None
                 and variants.exercise_number(exercise_id) not in predicted]
    assert len(functions) > 40
    for exercise_id in functions:
        lesson = int(exercise_id.split(".")[0])
        hidden, public = verdicts.hidden_cases(lesson).get(exercise_id), verdicts.specs(lesson)[exercise_id].cases
        assert hidden is not None, f"{exercise_id} has no hidden cases in classroom/hidden/lesson_{lesson:02d}.py"
        assert hidden and repr(hidden) != repr(public), exercise_id


def test_a_wrong_answer_scores_nothing_and_hears_what_is_wrong_in_kind():
    from classroom.answers import lesson_05, lesson_13
    right = lesson_05.EXERCISES["5.1"].expected_for(variants.numbers("5.1"))
    assert judged("5.1", [-v for v in right]) == (False, "the sign is wrong")
    assert judged("5.5a", lesson_05.cos_vjp_of_sin)[0] is False
    right, said = judged("13.3b", lesson_13.reduce_mean_as_sum)
    assert not right and "gradient of a is wrong" in said
    # an answer right on the public cases only: a function that recognises them
    public = [repr(case) for case in lesson_13.REDUCE_CASES]

    def memorised(a, axis=None):
        if repr(((a.data,), () if axis is None else (axis,))) in public:
            return lesson_13.reduce_sum(a, axis)
        return lesson_13.reduce_sum(a * 0.0, axis)
    assert judged("13.3a", memorised)[0] is False


@pytest.mark.parametrize("data", [None, [], [[{"array": [1.0, 2.0], "shape": [5], "dtype": "float64"}]],
                                  [[{"array": ["a"], "shape": [1], "dtype": "object"}]], [["6.0", 1]], {"x": 1}])
def test_malformed_data_scores_nothing(data):
    spec = value("slope", expected=6.0)
    right, said = verdicts.judged(spec, spec.observed(6.0), data)
    assert not right and said


def test_each_student_is_judged_on_their_own_numbers(monkeypatch):
    spec = value("slope", expected=lambda numbers: 3 * numbers.a ** 2)
    declared = variants.variant(a=1.0, draw=lambda rng: {"a": float(rng.integers(2, 50))})
    monkeypatch.setattr(verdicts, "specs", lambda lesson: {"99.1": spec})
    monkeypatch.setattr(variants, "lesson_variants", lambda lesson: {"99.1": declared})
    ada, bob = (3 * variants.numbers("99.1", s).a ** 2 for s in ("ada", "bob"))
    assert ada != bob
    assert verdicts.judged(spec, verdicts.reference("99.1", "ada"), [[ada]]) == (True, None)
    assert verdicts.judged(spec, verdicts.reference("99.1", "bob"), [[ada]])[0] is False   # a copied answer
    assert verdicts.judged(spec, verdicts.reference("99.1", None), [[3.0]]) == (True, None)


def test_the_harvest_encodes_what_the_judge_decodes():
    import minitape as mt
    for thing in [np.arange(6.0).reshape(2, 3), mt.constant([1.0, 2.0]), np.float32(1.5), (3, "reverse", None),
                  [1, 2.5], True, np.int64(7)]:
        back = verdicts.decoded(json.loads(json.dumps(harvest.encoded(thing))))
        expected = thing.numpy() if hasattr(thing, "numpy") else thing
        assert type(back) is type(expected) or isinstance(back, np.ndarray)
        assert np.array_equal(np.asarray(back, dtype=object), np.asarray(expected, dtype=object))


def test_the_feedback_says_what_is_wrong_and_when_the_kernel_saw_another_student():
    from classroom.grader.__main__ import feedback_lines
    parts = [("ex5_1-check", "5.1", 1.0), ("ex5_2a-check", "5.2a", 0.67)]
    said = {"5.1": (False, "the sign is wrong"), "5.2a": (True, None)}
    lines = feedback_lines(parts, said, {"ex5_1-check": 0.0, "ex5_2a-check": 0.67}, "bob", "ada")
    assert lines["ex5_1-check"] == "❌ 5.1: 0 of 1 points: the sign is wrong"
    assert lines["ex5_2a-check"] == "✅ 5.2a: 0.67 of 0.67 points"
    assert "ran as student 'bob', but it was submitted by 'ada'" in lines[None]
    assert None not in feedback_lines(parts, said, {"ex5_1-check": 0.0, "ex5_2a-check": 0.67}, "ada", "ada")


def test_a_notebook_without_the_releases_graded_cells_is_named_by_its_edition():
    from classroom.grader.__main__ import not_the_release
    parts = [("ex5_1-check", "5.1", 1.0)]
    release = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'check("5.1", gradient_1)', metadata={"nbgrader": {"grade": True, "grade_id": "ex5_1-check", "points": 1}})])
    edition = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('check("5.1", gradient_1)')])
    lesson = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("# Reference solution",
                                                                       metadata={"tags": ["solution"]})])
    assert not_the_release(release, parts, "05_reverse_mode") is None
    assert not_the_release(edition, parts, "05_reverse_mode").startswith(
        "this is the student edition of lesson 05, not the graded release: ask the student to fetch the release")
    assert not_the_release(lesson, parts, "05_reverse_mode").startswith("this is the course's own lesson 05")


def test_the_sandbox_mounts_its_tmp_before_what_it_reads(monkeypatch, tmp_path):
    """A checkout under /tmp (a CI clone) is bound over the sandbox's /tmp, never hidden by it."""
    from classroom.grader import sandbox
    monkeypatch.setattr(sandbox, "ready", lambda: None)
    monkeypatch.setattr(sandbox, "readable_paths", lambda: [pathlib.Path("/tmp/checkout/.venv")])
    (tmp_path / "lesson.ipynb").write_text("{}")
    command = sandbox.command(tmp_path, tmp_path, "ada")
    tmp = command.index("--tmpfs")
    assert command[tmp + 1] == "/tmp"
    binds = [k for k, arg in enumerate(command) if arg in ("--ro-bind", "--bind", "--symlink")]
    assert binds and all(k > tmp for k in binds)
    assert command[command.index("/tmp/checkout/.venv") - 1] == "--ro-bind"
