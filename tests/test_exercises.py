"""The exercise checks: every feedback rule, stepped hints, nbgrader's raise, reference solutions, the tools."""

import math
from types import SimpleNamespace

import hypothesis.strategies as st
import nbformat
import numpy as np
import pytest
from hypothesis import assume, given, settings

import minitape as mt
from minitape.exercises import answers, check, checks, notebook, passes, reference_solution
from minitape.exercises.feedback import NONE_ANSWER
from minitape.exercises.spec import choice, expression, function, is_placeholder, parts_beside, predicate, value

HINTS = ["Nudge.", "Fuller hint.", "Fullest hint."]


@pytest.fixture
def lesson(monkeypatch):
    """A made-up lesson 99 whose exercises the tests fill in: ``lesson["99.1"] = value(...)``."""
    specs = {}
    monkeypatch.setitem(answers._lessons, 99, {"EXERCISES": specs})
    monkeypatch.setattr(checks, "_attempts", {})
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    return specs


def said(capsys):
    return capsys.readouterr().out.splitlines()


def problem(spec, answer):
    return spec.problem(answer)


# --- the three verdicts --------------------------------------------------------------------------------

def test_not_answered_right_and_wrong(lesson, capsys):
    lesson["99.1"] = value("y", expected=6.0, hints=HINTS)
    check("99.1", ...)
    check("99.1", 6.0000001)
    check("99.1", -6.0)
    assert said(capsys) == ["⏳ 99.1: not answered yet: replace the ... with your answer.",
                            "✅ 99.1: correct.",
                            "❌ 99.1: the sign is wrong. Hint: Nudge."]


def test_unknown_ids_name_the_problem(lesson):
    with pytest.raises(ValueError, match="not an exercise id"):
        check("five", 1.0)
    with pytest.raises(KeyError, match="'99.7' is not in the answers of lesson 99"):
        check("99.7", 1.0)


# --- what is wrong, in kind ------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, expected, says", [
    (None, 6.0, NONE_ANSWER),
    ([mt.constant(1.0), None], [1.0, 2.0], "item 1 of the list is None. A gradient is None when"),
    ("6", 6.0, "it is a str, not a number"),
    (mt.GradientTape, 6.0, "it is the class GradientTape, not a number: did you forget to call it?"),
    (mt.constant(6.0).numpy, 6.0, "it is a method, not a number: did you forget to call it?"),
    ({"x": 6}, 6.0, "it is a dict that holds something other than numbers"),
    ([[1.0, 2.0], [3.0]], [[1.0, 2.0], [3.0, 4.0]], "it is a list whose rows have different lengths"),
    (np.ones((2, 1)), np.ones(2), "its shape is (2, 1), the exercise asks for shape (2,)"),
    (mt.constant([1.0, 2.0]), mt.constant([1.0, 2.0], dtype=mt.float64),
     "its dtype is float32, the exercise asks for float64"),
    (-6.0, 6.0, "the sign is wrong"),
    ([1.0, -2.0, 3.0], [1.0, 2.0, 3.0], "the sign is wrong (1 of its 3 elements are wrong)"),
    (0.06, 6.0, "it is too small by a power of ten"),
    ([10.0, 20.0], [1.0, 2.0], "it is too large by a power of ten"),
    (12.0, 6.0, "it is off by a constant factor"),
    (6.0 / math.pi, 6.0, "it is off by a constant factor"),
    (-3.0, 6.0, "the sign is wrong and it is off by a constant factor"),
    ([1.5, 3.0, 4.5], [1.0, 2.0, 3.0], "it is off by a constant factor"),
    (6.001, 6.0, "it is close (within a percent) but outside the tolerance"),
    (97.0, 6.0, "it is too large by an order of magnitude or more"),
    (0.13, 6.0, "it is too small by an order of magnitude or more"),
    (7.0, 6.0, "the value is wrong"),
    (float("nan"), 6.0, "it contains NaN where a number is expected"),
    ([1.0, float("inf")], [1.0, 2.0], "it contains an infinity where a finite number is expected (1 of its 2"),
])
def test_value_says_what_is_wrong(answer, expected, says):
    assert problem(value("y", expected), answer).startswith(says)


def test_an_answer_just_outside_a_tight_tolerance_is_close_not_a_power_of_ten():
    assert problem(value("y", expected=1.0, rtol=1e-9), 1.0 + 1e-7).startswith("it is close (within a percent)")


