"""Lesson 16's public test cases, probes and factorisation (linear algebra: backward rules, the adjoint method)."""
import numpy as np

from classroom.probes import Slot, Wrong, call


class Factored:
    """A square matrix A factored once, P A = L U with partial pivoting, then solved with A or Aᵀ from the factors.

    This is what JAX's and PyTorch's ``solve`` keep for the backward pass. ``multiply_adds`` counts the work
    (about n³/3 to factor, about n² per right-hand side to solve); ``right_hand_sides`` counts the columns solved.

    >>> factored = Factored(np.array([[2.0, 1.0], [4.0, 3.0]]))
    >>> factored.solve(np.array([3.0, 7.0])), factored.solve(np.array([6.0, 4.0]), transpose=True)
    (array([1., 1.]), array([1., 1.]))
    >>> factored.right_hand_sides
    2
    """

    def __init__(self, a):
        lu = np.array(a, dtype=np.float64)
        n = len(lu)
        order = np.arange(n)
        self.multiply_adds = 0
        for j in range(n - 1):
            pivot = j + int(np.argmax(np.abs(lu[j:, j])))  # the largest entry below: no division by a tiny one
            lu[[j, pivot]], order[[j, pivot]] = lu[[pivot, j]], order[[pivot, j]]
            lu[j + 1:, j] /= lu[j, j]
            lu[j + 1:, j + 1:] -= np.outer(lu[j + 1:, j], lu[j, j + 1:])
            self.multiply_adds += (n - 1 - j) ** 2
        self.lu, self.order, self.right_hand_sides = lu, order, 0

    def solve(self, rhs, transpose=False):
        """A⁻¹ rhs (``transpose=True``: A⁻ᵀ rhs) for a vector or an n × k matrix, by substitution."""
        rhs = np.asarray(rhs, dtype=np.float64)
        self.right_hand_sides += 1 if rhs.ndim == 1 else rhs.shape[1]
        lower, upper = np.tril(self.lu, -1) + np.eye(len(self.lu)), np.triu(self.lu)
        if transpose:  # Aᵀ = Uᵀ Lᵀ P: solve with Uᵀ, then Lᵀ, then undo the row swaps
            solution = np.empty_like(rhs)
            solution[self.order] = self._substitute(lower.T, self._substitute(upper.T, rhs, True), False)
            return solution
        return self._substitute(upper, self._substitute(lower, rhs[self.order], True), False)

    def _substitute(self, triangle, rhs, is_lower):
        # one unknown at a time, from the row of the triangle that holds one entry
        n = len(triangle)
        rows = range(n) if is_lower else range(n - 1, -1, -1)
        solution = np.zeros_like(rhs)
        for i in rows:
            solution[i] = (rhs[i] - triangle[i] @ solution) / triangle[i, i]
        columns = 1 if rhs.ndim == 1 else rhs.shape[1]
        self.multiply_adds += n * n * columns // 2
        return solution


# --- 16.1: the gradient of a 2 × 2 determinant: a value, no public part -----------------------------------------

# --- 16.2: the VJP of a solve, from the factors -----------------------------------------------------------------
def solve_case(n, k, seed):
    """A, B and X̄ for a solve of an n × k right-hand side: random, well conditioned, A not symmetric."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, n)) + n * np.eye(n)  # well conditioned, and not symmetric: a transpose matters
    return a, rng.normal(size=(n, k)), rng.normal(size=(n, k))


SOLVE_CASES = [solve_case(3, 1, 160), solve_case(4, 2, 161), solve_case(5, 3, 162)]


def _solved(factored, before, at_most, what):
    solved = factored.right_hand_sides - before
    if solved == 0:
        raise Wrong(f"{what} never calls solve: A is only reachable through it")
    if solved > at_most:
        enough = "one is" if at_most == 1 else f"{at_most} are"
        raise Wrong(f"{what} solves {solved} right-hand sides, where {enough} enough (solving against the identity "
                    f"is an inverse in disguise)")
    return Slot(solved, f"{what} solves the wrong number of right-hand sides: {{}}", exact=True)


def solve_vjp_probe(solve_vjp, a, b, x_bar):
    """16.2: Ā and B̄ for the upstream gradient X̄ of X = A⁻¹B, with A reachable only through its factors."""
    factored = Factored(a)
    x = factored.solve(b)
    before = factored.right_hand_sides
    what = f"solve_vjp for an X̄ of {x_bar.shape[1]} column(s)"
    result = call(solve_vjp, factored.solve, x.copy(), x_bar.copy(), what=what)
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Wrong("it should return two arrays, a_bar and b_bar, as a pair: return a_bar, b_bar")
    for name, got, of, shape in (("a_bar", result[0], "A", a.shape), ("b_bar", result[1], "B", b.shape)):
        if np.shape(got) != shape:
            raise Wrong(f"for A of shape {a.shape} and B of shape {b.shape}, {name} has shape {np.shape(got)}, but a "
                        f"gradient has the shape of what it differentiates, {of}'s {shape}")
    return [Slot(np.asarray(result[0], dtype=float), f"for an X̄ of {b.shape[1]} column(s), a_bar is wrong: {{}}"),
            Slot(np.asarray(result[1], dtype=float), f"for an X̄ of {b.shape[1]} column(s), b_bar is wrong: {{}}"),
            _solved(factored, before, b.shape[1], what)]


# --- 16.3: the adjoint method for a heated bar ------------------------------------------------------------------
def bar_stiffness(theta):
    """The heated bar's matrix for conductivities κ = exp(θ): A_ii = κ_i + κ_(i+1), A_(i,i+1) = −κ_(i+1)."""
    kappa = np.exp(theta)
    return np.diag(kappa[:-1] + kappa[1:]) - np.diag(kappa[1:-1], 1) - np.diag(kappa[1:-1], -1)


def bar_case(n, seed, heat=1.0, peak=0.05):
    """θ, b and x_target for a bar of n points: random log-conductivities, even heating, a sine as target."""
    positions = np.arange(1, n + 1) / (n + 1)
    theta = 0.5 * np.random.default_rng(seed).normal(size=n + 1)
    return theta, np.full(n, heat / (n + 1) ** 2), peak * np.sin(np.pi * positions)


ADJOINT_CASES = [bar_case(30, 1), bar_case(12, 163)]


def adjoint_probe(adjoint_gradient, theta, b, x_target):
    """16.3: dL/dθ for the bar with n = len(b) points, with A reachable only through its factors."""
    factored = Factored(bar_stiffness(theta))
    what = f"adjoint_gradient for a bar of {len(b)} points"
    gradient = np.asarray(call(adjoint_gradient, theta.copy(), factored.solve, b.copy(), x_target.copy(), what=what),
                          dtype=float)
    if gradient.shape != theta.shape:
        raise Wrong(f"for a bar of {len(b)} points it returned shape {gradient.shape}; dL/dθ has one number per "
                    f"conductivity, shape {theta.shape}")
    return [Slot(gradient, f"for a bar of {len(b)} points the gradient is wrong: {{}}"),
            _solved(factored, 0, 2, what)]
