"""Answers of lesson 16 (linear algebra: backward rules, the adjoint method)."""
import numpy as np

from classroom.lessons.lesson_16 import ADJOINT_CASES, SOLVE_CASES, adjoint_probe, solve_vjp_probe, \
    solves_without_inverting, two_solves
from classroom.spec import function, value

# --- 16.1: the gradient of det at [[2, 1], [4, 3]] -----------------------------------------------------------------
_A = np.array([[2.0, 1.0], [4.0, 3.0]])
_COFACTORS = np.linalg.det(_A) * np.linalg.inv(_A).T  # [[a22, -a21], [-a12, a11]]


# --- 16.2: the VJP of a solve ----------------------------------------------------------------------------------------
def solve_vjp(a, b, x, x_bar):
    b_bar = np.linalg.solve(a.T, x_bar)
    return -b_bar @ x.T, b_bar


def solve_vjp_untransposed(a, b, x, x_bar):
    """A slip: the solve with A where Aᵀ is needed."""
    b_bar = np.linalg.solve(a, x_bar)
    return -b_bar @ x.T, b_bar


# --- 16.3: the adjoint method for the heated bar ---------------------------------------------------------------------
_N = 30
_SOURCE = np.full(_N, 1.0 / (_N + 1) ** 2)
_TARGET = np.sin(np.pi * np.arange(1, _N + 1) / (_N + 1)) / 20


def _stiffness(theta):
    k = np.exp(theta)
    return np.diag(k[:-1] + k[1:]) - np.diag(k[1:-1], 1) - np.diag(k[1:-1], -1)


def adjoint_gradient(theta):
    a = _stiffness(theta)
    x = np.linalg.solve(a, _SOURCE)
    lam = np.linalg.solve(a.T, x - _TARGET)
    # ∂A/∂θ_j = k_j v vᵀ with v = e_(j-1) - e_j (the conductance between nodes j-1 and j; the walls have no node)
    lam_padded, x_padded = np.pad(lam, 1), np.pad(x, 1)
    return -np.exp(theta) * np.diff(lam_padded) * np.diff(x_padded)


def adjoint_gradient_without_minus(theta):
    return -adjoint_gradient(theta)


EXERCISES = {
    "16.1": value("det_gradient", expected=_COFACTORS.tolist(), rtol=1e-9, mistakes=[
        (_COFACTORS.T.tolist(), "that is the adjugate, det A · A⁻¹: entry (i, j) must be the derivative with "
                                "respect to a_ij, so it is transposed"),
        ([[3.0, 4.0], [1.0, 2.0]], "the off-diagonal signs are wrong: a12 and a21 enter det A with a minus sign")],
        hints=[
        "Differentiate a11 a22 − a12 a21 with respect to each of the four entries, holding the other three fixed.",
        "∂det/∂a11 = a22 and ∂det/∂a12 = −a21; put each derivative where its entry sits in A."]),
    "16.2": function("solve_vjp", reference=solve_vjp, cases=SOLVE_CASES, probe=solve_vjp_probe, rtol=1e-9,
                     test=solves_without_inverting, mistakes=[
        (solve_vjp_untransposed, "the solve for B̄ uses A where it needs Aᵀ: move A⁻¹ across the trace and it "
                                 "arrives transposed")], hints=[
        "Differentiate A X = B: dA X + A dX = dB, so dX = A⁻¹(dB − dA X). Put that into tr(X̄ᵀ dX).",
        "For B: tr(X̄ᵀ A⁻¹ dB) = tr((A⁻ᵀ X̄)ᵀ dB), and A⁻ᵀ X̄ is one solve with Aᵀ. For A: tr(−X̄ᵀ A⁻¹ dA X); "
        "rotate X to the front and read off Ā in terms of B̄ and X."]),
    "16.3": function("adjoint_gradient", reference=adjoint_gradient, cases=ADJOINT_CASES, probe=adjoint_probe,
                     rtol=1e-6, atol=1e-8, test=two_solves, mistakes=[
        (adjoint_gradient_without_minus, "the sign is wrong: Aᵀλ = ∇ₓL and dL/dθ_j = −λᵀ (∂A/∂θ_j) x")], hints=[
        "First solve for the temperatures x, then the adjoint equation Aᵀλ = ∇ₓL, where L = ½‖x − x_target‖².",
        "With x and λ, each derivative is a product: dL/dθ_j = −λᵀ (∂A/∂θ_j) x, with stiffness_derivative(theta, j) "
        "for ∂A/∂θ_j. No further solve is needed."]),
}