def test_value_names_typical_slips():
    spec = value("slope", expected=6.0, mistakes=[(27.0, "that is the derivative at the wrong point")])
    assert problem(spec, 27.0) == "that is the derivative at the wrong point"
    assert problem(spec, -6.0) == "the sign is wrong"
    assert problem(spec, 6.0) is None


def test_value_accepts_tensors_lists_and_numbers_within_tolerance():
    spec = value("g", expected=[2.0, 3.0], rtol=1e-6)
    for right in ([2.0, 3.0], (2.0, 3.0), np.array([2.0, 3.0]), mt.constant([2.0, 3.0]),
                  [mt.constant(2.0), mt.constant(3.0)], [2.0 * (1 + 1e-7), 3.0]):
        assert problem(spec, right) is None
    assert problem(value("n", expected=3), 3) is None  # integers are numbers too
    assert problem(value("b", expected=True), True) is None
    assert problem(value("n", expected=3), True) == "it is a bool, not a number"


def test_sympy_answers_are_judged_not_crashed_on():
    sympy = pytest.importorskip("sympy")
    x = sympy.Symbol("x")
    spec = value("slope", expected=6.0)
    assert problem(spec, 2 * x).startswith("it is a SymPy expression in x, not a number: substitute")
    assert problem(spec, sympy.Integer(6)) is None  # a SymPy number is a number
    assert problem(spec, [sympy.Rational(1, 2) * 12]) is not None  # right value, wrong shape
    assert problem(spec, sympy.Rational(-6)) == "the sign is wrong"


def test_choice():
    mode = choice("mode", expected="reverse", options=["forward", "reverse"])
    assert problem(mode, " reverse ") is None
    assert problem(mode, "sideways") == "answer one of: 'forward', 'reverse'"
    assert problem(mode, "forward") == "that is not the right answer"
    shape = choice("shape", expected=(5, 3))
    assert problem(shape, [5, 3]) is None
    assert problem(shape, (3, 5)) == "that is not the right answer"
    assert problem(shape, "5, 3") == "it is a str, the exercise asks for a tuple"
    assert problem(choice("n", expected=3), 3.0) is None
    assert problem(choice("n", expected=3), "3") == "it is a str, the exercise asks for an int"


def test_function():
    spec = function("square", reference=lambda x: x * x, inputs=[(1.0,), (3.0,)])

    def stub(x):
        ...

    def forgot_return(x):
        x * x

    def skeleton(x):
        return ...  # replace the ... with your code

    assert is_placeholder(stub) and is_placeholder(skeleton) and not is_placeholder(forgot_return)
    assert not is_placeholder(lambda x: x + ...)  # the learner started: judged by running it
    assert problem(spec, stub) is ...
    assert problem(spec, lambda x: ...) is ...
    assert problem(spec, lambda x: x * ...) is ...  # the learner's ... reached an operation
    assert problem(spec, forgot_return).startswith(
        "it returned None on test case 1: is its return statement missing? If it returns a gradient: A gradient is "
        "None when the tape recorded no path")
    assert problem(spec, lambda x: 1 / 0) == "calling it on test case 1 raised ZeroDivisionError: division by zero"
    assert problem(spec, lambda x: 2 * x) == (
        "on test case 1 of 2 its result is wrong in this way: it is off by a constant factor")
    assert problem(spec, lambda x: x * x if x < 2 else x + 1) == (
        "on test case 2 of 2 its result is wrong in this way: the value is wrong")
    assert problem(spec, 4.0) == "it is a float, not a function: define it with def square(...)"
    assert problem(spec, lambda x: x**2) is None


def test_function_cannot_change_the_test_inputs():
    data = np.array([1.0, 2.0])
    spec = function("double", reference=lambda a: 2 * a, inputs=[(data,)])

    def doubles_in_place(a):
        a *= 2
        return a

    assert problem(spec, doubles_in_place) is None
    assert data.tolist() == [1.0, 2.0]


def test_expression():
    sympy = pytest.importorskip("sympy")
    x, y = sympy.symbols("x y")
    spec = expression("derivative", expected=sympy.cos(x) ** 2 - sympy.sin(x) ** 2, symbols=[x])
    assert problem(spec, sympy.cos(2 * x)) is None  # the same function, written differently
    assert problem(spec, sympy.sin(x) ** 2 - sympy.cos(x) ** 2) == "the sign is wrong"
    assert problem(spec, 3 * sympy.cos(2 * x)) == "it is off by a constant factor"
    assert problem(spec, sympy.sin(2 * x)) == "the expression is wrong"
    assert problem(spec, sympy.cos(2 * y)) == "it uses symbols the exercise does not: y"
    assert problem(spec, 1.0) == "it is a float, the exercise asks for a SymPy expression"


