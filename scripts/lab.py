"""Open the course: trust the lessons, start JupyterLab on the repository, print the URL of lesson 00.

    python scripts/lab.py [JupyterLab options]      (make lab LAB_ARGS="--port 9999 --no-browser")

JupyterLab serves the repository root, so the file browser shows minitape/ beside notebooks/, and
its browser tab (and the printed URL) opens notebooks/00_welcome.ipynb. It runs with the course's
settings (scripts/lab-config) and the course's kernel, installed into this Python's environment
(scripts/course_kernel.py), so that opening a lesson does not modify it. As root (a container, a
cloud machine, CI) it adds --allow-root, which JupyterLab otherwise demands.
"""

import json
import os
import pathlib
import secrets
import signal
import subprocess
import sys
import time

import nbformat
from jupyter_core.paths import jupyter_runtime_dir
from nbformat.sign import NotebookNotary

from binder_links import FIRST_LESSON  # the lesson the course opens at, on Binder too
from course_kernel import install as install_course_kernel

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The course's own Jupyter settings, ahead of the environment's (labconfig/page_config.json): JupyterLab asks a
# learner nothing on first open (the announcements plugin would ask whether to fetch Jupyter's news), and where
# nbgrader is installed beside the course (make test, make nbgrader), its menus and panels, which are for
# instructors, stay out of a learner's JupyterLab.
COURSE_CONFIG = pathlib.Path(__file__).resolve().parent / "lab-config"
SERVER_START_TIMEOUT = 120  # seconds; a first start on a slow machine builds JupyterLab's caches


def trust_lessons():
    """Sign every lesson, so their stored pictures and HTML show on first open (as ``jupyter trust`` does)."""
    notary = NotebookNotary()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notary.sign(nbformat.read(path, as_version=nbformat.NO_CONVERT))


def lab_command(extra_args):
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={ROOT}",
               f"--LabApp.default_url=/lab/tree/{FIRST_LESSON}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # Windows has no root, and no geteuid
        command.append("--allow-root")
    return command + list(extra_args)


def server_environment(environ):
    """JupyterLab's environment, which its kernels inherit: the course's settings first, and the repository on
    Python's path, so that the lessons import the course's checks (classroom/) however minitape was installed
    (make's .venv puts the repository on the path as well; an install by hand does not).
    """
    # A token we choose is not printed by JupyterLab in its own banner, so the line main prints is the only URL.
    env = {"JUPYTER_TOKEN": secrets.token_hex(24), **environ}
    for name, first in [("JUPYTER_CONFIG_PATH", COURSE_CONFIG), ("PYTHONPATH", ROOT)]:
        env[name] = os.pathsep.join(filter(None, [str(first), environ.get(name)]))
    return env


def wait_for_server_info(server):
    """The connection details JupyterLab writes once it listens (jpserver-<pid>.json), or None if it exited."""
    info_file = pathlib.Path(jupyter_runtime_dir()) / f"jpserver-{server.pid}.json"
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline and server.poll() is None:
        if info_file.exists():
            try:
                return json.loads(info_file.read_text())
            except json.JSONDecodeError:  # caught while JupyterLab was still writing it
                pass
        time.sleep(0.2)
    return None


def lesson_url(info):
    url = f"{info['url'].rstrip('/')}/lab/tree/{FIRST_LESSON}"
    return f"{url}?token={info['token']}" if info["token"] else url


def main(extra_args):
    trust_lessons()
    install_course_kernel()  # so that a lesson opens unmodified, whatever this Python's version
    server = subprocess.Popen(lab_command(extra_args), cwd=ROOT, env=server_environment(os.environ))
    # Ctrl-C reaches JupyterLab too, which asks whether to stop; this process just waits for it to end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: server.terminate())
    info = wait_for_server_info(server)
    if info is None and server.poll() is None:
        server.terminate()
        print(f"JupyterLab did not start within {SERVER_START_TIMEOUT} s", file=sys.stderr)
        server.wait()
        return 1
    if info is not None:
        print(f"\n    The course is open at  {lesson_url(info)}\n    (Ctrl-C twice stops it.)\n", flush=True)
    return server.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
