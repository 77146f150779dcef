"""Lesson 16's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
from classroom.lessons.lesson_16 import bar_case, solve_case

HIDDEN_CASES = {
    # other sizes and matrices: a memorised result, or a size written into the answer, fails
    "16.2": [solve_case(6, 2, 1602), solve_case(2, 4, 1603), solve_case(7, 1, 1604)],
    # other bars: more and fewer points, other conductivities, another heat and target
    "16.3": [bar_case(45, 1603, heat=2.5, peak=0.08), bar_case(7, 1604, heat=0.4, peak=0.02)],
}