def test_predicate():
    def positive(answer):
        if answer is None:
            return ...
        return None if answer > 0 else "it is not positive"

    spec = predicate("p", test=positive)
    assert problem(spec, None) is ...
    assert problem(spec, 2.0) is None
    assert problem(spec, -1.0) == "it is not positive"
    assert problem(spec, "text") == ("testing it raised TypeError: '>' not supported between instances of "
                                     "'str' and 'int'")


# --- hints in steps ---------------------------------------------------------------------------------------

def test_hints_come_in_steps_and_an_unchanged_answer_does_not_advance_them(lesson, capsys):
    lesson["99.1"] = value("y", expected=6.0, hints=HINTS)
    lesson["99.2"] = value("z", expected=1.0, hints=["Other."])
    for answer in (-6.0, -6.0, 7.0, 8.0, 9.0, 9.0):
        check("99.1", answer)
    check("99.2", 2.0)
    hints = [line.split("Hint: ")[1] for line in said(capsys)]
    stuck = " " + checks.STUCK
    assert hints == ["Nudge.", "Nudge.", "Fuller hint.", "Fullest hint.", "Fullest hint." + stuck,
                     "Fullest hint." + stuck, "Other."]


def test_an_unchanged_wrong_function_does_not_advance_the_hints(lesson, capsys):
    lesson["99.3"] = function("f", reference=lambda x: x, inputs=[(1.0,)], hints=HINTS)

    def f(x):
        return 2 * x

    check("99.3", f)
    check("99.3", f)

    def f(x):  # the learner edits the function
        return 3 * x

    check("99.3", f)
    assert [line.split("Hint: ")[1] for line in said(capsys)] == ["Nudge.", "Nudge.", "Fuller hint."]


def test_an_answer_no_rule_foresaw_is_reported_not_raised(lesson, capsys):
    def fragile(answer):
        raise RuntimeError("unforeseen")

    lesson["99.1"] = value("y", expected=6.0)
    lesson["99.1"].judge = fragile
    check("99.1", 1.0)
    assert said(capsys) == ["❌ 99.1: the check could not judge this answer (RuntimeError: unforeseen)."]


def test_passes_is_silent_and_counts_nothing(lesson, capsys):
    lesson["99.1"] = value("y", expected=6.0, hints=HINTS)
    assert passes("99.1", 6.0) and not passes("99.1", -6.0) and not passes("99.1", ...)
    assert said(capsys) == [] and checks._attempts == {}


def test_no_hint_is_a_bare_sentence_and_questions_keep_their_mark(lesson, capsys):
    lesson["99.1"] = value("y", expected=6.0)
    lesson["99.2"] = predicate("y", test=lambda answer: "which point did you use?", hints=["Which x?"])
    check("99.1", 7.0)
    check("99.2", 7.0)
    assert said(capsys) == ["❌ 99.1: the value is wrong.", "❌ 99.2: which point did you use? Hint: Which x?"]


# --- never the expected value ------------------------------------------------------------------------------

def _messages(expected, answer):
    spec = value("y", expected=expected, hints=["Think again."])
    line = checks.report("99.1", spec, answer)
    return line.removeprefix("❌ 99.1: ")


def _shows(number, text):
    """Whether ``text`` shows ``number`` in any usual format of three or more characters."""
    forms = {repr(number), str(number), f"{number:g}", f"{number:.3g}", f"{number:.4g}", f"{number:.6g}",
             f"{abs(number):g}", f"{abs(number):.3g}", np.format_float_positional(number, precision=6, trim="-")}
    return any(len(form.lstrip("-")) >= 3 and form in text for form in forms)


wrong_scalars = st.sampled_from([lambda e: -e, lambda e: 10 * e, lambda e: e / 100, lambda e: 2 * e,
                                 lambda e: e * (1 + 1e-4), lambda e: 37 * e, lambda e: e + 1.5,
                                 lambda e: None, lambda e: "text", lambda e: [e, e], lambda e: float("nan")])


@settings(max_examples=300, deadline=None)
@given(expected=st.floats(min_value=-1e6, max_value=1e6), wrong=wrong_scalars)
def test_no_message_contains_the_expected_value(expected, wrong):
    assume(abs(expected) > 1e-3)
    answer = wrong(expected)
    message = _messages(expected, answer)
    assert not _shows(expected, message), message
    if not isinstance(answer, list):  # a scalar's message has no number in it at all (shapes aside)
        assert not any(ch.isdigit() for ch in message), message


