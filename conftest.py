"""What every pytest run of the repository shares: Hypothesis's budget, a Jupyter config of the run's own, and
the check that each lesson's reference solutions pass when nbval runs them.

HYPOTHESIS_PROFILE picks the budget of the property tests (tests/library/test_ops.py): ``ci`` (the default, as
``make test`` runs) draws 12 examples per test in a fixed order, so that a failure there is seen again on any
machine; ``quick`` (``make test-python``, CI's other Pythons) draws 4 in a fixed order; ``dev`` (``make
test-library``'s quick loop) draws 4 at random, so that a contributor's repeated runs explore new inputs.
"""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=12, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
settings.register_profile("quick", settings.get_profile("ci"), max_examples=4)
settings.register_profile("dev", settings.get_profile("quick"), derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    # Every kernel a run starts (nbval's, nbclient's, nbgrader's) writes IPython's history database; runs side by
    # side (pytest-xdist's workers, CI's other Pythons) sharing ~/.ipython would wait on its lock, and a learner's
    # own ~/.ipython (a startup file, an extension) would change what the lessons print.
    if "IPYTHONDIR" not in os.environ or hasattr(config, "workerinput"):
        folder = tempfile.mkdtemp(prefix="minitape-ipython-")
        os.environ["IPYTHONDIR"] = folder
        # atexit runs last-registered first: an IPython shell made in this process by a test writes its history
        # at exit, before the folder goes.
        atexit.register(shutil.rmtree, folder, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Under nbval, a reference solution's cell must print that it passes, once for each id it names: its stored
    output is cleared (make notebooks), so nbval alone would accept a solution that printed nothing."""
    outcome = yield
    cell = getattr(item, "cell", None)
    if outcome.excinfo or cell is None or "solution" not in cell.get("metadata", {}).get("tags", []):
        return
    from classroom.checks import REFERENCE_PASSES, reference_ids
    printed = "".join(out.get("text", "") for out in item.test_outputs or [] if out.get("output_type") == "stream")
    assert REFERENCE_PASSES.findall(printed) == reference_ids(cell.source), (
        f"a reference solution did not print that it passes its check:\n{cell.source}\n--- it printed:\n{printed}")
