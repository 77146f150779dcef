"""Lesson 15's results of JAX, kept from a run with JAX, so that a reader without JAX still reads them."""
import json
import pathlib

JAX_RECORD = pathlib.Path(__file__).resolve().parent.parent / "data" / "lesson_15_jax.json"


def jax_text(key, compute):
    """JAX's result for ``key`` as text: ``compute()`` where JAX is installed, else the text of the last run with JAX.

    With JAX (``compute`` a function returning text), the text is kept in ``JAX_RECORD`` under ``key``; without
    it (``compute`` None), the kept text is returned.

    >>> jax_text("a result nobody asked for", None)
    "(no result of JAX recorded for 'a result nobody asked for')"
    """
    record = json.loads(JAX_RECORD.read_text(encoding="utf-8")) if JAX_RECORD.exists() else {}
    if compute is None:
        return record.get(key, f"(no result of JAX recorded for {key!r})")
    text = compute()
    if record.get(key) != text:
        record[key] = text
        JAX_RECORD.write_text(json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return text
