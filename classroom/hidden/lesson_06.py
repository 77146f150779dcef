"""Lesson 06's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""

HIDDEN_CASES = {
    "6.3": [(-3.5,), (0.7,), (2.25,), (-0.3,)],
}
