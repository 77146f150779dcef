"""Fixtures of the hub test: one JupyterHub, the student edition published as a git repository, the browser.

The test starts servers and installs packages of its own, so it runs with `make hub-test`, not `make test`.
It shares the browser tests' helpers (tests/browser/browser_support.py) and prints the times it measured.
"""

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


@pytest.fixture(scope="session")
def chromium():
    from browser_support import CHROMIUM, CHROMIUM_FLAGS, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


def pytest_terminal_summary(terminalreporter):
    if REPORT and not why_not_here():
        terminalreporter.section("the class route on JupyterHub: what it took")
        for line in report_lines():
            terminalreporter.write_line(line)
