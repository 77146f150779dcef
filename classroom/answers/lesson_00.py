"""Answers of lesson 00 (welcome)."""
from classroom.spec import choice, value

EXERCISES = {
    # 0.0 is the demonstration in the lesson's "How exercises work" cell, not an exercise: its answer is shown there.
    "0.0": value("slope", expected=6.0, gradient=True, hints=[
        "The power rule gives 2x; now put in the point.",
        "2x at x = 3: multiply."]),
    "0.1": value("answer_0_1", expected=3 * 2**2, hints=[
        "The power rule turns x³ into a formula for its derivative; then put in the point.",
        "With n = 3 the power rule gives 3x². Evaluate that at x = 2 (not at 3)."]),
    "0.2": value("dy2_dx2", expected=12.0, gradient=True, hints=[
        "Three steps: a Variable holding the point, the cube computed inside the with block, and a question "
        "to the tape after the block.",
        "mt.Variable(...) makes a watched value; ** raises to a power; the tape's gradient method takes the "
        "target first and the source second."]),
    "0.3a": choice("n_ops", expected=3, hints=[
        "Count the operations in x3 * x3 + 3 * x3: each * and each + is one.",
        "Let the tape count: len(tape3), asked after the with block. Is y3 written exactly as the exercise says?"]),
    "0.3b": value("dy_dx3", expected=5.0, gradient=True, hints=[
        "Ask tape3 for the derivative of y3 with respect to x3.",
        "By hand the derivative of x·x + 3x is 2x + 3: if the tape disagrees at your x, look at y3 again."]),
}
