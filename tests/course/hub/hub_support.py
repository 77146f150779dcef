"""What the hub test needs: a JupyterHub of its own, the student edition published as a git repository, a class.

The hub is ``hub/jupyterhub_config.py``, the configuration a teacher starts from, with only what a test must
add on top: free ports, a throw-away folder for the hub's database and the students' homes, JupyterLab's
application object in the page (to read cell models), and a service token that may start students' servers
and reach them, for the class that works through the Jupyter server's REST and websocket API.
"""

import asyncio
import concurrent.futures
import contextlib
import importlib.util
import json
import os
import pathlib
import secrets
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid

import psutil  # installed with ipykernel
from browser_support import ROOT, free_port
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

HUB_CONFIG = ROOT / "hub" / "jupyterhub_config.py"
EDITION = ROOT / "build" / "student"
# The places hub/jupyterhub_config.py takes the proxy from, in its order, then the PATH.
PROXY_PLACES = [ROOT / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy",
                pathlib.Path(sys.executable).parent / "configurable-http-proxy"]
LOAD_SERVICE = "class-load"
REPORT_FILE = ROOT / "build" / "hub-test" / "report.json"
REPORT = {}  # what the test measured: seconds by step, and a row per student of the class

TEST_CONFIG = """\
load_subconfig({teacher!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.Spawner.args = [*c.Spawner.args, "--LabApp.expose_app_in_browser=True"]
c.JupyterHub.services = [{{"name": {service!r}, "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": {service!r}, "services": [{service!r}],
                            "scopes": ["admin:users", "admin:servers", "access:servers"]}}]
"""


def why_not_here():
    """Why the hub test cannot run here (a sentence saying what to install), or None."""
    if not os.environ.get("MINITAPE_HUB_TEST"):
        return ("the JupyterHub test runs with `make hub-test`, which installs JupyterHub, nbgitpuller and the "
                "proxy first")
    if not (importlib.util.find_spec("jupyterhub") and importlib.util.find_spec("nbgitpuller")):
        return "the JupyterHub test needs the hub extra: pip install -e '.[hub]' (make hub-test installs it)"
    if not proxy_command():
        return ("no configurable-http-proxy for the hub: install npm (sudo apt-get install npm) and run make "
                "hub-test, which installs the proxy into build/hub-node/, or pip install configurable-http-proxy "
                "(PyPI's Python implementation)")
    return None


def proxy_command():
    """The configurable-http-proxy the hub will start, or None."""
    found = next((place for place in PROXY_PLACES if place.exists()), None)
    return str(found) if found else shutil.which("configurable-http-proxy")


class Hub:
    """``hub/jupyterhub_config.py`` on free ports of 127.0.0.1, its database and students' homes in ``workdir``."""

    def __init__(self, workdir):
        self.workdir, self.homes = workdir, workdir / "homes"
        port, hub_port, api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.token = secrets.token_hex(32)
        config = workdir / "jupyterhub_config.py"
        config.write_text(TEST_CONFIG.format(teacher=str(HUB_CONFIG), port=port, hub_port=hub_port,
                                             api_port=api_port, service=LOAD_SERVICE, token=self.token))
        self.log = workdir / "jupyterhub.log"
        env = {**os.environ, "MINITAPE_HUB_HOMES": str(self.homes),
               "CONFIGPROXY_AUTH_TOKEN": secrets.token_hex(32)}
        self.started = time.monotonic()
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=workdir,
                                            env=env, stdout=log, stderr=subprocess.STDOUT)
        self.tree = psutil.Process(self.process.pid)

    def wait_until_up(self, timeout=120):
        """Seconds from start until the hub answers through its proxy."""
        deadline = self.started + timeout
        while time.monotonic() < deadline and self.process.poll() is None:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.url}/hub/api/", timeout=2)
                return time.monotonic() - self.started
            time.sleep(0.2)
        raise RuntimeError(f"JupyterHub did not start in {timeout} s; its log:\n{self.tail_of_log()}")

    def tail_of_log(self, characters=4000):
        return self.log.read_text(errors="replace")[-characters:]

    def api(self, method, path, body=None):
        """A request to the hub's REST API as the load service; the decoded answer, or None when empty."""
        request = urllib.request.Request(f"{self.url}/hub/api/{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def servers_of(self, student):
        """The processes of ``student``'s server and kernels (the hub starts them; they inherit the user's name)."""
        found = []
        for process in self.tree.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if process.environ().get("JUPYTERHUB_USER") == student:
                    found.append(process)
        return found

    def stop(self):
        """Stop the hub, which stops the proxy and the students' servers; then end whatever it left."""
        children = self.tree.children(recursive=True)
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for process in children:
            with contextlib.suppress(psutil.Error):
                process.kill()


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=Teacher", "-c", "user.email=teacher@example.edu", *args], cwd=cwd,
                   check=True, capture_output=True)