@settings(max_examples=100, deadline=None)
@given(expected=st.lists(st.floats(min_value=-1e4, max_value=1e4), min_size=2, max_size=5),
       data=st.data())
def test_no_message_about_an_array_contains_an_expected_element(expected, data):
    assume(all(abs(e) > 1e-2 for e in expected))
    answer = [data.draw(st.sampled_from([e, -e, 10 * e, e + 1.0])) for e in expected]
    assume(answer != expected)
    message = _messages(np.array(expected), np.array(answer))
    assert not any(_shows(e, message) for e in expected), message


# --- nbgrader ------------------------------------------------------------------------------------------------

def test_under_nbgrader_a_check_that_is_not_passed_raises(lesson, capsys, monkeypatch):
    lesson["99.1"] = value("y", expected=6.0, hints=HINTS)
    check("99.1", 5.0)  # without nbgrader, a check never raises
    for mode in ("autograde", "validate"):
        monkeypatch.setenv("NBGRADER_EXECUTION", mode)
        check("99.1", 6.0)
        for answer in (..., 5.0):
            with pytest.raises(AssertionError, match="99.1"):
                check("99.1", answer)
    lines = said(capsys)
    assert lines[0].startswith("❌") and lines[1] == "✅ 99.1: correct." and lines[2].startswith("⏳")


# --- reference solutions never overwrite the learner ------------------------------------------------------

def _run(source, namespace):
    exec(compile(source, "<notebook cell>", "exec"), namespace)


def test_reference_solution_checks_itself_and_restores_the_globals_exactly(lesson, capsys):
    lesson["99.1"] = value("y", expected=6.0)
    lesson["99.2"] = choice("mode", expected="reverse")
    shared = [1, 2]
    namespace = {"__builtins__": __builtins__, "reference_solution": reference_solution, "y": "the learner's",
                 "shared": shared, "kept": 1}
    before = dict(namespace)
    _run('with reference_solution("99.1", "99.2"):\n'
         '    y = 6.0\n'
         '    mode = "reverse"\n'
         '    helper = lambda: 1\n'
         '    del kept\n'
         '    shared = "rebound"\n', namespace)
    assert namespace.keys() == before.keys()
    assert all(namespace[name] is before[name] for name in before)
    assert said(capsys) == [
        "✅ 99.1: the reference solution passes its check (your own answer is unchanged).",
        "✅ 99.2: the reference solution passes its check (your own answer is unchanged)."]


def test_a_failing_reference_solution_raises_and_still_restores(lesson):
    lesson["99.1"] = value("y", expected=6.0)
    namespace = {"reference_solution": reference_solution, "y": "the learner's"}
    with pytest.raises(AssertionError, match="the reference solution of 99.1 fails its own check: the sign is wrong"):
        _run('with reference_solution("99.1"):\n    y = -6.0\n', namespace)
    assert namespace["y"] == "the learner's"
    with pytest.raises(AssertionError, match="the reference solution of 99.1 does not define y"):
        _run('del y\nwith reference_solution("99.1"):\n    z = 6.0\n', namespace)
    with pytest.raises(ZeroDivisionError):  # an error inside the block is not hidden, and nothing leaks
        _run('with reference_solution("99.1"):\n    y = 1 / 0\n', namespace)
    assert "z" not in namespace


# --- the answers files and their tool ---------------------------------------------------------------------

