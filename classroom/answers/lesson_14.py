"""Answers of lesson 14 (the hard parts: checkpointing, implicit differentiation, nesting, kinks and the where trap)."""
import numpy as np

import minitape as mt
from classroom.lessons.lesson_14 import BACK_STEP_CASES, FIXED_POINT_CASES, SOFTPLUS_CASES, back_step_probe, \
    fixed_point_probe, softplus_probe, taped_as_one_op
from classroom.spec import function, value


# --- 14.1: one step of h_next = tanh(W h), W orthogonal, undone: its input and its input's adjoint from its output
def back_one_step(W, h_next, g_next):
    return W.T @ np.arctanh(h_next), W.T @ ((1.0 - h_next**2) * g_next)


def back_with_W_itself(W, h_next, g_next):
    return W @ np.arctanh(h_next), W @ ((1.0 - h_next**2) * g_next)


def back_without_tanh(W, h_next, g_next):
    return W.T @ np.arctanh(h_next), W.T @ g_next


def back_with_the_input_s_tanh(W, h_next, g_next):
    h = W.T @ np.arctanh(h_next)
    return h, W.T @ ((1.0 - np.tanh(h) ** 2) * g_next)


# --- 14.2: the implicit gradient of a vector fixed point ----------------------------------------------------------
W_FIXED = np.array([[0.2, -0.4, 0.1], [0.3, 0.1, -0.2], [-0.1, 0.5, 0.3]])


def solve_fixed_point(a, iterations=200):
    y = np.zeros_like(a)
    for _ in range(iterations):
        y = np.tanh(W_FIXED @ y + a)
    return y


def implicit_fixed_point(transposed=True, feedback=True):
    """The fixed point of y = tanh(W y + a) as one custom op, its gradient by the implicit function theorem."""
    def fixed_point(a):
        @mt.custom_gradient
        def solve(a):
            y = mt.constant(solve_fixed_point(a.numpy()))
            def grad(y_bar):
                d = 1.0 - y * y                                   # G_y = D W, G_a = D
                if not feedback:
                    return d * y_bar
                system = mt.eye(3, dtype=mt.float64) - d[:, None] * W_FIXED
                u = mt.linalg.solve(system, mt.reshape(y_bar, (-1, 1)), adjoint=transposed)
                return d * mt.reshape(u, (-1,))
            return y, grad
        return solve(a)
    return fixed_point


# --- 14.3: perturbation confusion ---------------------------------------------------------------------------
# h(x) = x² · d/dy (x y) at y = 2 is x³: h'(1) = 3. NaiveDual: the inner product's tangent is x.tangent · 2 + x, which
# is 3 at x = 1 + ε, a plain number; the outer function is then 3 x², whose slope at 1 is 6.
TRUE_VALUE, NAIVE_VALUE = 3.0, 6.0


# --- 14.4: a softplus that where guards ---------------------------------------------------------------------
def softplus_safe(x):
    small = x < 20.0
    return mt.where(small, mt.math.log(1.0 + mt.exp(mt.where(small, x, 0.0))), x)


EXERCISES = {
    "14.1": function("back_one_step", reference=back_one_step, cases=BACK_STEP_CASES, probe=back_step_probe,
                     rtol=1e-9, atol=1e-12, mistakes=[
        (back_with_W_itself, "W does not undo W: for an orthogonal matrix the inverse is the transpose, and the "
                             "adjoint of a product W h goes back through Wᵀ too"),
        (back_without_tanh, "the input is right, but the adjoint skips the tanh: its derivative at the step "
                            "multiplies the arriving adjoint, entry by entry"),
        (back_with_the_input_s_tanh, "tanh'(z) = 1 - tanh(z)² at z = W h, the pre-activation, not at h: and "
                                     "tanh(W h) is a number you already hold")], hints=[
        "Two questions: which h gives tanh(W h) = h_next (undo the tanh, then the matrix), and which adjoint "
        "does a matmul followed by a tanh hand back to its input (lesson 05's rules, one op at a time)?",
        "NumPy's arctanh undoes tanh, and an orthogonal W has Wᵀ W = I. The derivative of tanh at z is "
        "1 - tanh(z)², and tanh(z) is the step's output.",
    ]),
    "14.2": function("fixed_point", reference=implicit_fixed_point(), cases=FIXED_POINT_CASES,
                     probe=fixed_point_probe, rtol=1e-12, atol=1e-15, test=taped_as_one_op, mistakes=[
        (implicit_fixed_point(transposed=False),
         "it solves (I − G_y) u = ȳ: reverse mode needs the transposed system, (I − G_y)ᵀ u = ȳ, since it carries "
         "ȳᵀ through the inverse from the left"),
        (implicit_fixed_point(feedback=False),
         "that is G_aᵀ ȳ alone: when a changes, y changes too and feeds back through g, which the solve with "
         "I − G_y accounts for"),
    ], hints=[
        "Differentiate g(y, a) = tanh(W y + a) by the chain rule, at the fixed point, where tanh(W y + a) is y "
        "itself; then follow the two steps of the text: a solve, then a product.",
        "Both Jacobians carry the diagonal matrix D of tanh' = 1 − y²: G_a is D alone, and G_y is D times W. "
        "mt.linalg.solve takes the right-hand side as a column.",
    ]),
    "14.3a": value("true_value", expected=TRUE_VALUE, mistakes=[
        (NAIVE_VALUE, "that is what the naive code returns, not the derivative")], hints=[
        "Work out the inner derivative first: d/dy (x y) does not depend on y.",
        "With the inner derivative in place, h is a power of x."]),
    "14.3b": value("naive_value", expected=NAIVE_VALUE, mistakes=[
        (TRUE_VALUE, "that is the right derivative: the naive code confuses the two perturbations and gets "
                     "another number")], hints=[
        "The inner call receives x = 1 + 1ε from the outer one and makes y = 2 + 1ε with the same ε. Multiply the "
        "two with NaiveDual's rule and read the tangent.",
        "That tangent is a plain number that depends on x's value; the outer function is x · x times it. "
        "Differentiate that at x = 1."]),
    "14.4": function("softplus_safe", reference=softplus_safe, cases=SOFTPLUS_CASES, probe=softplus_probe,
                     rtol=1e-6, hints=[
        "The NaN appears where x is large: which op's result is infinite there, and what does its rule multiply "
        "the zero upstream gradient by?",
        "Give that op an input that cannot overflow wherever its branch is discarded: a where inside, on x, and "
        "the outer where as before.",
    ]),
}
