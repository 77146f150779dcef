"""Answers of lesson 10, training classifiers, a policy and a small network."""
import numpy as np

from classroom.lessons.lesson_10 import REINFORCE_CASES, XENT_CASES, circles_look_right, classifies_circles, \
    with_numpy_only
from classroom.spec import function, judged_by, value


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def xent_grad(logit, label):
    return sigmoid(logit) - label


# Exercise 10.1b: the two points of section 1 and the weights training starts from.
X_START = np.array([[1.0, 2.0], [2.0, -1.0]])
Y_START = np.array([[1.0], [0.0]])
Z_START = X_START @ np.array([[0.1], [-0.1]])
DW_START = X_START.T @ xent_grad(Z_START, Y_START) / len(X_START)


def softmax(theta):
    theta = np.asarray(theta, dtype=np.float64)
    pi = np.exp(theta - theta.max())
    return pi / pi.sum()


def reinforce_estimate(theta, actions, rewards):
    """The mean of r_i (e_{a_i} - pi): the gradient of log pi_a for a softmax policy is e_a - pi."""
    score = np.eye(len(theta))[actions] - softmax(theta)
    return np.mean(np.asarray(rewards, dtype=np.float64)[:, None] * score, axis=0)


def _with_one_hot_score(theta, actions, rewards):
    return np.mean(np.asarray(rewards, dtype=np.float64)[:, None] * np.eye(len(theta))[actions], axis=0)


def _with_the_gradient_of_pi(theta, actions, rewards):
    pi = softmax(theta)
    score = (np.eye(len(theta))[actions] - pi) * pi[actions][:, None]
    return np.mean(np.asarray(rewards, dtype=np.float64)[:, None] * score, axis=0)


EXERCISES = {
    "10.1a": function("xent_grad", reference=xent_grad, cases=XENT_CASES, rtol=1e-9, mistakes=[
        (lambda z, y: sigmoid(z) * (1 - sigmoid(z)),
         "it is the derivative of the sigmoid itself, which ignores the label; the derivative of the loss "
         "depends on it"),
        (lambda z, y: y - sigmoid(z), "the sign is wrong: when the predicted probability is above the label, "
                                      "raising the logit makes the loss larger"),
    ], hints=[
        "Differentiate the two log terms one at a time with the chain rule: the derivative of log u is u'/u.",
        "With σ' = σ(1 - σ), the derivative of log σ(z) is 1 - σ(z) and that of log(1 - σ(z)) is -σ(z); weight "
        "them by -y and -(1 - y), add, and simplify.",
    ]),
    "10.1b": value("predicted_dW", expected=DW_START, rtol=1e-5, mistakes=[
        (2 * DW_START, "that is the gradient of the sum of the two points' losses; the loss is their mean"),
        (X_START.T @ (sigmoid(Z_START) * (1 - sigmoid(Z_START))) / 2,
         "it uses the derivative of the sigmoid, which ignores the labels: use your xent_grad"),
    ], hints=[
        "The mean loss is (ℓ(z_1, y_1) + ℓ(z_2, y_2)) / 2 with z = XW + b, so the chain rule gives one term per "
        "point: ∂ℓ/∂z_i times ∂z_i/∂W.",
        "∂z_i/∂W is row i of X, as a column. So the gradient is Xᵀ (the column of xent_grad(z_i, y_i)) divided "
        "by the number of points; compute z from X2.numpy() and the starting W first.",
    ]),
    "10.2": function("reinforce_estimate", reference=reinforce_estimate, cases=REINFORCE_CASES, rtol=1e-9,
                     test=with_numpy_only, mistakes=[
        (_with_one_hot_score, "each sample's term is r times the one-hot vector of its action, but log π_a "
                              "depends on every logit, through the softmax's denominator"),
        (lambda theta, a, r: -reinforce_estimate(theta, a, r),
         "the sign is wrong: that is the gradient of the loss -Ĵ, which points away from the better actions"),
        (_with_the_gradient_of_pi, "that is the gradient of π_a, not of log π_a: the identity ∇π_a = π_a ∇log π_a "
                                   "divides by π_a"),
    ], hints=[
        "Differentiate log π_a = θ_a - log Σ_b e^(θ_b) with respect to each θ_c: the first term gives 1 when c = a "
        "and 0 otherwise; the second gives the derivative of a log-sum-exp (lesson 08's exercise 8.4).",
        "The derivative of log Σ_b e^(θ_b) with respect to θ_c is e^(θ_c) / Σ_b e^(θ_b), which is π_c. Build π "
        "with NumPy (theta comes as a list; subtracting its largest logit first leaves π unchanged and keeps e^θ "
        "finite), then one row ∇ log π_(a_i) per sample (np.eye(len(theta))[actions] "
        "gives the one-hot rows), weight row i by rewards[i] and average over the rows.",
    ]),
    "10.3a": judged_by("make_circles", circles_look_right, hints=[
        "Follow make_moons: draw a label (0 or 1) and an angle for each point, and put the point on its circle.",
        "An angle uniform in [0, 2π) and a radius (1 for label 0, 0.5 for label 1) give the point "
        "(radius cos angle, radius sin angle); then add rng.normal(0, noise, (n, 2)).",
    ]),
    "10.3b": judged_by("circle_params", classifies_circles, answer="value", hints=[
        "Make the data with your make_circles(200, 0.1, np.random.default_rng(1)), train with train_mlp, and keep "
        "the parameters it returns.",
        "If the accuracy is low, train for more steps or with a larger learning rate, and compute "
        "accuracy(circle_params, circles, circle_labels) on your own data to compare.",
    ]),
}
