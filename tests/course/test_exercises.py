"""The exercise checks: the rounding and hashing, every feedback rule, stepped hints, nbgrader's raise, reference
solutions, the data files and the editions tool, and the hidden tests' grader."""

import math
import sys

import hypothesis.strategies as st
import nbformat
import numpy as np
import pytest
from hypothesis import assume, given, settings

import classroom
import minitape as mt
from classroom import checks
from classroom import editions, judge, safe_data
from classroom.checks import check, passed, reference_solution
from classroom.probes import Slot, Wrong, call, is_placeholder, parts
from classroom.spec import choice, function, judged_by, value

HINTS = ["Nudge.", "Fuller hint.", "Fullest hint."]
THIS = sys.modules[__name__]  # the public module of the made-up exercises below (their probes and cases)


@pytest.fixture
def lesson(monkeypatch):
    """Declare made-up exercises of a lesson 99: ``lesson("99.1", value(...))``; their data is what students get."""
    monkeypatch.setattr(checks, "_attempts", {})
    monkeypatch.setattr(checks, "_said", {})
    monkeypatch.setattr(checks, "_lent", {})
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)

    def declare(exercise_id, spec):
        monkeypatch.setitem(checks.EXERCISES, exercise_id, spec.data(exercise_id, THIS))
    return declare


def said(capsys):
    """The lines printed, each check's line unwrapped (a long one is wrapped at words, its further lines indented)."""
    return capsys.readouterr().out.replace("\n   ", " ").splitlines()


def problem(spec, answer, exercise_id="99.9"):
    """What the check says is wrong with ``answer`` (None if right, ... if not answered)."""
    status, what = judge.verdict(exercise_id, {exercise_id: spec.data(exercise_id, THIS)}, answer, checks.resolve)
    return ... if status == "unanswered" else what


# --- the verdicts, in words --------------------------------------------------------------------------------------

def test_not_answered_right_and_wrong_each_say_their_verdict_in_words(lesson, capsys):
    lesson("99.1", value("y", expected=6.0, hints=HINTS))
    check("99.1", ...)
    check("99.1", 6.0000001)
    check("99.1", -6.0)
    assert said(capsys) == ["⏳ 99.1: not answered yet: replace the ... with your answer.",
                            "✅ 99.1: correct.",
                            "❌ 99.1: not correct yet: the sign is wrong. Hint: Nudge."]


def test_unknown_ids_name_the_problem(lesson):
    with pytest.raises(ValueError, match="not an exercise id"):
        check("five", 1.0)
    with pytest.raises(FileNotFoundError, match="lesson 98 has no exercise data"):
        check("98.1", 1.0)


# --- rounding at the tolerance: a right answer always passes, a wrong one never -----------------------------------

values = st.floats(min_value=-1e8, max_value=1e8, allow_nan=False)
tolerances = st.sampled_from([(1e-6, 1e-12), (1e-9, 1e-12), (1e-12, 1e-15), (1e-3, 1e-12), (1e-10, 1e-30)])


@settings(max_examples=300, deadline=None)
@given(right=values, tolerance=tolerances, where=st.floats(min_value=-1.0, max_value=1.0))
def test_every_answer_within_the_tolerance_is_accepted(right, tolerance, where):
    rtol, atol = tolerance
    answer = right + where * (atol + rtol * abs(right))  # anywhere in np.allclose's tolerance, edges included
    assume(np.isclose(answer, right, rtol=rtol, atol=atol))
    slot = judge.numeric_slot(right, rtol, atol, "salt")
    assert judge.compare(answer, slot, "salt") is None


@settings(max_examples=300, deadline=None)
@given(right=values, tolerance=tolerances, factor=st.floats(min_value=4.0, max_value=1e6))
def test_no_answer_beyond_four_times_the_tolerance_is_accepted(right, tolerance, factor):
    rtol, atol = tolerance
    for sign in (1, -1):
        answer = right + sign * factor * (atol + rtol * abs(right))
        assume(answer != right)
        assert judge.compare(answer, judge.numeric_slot(right, rtol, atol, "salt"), "salt") is not None


@settings(max_examples=100, deadline=None)
@given(right=st.lists(values, min_size=2, max_size=8), data=st.data())
def test_an_array_whose_every_number_is_within_the_tolerance_is_accepted(right, data):
    slot = judge.numeric_slot(right, 1e-6, 1e-12, "salt")
    moved = [x + data.draw(st.floats(min_value=-1.0, max_value=1.0)) * (1e-12 + 1e-6 * abs(x)) for x in right]
    assume(np.allclose(moved, right, rtol=1e-6, atol=1e-12))
    assert judge.compare(moved, slot, "salt") is None


