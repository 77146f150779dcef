"""minitape.torch's gradients against finite differences in float64, and the autograd behaviour around them.

The recorded PyTorch programs (test_torch_fixtures.py) check names, dtypes and messages; here each
function's gradient, and a second derivative through ``create_graph``, is checked against central
differences of the function itself, so a wrong rule could not pass by agreeing with a wrong record.
"""

import numpy as np
import pytest

import minitape.torch as torch
import minitape.torch.nn.functional as F
from minitape.numeric import difference_jacobian

X = np.array([[0.3, -1.2, 0.8], [1.5, 0.4, -0.6]])
TARGET = torch.tensor([2, 0])
FUNCTIONS = {
    "polynomial": lambda x: (x ** 3 - 2 * x * x + 1 / (x * x + 1)).sum(),
    "transcendental": lambda x: (torch.exp(x).sin() + torch.tanh(x) * torch.sigmoid(x) + torch.log(x * x + 1)).sum(),
    "reductions": lambda x: x.sum(dim=0).prod() + x.mean(dim=1).norm() + x.max() - x.min(dim=0).values.sum(),
    "softmax": lambda x: (torch.softmax(x, dim=1) * torch.arange(3.0, dtype=torch.float64)).sum()
    + torch.log_softmax(x, dim=0)[1].sum() + torch.logsumexp(x, dim=1).sum(),
    "matmul": lambda x: (x @ x.T @ x).sum() + (x.t() @ x[:, 0]).pow(2).sum() + (x[0] @ x.t()).sum(),
    "shapes": lambda x: (torch.cat([x, x.view(3, 2).t() * 2], dim=1).unsqueeze(0).squeeze() ** 2).sum()
    + torch.stack([x, 2 * x], dim=2).permute(2, 0, 1)[1].pow(3).sum(),
    "indexing": lambda x: (x[1, 1:] * x[0, :2]).sum() + x[[1, 0]][0].pow(2).sum() + x[x > 0].sum(),
    "where_and_clamp": lambda x: torch.where(x > 0, x * x, -x).sum() + x.clamp(-0.5, 0.5).pow(2).sum(),
    "losses": lambda x: F.cross_entropy(x, TARGET) + F.mse_loss(x, torch.ones(2, 3, dtype=torch.float64))
    + F.linear(x, x[:, :3], x[0, :2]).sum(),
}


def _value(f, array):
    return f(torch.tensor(array)).item()


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradient_matches_central_differences(name):
    f = FUNCTIONS[name]
    x = torch.tensor(X, requires_grad=True)
    f(x).backward()
    expected = difference_jacobian(lambda a: _value(f, a), X)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["polynomial", "transcendental", "softmax", "matmul"])
def test_second_derivative_through_create_graph_matches_differences_of_the_gradient(name):
    f = FUNCTIONS[name]
    weights = torch.tensor([[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]], dtype=torch.float64)

    def directional(array):  # the gradient of f, dotted with fixed weights: a scalar to differentiate again
        x = torch.tensor(array, requires_grad=True)
        (g,) = torch.autograd.grad(f(x), x)
        return (g * weights).sum().item()

    x = torch.tensor(X, requires_grad=True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (h,) = torch.autograd.grad((g * weights).sum(), x)
    expected = difference_jacobian(directional, X)
    np.testing.assert_allclose(h.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_a_hook_on_an_intermediate_changes_what_flows_past_it():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x * x
    y.register_hook(lambda g: g * 0.5)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 2.0])  # 0.5 * 2x


def test_gradient_of_an_in_place_chain_matches_differences():
    def f(array):
        x = array
        y = x * 1
        y.mul_(x)
        y.add_(x.exp())
        y[0] = y[1] * y[2]
        return y.sum()

    x = torch.tensor(X[0], requires_grad=True)
    f(x).backward()
    expected = difference_jacobian(lambda a: f(torch.tensor(a)).item(), X[0])
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_no_grad_works_as_a_decorator_and_restores_the_mode():
    @torch.no_grad()
    def doubled(t):
        return t * 2

    x = torch.tensor(1.0, requires_grad=True)
    assert not doubled(x).requires_grad
    assert torch.is_grad_enabled() and (x * 2).requires_grad


def test_a_function_sees_which_inputs_need_a_gradient():
    seen = []

    class Mul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            seen.append(ctx.needs_input_grad)
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(4.0)
    Mul.apply(a, b).backward()
    assert seen == [(True, False)] and a.grad.item() == 4.0


def test_a_training_loop_with_module_and_sgd_lowers_the_loss():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
    x = torch.randn(32, 2)
    y = (x[:, :1] * 2 - x[:, 1:]) ** 2
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for _ in range(60):
        opt.zero_grad()
        loss = torch.nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert len(model.parameters()) == 4 and losses[-1] < 0.5 * losses[0]


def test_manual_seed_repeats_minitapes_numbers():
    torch.manual_seed(3)
    first = torch.rand(3).tolist()
    torch.manual_seed(3)
    assert torch.rand(3).tolist() == first


def test_a_view_refuses_an_in_place_change_instead_of_losing_it():
    x = torch.zeros(2, 3)
    with pytest.raises(NotImplementedError, match="a view"):
        x[0].add_(1)