def publish(edition, folder):
    """Publish the student edition as a git repository in ``folder`` (branch main); its file:// address."""
    shutil.copytree(edition, folder)
    git("init", "-q", "-b", "main", cwd=folder)
    git("add", "-A", cwd=folder)
    git("commit", "-q", "-m", "The student edition", cwd=folder)
    return folder.as_uri()


# One student of a class: their own server, the material pulled through nbgitpuller, a lesson run top to bottom.

EXECUTE_TIMEOUT_S = 300  # a cell of a lesson runs in seconds alone; a class shares the cores


class Student:
    """A student who reaches their server with the load service's token (it may reach every student's server)."""

    def __init__(self, hub, name):
        self.hub, self.name = hub, name
        self.base = f"{hub.url}/user/{name}"
        self.headers = {"Authorization": f"token {hub.token}"}
        self.client = AsyncHTTPClient(force_instance=True)
        self.timings, self.errors, self.peak_pss, self.cpu_s = {}, [], 0, {"server": 0.0, "kernel": 0.0}
        self.code_cells = self.cells_run = 0

    async def call(self, method, url, body=None, timeout=60):
        answer = await self.client.fetch(HTTPRequest(url, method=method, headers=self.headers, request_timeout=timeout,
                                                     body=None if body is None else json.dumps(body)))
        return json.loads(answer.body) if answer.body else None

    async def start_server(self, timeout):
        """Ask the hub for the server, then wait until it is ready."""
        started = time.monotonic()
        await self.call("POST", f"{self.hub.url}/hub/api/users/{self.name}/server", {})
        while time.monotonic() - started < timeout:
            model = await self.call("GET", f"{self.hub.url}/hub/api/users/{self.name}")
            server = model.get("servers", {}).get("")
            if server and server.get("ready"):
                self.timings["server"] = time.monotonic() - started
                return
            if not (server or model.get("pending")):
                raise RuntimeError(f"{self.name}'s server failed to start; the hub's log ends:\n"
                                   f"{self.hub.tail_of_log()}")
            await asyncio.sleep(0.5)
        raise TimeoutError(f"{self.name}'s server was not ready in {timeout} s")

    async def pull(self, repository, branch="main"):
        """What the nbgitpuller link does before it opens the lesson: its event stream, to its last event."""
        started = time.monotonic()
        query = urllib.parse.urlencode({"repo": repository, "branch": branch})
        answer = await self.client.fetch(HTTPRequest(f"{self.base}/git-pull/api?{query}", headers=self.headers,
                                                     request_timeout=120))
        events = [json.loads(line[len("data: "):]) for line in answer.body.decode().splitlines()
                  if line.startswith("data: ")]
        if not events or events[-1].get("phase") != "finished":
            raise RuntimeError(f"{self.name}: nbgitpuller did not finish: {events[-1:] or 'no event'}")
        self.timings["pull"] = time.monotonic() - started

    async def run_lesson(self, path):
        """Run every code cell of the notebook at ``path`` (in the student's home), in order, in a new kernel."""
        notebook = await self.call("GET", f"{self.base}/api/contents/{urllib.parse.quote(path)}?content=1")
        sources = [cell["source"] for cell in notebook["content"]["cells"] if cell["cell_type"] == "code"]
        self.code_cells = len(sources)
        session = await self.call("POST", f"{self.base}/api/sessions", {
            "path": path, "type": "notebook", "name": pathlib.PurePosixPath(path).name,
            "kernel": {"name": notebook["content"]["metadata"]["kernelspec"]["name"]}})
        started = time.monotonic()
        channels = (f"{self.base.replace('http', 'ws', 1)}/api/kernels/{session['kernel']['id']}/channels"
                    f"?session_id={uuid.uuid4().hex}")
        connection = await websocket_connect(HTTPRequest(channels, headers=self.headers))
        try:
            for number, source in enumerate(sources, 1):
                error = await self._execute(connection, source)
                if error:
                    self.errors.append(f"code cell {number}: {error}")
                    break
                self.cells_run = number
        finally:
            connection.close()
        self.timings["lesson"] = time.monotonic() - started
        self.sample()  # the kernel's whole run, before it stops
        await self.call("DELETE", f"{self.base}/api/sessions/{session['id']}")

    async def _execute(self, connection, source):
        """Send one cell to the kernel and wait for its reply; the error it raised, or None."""
        msg_id = uuid.uuid4().hex
        connection.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": self.name,
                       "username": self.name, "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": source, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        error = None
        while True:
            raw = await asyncio.wait_for(connection.read_message(), EXECUTE_TIMEOUT_S)
            if raw is None:
                return "the kernel's websocket closed"
            message = json.loads(raw)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            if message["msg_type"] == "error":
                error = f"{message['content']['ename']}: {message['content']['evalue']}"
            elif message["channel"] == "shell" and message["msg_type"] == "execute_reply":
                return error or (None if message["content"]["status"] == "ok" else message["content"]["status"])

    def sample(self):
        """Add up the memory and processor time of the student's server and kernels so far: the peak proportional
        set size (shared pages split among their users), and the seconds of processor time used."""
        pss, cpu = 0, {"server": 0.0, "kernel": 0.0}
        for process in self.hub.servers_of(self.name):
            with contextlib.suppress(psutil.Error):
                pss += process.memory_full_info().pss
                times = process.cpu_times()
                cpu["kernel" if "ipykernel" in " ".join(process.cmdline()) else "server"] += times.user + times.system
        self.peak_pss = max(self.peak_pss, pss)
        self.cpu_s = {kind: max(seconds, self.cpu_s[kind]) for kind, seconds in cpu.items()}