def test_the_data_of_an_answer_holds_its_kind_and_hashes_and_not_its_value():
    for right in (6.0, 12.718281828459045, [8.718281828459045, 3.0, 2.0], np.float32(0.25), np.eye(3)):
        slot = judge.numeric_slot(right, 1e-6, 1e-12, "salt")
        assert set(slot) <= {"rtol", "atol", "shape", "finite", "grids", "hash", "dtype", "sorted"}
        assert slot["shape"] == list(np.shape(right)) and set(slot["grids"]) <= {"0", "1"}
        assert len(slot["grids"]) == np.size(right) and len(slot["hash"]) == 64
        assert set(slot.get("sorted", {})) <= {"grids", "hash"}
    exact = judge.exact_slot((5, 3), "s", options=None)
    assert set(exact) == {"kind", "type", "hash"} and "5" not in exact["kind"] + exact["type"]
    assert judge.compare(3, judge.exact_slot(3, "s"), "s") is None
    with pytest.raises(ValueError, match="rtol must be within"):
        judge.numeric_slot(1.0, 0.5, 1e-12, "salt")


# --- what is wrong, in kind ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, expected, says", [
    (None, 6.0, "it is None, not a number"),
    ([mt.constant(1.0), None], [1.0, 2.0], "item 1 of the list is None, not a number"),
    ("6", 6.0, "it is a str, not a number"),
    (mt.GradientTape, 6.0, "it is the class GradientTape, not a number: did you forget to call it?"),
    (mt.constant(6.0).numpy, 6.0, "it is a method, not a number: did you forget to call it?"),
    ({"x": 6}, 6.0, "it is a dict that holds something other than numbers"),
    ([[1.0, 2.0], [3.0]], [[1.0, 2.0], [3.0, 4.0]], "it is a list whose rows have different lengths"),
    (np.ones((2, 1)), np.ones(2), "its shape is (2, 1), the exercise asks for shape (2,)"),
    (np.arange(6.0).reshape(3, 2), np.ones((2, 3)), "its shape is (3, 2), the exercise asks for shape (2, 3)"),
    (np.arange(6.0).reshape(3, 2), np.arange(6.0).reshape(3, 2).T, "it is the transpose of the right array"),
    (mt.constant([1.0, 2.0]), mt.constant([1.0, 2.0], dtype=mt.float64),
     "its dtype is float32, the exercise asks for float64"),
    (-6.0, 6.0, "the sign is wrong"),
    (0.06, 6.0, "it is too small by a power of ten"),
    ([10.0, 20.0], [1.0, 2.0], "it is too large by a power of ten"),
    (12.0, 6.0, "it is off by a constant factor"),
    (6.0 / math.pi, 6.0, "it is off by a constant factor"),
    (-3.0, 6.0, "the sign is wrong and it is off by a constant factor"),
    ([2.0, 3.0, 1.0], [1.0, 2.0, 3.0], "it holds the right numbers in another order"),
    (7.0, 6.0, "the value is wrong"),
    (float("nan"), 6.0, "it contains NaN where a number is expected"),
    ([1.0, float("inf")], [1.0, 2.0], "it contains an infinity where a finite number is expected"),
    (np.array([1.0 + 2.0j]), [1.0], "it is a ndarray of complex numbers, the exercise asks for real ones"),
])
def test_value_says_what_is_wrong(answer, expected, says):
    assert problem(value("y", expected), answer).startswith(says)


def test_none_speaks_of_tapes_only_where_the_answer_is_a_gradient():
    assert problem(value("forward_1_1", expected=6.1), None) == "it is None, not a number"
    assert problem(value("dy_dx", expected=6.0, gradient=True), None).startswith(
        "it is None. A gradient is None when the tape recorded no path")


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
    shape = choice("shape", expected=(5, 3), mistakes=[((3, 5), "the right sizes in the wrong order")])
    assert problem(shape, [5, 3]) is None
    assert problem(shape, (3, 5)) == "the right sizes in the wrong order"
    assert problem(shape, "5, 3") == "it is a str, the exercise asks for a tuple"
    assert problem(choice("n", expected=3), 3.0) is None
    assert problem(choice("n", expected=3), "3") == "it is a str, the exercise asks for an int"
    assert problem(choice("n", expected=3), None) == "it is None, the exercise asks for an int"


