"""Answers of lesson 10, training classifiers, a policy and a small network."""
import numpy as np

from classroom.lessons.lesson_10 import POLICY_CASES, XENT_CASES, circles_look_right, classifies_circles
from classroom.spec import function, judged_by


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def xent_grad(logit, label):
    return sigmoid(logit) - label


def softmax(theta):
    theta = np.asarray(theta, dtype=np.float64)
    pi = np.exp(theta - theta.max())
    return pi / pi.sum()


def policy_gradient(theta, r):
    pi = softmax(theta)
    return pi * (np.asarray(r, dtype=np.float64) - pi @ np.asarray(r, dtype=np.float64))


EXERCISES = {
    "10.1": function("xent_grad", reference=xent_grad, cases=XENT_CASES, rtol=1e-9, mistakes=[
        (lambda z, y: sigmoid(z) * (1 - sigmoid(z)),
         "it is the derivative of the sigmoid itself, which ignores the label; the derivative of the loss "
         "depends on it"),
        (lambda z, y: y - sigmoid(z), "the sign is wrong: when the predicted probability is above the label, "
                                      "raising the logit makes the loss larger"),
    ], hints=[
        "The derivative of the loss with respect to the logit is stated in the formula at the start of section 1.",
        "It is the predicted probability minus the label; the probability is the sigmoid 1 / (1 + e^(-z)) of the "
        "logit z (np.exp for e).",
    ]),
    "10.2": function("policy_gradient", reference=policy_gradient, cases=POLICY_CASES, rtol=1e-9, mistakes=[
        (lambda theta, r: policy_gradient(theta, r) + softmax(theta) * (softmax(theta) @ np.asarray(r)),
         "it weights each reward by its probability but does not measure it against the expected reward J first"),
    ], hints=[
        "Follow the formula: each reward is measured against the expected reward J = π · r before it is weighted "
        "by its probability π.",
        "Turn theta and r into float arrays first (np.asarray; the inputs come as lists). softmax: exponentiate the "
        "logits and divide by their sum. Then J is the dot product of π and r, and the gradient is π times (r - J), "
        "element by element.",
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
