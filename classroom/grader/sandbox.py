"""Run one submitted notebook where it can reach nothing that matters: bubblewrap, and limits on time and memory.

The notebook alone is copied into an empty folder, which the sandbox sees as ``/submission``. Under ``bwrap``
(Debian's ``bubblewrap``) it runs with every namespace unshared (no network: only the loopback, which the kernel's
ZMQ sockets use), no capabilities, a fresh session, and an environment of three variables: ``PATH``, ``HOME=/tmp`` and
``MINITAPE_STUDENT_ID`` (the student's id, taken from the submission's folder), with ``PYTHONPATH`` naming the
grader's read-only folder. It sees, read-only, ``/usr``, the Python installation, the minitape library and that
folder, which holds the public part of ``classroom`` (what a student receives) and ``classroom/grader/harvest.py``;
writable, a small ``/tmp`` and ``/submission``. Not the repository, the answers, the hidden cases' files, the
gradebook, another submission, nor ``/root``. The root of its file system is read-only.

``timeout`` bounds the wall time (and nbclient each cell's), ``prlimit`` the address space and the size of any
file written; the grader reads at most ``OUTPUT_LIMIT`` bytes of what the sandbox prints. The hidden cases go in
through the runner's standard input once it says the notebook ran (``harvest``).
"""

import contextlib
import functools
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from classroom import editions
from classroom.grader import harvest

SECONDS = 300  # wall time of one notebook, harvest included
MEMORY = 6 * 2**30  # address space of each process: lesson 15's JAX reserves much more than it uses
FILE_SIZE = 64 * 2**20  # the largest file a process in the sandbox may write
TMP_SIZE = 256 * 2**20  # the sandbox's /tmp, in memory
OUTPUT_LIMIT = 64 * 2**20  # what the grader reads of the sandbox's output: the notebook and the harvest
INSTALL = "the grader's sandbox needs bubblewrap and prlimit: apt-get install bubblewrap util-linux"


class Result:
    """What came out of a sandbox: the executed notebook, the harvest, a problem sentence, the seconds it took."""

    def __init__(self, notebook=None, harvested=None, problem=None, seconds=0.0):
        self.notebook, self.harvested, self.problem, self.seconds = notebook, harvested, problem, seconds


@functools.cache
def library():
    """The minitape this Python imports where nothing else is on its path, as in the sandbox (an editable install
    names the repository's folder; a wheel, site-packages)."""
    found = subprocess.run([sys.executable, "-P", "-c", "import minitape; print(minitape.__file__)"], cwd="/",
                           capture_output=True, text=True)
    if found.returncode != 0:
        raise RuntimeError(f"{sys.executable} cannot import minitape: install it (pip install -e .) ({found.stderr})")
    return pathlib.Path(found.stdout.strip()).parent


def readable_paths():
    """The folders the sandbox reads besides /usr: this Python's installation and the minitape library."""
    paths = {pathlib.Path(sys.prefix), pathlib.Path(sys.base_prefix),
             pathlib.Path(sys.executable).resolve().parent.parent, library()}
    paths = {path.resolve() for path in paths}
    return sorted(path for path in paths if path != pathlib.Path("/usr") and not any(
        other != path and other in path.parents for other in paths | {pathlib.Path("/usr")}))


@functools.cache
def ready():
    """Stop, saying why, where the sandbox cannot start (a missing tool, namespaces this machine does not allow):
    every submission would otherwise score nothing for a reason of the grader's."""
    for tool in ("bwrap", "prlimit", "timeout"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} is not installed; {INSTALL}")
    tried = subprocess.run(["bwrap", "--unshare-all", "--cap-drop", "ALL", "--ro-bind", "/", "/", "true"],
                           capture_output=True, text=True)
    if tried.returncode != 0:
        raise RuntimeError(f"bwrap cannot make its sandbox here ({tried.stderr.strip()}): it needs user namespaces; "
                           f"run the grader as root, or allow them (Ubuntu: sysctl "
                           f"kernel.apparmor_restrict_unprivileged_userns=0); in a container, one allowed to make "
                           f"namespaces (INSTRUCTORS.md, Grading with nbgrader: On a JupyterHub)")