# --- functions: the same clear verdict for a stub, a `pass`, a missing return and a wrong type in every part -------

def square_reference(x):
    return x * x


SQUARE_CASES = [(1.0,), (3.0,)]


def test_a_function_answer_runs_on_public_cases():
    spec = function("square", reference=square_reference, cases=SQUARE_CASES)
    assert problem(spec, lambda x: x**2) is None
    assert problem(spec, lambda x: 1 / 0) == "calling it on test case 1 raised ZeroDivisionError: division by zero"
    assert problem(spec, lambda x: 2 * x) == (
        "on test case 1 of 2 its result is wrong in this way: it is off by a constant factor")
    assert problem(spec, lambda x: x * x if x < 2 else x + 1) == (
        "on test case 2 of 2 its result is wrong in this way: the value is wrong")
    assert problem(spec, lambda x: x * ...) is ...  # the learner's ... reached an operation


def test_function_cannot_change_the_test_inputs():
    data = np.array([1.0, 2.0])
    THIS.DOUBLE_CASES = [(data,)]
    spec = function("double", reference=lambda a: 2 * a, cases=THIS.DOUBLE_CASES)

    def doubles_in_place(a):
        a *= 2
        return a

    assert problem(spec, doubles_in_place) is None
    assert data.tolist() == [1.0, 2.0]


def stub(x):
    return ...  # replace the ... with your code


def bare_stub(x):
    ...


def body_pass(x):
    pass


def forgot_return(x):
    x * x


def returns_twice_x(x):
    return 2 * x


def at_least_square(answer):
    """A property of the answer, as a ``judged_by`` part of an exercise checks it."""
    if call(answer, 3.0) < 9.0:
        return "it is below x² at 3"
    return None


def test_pass_a_missing_return_and_a_wrong_type_get_one_clear_verdict_in_every_part():
    parts_of_one_exercise = [function("square", reference=square_reference, cases=SQUARE_CASES),
                             judged_by("square", test=at_least_square)]
    assert is_placeholder(stub) and is_placeholder(bare_stub)
    assert not is_placeholder(body_pass) and not is_placeholder(forgot_return) and not is_placeholder(lambda x: None)
    for spec in parts_of_one_exercise:
        assert problem(spec, stub) is ... and problem(spec, bare_stub) is ...
        for answer in (body_pass, forgot_return):
            assert problem(spec, answer).startswith("it returned None"), problem(spec, answer)
            assert problem(spec, answer).endswith("is its return statement missing?")  # no word of tapes here
        assert problem(spec, "x * x") == "it is a str, not a function: define it with def square(...)"
        assert problem(spec, 4.0) == "it is a float, not a function: define it with def square(...)"
    assert problem(parts_of_one_exercise[1], returns_twice_x) == "it is below x² at 3"


def test_a_function_that_returns_a_gradient_is_told_about_tapes_when_it_returns_none():
    spec = function("derivative", reference=square_reference, cases=SQUARE_CASES, gradient=True)
    assert "A gradient is None when the tape" in problem(spec, forgot_return) or \
        "a gradient is None when the tape" in problem(spec, forgot_return)


def test_a_probe_observes_slots_and_says_which_is_wrong():
    spec = function("divide", reference=lambda a, b: (a / b, -a / b**2), cases=THIS.PAIR_CASES,
                    probe=THIS.pair_probe, mistakes=[(lambda a, b: (a / b, a / b**2), "the derivative's sign slipped")])
    assert problem(spec, lambda a, b: (a / b, -a / b**2)) is None
    assert problem(spec, lambda a, b: (a / b, a / b**2)) == "the derivative's sign slipped"
    assert problem(spec, lambda a, b: (a + b, -a / b**2)) == "the quotient of 1.0 and 2.0 is wrong: the value is wrong"
    assert problem(spec, lambda a, b: "no") == "it should return a pair"


PAIR_CASES = [(1.0, 2.0), (3.0, -4.0)]


def pair_probe(divide, a, b):
    result = call(divide, a, b)
    if not isinstance(result, tuple):
        raise Wrong("it should return a pair")
    return [Slot(result[0], f"the quotient of {a} and {b} is wrong: {{}}"), Slot(result[1], "the derivative: {}")]