async def work_through(student, repository, lesson_path, spawn_timeout):
    await student.start_server(spawn_timeout)
    await student.pull(repository)
    await student.run_lesson(lesson_path)


def class_at_once(hub, names, repository, lesson_path, spawn_timeout):
    """Every student starts their server, pulls the material and runs the lesson, all at once; the students.

    The class runs in an event loop of its own thread: Playwright's loop may be running in this one.
    """
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _class_at_once(hub, names, repository, lesson_path, spawn_timeout)).result()


async def _class_at_once(hub, names, repository, lesson_path, spawn_timeout, memory_every_s=1.0):
    for name in names:
        hub.api("POST", f"users/{name}")
    students = [Student(hub, name) for name in names]
    work = asyncio.gather(*(work_through(s, repository, lesson_path, spawn_timeout) for s in students))
    while not work.done():
        for student in students:  # psutil reads /proc: quick, and done between the students' steps
            student.sample()
        await asyncio.wait([work], timeout=memory_every_s)
    await work
    return students


def report_lines():
    """REPORT as lines to print: the steps' seconds, then the class, a line per student."""
    lines = [f"{step}: {seconds:.1f} s" for step, seconds in REPORT.items()
             if isinstance(seconds, float) and step != "class at once"]
    students = REPORT.get("class", [])
    if students:
        lines.append(f"a class of {len(students)} at once, {psutil.cpu_count()} cores: "
                     f"{REPORT['class at once']:.1f} s from the first request to the last lesson's end")
        lines += [f"  {s['name']}: server ready {s['server']:.1f} s, pull {s['pull']:.1f} s, "
                  f"{REPORT['class lesson']} {s['lesson']:.1f} s, peak memory {s['peak_MB']:.0f} MB, "
                  f"processor time: server {s['server_cpu_s']:.1f} s, kernel {s['kernel_cpu_s']:.1f} s"
                  for s in students]
    return lines


def write_report():
    REPORT_FILE.parent.mkdir(parents=True, exist_ok=True)
    REPORT_FILE.write_text(json.dumps(REPORT, indent=1) + "\n")
