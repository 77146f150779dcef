"""Answers of lesson 00 (welcome)."""
from classroom.spec import choice, value

EXERCISES = {
    # 0.0 is the demonstration in the lesson's "How exercises work" cell, not an exercise: its answer is shown there.
    "0.0": value("slope", expected=6.0, gradient=True, hints=[
        "The power rule gives 2x; now put in the point.",
        "2x at x = 3: multiply."]),
    "0.1": value("answer_0_1", expected=lambda n: n.power * n.point ** (n.power - 1), mistakes=[
        (lambda n: n.point ** n.power, "that is the value of the function, x to the power n; the exercise asks for "
                                       "its derivative")], hints=[
        "The power rule turns x to the power n into a formula for its derivative; then put in the point.",
        "The power rule gives n·x^(n−1): the power comes down as a factor, and the new power is one less. "
        "Evaluate it at your point."]),
    "0.2": value("dy2_dx2", expected=lambda n: n.power * n.point ** (n.power - 1), gradient=True, hints=[
        "Three steps: a Variable holding the point, the power computed inside the with block, and a question "
        "to the tape after the block.",
        "mt.Variable(...) makes a watched value; ** raises to a power; the tape's gradient method takes the "
        "target first and the source second."]),
    "0.3a": choice("n_ops", expected=3, mistakes=[
        (2, "that counts the multiplications only; the + that joins them is recorded too"),
        (4, "a constant such as 3 is not an operation; only what is computed from x is recorded")], hints=[
        "Read y = x·x + 3·x as a program: which arithmetic steps does it run on x?",
        "Each * and each + that touches the watched x is one recorded operation; a plain number is not."]),
    "0.3b": value("dy_dx3", expected=5.0, mistakes=[
        (4.0, "that is the value of y at x = 1, not its derivative"),
        (2.0, "that is the derivative of x·x alone; 3·x adds its own slope")], hints=[
        "Differentiate each term with the power rule and add: x·x is x², and 3·x is 3 times x¹.",
        "The derivative of x² is 2x and that of 3x is 3; put in x = 1 (not the value of y)."]),
}