def test_parts_are_found_where_the_answer_was_defined():
    namespace = {}
    exec("class Value:\n    def __init__(self):\n        self.data = 0.0\n\n"
         "def add(a, b):\n    return Value()\n", namespace)
    assert parts(namespace["add"], "Value") == [namespace["Value"]]
    assert parts(namespace["Value"], "add") == [namespace["add"]]  # a class: its methods' globals
    with pytest.raises(Wrong, match="run the cells that define record, Tape first"):
        parts(namespace["add"], "record", "Tape")


def test_an_exercise_that_builds_on_another_waits_for_it(lesson, capsys):
    lesson("99.1", choice("base", expected=2))
    lesson("99.2", judged_by("top", test=at_least_square, needs={"99.1": "base"}))
    namespace = {"base": 3}
    exec("def top(x):\n    return x * x\n", namespace)
    check("99.2", namespace["top"])
    namespace["base"] = 2
    check("99.2", namespace["top"])
    assert said(capsys) == ["❌ 99.2: not correct yet: it builds on your base, which does not pass exercise 99.1 "
                            "yet: finish that first.", "✅ 99.2: correct."]


# --- hints in steps, and passed() ---------------------------------------------------------------------------------

def test_hints_come_in_steps_and_an_unchanged_answer_does_not_advance_them(lesson, capsys):
    lesson("99.1", value("y", expected=6.0, hints=HINTS))
    lesson("99.2", value("z", expected=1.0, hints=["Other."]))
    for answer in (-6.0, -6.0, 7.0, 8.0, 9.0, 9.0):
        check("99.1", answer)
    check("99.2", 2.0)
    hints = [line.split("Hint: ")[1] for line in said(capsys)]
    stuck = " " + checks.STUCK
    assert hints == ["Nudge.", "Nudge.", "Fuller hint.", "Fullest hint.", "Fullest hint." + stuck,
                     "Fullest hint." + stuck, "Other."]


def test_an_unchanged_wrong_function_does_not_advance_the_hints(lesson, capsys):
    lesson("99.3", function("f", reference=square_reference, cases=SQUARE_CASES, hints=HINTS))

    def f(x):
        return 2 * x

    check("99.3", f)
    check("99.3", f)

    def f(x):  # the learner edits the function
        return 3 * x

    check("99.3", f)
    assert [line.split("Hint: ")[1] for line in said(capsys)] == ["Nudge.", "Nudge.", "Fuller hint."]


def test_an_answer_no_rule_foresaw_is_reported_not_raised(lesson, capsys, monkeypatch):
    lesson("99.1", value("y", expected=6.0))

    def fragile(*args):
        raise RuntimeError("unforeseen")

    monkeypatch.setattr(checks, "verdict", fragile)
    check("99.1", 1.0)
    assert said(capsys) == ["❌ 99.1: not correct yet: the check could not judge this answer (RuntimeError: "
                            "unforeseen)."]


def test_passed_reports_the_last_check_and_judges_nothing(lesson, capsys):
    lesson("99.1", value("y", expected=6.0, hints=HINTS))
    assert not passed("99.1")
    check("99.1", 5.0)
    assert not passed("99.1")
    check("99.1", 6.0)
    assert passed("99.1") and not passed("99.1", "99.2")
    assert not hasattr(classroom, "passes") and not hasattr(checks, "passes")  # no silent oracle anywhere


# --- never the expected value --------------------------------------------------------------------------------------

def _message(expected, answer):
    return checks.line("99.1", *judge.verdict("99.1", {"99.1": value("y", expected).data("99.1", THIS)}, answer,
                                              checks.resolve)).removeprefix("❌ 99.1: not correct yet: ")


def _shows(number, text):
    """Whether ``text`` shows ``number`` in any usual format of three or more characters."""
    forms = {repr(number), str(number), f"{number:g}", f"{number:.3g}", f"{number:.4g}", f"{number:.6g}",
             f"{abs(number):g}", f"{abs(number):.3g}", np.format_float_positional(number, precision=6, trim="-")}
    return any(len(form.lstrip("-")) >= 3 and form in text for form in forms)


wrong_scalars = st.sampled_from([lambda e: -e, lambda e: 10 * e, lambda e: e / 100, lambda e: 2 * e,
                                 lambda e: e * (1 + 1e-4), lambda e: 37 * e, lambda e: e + 1.5 + 1e-4 * abs(e),
                                 lambda e: None, lambda e: "text", lambda e: [e, e], lambda e: float("nan")])


