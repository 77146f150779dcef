"""A JupyterHub for the course on one machine: a place to try the class route, and the base of `make hub-test`.

Run it in a clone of the repository, after `make hub-test` (which installs JupyterHub, nbgitpuller and the proxy),
from a folder of its own, where the hub keeps its database and cookie secret:

    mkdir -p build/hub && cd build/hub && ../../.venv/bin/python -m jupyterhub -f ../../hub/jupyterhub_config.py

then open http://127.0.0.1:8000, sign in with any name (any password), and open a link that
`make hub-links HUB_URL=http://127.0.0.1:8000 STUDENT_REPO=...` wrote. Every student's server runs in this Python
environment, so it has minitape and the course's packages, and gets a home folder of its own under
$MINITAPE_HUB_HOMES (a temporary folder by default).

This hub lets anyone in and does not separate the students from each other (SimpleLocalProcessSpawner runs all
servers as one system user): it is for trying the route on your own machine, not for a class. For a class,
keep the Spawner timeouts below and replace the two marked lines, as INSTRUCTORS.md ("On a JupyterHub") says.
"""

import os
import pathlib
import sys
import tempfile

c = get_config()  # noqa: F821 (JupyterHub defines get_config in the namespace it runs this file in)

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOMES = pathlib.Path(os.environ.get("MINITAPE_HUB_HOMES", pathlib.Path(tempfile.gettempdir()) / "minitape-hub"))

c.JupyterHub.bind_url = "http://127.0.0.1:8000"  # this machine only

# For a class: a real authenticator (SharedPasswordAuthenticator, OAuthenticator, LTI) and a spawner that
# isolates students (LocalProcessSpawner with system users, as The Littlest JupyterHub does; KubeSpawner).
c.JupyterHub.authenticator_class = "dummy"  # marked: any name, any password
c.JupyterHub.spawner_class = "simple"  # marked: jupyterhub.spawner.SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")

# The students' servers: JupyterLab from this Python environment, opened on the lab (nbgitpuller's links
# name lab/tree/... paths), with the course's own Jupyter settings (nbgrader's menus hidden, as make lab does),
# and no question about Jupyter's news or updates over every student's first lesson (hub/lab-settings/).
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {"JUPYTER_CONFIG_PATH": str(ROOT / "scripts" / "lab-config")}
c.Spawner.args = [f"--LabApp.app_settings_dir={ROOT / 'hub' / 'lab-settings'}", "--LabApp.news_url=None",
                  "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
if os.geteuid() == 0:  # a container or a CI machine: Jupyter refuses to run as root without this
    c.Spawner.args.append("--allow-root")

# A class that starts at once: every server starts together, and on a busy machine a server takes longer to
# answer than the defaults allow (30 s and 60 s). INSTRUCTORS.md's sizing table has the measured times.
c.Spawner.http_timeout = 180
c.Spawner.start_timeout = 180

# The proxy: configurable-http-proxy 5.3.0 from npm, which make hub-test installs into build/hub-node/, or
# else PyPI's Python implementation of the same command in this environment; otherwise the one on PATH.
for proxy in (ROOT / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy",
              pathlib.Path(sys.executable).parent / "configurable-http-proxy"):
    if proxy.exists():
        c.ConfigurableHTTPProxy.command = [str(proxy)]
        break
