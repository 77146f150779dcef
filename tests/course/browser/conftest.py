"""Fixtures of the browser tests: one JupyterLab server and one Chromium per session, offline pages, the book."""

import functools
import http.server
import threading

import pytest
from browser_support import CHROMIUM, CHROMIUM_FLAGS, ROOT, LabServer, OfflinePage, QuietHandler, sync_playwright


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("jupyter-home"))
    try:
        server.wait_until_up()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def offline_page(chromium):
    page = OfflinePage(chromium)
    yield page
    page.close()


@pytest.fixture(scope="session")
def book_server():
    """``build/book`` served by Python's http.server on 127.0.0.1; yields its address."""
    book = ROOT / "build" / "book"
    if not (book / "index.html").exists():
        pytest.fail(f"the static book is missing ({book / 'index.html'}): run `make book` first "
                    "(`make test` builds it before the tests)")
    handler = functools.partial(QuietHandler, directory=str(book))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}"
        server.shutdown()
