"""Lesson 10's public test cases and tests (training classifiers)."""
import numpy as np

import minitape as mt
from classroom.probes import call

XENT_CASES = [(0.0, 1.0), (2.0, 0.0), (-3.0, 1.0), (0.5, 0.25)]
# (theta, the sampled actions, their rewards): samples short enough that the estimate is not the exact gradient
REINFORCE_CASES = [
    ([0.5, -0.5], np.array([0, 1, 1]), np.array([1.0, 2.0, 0.5])),
    ([0.0, 0.0, 0.0], np.array([2, 2, 0, 1]), np.array([1.0, 1.0, 3.0, -1.0])),
    ([2.0, -1.0, 0.5], np.array([0]), np.array([3.0])),
    ([1.0, 3.0], np.array([1, 1, 0, 1, 0]), np.array([0.5, -2.0, 1.0, 0.0, 4.0])),
    ([800.0, -750.0, 0.0], np.array([0, 2, 0]), np.array([1.0, -2.0, 0.5])),   # e^800 overflows float64
]


def with_numpy_only(reinforce_estimate):
    """10.2: the estimate is derived, not asked of a tape: on a test case it runs no minitape op at all."""
    theta, actions, rewards = REINFORCE_CASES[0]
    with mt.autodiff.OpCounter() as ops:
        call(reinforce_estimate, list(theta), actions.copy(), rewards.copy(), what="on the first test case it")
    if ops.total:
        return (f"it runs {ops.total} minitape ops ({', '.join(sorted(ops.by_op))}): the exercise asks for the "
                f"derivation, ∇ log π_a worked out by hand and computed with NumPy only, with no tape; the tape's "
                f"estimate is what yours is compared with after the check")
    return None


def circles_look_right(make_circles):
    """10.3a: 400 points in two noisy circles, label 0 on the one of radius 1, label 1 on the one of radius 0.5."""
    made = call(make_circles, 400, 0.1, np.random.default_rng(1))
    if not isinstance(made, tuple) or len(made) != 2:
        return "make_circles should return two things, (points, labels), like make_moons"
    points, labels = np.asarray(made[0]), np.asarray(made[1])
    if points.shape != (400, 2):
        return f"for n = 400 the points have shape {points.shape}; they should have shape (400, 2)"
    if labels.shape != (400,):
        return f"for n = 400 the labels have shape {labels.shape}; they should have shape (400,)"
    if not set(np.unique(labels)) <= {0, 1} or len(np.unique(labels)) < 2:
        return "the labels should be 0 and 1, both present"
    radii = np.hypot(points[:, 0], points[:, 1])
    for label, radius in [(0, 1.0), (1, 0.5)]:
        mean = radii[labels == label].mean()
        if abs(mean - radius) > 0.1:
            return (f"the points labelled {label} lie at a mean distance {mean:.2f} from the origin; "
                    f"label {label} is the circle of radius {radius}")
    spread = np.std(radii - np.where(labels == 0, 1.0, 0.5))
    if not 0.05 < spread < 0.2:
        return (f"the points scatter around their circles by {spread:.3f} (the standard deviation of their "
                f"distance from the circle); with noise 0.1 it should be about 0.1: add Gaussian noise of that size")
    return None


def _test_circles():
    """200 points on each circle, at evenly spaced angles, with noise 0.1: data no network was trained on."""
    angle = np.linspace(0.0, 2 * np.pi, 200, endpoint=False)
    rng = np.random.default_rng(2026)
    points = np.concatenate([np.stack([r * np.cos(angle), r * np.sin(angle)], axis=1) for r in (1.0, 0.5)])
    return points + rng.normal(0.0, 0.1, points.shape), np.repeat([0, 1], 200)


TEST_CIRCLES = _test_circles()


def classifies_circles(params):
    """10.3b: train_mlp's parameters [W1, b1, W2, b2] classify fresh circles at least 95% right."""
    if not isinstance(params, (list, tuple)) or len(params) != 4:
        return ("it should be the list of four parameters [W1, b1, W2, b2] that train_mlp returns first: "
                "train_mlp(...)[0]")
    shapes = [tuple(np.shape(mt.convert_to_tensor(p).numpy())) for p in params]
    hidden = shapes[0][1] if len(shapes[0]) == 2 else None
    if hidden is None or shapes != [(2, hidden), (hidden,), (hidden, 1), (1,)]:
        return f"its parameters have shapes {shapes}, not those of train_mlp's network"
    W1, b1, W2, b2 = (mt.convert_to_tensor(p).numpy().astype(np.float64) for p in params)
    points, labels = TEST_CIRCLES
    logits = (np.tanh(points @ W1 + b1) @ W2 + b2)[:, 0]
    accuracy = np.mean((logits > 0) == labels)
    if accuracy >= 0.95:
        return None
    return (f"on 400 fresh points from the two circles (not the ones it was trained on) the network is right "
            f"{accuracy:.0%} of the time; it needs at least 95%")
