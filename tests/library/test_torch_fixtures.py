"""minitape.torch against real PyTorch: the programs of fixtures/torch_programs.py, recorded under PyTorch 2.13.

Each program runs with ``torch`` bound to minitape.torch; its results (values, dtypes, shapes, flags,
``grad_fn`` names, reprs), its error (class and message) and its warnings must be PyTorch's.
"""

import json
import pathlib
import sys
import warnings

import numpy as np
import pytest

import minitape.torch as torch

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
RECORDED = json.loads((FIXTURES / "torch_programs.json").read_text())["programs"]


def describe(value):
    """The picture record_torch.py takes of a result, taken of minitape.torch's."""
    if isinstance(value, torch.Tensor):
        return {"tensor": value.detach().tolist(), "dtype": str(value.dtype), "shape": list(value.shape),
                "requires_grad": value.requires_grad,
                "grad_fn": None if value.grad_fn is None else value.grad_fn.name(), "repr": repr(value)}
    if isinstance(value, (list, tuple)):
        return [describe(v) for v in value]
    return value


def run(source):
    result = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(source, {"torch": torch, "result": result})
            error = None
        except Exception as e:
            error = {"class": type(e).__name__, "message": str(e)}
    return {k: describe(v) for k, v in result.items()}, error, [str(w.message) for w in caught]


def same(ours, theirs, where):
    if isinstance(theirs, dict) and "tensor" in theirs:
        assert isinstance(ours, dict), f"{where}: PyTorch gives a tensor, minitape {ours!r}"
        for field in ("dtype", "shape", "requires_grad", "grad_fn", "repr"):
            assert ours[field] == theirs[field], f"{where}.{field}: {ours[field]!r} != PyTorch's {theirs[field]!r}"
        np.testing.assert_allclose(np.asarray(ours["tensor"], float), np.asarray(theirs["tensor"], float),
                                   rtol=2e-6, atol=1e-6, err_msg=where)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours!r} != {theirs!r}"
        for k, (a, b) in enumerate(zip(ours, theirs)):
            same(a, b, f"{where}[{k}]")
    elif isinstance(theirs, float):
        assert ours == pytest.approx(theirs, rel=2e-6), where
    else:
        assert ours == theirs, f"{where}: {ours!r} != PyTorch's {theirs!r}"


def without_origin(message):
    """A warning's text without the C++ file PyTorch names at its end."""
    return message.split(" (Triggered internally at")[0]


@pytest.fixture
def torch_module(monkeypatch):
    """``import torch.nn.functional as F`` inside a program imports minitape's (``torch.autograd.functional``
    is ``minitape.torch.autograd.derivatives``, a name no other module has)."""
    for name in ("torch", "torch.nn", "torch.nn.functional", "torch.autograd", "torch.func"):
        monkeypatch.setitem(sys.modules, name, sys.modules["minitape." + name])
    monkeypatch.setitem(sys.modules, "torch.autograd.functional", torch.autograd.functional)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_program_gives_what_pytorch_gives(name, torch_module):
    recorded = RECORDED[name]
    result, error, caught = run(recorded["source"])
    assert error == recorded["error"]
    assert [without_origin(w) for w in caught] == [without_origin(w) for w in recorded["warnings"]]
    assert sorted(result) == sorted(recorded["result"])
    for key, theirs in recorded["result"].items():
        same(result[key], theirs, f"{name}:{key}")