@settings(max_examples=150, deadline=None)
@given(expected=st.floats(min_value=-1e6, max_value=1e6), wrong=wrong_scalars)
def test_no_message_contains_the_expected_value(expected, wrong):
    assume(abs(expected) > 1e-3)
    answer = wrong(expected)
    message = _message(expected, answer)
    assert not _shows(expected, message), message
    if not isinstance(answer, list):  # a scalar's message has no number in it at all (shapes aside)
        assert not any(ch.isdigit() for ch in message), message


# --- nbgrader ---------------------------------------------------------------------------------------------------------

def test_a_check_never_raises_even_under_nbgrader(lesson, capsys, monkeypatch):
    """A check is feedback: grades come from the trusted grader, outside the student's Python."""
    lesson("99.1", value("y", expected=6.0, hints=HINTS))
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    for answer in (..., 5.0, 6.0):
        check("99.1", answer)
    lines = said(capsys)
    assert lines[0].startswith("⏳") and lines[1].startswith("❌") and lines[2] == "✅ 99.1: correct."


# --- reference solutions never overwrite the learner, and lend what they defined to the next ones ---------------

def _run(source, namespace):
    exec(compile(source, "<notebook cell>", "exec"), namespace)


def test_reference_solution_checks_itself_and_restores_the_globals_exactly(lesson, capsys):
    lesson("99.1", value("y", expected=6.0))
    lesson("99.2", choice("mode", expected="reverse"))
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
        f"Reference solution of {exercise}: it passes the check. This line is about the reference, not your answer: "
        f"your own check is the line above the solution, and your answer is unchanged."
        for exercise in ("99.1", "99.2")]


def test_a_reference_solution_builds_on_the_earlier_references_not_on_the_learners_answers(lesson, capsys):
    lesson("99.1", choice("base", expected=2))
    lesson("99.2", judged_by("top", test=at_least_square, needs={"99.1": "base"}))
    namespace = {"__builtins__": __builtins__, "reference_solution": reference_solution, "base": ...}
    _run('with reference_solution("99.1"):\n    base = 2\n', namespace)
    assert namespace["base"] is ...   # the learner's stub is back
    _run('with reference_solution("99.2"):\n    def top(x):\n        return x * x\n', namespace)
    assert namespace["base"] is ... and "top" not in namespace
    assert said(capsys)[-1].startswith("Reference solution of 99.2: it passes the check.")


def test_a_failing_reference_solution_raises_and_still_restores(lesson):
    lesson("99.1", value("y", expected=6.0))
    namespace = {"reference_solution": reference_solution, "y": "the learner's"}
    with pytest.raises(AssertionError, match="the reference solution of 99.1 fails its own check: the sign is wrong"):
        _run('with reference_solution("99.1"):\n    y = -6.0\n', namespace)
    assert namespace["y"] == "the learner's"
    with pytest.raises(AssertionError, match="the reference solution of 99.1 does not define y"):
        _run('del y\nwith reference_solution("99.1"):\n    z = 6.0\n', namespace)
    with pytest.raises(ZeroDivisionError):  # an error inside the block is not hidden, and nothing leaks
        _run('with reference_solution("99.1"):\n    y = 1 / 0\n', namespace)
    assert "z" not in namespace


# --- the data files and the answers -------------------------------------------------------------------------------

def test_the_data_files_are_what_the_answers_give():
    safe_data.main(["--check"])  # exits with the stale files' names if one is out of date


def test_public_objects_must_live_in_a_public_module():
    with pytest.raises(ValueError, match="is not in the lesson's public module"):
        function("f", reference=square_reference, cases=[(1.0,)]).data("99.1", THIS)
    with pytest.raises(ValueError, match="fails on its reference"):
        function("f", reference=lambda x: None, cases=SQUARE_CASES).data("99.1", THIS)


# --- the editions tool ---------------------------------------------------------------------------------------------

def _lesson_notebook():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md("# 99 · A lesson"), code("from classroom import check, reference_solution"),
             md("### Exercise 99.1 (medium): two numbers"), code("y = ...  # a number\nz = ..."),
             code('check("99.1a", y)\ncheck("99.1b", z)'),
             code('# Reference solution\nwith reference_solution("99.1a", "99.1b"):\n    y = 6.0\n    z = 1.0'),
             md("**Next:** nowhere")]
    for index, role in ((3, "exercise"), (4, "check"), (5, "solution")):
        cells[index].metadata["tags"] = [role]
    cells[5].outputs = [nbformat.v4.new_output("stream", text="✅ 99.1a: ...\n")]
    cells[4].metadata["nbgrader"] = {"grade": True}   # grading metadata is written by make nbgrader, not kept
    return nbformat.v4.new_notebook(cells=cells)


