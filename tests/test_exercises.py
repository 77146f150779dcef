"""The course's exercise checks print a pass, a wait, or what is wrong."""

import numpy as np

import minitape as mt
from minitape.exercises import check, check_function, check_that


def test_check_compares_numbers_arrays_and_tensors(capsys):
    check("a", mt.constant([1.0, 2.0]), np.array([1.0, 2.0]))
    check("b", [1.0, 2.0], [1.0, 2.5], hint="look again")
    check("c", np.ones((2, 1)), np.ones(2))
    check("d", None, 1.0)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["✅ a: correct.",
                     "❌ b: expected [1. , 2.5], got [1., 2.]. Hint: look again",
                     "❌ c: expected shape (2,), got shape (2, 1).",
                     "⏳ d: not answered yet: replace the ... with your answer."]


def test_check_function_reports_the_first_failing_input(capsys):
    check_function("sq", lambda x: x * x, lambda x: x ** 2, [1.0, 2.0])
    check_function("off", lambda x: x * 2, lambda x: x ** 2, [2.0, 3.0])
    check_function("boom", lambda x: 1 / 0, lambda x: x, [(1.0,)])
    check_function("todo", lambda x: ..., lambda x: x, [1.0])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "✅ sq: correct."
    assert lines[1] == "❌ off: for 3 expected 9, got 6."
    assert lines[2].startswith("❌ boom: calling it with 1 raised ZeroDivisionError")
    assert lines[3].startswith("⏳ todo: not answered yet")


def test_check_that(capsys):
    check_that("t", 1 < 2, "never shown")
    check_that("f", False, "the loss went up")
    assert capsys.readouterr().out.splitlines() == ["✅ t: correct.", "❌ f: the loss went up."]
