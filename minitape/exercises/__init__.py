"""Self-checking exercises for the course notebooks.

A lesson's learner cell sets the names an exercise asks for to ``...``; its check cell calls
``check("5.1", gradient_1)``, which prints ⏳ (not answered yet), ✅, or ❌ with what is wrong in kind
and a hint, never the expected value. The expected values live in ``answers/NN.answers``, one file per
lesson (see ``answers.py``); the kinds of answer in ``spec.py``; the diagnosis in ``feedback.py``. A
reference solution runs inside ``with reference_solution("5.1"):``, which checks it and then gives the
learner's own names back; ``passes("5.1", answer)`` tests silently. ``notebook.py`` builds the student
and nbgrader editions.
"""

from .checks import check, passes, reference_solution

__all__ = ["check", "passes", "reference_solution"]
