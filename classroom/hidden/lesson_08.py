"""Lesson 08's hidden test cases: the grader runs the learner's functions on these, after the notebook ran."""
import minitape as mt


def _f64(values):
    return mt.constant(values, dtype=mt.float64)


HIDDEN_CASES = {
    # (points, the adjoint arriving at the output) as the public cases: other points near and at the corners, a
    # matrix, and other adjoints
    "8.2": [([-1.0, 1.0, 0.999, -1.001, 0.0, 7.5], -1.5), ([[0.2, -3.0], [1.0, -0.4]], 0.5)],
    # other points, a longer vector and a matrix, and the convention at zero for another shape
    "8.3": [([-1.0, 2.0, 2.0], 1.0), ([[0.6, -0.8], [0.0, 1.5]], -2.0), ([0.0, 0.0, 0.0, 0.0], 3.0),
            ([1e-3, -2e-3], 1.0)],
    # values far beyond where e^x overflows, of both signs and mixed, one element alone
    "8.4a": [(_f64([710.0, -5.0, 709.5]),), (_f64([-1e4, -1e4 + 1.0]),), (_f64([0.25]),),
             (_f64([2.0, -3.0, 0.5, 4.0]),)],
    "8.4b": [(_f64([3.0, 3.0, -1.0, 0.0]), _f64(-0.75)), (_f64([-800.0, -799.0]), _f64(1.0)),
             (_f64([42.0]), _f64(3.0))],
}
