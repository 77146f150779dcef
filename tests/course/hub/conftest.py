"""Fixtures of the hub test: one JupyterHub, the student edition published as a git repository, the browser.

The test starts servers and installs packages of its own, so it runs with `make hub-test`, not `make test`.
It shares the browser tests' helpers (tests/course/browser/browser_support.py) and prints the times it measured.
"""

import importlib.util
import pathlib
import sys

import pytest

TESTS = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(TESTS / "browser"), str(TESTS)]  # browser_support, and repository_scripts for scripts/

from hub_support import EDITION, REPORT, Hub, publish, report_lines, why_not_here  # noqa: E402 (the path above)


@pytest.fixture(scope="session")
def hub(tmp_path_factory):
    server = Hub(tmp_path_factory.mktemp("hub"))
    try:
        REPORT["hub start"] = server.wait_until_up()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def repository(tmp_path_factory):
    """The student edition (what make student wrote) as a git repository: its file:// address and its folder."""
    if not (EDITION.is_dir() and any(EDITION.glob("*.ipynb"))):
        pytest.fail(f"the student edition is missing ({EDITION}): run make student first (make hub-test does)")
    folder = tmp_path_factory.mktemp("published") / "ad-class"
    return publish(EDITION, folder), folder


def _browser_fixtures():
    """tests/course/browser/conftest.py, loaded under a name of its own, to share its fixtures."""
    spec = importlib.util.spec_from_file_location("browser_fixtures", TESTS / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


chromium = _browser_fixtures().chromium  # Debian's Chromium, launched as the browser tests launch it


def pytest_terminal_summary(terminalreporter):
    if REPORT and not why_not_here():
        terminalreporter.section("the class route on JupyterHub: what it took")
        for line in report_lines():
            terminalreporter.write_line(line)
