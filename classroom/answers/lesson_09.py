"""Answers of lesson 09, training models with a tape."""
import numpy as np

from classroom.lessons.lesson_09 import LOSS_CASES, converges_fast
from classroom.spec import function, judged_by, value

# -- 9.1: the two-weight network of section 1, at the weights w0 of the student's numbers ----------------------
_X1 = np.array([[1.0, 2.0]])


def _loss_of(w):
    return float(((_X1 @ w - 0.75) ** 2).sum())


def _fd_gradient(n):
    w0 = np.reshape(n.w0, (2, 1))
    return 2 * (_X1 @ w0 - 0.75) * _X1.T   # the loss is quadratic: central differences give its gradient


# -- 9.3: the line fitted to the student's inputs xs: the eigenvalues of its loss's Hessian -------------------------
def _eigenvalues(n):
    A = np.stack([n.xs, np.ones_like(n.xs)], axis=1)
    return np.linalg.eigvalsh(2 * A.T @ A / len(n.xs))


# -- 9.4: the first step of descent on the sum of absolute errors of section 3, from W = b = 0 --------------
_X3 = np.array([8.0, 10.0, 6.0, 3.0, 7.0, 9.0, 13.0, 1.0, 0.0, 11.0])
_R3 = -(2.0 * _X3 - 8.0)   # the residuals W x + b - y at W = b = 0
_LR3 = 0.001   # the learning rate of section 3


EXERCISES = {
    "9.1a": function("loss_of", reference=_loss_of, cases=LOSS_CASES, rtol=1e-12, hints=[
        "loss_of(w) computes the network's output x_np @ w, its difference from the target 0.75, and the square.",
        "x_np @ w has shape (1, 1): turn the squared difference into one plain number with float(...) or .item().",
    ]),
    "9.1b": value("fd_gradient", expected=_fd_gradient, rtol=1e-6, hints=[
        "fd_gradient can only be as right as loss_of: if 9.1a fails, fix loss_of first. numeric.gradient(f, x) "
        "estimates the gradient of a function f that returns one number, at the array x.",
        "Pass your function itself (not a call of it) and the starting weights w0: the result has w0's shape.",
    ]),
    "9.2": judged_by("lr_fast", converges_fast, answer="value", hints=[
        "Try a few rates between 0.01 and 0.1, run fit_line(rate, 1000) yourself, and watch W and b.",
        "The error of the slow direction shrinks by (1 - lr λ_min) per epoch: 1000 epochs need (1 - lr λ_min)^1000 "
        "well below 0.001, and lr must stay below 2 / λ_max, where training blows up (exercise 9.3's "
        "question, asked of the lesson's own points).",
    ]),
    "9.3": value("lr_limit", expected=lambda n: 2 / _eigenvalues(n)[1], rtol=1e-3, mistakes=[
        (lambda n: 1 / _eigenvalues(n)[1], "at this rate 1 - lr λ_max is 0: the fast direction's error vanishes in "
                                           "one step. Training is still stable above it, while |1 - lr λ_max| stays "
                                           "below 1"),
        (lambda n: 2 / _eigenvalues(n)[0], "this rate is the limit for the smallest eigenvalue; the largest one runs "
                                           "away long before"),
        (lambda n: 1 / _eigenvalues(n)[0], "this rate comes from the smallest eigenvalue; the largest one runs away "
                                           "long before"),
    ], hints=[
        "Build H for your inputs as section 2 builds it for its own (the targets do not enter it). The condition "
        "|1 - lr λ| < 1 is hardest to meet for one of its two eigenvalues: find which.",
        "For the largest eigenvalue λ_max the step flips the error's sign, and the limit is where 1 - lr λ_max "
        "reaches -1. np.linalg.eigvalsh(H) returns the eigenvalues in increasing order.",
    ]),
    "9.4a": value("first_dW", expected=-_LR3 * np.sum(np.sign(_R3) * _X3), mistakes=[
        (np.sum(np.sign(_R3) * _X3), "that is the subgradient itself; the step goes against it, times the learning "
                                     "rate"),
        (_LR3 * np.sum(np.sign(_R3) * _X3), "the sign is wrong: the step goes against the subgradient"),
        (-np.sum(np.sign(_R3) * _X3), "that is the step without the learning rate: it is scaled by 0.001"),
        (-_LR3 * np.sum(np.sign(_R3)), "that is the step of b: for W each sign is multiplied by its x_i"),
    ], hints=[
        "A step moves W by minus the learning rate times d(sum of |r_i|)/dW, and the derivative of |r| is sign(r).",
        "At W = b = 0 each residual is r_i = -y_i; by the chain rule d|r_i|/dW = sign(r_i) x_i. Add these up over "
        "the ten points with np.sum, then scale by -0.001.",
    ]),
    "9.4b": value("first_db", expected=-_LR3 * np.sum(np.sign(_R3)), mistakes=[
        (np.sum(np.sign(_R3)), "that is the subgradient itself; the step goes against it, times the learning rate"),
        (_LR3 * np.sum(np.sign(_R3)), "the sign is wrong: the step goes against the subgradient, whatever the "
                                      "direction of the truth b = -8; count the residuals of each sign"),
        (-np.sum(np.sign(_R3)), "that is the step without the learning rate: it is scaled by 0.001"),
    ], hints=[
        "d|r_i|/db = sign(r_i) dr_i/db, and r_i depends on b with slope 1: the first step depends only on how many "
        "residuals are positive and how many negative.",
        "Add up sign(r_i) over the ten points, with r_i = -y_i at the start (mind the minus sign), then scale by "
        "-0.001.",
    ]),
}
