"""Each student's own numbers (classroom.variants): drawn from the id, judged for that student, never the default."""

import json
import types

import numpy as np
import pytest

from classroom import checks, judge, safe_data, spec, variants

POINT = variants.variant(point=(1.0, 2.0, 3.0),
                         draw=lambda rng: {"point": tuple(float(v) for v in rng.integers(1, 9, size=3))})


def gradient_at(n):
    x1, x2, x3 = n.point
    return [x2 * x3 + np.exp(x1), x1 * x3, x1 * x2]


@pytest.fixture
def lesson_99(monkeypatch, tmp_path):
    """A lesson 99 with one exercise, 99.1, whose numbers are each student's own; its data in a folder of its own."""
    exercise = spec.value("gradient_99", expected=gradient_at, gradient=True, hints=["Product rule."],
                          mistakes=[(lambda n: [-g for g in gradient_at(n)], "every sign is flipped")])
    public = types.ModuleType("classroom.lessons.lesson_99")
    public.VARIANTS = {"99.1": POINT}
    answers = types.ModuleType("classroom.answers.lesson_99")
    answers.EXERCISES = {"99.1": exercise}
    monkeypatch.setitem(__import__("sys").modules, "classroom.lessons.lesson_99", public)
    monkeypatch.setitem(__import__("sys").modules, "classroom.answers.lesson_99", answers)
    monkeypatch.setattr(checks, "DATA", tmp_path)
    (tmp_path / "lesson_99.json").write_text(json.dumps({"99.1": exercise.data("99.1", public)}))
    for cached in (checks.lesson_data, checks.student_data):
        cached.cache_clear()
    monkeypatch.setattr(checks, "EXERCISES", checks.Exercises())
    monkeypatch.delenv("MINITAPE_STUDENT_ID", raising=False)
    yield exercise, public, tmp_path
    for cached in (checks.lesson_data, checks.student_data):
        cached.cache_clear()


def test_without_a_student_every_exercise_keeps_the_lesson_s_own_numbers():
    assert POINT.numbers("99.1", None).point == (1.0, 2.0, 3.0)


def test_a_student_s_numbers_are_the_same_every_time_and_differ_between_students_and_from_the_default():
    drawn = {student: POINT.numbers("99.1", student).point for student in [f"student{k}" for k in range(200)]}
    assert drawn["student7"] == POINT.numbers("99.1", "student7").point
    assert (1.0, 2.0, 3.0) not in drawn.values()
    assert len(set(drawn.values())) > 150   # 512 possible points: few pairs of 200 students share one


def test_a_draw_that_names_other_numbers_than_the_default_is_refused():
    wrong = variants.variant(point=(1.0,), draw=lambda rng: {"x": 2.0})
    with pytest.raises(ValueError, match="give both the same names"):
        wrong.numbers("99.1", "ada")


def test_your_numbers_prints_the_student_s_numbers(lesson_99, monkeypatch, capsys):
    assert variants.your_numbers("99.1").point == (1.0, 2.0, 3.0)
    monkeypatch.setenv("MINITAPE_STUDENT_ID", "ada")
    own = variants.your_numbers("99.1")
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "Exercise 99.1, the numbers: point = (1.0, 2.0, 3.0)"
    assert said[1] == f"Exercise 99.1, your numbers (student ada): point = {own.point!r}"


def test_the_check_judges_a_student_s_answer_for_their_own_numbers(lesson_99, monkeypatch, capsys):
    exercise, public, data = lesson_99
    safe_data.write_student_data(data, [99], ["ada", "bob"])
    monkeypatch.setenv("MINITAPE_STUDENT_ID", "ada")
    ada, bob = (gradient_at(POINT.numbers("99.1", s)) for s in ("ada", "bob"))
    assert checks.assess("99.1", ada) == ("correct", None)
    assert checks.assess("99.1", bob) == ("wrong", "the value is wrong")   # another student's answer
    assert checks.assess("99.1", gradient_at(POINT.numbers("99.1", None)))[0] == "wrong"   # the lesson's own
    assert checks.assess("99.1", [-g for g in ada]) == ("wrong", "every sign is flipped")
    assert checks.assess("99.1", [10 * g for g in ada]) == ("wrong", "the value is wrong")   # no slip oracle
    assert checks.assess("99.1", ...) == ("unanswered", None)


def test_a_student_s_data_holds_slow_hashes_salted_with_the_student_and_no_value(lesson_99):
    exercise, public, data = lesson_99
    (written,) = safe_data.write_student_data(data, [99], ["ada"])
    text = written.read_text()
    assert "ada" not in text and written.stem == variants.student_key("ada")
    slot = json.loads(text)["99.1"]["expected"][0][0]
    assert slot["kdf"] == judge.SLOW and "sorted" not in slot
    numbers = [g for g in gradient_at(POINT.numbers("99.1", "ada")) if g != round(g)]   # e**x1 + x2 x3
    assert numbers and not [g for g in numbers if f"{g:.6g}" in text or repr(g) in text]


def test_a_copy_without_the_student_s_data_says_so_and_still_waits_for_an_answer(lesson_99, monkeypatch):
    monkeypatch.setenv("MINITAPE_STUDENT_ID", "carol")
    assert checks.assess("99.1", ...) == ("unanswered", None)
    status, student = checks.assess("99.1", [1.0, 2.0, 3.0])
    assert (status, student) == ("unchecked", "carol")
    said = checks.line("99.1", status, student)
    assert said.startswith("📝 99.1: answered.") and "graded when you submit" in said


def test_a_long_check_line_is_wrapped_at_words():
    said = checks.line("9.9", "wrong", "a problem " * 20, ["a hint " * 15], 1)
    lines = said.splitlines()
    assert len(lines) > 2 and all(len(line) <= checks.WIDTH for line in lines)
    assert " ".join(line.strip() for line in lines) == " ".join(said.split())
    assert all(line.startswith("   ") for line in lines[1:])


def test_a_loose_tolerance_gets_no_self_check_of_a_student_s_own_numbers(lesson_99, monkeypatch):
    exercise, public, data = lesson_99
    exercise.rtol = 1e-3   # 460 rounded values a power of ten: a program would try them all in seconds
    safe_data.write_student_data(data, [99], ["ada"])
    monkeypatch.setenv("MINITAPE_STUDENT_ID", "ada")
    assert "expected" not in checks.student_data(99, "ada")["99.1"]
    assert checks.assess("99.1", gradient_at(POINT.numbers("99.1", "ada"))) == ("unchecked", "loose")
    assert checks.assess("99.1", ...) == ("unanswered", None)
    assert "there is none" in " ".join(checks.line("99.1", "unchecked", "loose").split())
