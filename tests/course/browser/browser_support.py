"""What the browser tests share: the browser, a JupyterLab server of their own, an offline page, the lessons.

The tests drive Debian's Chromium (``/usr/bin/chromium``, never a downloaded browser build) with
Playwright's Python API. Without Chromium or Playwright each test module skips itself with ``MISSING``,
the message saying how to install them.

The JupyterLab server is the one ``make lab`` starts: the repository root, the course's settings
(``scripts/lab-config``) and the course's kernel, on 127.0.0.1, with a fresh, empty Jupyter data, config
and IPython directory and HOME, so that the lessons start untrusted (as in a fresh clone or a student's
copy on a JupyterHub) and no user setting leaks in. Pages may only load from 127.0.0.1.
"""

import contextlib
import http.server
import json
import os
import pathlib
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

from classroom.editions import tags

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "tests" / "course"))  # also when pytest is given tests/course/browser alone
from repository_scripts import load_script  # noqa: E402

LAB_CONFIG = ROOT / "scripts" / "lab-config"  # make lab's settings (scripts/lab.py)
CHROMIUM = pathlib.Path("/usr/bin/chromium")
# Quiet, offline, headless Chromium that runs as root in a container.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PICTURE_TYPES = ("image/svg+xml", "image/png")
VIEWPORT = {"width": 1400, "height": 900}
SCREENSHOTS = os.environ.get("MINITAPE_SCREENSHOTS")  # a folder: save what the tests looked at, to look at it

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sync_playwright = None

# Each test module skips itself with this message (a conftest cannot skip when pytest is given its folder).
MISSING = None if sync_playwright and CHROMIUM.exists() else (
    "browser tests need Chromium at /usr/bin/chromium and Playwright: "
    "`sudo apt-get install chromium` and `pip install -e '.[test]'` (never `playwright install`)"
)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def save_screenshot(page, name):
    """Write the page as ``name``.png into $MINITAPE_SCREENSHOTS, when that is set."""
    if SCREENSHOTS:
        pathlib.Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(pathlib.Path(SCREENSHOTS) / f"{name}.png"))


class LabServer:
    """A JupyterLab serving the repository root, as ``make lab`` does, in a throw-away Jupyter home."""

    def __init__(self, home):
        self.token = secrets.token_hex(16)
        self.url = None  # known once the server is up: it picks a free port itself (--port=0)
        self.runtime = home / "runtime"
        self.env = {
            **os.environ,
            "HOME": str(home),
            "JUPYTER_DATA_DIR": str(home / "data"),  # holds the trust database: empty, so nothing is trusted
            "JUPYTER_CONFIG_DIR": str(home / "config"),  # holds the user settings: none but the one below
            "IPYTHONDIR": str(home / "ipython"),
            "JUPYTER_RUNTIME_DIR": str(self.runtime),  # where the server writes its jpserver-<pid>.json
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "JUPYTER_CONFIG_PATH": str(LAB_CONFIG),
        }
        load_script("course_kernel").install()  # into this Python's environment, where the kernels start
        # The tests change notebooks in the browser (Run All) but must never write a lesson back.
        autosave = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "docmanager-extension"
        autosave.mkdir(parents=True)
        (autosave / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
        self.log = home / "jupyterlab.log"
        command = [
            sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", "--port=0",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={ROOT}",
            "--expose-app-in-browser",  # window.jupyterapp: run JupyterLab's commands, read its models
            # Opening a lesson writes a checkpoint copy of it: into the throw-away home, not the repository.
            f"--FileCheckpoints.checkpoint_dir={home / 'checkpoints'}",
        ]
        if os.getuid() == 0:
            command.append("--allow-root")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def wait_until_up(self, timeout=90):
        """Wait for the server's own record of its address, then for it to answer. A port chosen here and passed
        in could be taken by another suite's server (CI runs several side by side) before this one binds it."""
        deadline = time.monotonic() + timeout
        record = self.runtime / f"jpserver-{self.process.pid}.json"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with contextlib.suppress(OSError, ValueError, KeyError):
                self.url = f"http://127.0.0.1:{json.loads(record.read_text())['port']}"
                urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2)
                return
            time.sleep(0.2)
        raise RuntimeError(f"JupyterLab did not start in {timeout} s; its log:\n{self.log.read_text()[-3000:]}")

    def trust(self, notebook):
        subprocess.run([sys.executable, "-m", "jupyter", "trust", str(notebook)], env=self.env, check=True,
                       capture_output=True)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class OfflinePage:
    """A 1400x900 page that may load only from 127.0.0.1; ``elsewhere`` lists what it tried to load."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.elsewhere = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()

    def _route(self, route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            route.continue_()
        else:
            self.elsewhere.append(url)
            route.abort()

    def close(self):
        self.context.close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def load(lesson):
    return json.loads(lesson.read_text())


def is_picture(output):
    """Whether a stored output carries a picture: SVG, PNG, or HTML holding an image (a picture with its alt
    text, as minitape.viz and classroom.plots show them), whatever else it carries."""
    data = output.get("data", {})
    return any(kind in data for kind in PICTURE_TYPES) or "<img" in "".join(data.get("text/html", ""))


def stored_pictures(notebook):
    """How many stored outputs carry a picture."""
    return sum(is_picture(output) for cell in notebook["cells"] for output in cell.get("outputs", []))


def picture_cells(notebook):
    """Indices of the cells that store a picture."""
    return [i for i, cell in enumerate(notebook["cells"]) if any(map(is_picture, cell.get("outputs", [])))]


def solution_cells(notebook):
    """Indices of the cells tagged ``solution`` (the reference solutions)."""
    return [i for i, cell in enumerate(notebook["cells"]) if "solution" in tags(cell)]
