"""Inside the sandbox: run a submission top to bottom, then export what its graded answers are, as plain data.

    python -P -m classroom.grader.harvest NOTEBOOK      # started by classroom.grader.sandbox, never by hand

The runner executes every cell in a fresh kernel (a failing cell does not stop the others), prints ``READY`` and
only then reads the plan from its standard input: the graded parts and the text of the hidden test cases
(``classroom/hidden/lesson_NN.py``), so that no cell of the notebook can see those cases. It runs one more cell in
the same kernel, the harvest, which looks each answer up by its name and observes it with the exercise's public
probe on the hidden cases (a value answer is its own observation). Each observation is JSON: ``encoded`` below,
or ``{"error": sentence}`` where the probe stopped (not answered, wrong in kind, raised, returned None).

All of this runs in the student's process, so the student may change any of it: the grader outside trusts none of
it and only compares the numbers with the reference's. The runner's last line holds the executed notebook (the
harvest cell left out) and the harvest.

>>> encoded((3, "reverse", None))
{'tuple': [3, 'reverse', None]}
>>> encoded(np.array([[1.0, 2.0]]))
{'array': [[1.0, 2.0]], 'shape': [1, 2], 'dtype': 'float64', 'of': 'ndarray'}
"""

import ctypes
import json
import os
import pathlib
import sys
import tempfile

import nbclient
import nbformat
import numpy as np
from IPython.display import display

from classroom.checks import EXERCISES, resolve
from classroom.judge import _run, described
from classroom.probes import NotAnswered, Slot, call_with, class_is_placeholder, is_placeholder
from classroom.variants import student_id

MIME = "application/vnd.minitape.harvest+json"  # the harvest cell's one output
LIMIT = 4 * 2**20  # bytes of harvested data; a larger answer is reported as too large, not exported
READY = "minitape-harvest: the notebook ran"
CELL_SECONDS = 120
NOT_ANSWERED = "not answered yet"
PR_SET_DUMPABLE = 4  # from <linux/prctl.h>


def encoded(value):
    """``value`` as JSON data: numbers and arrays (with shape and dtype), strings, tuples, lists, None."""
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return {type(value).__name__ if type(value) in (list, tuple) else "list": [encoded(v) for v in value]}
    if hasattr(value, "as_list"):  # a TensorShape is compared as the tuple of its sizes
        return encoded(tuple(value.as_list()))
    of = "tensor" if type(value).__module__.startswith("minitape") and hasattr(value, "numpy") else \
        "scalar" if isinstance(value, np.generic) else "ndarray" if isinstance(value, np.ndarray) else None
    if of:
        array = np.asarray(value.numpy() if of == "tensor" else value)
        if array.dtype.kind in "biuf":
            return {"array": array.tolist(), "shape": list(array.shape), "dtype": str(array.dtype), "of": of}
    elif hasattr(value, "__float__") and not getattr(value, "free_symbols", None):
        try:
            return float(value)  # a SymPy number, or another object that knows its value
        except (TypeError, ValueError):
            pass
    return {"other": type(value).__name__}


def failed(sentence):
    return {"error": str(sentence)[:500]}


def observations(exercise_id, answer, cases):
    """What the check's probe observes of ``answer`` on each case: lists of encoded values, or an error."""
    data = EXERCISES[exercise_id]
    if answer is ...:
        return [failed(NOT_ANSWERED)]
    if data["answer"] == "value":
        return [[encoded(answer)]]
    if data["answer"] == "function" and (not callable(answer) or isinstance(answer, type)):
        return [failed(f"it is {described(answer)}, not a function")]
    if data["answer"] == "class" and not isinstance(answer, type):
        return [failed(f"it is {described(answer)}, not a class")]
    if is_placeholder(answer) or isinstance(answer, type) and class_is_placeholder(answer):
        return [failed(NOT_ANSWERED)]
    probe = resolve(data["probe"]) if "probe" in data else call_with
    seen = []
    for number, case in enumerate(cases, 1):
        try:
            observed, problem = _run(probe, (answer, *case), data.get("gradient", False), number, len(cases))
        except NotAnswered:
            return [failed(NOT_ANSWERED)]
        if problem:
            seen.append(failed(problem))
            continue
        slots = observed if isinstance(observed, list) else [observed]
        seen.append([encoded(slot.value if isinstance(slot, Slot) else slot) for slot in slots])
    return seen


def harvest(namespace, plan):
    """The harvest cell's work: display every graded part's observations as one JSON output (``MIME``)."""
    hidden = {}
    exec(compile(plan["hidden"], "<hidden test cases>", "exec"), hidden)  # a namespace of its own
    cases_of = hidden.get("HIDDEN_CASES", {})
    parts, size = {}, 0
    for exercise_id in plan["parts"]:
        data = EXERCISES[exercise_id]
        cases = cases_of.get(exercise_id) or (resolve(data["cases"]) if "cases" in data else [()])
        try:
            seen = observations(exercise_id, namespace.get(data["name"], ...), cases)
        except Exception as error:  # whatever the answer does, the other parts are still harvested
            seen = [failed(f"observing it raised {type(error).__name__}: {error}")]
        text = json.dumps(seen)
        if size + len(text) > LIMIT:
            seen = [failed(f"its observations take {len(text)} bytes, more than the grader accepts")]
        size += len(json.dumps(seen))
        parts[exercise_id] = seen
    display({MIME: {"student": student_id(), "parts": parts}}, raw=True)


def main(path):
    """Run the notebook at ``path``, then the harvest; print the executed notebook and the harvested data."""
    # The kernel runs as the same user as this runner: made undumpable, the runner's /proc entries (its standard
    # input, where the hidden cases come in) are closed to the kernel, which has no capability to override that.
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # The kernel: this Python with -P, so that the working directory (which the notebook may fill) is not on
    # sys.path; IPython leaves it off too when Python's safe_path flag is set.
    specs = pathlib.Path(tempfile.mkdtemp(prefix="jupyter-"))
    (specs / "kernels" / "grader").mkdir(parents=True)
    (specs / "kernels" / "grader" / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-P", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "grader", "language": "python"}))
    os.environ["JUPYTER_PATH"] = str(specs)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_SECONDS, kernel_name="grader", allow_errors=True,
                                     interrupt_on_timeout=True, record_timing=False,
                                     error_on_timeout={"ename": "TimeoutError", "evalue": "the cell ran too long"},
                                     resources={"metadata": {"path": str(pathlib.Path(path).parent)}})
    harvested, problem = None, None
    with client.setup_kernel():
        try:
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
            print(READY, flush=True)
            plan = json.loads(sys.stdin.read())
            cell = nbformat.v4.new_code_cell("from classroom.grader.harvest import harvest\n"
                                             f"harvest(globals(), {plan!r})")
            nb.cells.append(cell)
            client.execute_cell(cell, len(nb.cells) - 1)
            nb.cells.pop()
            found = [o["data"][MIME] for o in cell.outputs if MIME in o.get("data", {})]
            harvested = found[0] if found else None
            problem = None if found else "the harvest exported nothing: " + " ".join(
                f"{o.get('ename')}: {o.get('evalue')}" for o in cell.outputs if o.output_type == "error")
        except nbclient.exceptions.DeadKernelError:
            problem = "the kernel died while the notebook ran (it used too much memory, or a cell ended Python)"
    print(json.dumps({"notebook": nb, "harvest": harvested, "problem": problem}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
