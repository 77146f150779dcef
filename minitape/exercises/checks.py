"""``check`` and ``reference_solution``: what the lessons' check and solution cells call.

``check("0.1", answer_0_1)`` prints one line: ⏳ while the answer is ``...``, ✅ when it is right, or
❌ with what is wrong in kind and a hint. The hints come in steps: the k-th different wrong answer to
an exercise shows its k-th hint. Under nbgrader's autograder a check that is not ✅ also raises, so
nbgrader scores the cell 0.

>>> from minitape.exercises.spec import value
>>> report("9.9", value("y", expected=6.0, hints=["Power rule.", "Evaluate the derivative there."]), -6.0)
'❌ 9.9: the sign is wrong. Hint: Power rule.'
"""

import os
import sys

import numpy as np

from .feedback import plain

GRADING = ("autograde", "validate")  # the values of NBGRADER_EXECUTION while nbgrader runs a submission
STUCK = "Stuck? Compare with the reference solution, the collapsed cell below the check in the full edition."

_attempts = {}  # exercise id -> (wrong attempts so far, fingerprint of the last wrong answer)


def check(exercise_id, answer):
    """Print whether ``answer`` is right for exercise ``exercise_id`` (⏳, ✅, or ❌ with a hint)."""
    line = report(exercise_id, _spec(exercise_id), answer)
    print(line)
    if not line.startswith("✅") and os.environ.get("NBGRADER_EXECUTION") in GRADING:
        raise AssertionError(line)


def passes(exercise_id, answer):
    """Whether ``answer`` is right, silently (no output, no attempt counted): for cells that use it only if so."""
    return _spec(exercise_id).problem(answer) is None


def report(exercise_id, spec, answer):
    """The line ``check`` prints; counts a wrong attempt unless it repeats the last one."""
    problem = spec.problem(answer)
    if problem is None:
        return f"✅ {exercise_id}: correct."
    if problem is ...:
        return f"⏳ {exercise_id}: not answered yet: replace the ... with your answer."
    line = f"❌ {exercise_id}: {_sentence(problem)}"
    if spec.hints:
        count, last = _attempts.get(exercise_id, (0, None))
        now = _fingerprint(answer)
        if now != last or count == 0:
            count += 1
        _attempts[exercise_id] = (count, now)
        line += f" Hint: {_sentence(spec.hints[min(count, len(spec.hints)) - 1])}"
        if count > len(spec.hints):
            line += f" {STUCK}"
    return line


def _sentence(text):
    """``text`` ending in a full stop, unless it already ends in one, a question or an exclamation mark."""
    return text if text.endswith((".", "?", "!")) else text + "."


def _spec(exercise_id):
    # imported on first use, so that `python -m minitape.exercises.answers` finds the module not yet imported
    from .answers import spec

    return spec(exercise_id)


def _fingerprint(answer):
    """Equal for answers that are the same; a re-run of an unchanged wrong answer must not advance the hints."""
    code = getattr(answer, "__code__", None)
    if code is not None:
        return ("function", code.co_code, repr(code.co_consts))
    try:
        array = np.asarray(plain(answer))
        if array.dtype != object:
            return ("array", array.dtype.str, array.shape, array.tobytes())
    except ValueError:
        pass
    return ("other", type(answer).__name__, repr(answer))


class reference_solution:
    """Run a reference solution, check it, and give the learner's names back.

    ``with reference_solution("5.1"):`` snapshots the caller's globals; on exit it checks the names the
    exercises ask for against their answers (an AssertionError if the reference fails its own check),
    then restores the globals exactly, so "Run All" never replaces a learner's answer.
    """

    def __init__(self, *exercise_ids):
        self.exercise_ids = exercise_ids
        self.specs = [_spec(i) for i in exercise_ids]

    def __enter__(self):
        self.namespace = sys._getframe(1).f_globals  # the notebook's (or module's) global names
        self.saved = dict(self.namespace)
        return self

    def __exit__(self, kind, error, traceback):
        try:
            if kind is None:
                lines = [self._verdict(i, spec) for i, spec in zip(self.exercise_ids, self.specs)]
                print("\n".join(lines))
        finally:
            self.namespace.clear()
            self.namespace.update(self.saved)
        return False

    def _verdict(self, exercise_id, spec):
        missing = object()
        answer = self.namespace.get(spec.name, missing)
        if answer is missing:
            raise AssertionError(f"the reference solution of {exercise_id} does not define {spec.name}")
        problem = spec.problem(answer)
        if problem is not None:
            raise AssertionError(f"the reference solution of {exercise_id} fails its own check: "
                                 f"{'it leaves the ...' if problem is ... else problem}")
        return f"✅ {exercise_id}: the reference solution passes its check (your own answer is unchanged)."
