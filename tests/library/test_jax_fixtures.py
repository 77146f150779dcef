"""minitape.jax against JAX's recorded outcomes: values, dtypes, shapes, structure, error classes and messages.

The programs are in fixtures/jax_programs.py; fixtures/jax_programs.json holds what JAX 0.10 made of them,
recorded once by fixtures/record_jax.py (which needs JAX; this file does not).
"""

import json
import pathlib

import numpy as np
import pytest

import minitape.jax as jax
import minitape.jax.numpy as jnp
from fixtures.jax_programs import PROGRAMS
from fixtures.record_jax import encode

RECORDED = json.loads((pathlib.Path(__file__).parent / "fixtures" / "jax_programs.json").read_text())["programs"]

def test_every_program_was_recorded():
    assert sorted(RECORDED) == sorted(PROGRAMS)


def same(ours, theirs, path="result"):
    """Assert that two encoded outcomes agree: structure exactly, values to float32 precision."""
    if isinstance(theirs, dict) and "value" in theirs:
        assert isinstance(ours, dict) and "value" in ours, f"{path}: expected an array, got {ours}"
        assert ours["dtype"] == theirs["dtype"], f"{path}: dtype {ours['dtype']} != {theirs['dtype']}"
        assert ours["shape"] == theirs["shape"], f"{path}: shape {ours['shape']} != {theirs['shape']}"
        np.testing.assert_allclose(np.array(ours["value"], dtype=float), np.array(theirs["value"], dtype=float),
                                   rtol=2e-5, atol=1e-6, err_msg=path)
    elif isinstance(theirs, dict) and "number" in theirs:
        assert ours == theirs or np.isclose(ours.get("number", ours.get("value")), theirs["number"]), path
    elif isinstance(theirs, dict):
        ((kind, items),) = theirs.items()
        assert isinstance(ours, dict) and list(ours) == [kind], f"{path}: expected a {kind}, got {ours}"
        if kind == "dict":
            assert sorted(ours[kind]) == sorted(items), path
            for k in items:
                same(ours[kind][k], items[k], f"{path}[{k!r}]")
        else:
            assert len(ours[kind]) == len(items), f"{path}: {len(ours[kind])} items, JAX has {len(items)}"
            for k, (a, b) in enumerate(zip(ours[kind], items)):
                same(a, b, f"{path}[{k}]")
    else:
        assert ours == theirs, f"{path}: {ours} != {theirs}"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_minitape_jax_does_what_jax_did(name):
    recorded = RECORDED[name]
    if "error" in recorded:
        with pytest.raises(Exception) as caught:
            PROGRAMS[name](jax, jnp)
        assert type(caught.value).__name__ == recorded["error"]
        assert str(caught.value).splitlines()[0] == recorded["message"]  # the first line, as recorded
        return
    same(encode(PROGRAMS[name](jax, jnp)), recorded["result"])
