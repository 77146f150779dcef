"""Answers of lesson 09, training models with a tape."""
import numpy as np

from classroom.lessons.lesson_09 import LOSS_CASES, XS, converges_fast
from classroom.spec import function, judged_by, value

# -- 9.1: the two-weight network of section 1 -----------------------------------------------------------------
_X1 = np.array([[1.0, 2.0]])


def _loss_of(w):
    return float(((_X1 @ w - 0.75) ** 2).sum())


# -- 9.3: the line y = 3x + 2 of section 2: its loss's Hessian -----------------------------------------------
_A = np.stack([XS, np.ones_like(XS)], axis=1)
_H = 2 * _A.T @ _A / len(XS)
_LAM_SMALL, _LAM_LARGE = np.linalg.eigvalsh(_H)


# -- 9.4: the first step of descent on the sum of absolute errors of section 3, from W = b = 0 --------------
_X3 = np.array([8.0, 10.0, 6.0, 3.0, 7.0, 9.0, 13.0, 1.0, 0.0, 11.0])
_R3 = -(2.0 * _X3 - 8.0)   # the residuals W x + b - y at W = b = 0
_LR3 = 0.001   # the learning rate of section 3


EXERCISES = {
    "9.1a": function("loss_of", reference=_loss_of, cases=LOSS_CASES, rtol=1e-12, hints=[
        "loss_of(w) computes the network's output x_np @ w, its difference from the target 0.75, and the square.",
        "x_np @ w has shape (1, 1): turn the squared difference into one plain number with float(...) or .item().",
    ]),
    "9.1b": value("fd_gradient", expected=np.array([[-0.4], [-0.8]]), rtol=1e-6, hints=[
        "fd_gradient can only be as right as loss_of: if 9.1a fails, fix loss_of first. numeric.gradient(f, x) "
        "estimates the gradient of a function f that returns one number, at the array x.",
        "Pass your function itself (not a call of it) and the starting weights w0: the result has w0's shape.",
    ]),
    "9.2": judged_by("lr_fast", converges_fast, answer="value", hints=[
        "Try a few rates between 0.01 and 0.1, run fit_line(rate, 1000) yourself, and watch W and b.",
        "The error of the slow direction shrinks by (1 - lr λ_min) per epoch: 1000 epochs need (1 - lr λ_min)^1000 "
        "well below 0.001, and lr must stay below the limit of exercise 9.3.",
    ]),
    "9.3": value("lr_limit", expected=2 / _LAM_LARGE, rtol=1e-3, mistakes=[
        (1 / _LAM_LARGE, "at this rate 1 - lr λ_max is 0: the fast direction's error vanishes in one step. Training "
                         "is still stable above it, while |1 - lr λ_max| stays below 1"),
        (2 / _LAM_SMALL, "this rate is the limit for the smallest eigenvalue; the largest one runs away long before"),
        (1 / _LAM_SMALL, "this rate comes from the smallest eigenvalue; the largest one runs away long before"),
    ], hints=[
        "The condition |1 - lr λ| < 1 is hardest to meet for one of the two eigenvalues: find which.",
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