def test_answers_are_stored_unreadable_and_round_trip(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(answers, "FOLDER", tmp_path)
    source = 'from minitape.exercises.spec import value\nEXERCISES = {"98.1": value("y", expected=42.0)}\n'
    src = tmp_path / "src.py"
    src.write_text(source)
    answers.main(["write", "98", str(src)])
    stored = (tmp_path / "98.answers").read_text()
    assert "42" not in stored and "EXERCISES" not in stored
    answers.main(["show", "98"])
    assert capsys.readouterr().out == source
    assert answers.spec("98.1").problem(42.0) is None
    monkeypatch.setitem(answers._lessons, 98, None)  # so the cache does not outlive the test
    src.write_text("ANSWERS = {}\n")
    with pytest.raises(ValueError, match="must define EXERCISES"):
        answers.main(["write", "98", str(src)])


def test_edit_opens_the_editor_on_the_decoded_source_and_stores_it_back(tmp_path, monkeypatch):
    monkeypatch.setattr(answers, "FOLDER", tmp_path)
    answers.write(97, "EXERCISES = {}\n")
    # the "editor" appends a line to the file it is given
    monkeypatch.setenv("EDITOR", "sh -c 'echo \"# edited\" >> \"$0\"'")
    answers.main(["edit", "97"])
    assert answers.decode((tmp_path / "97.answers").read_text()) == "EXERCISES = {}\n# edited\n"
    answers._lessons.pop(97, None)


# --- the notebook tool -------------------------------------------------------------------------------------

def _lesson_notebook():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md("# 99 · A lesson"), code("from minitape.exercises import check, reference_solution"),
             md("### Exercise 99.1 (medium): a number"), code("y = ...  # a number"), code('check("99.1", y)'),
             code('# Reference solution\nwith reference_solution("99.1"):\n    y = 6.0\n    print(y)'),
             md("**Next:** nowhere")]
    for index, role in ((3, "exercise"), (4, "check"), (5, "solution")):
        cells[index].metadata["tags"] = [role]
    return nbformat.v4.new_notebook(cells=cells)


def test_tag_sets_nbgrader_metadata_from_the_tags():
    nb = notebook.tag(_lesson_notebook())
    meta = [cell.metadata.get("nbgrader") for cell in nb.cells]
    assert meta[0] is None and meta[1] is None and meta[5] is None and meta[6] is None
    assert meta[2] == {"grade": False, "solution": False, "locked": True, "grade_id": "ex99_1-prompt",
                       "schema_version": 3}
    assert meta[3] == {"grade": False, "solution": True, "locked": False, "grade_id": "ex99_1-answer",
                       "schema_version": 3}
    assert meta[4] == {"grade": True, "solution": False, "locked": True, "grade_id": "ex99_1-check",
                       "points": 2, "schema_version": 3}
    assert nb.cells[5].metadata["jupyter"] == {"source_hidden": True}
    assert notebook.tag(nbformat.from_dict(nb)) == nb  # running it again changes nothing


def test_tag_rejects_cells_it_cannot_place():
    nb = _lesson_notebook()
    nb.cells[5].source = 'with reference_solution("99.1"):\n    y = 6.0'
    with pytest.raises(ValueError, match="does not start with '# Reference solution'"):
        notebook.tag(nb)
    nb.cells[5].source = '# Reference solution\nwith reference_solution("99.1"):\n    y = 6.0\nprint(y)'
    with pytest.raises(ValueError, match="move 'print\\(y\\)' inside it"):
        notebook.tag(nb)
    nb.cells[4].source = 'check("99.2", y)'
    with pytest.raises(ValueError, match="checks 99.2 under the heading of exercise 99.1"):
        notebook.tag(nb)
    nb.cells[4].source = "print(y)"
    with pytest.raises(ValueError, match="calls no check"):
        notebook.tag(nb)


def test_student_edition_and_nbgrader_source():
    nb = notebook.tag(_lesson_notebook())
    nb.cells[4].outputs = [nbformat.v4.new_output("stream", text="⏳ 99.1: not answered yet\n")]
    student = notebook.student_edition(nb)
    assert [c.metadata.get("tags") for c in student.cells].count(["solution"]) == 0
    assert student.cells[4].outputs == [] and len(nb.cells[4].outputs) == 1  # the original is untouched
    graded = notebook.nbgrader_source(nb)
    assert len(graded.cells) == len(nb.cells) - 1
    assert graded.cells[3].source == "y = ...  # a number\n### BEGIN SOLUTION\ny = 6.0\nprint(y)\n### END SOLUTION"


def test_parts_beside_finds_the_learners_parts_or_the_references_that_lent_the_answer():
    namespace = {}
    exec("class Value:\n    def __init__(self):\n        self.data = 0.0\n\n"
         "def add(a, b):\n    return Value()\n", namespace)
    assert parts_beside(namespace["add"], None, "Value") == [namespace["Value"]]
    with pytest.raises(LookupError, match="run the cells that define record, Tape first"):
        parts_beside(namespace["add"], None, "record", "Tape")
    reference = SimpleNamespace(Value=object, add=lambda a, b: None)
    assert parts_beside(reference.add, reference, "Value") == [object]  # a reference solution lent add
    assert parts_beside(namespace["Value"], reference, "add") == [namespace["add"]]  # a class: its __init__'s globals