def command(work, public, student):
    """The command that runs ``work``'s notebook under bwrap, with ``public`` as the grader's read-only folder."""
    ready()
    system = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        path = pathlib.Path(top)
        if path.is_symlink():
            system += ["--symlink", str(path.readlink()), top]
        elif path.is_dir():
            system += ["--ro-bind", top, top]
    python = [arg for path in readable_paths() for arg in ("--ro-bind", str(path), str(path))]
    notebook = next(work.glob("*.ipynb")).name
    return ["timeout", "--kill-after=10", str(SECONDS), "prlimit", f"--as={MEMORY}", f"--fsize={FILE_SIZE}",
            "bwrap", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", "--setenv", "PYTHONPATH", "/grader",
            "--setenv", "MINITAPE_STUDENT_ID", student,
            # /tmp first: a Python or a library that lives under /tmp (a checkout there) is bound over it, not hidden
            "--size", str(TMP_SIZE), "--tmpfs", "/tmp", *system, *python, "--ro-bind", str(public), "/grader",
            "--proc", "/proc", "--dev", "/dev",
            "--bind", str(work), "/submission", "--chdir", "/submission", "--remount-ro", "/",
            sys.executable, "-P", "-m", "classroom.grader.harvest", f"/submission/{notebook}"]


def public_folder(folder):
    """``folder`` filled with what the sandbox may read of the grader: classroom's public part and the harvest."""
    editions.copy_public_package(folder)
    (folder / "classroom" / "grader").mkdir()
    (folder / "classroom" / "grader" / "__init__.py").write_text("")
    shutil.copy(harvest.__file__, folder / "classroom" / "grader" / "harvest.py")
    return folder


def run(notebook, student, plan):
    """Run the notebook file ``notebook`` for ``student`` in a sandbox, then the harvest of ``plan``."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="minitape-grade-") as top:
        top = pathlib.Path(top)
        work = top / "submission"
        work.mkdir()
        shutil.copyfile(notebook, work / notebook.name)  # the notebook only: nothing beside it comes along
        public = public_folder(top / "grader")
        with open(top / "output", "w+b") as output, open(top / "errors", "w+b") as errors:
            process = subprocess.Popen(command(work, public, student), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=errors)
            if _read_line(process.stdout, output) == harvest.READY.encode():
                # The hidden cases go in only now: the notebook has run, and only the harvest cell can read them.
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.write(json.dumps(plan).encode())
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
            while _read_line(process.stdout, output) is not None:
                pass
            if output.tell() > OUTPUT_LIMIT:
                process.kill()
            process.wait()
            seconds = time.monotonic() - started
            output.seek(0)
            lines = output.read().splitlines()
            errors.seek(0)
            said = errors.read()[-2000:].decode(errors="replace")
    return _result(lines[-1] if lines else b"", process.returncode, said, seconds)


def _read_line(stream, copy):
    """The next line of ``stream`` (None at its end), also written to ``copy``, up to ``OUTPUT_LIMIT`` in all."""
    line = stream.readline(OUTPUT_LIMIT - copy.tell() + 1)
    if not line:
        return None
    copy.write(line)
    if copy.tell() > OUTPUT_LIMIT:
        return None
    return line.rstrip(b"\n")


def _result(last, returncode, said, seconds):
    if returncode in (124, 137, -9):  # timeout's status, or the kill it sends after its grace
        return Result(problem=f"the notebook ran longer than {SECONDS} seconds", seconds=seconds)
    try:
        found = json.loads(last)
    except (ValueError, RecursionError):
        return Result(problem=f"the sandbox exported nothing readable (exit status {returncode}): {said.strip()}",
                      seconds=seconds)
    if not isinstance(found, dict):
        return Result(problem="the sandbox exported something other than the grader's data", seconds=seconds)
    return Result(found.get("notebook"), found.get("harvest"), found.get("problem"), seconds)