def test_tidy_folds_the_solutions_and_drops_grading_metadata():
    nb = editions.tidy(_lesson_notebook())
    assert nb.cells[5].metadata["jupyter"] == {"source_hidden": True} and nb.cells[5].outputs == []
    assert "nbgrader" not in nb.cells[4].metadata
    assert editions.tidy(nbformat.from_dict(nb)) == nb  # running it again changes nothing


def test_tidy_rejects_cells_it_cannot_place():
    nb = _lesson_notebook()
    nb.cells[5].source = 'with reference_solution("99.1a"):\n    y = 6.0'
    with pytest.raises(ValueError, match="does not start with '# Reference solution'"):
        editions.tidy(nb)
    nb.cells[5].source = '# Reference solution\nwith reference_solution("99.1a"):\n    y = 6.0\nprint(y)'
    with pytest.raises(ValueError, match="move 'print\\(y\\)' inside it"):
        editions.tidy(nb)
    nb.cells[4].source = 'check("99.2", y)'
    with pytest.raises(ValueError, match="checks 99.2 under the heading of exercise 99.1"):
        editions.tidy(nb)
    nb.cells[4].source = "print(y)"
    with pytest.raises(ValueError, match="a check cell holds only check"):
        editions.tidy(nb)


def test_student_edition_drops_solutions_and_clears_the_exercise_cells():
    nb = _lesson_notebook()
    nb.cells[4].outputs = [nbformat.v4.new_output("stream", text="⏳ 99.1a: not answered yet\n")]
    nb.cells[6].outputs = [nbformat.v4.new_output("stream", text="a teaching output\n")]
    student = editions.student_edition(nb)
    assert [c.metadata.get("tags") for c in student.cells].count(["solution"]) == 0
    assert student.cells[4].outputs == [] and len(nb.cells[4].outputs) == 1  # the original is untouched
    assert student.cells[5].outputs[0].text == "a teaching output\n"


def test_the_nbgrader_source_grades_each_part_on_its_own(monkeypatch):
    monkeypatch.setattr(editions, "graded", lambda exercise_id: True)
    graded = editions.nbgrader_source(_lesson_notebook())
    assert graded.cells[3].source == ("y = ...  # a number\nz = ...\n### BEGIN SOLUTION\ny = 6.0\nz = 1.0\n"
                                      "### END SOLUTION")
    parts_ = [cell for cell in graded.cells if cell.metadata.get("nbgrader", {}).get("grade")]
    # a graded cell is the part's check alone: its points come from the trusted grader (classroom.grader)
    assert [cell.source for cell in parts_] == ['check("99.1a", y)', 'check("99.1b", z)']
    assert [cell.metadata.nbgrader["points"] for cell in parts_] == [1.0, 1.0]   # a medium exercise: 2 points
    assert [cell.metadata.nbgrader["grade_id"] for cell in parts_] == ["ex99_1a-check", "ex99_1b-check"]
    assert graded.cells[2].metadata.nbgrader["locked"] and graded.cells[3].metadata.nbgrader["solution"]
    assert editions.split_points(3, 6) == [0.5] * 6 and sum(editions.split_points(2, 6)) == pytest.approx(2)


def test_predict_exercises_and_parts_judged_in_the_students_python_carry_no_points(monkeypatch):
    monkeypatch.setattr(editions, "graded", lambda exercise_id: exercise_id != "99.1b")   # 99.1b: a test alone
    graded = editions.nbgrader_source(_lesson_notebook())
    parts_ = [cell for cell in graded.cells if cell.metadata.get("nbgrader", {}).get("grade")]
    assert [(cell.source, cell.metadata.nbgrader["points"]) for cell in parts_] == [('check("99.1a", y)', 2.0)]
    assert [cell.source for cell in graded.cells if "check" in editions.tags(cell)] == [
        'check("99.1a", y)', 'check("99.1b", z)']   # its check stays, as feedback
    predict = _lesson_notebook()
    predict.cells[2].source = "### Exercise 99.1 (medium): predict, then run: two numbers"
    graded = editions.nbgrader_source(predict)
    assert not [cell for cell in graded.cells if cell.metadata.get("nbgrader", {}).get("grade")]
    assert [cell.source for cell in graded.cells if "check" in editions.tags(cell)] == [
        'check("99.1a", y)\ncheck("99.1b", z)']
