"""Answers of lesson 16 (linear algebra: backward rules, the adjoint method)."""
import numpy as np

from classroom.lessons.lesson_16 import ADJOINT_CASES, SOLVE_CASES, adjoint_probe, solve_vjp_probe
from classroom.spec import function, value

# --- 16.1: the gradient of det at [[2, 1], [4, 3]] -----------------------------------------------------------------
_A = np.array([[2.0, 1.0], [4.0, 3.0]])
_COFACTORS = np.linalg.det(_A) * np.linalg.inv(_A).T  # [[a22, -a21], [-a12, a11]]


# --- 16.2: the VJP of a solve, from the factors -------------------------------------------------------------------
def solve_vjp(solve, x, x_bar):
    b_bar = solve(x_bar, transpose=True)
    return -b_bar @ x.T, b_bar


def solve_vjp_untransposed(solve, x, x_bar):
    """A slip: the solve with A where Aᵀ is needed."""
    b_bar = solve(x_bar)
    return -b_bar @ x.T, b_bar


# --- 16.3: the adjoint method for the heated bar ---------------------------------------------------------------------
def adjoint_gradient(theta, solve, b, x_target):
    x = solve(b)
    lam = solve(x - x_target, transpose=True)
    # ∂A/∂θ_j = κ_j v vᵀ with v = e_(j-1) - e_j (the conductance between points j-1 and j; the walls are no point)
    return -np.exp(theta) * np.diff(np.pad(lam, 1)) * np.diff(np.pad(x, 1))


def adjoint_gradient_without_minus(theta, solve, b, x_target):
    return -adjoint_gradient(theta, solve, b, x_target)


def adjoint_gradient_for_kappa(theta, solve, b, x_target):
    """A slip: dL/dκ, the chain rule's last factor dκ_j/dθ_j = κ_j forgotten."""
    return adjoint_gradient(theta, solve, b, x_target) / np.exp(theta)


EXERCISES = {
    "16.1": value("det_gradient", expected=_COFACTORS.tolist(), rtol=1e-9, mistakes=[
        (_COFACTORS.T.tolist(), "that is the adjugate, det A · A⁻¹: entry (i, j) must be the derivative with "
                                "respect to a_ij, so it is transposed"),
        ([[3.0, 4.0], [1.0, 2.0]], "the off-diagonal signs are wrong: a12 and a21 enter det A with a minus sign")],
        hints=[
        "Differentiate a11 a22 − a12 a21 with respect to each of the four entries, holding the other three fixed.",
        "∂det/∂a11 = a22 and ∂det/∂a12 = −a21; put each derivative where its entry sits in A."]),
    "16.2": function("solve_vjp", reference=solve_vjp, cases=SOLVE_CASES, probe=solve_vjp_probe, rtol=1e-9, mistakes=[
        (solve_vjp_untransposed, "the solve for B̄ uses A where it needs Aᵀ: move A⁻¹ across the trace and it "
                                 "arrives transposed")], hints=[
        "Differentiate A X = B: dA X + A dX = dB, so dX = A⁻¹(dB − dA X). Put that into tr(X̄ᵀ dX).",
        "For B: tr(X̄ᵀ A⁻¹ dB) = tr((A⁻ᵀ X̄)ᵀ dB), and A⁻ᵀ X̄ is solve(x_bar, transpose=True). For A: "
        "tr(−X̄ᵀ A⁻¹ dA X); rotate X to the front and read off Ā in terms of B̄ and X: no second solve."]),
    "16.3": function("adjoint_gradient", reference=adjoint_gradient, cases=ADJOINT_CASES, probe=adjoint_probe,
                     rtol=1e-6, atol=1e-8, mistakes=[
        (adjoint_gradient_without_minus, "the sign is wrong: Aᵀλ = ∇ₓL and dL/dθ_j = −λᵀ (∂A/∂θ_j) x"),
        (adjoint_gradient_for_kappa, "that is dL/dκ_j: θ_j enters A through κ_j = exp(θ_j), so the chain rule "
                                     "multiplies by dκ_j/dθ_j = κ_j")], hints=[
        "First the temperatures x = solve(b), then the adjoint equation Aᵀλ = ∇ₓL with L = ½‖x − x_target‖²; "
        "then dL/dθ_j = −λᵀ (∂A/∂θ_j) x needs no further solve.",
        "θ_j enters A only through κ_j, the conductance between points j−1 and j. Write down which entries of A "
        "hold κ_j: how many are there, and what is the rank of ∂A/∂θ_j?",
        "∂A/∂θ_j = κ_j v vᵀ with v = e_(j−1) − e_j (a wall is no point: drop its entry), so λᵀ(∂A/∂θ_j)x = "
        "κ_j (λ_(j−1) − λ_j)(x_(j−1) − x_j). With a zero padded at each end of λ and x, np.diff gives every "
        "difference at once."]),
}
