"""The repository's ``scripts/`` are programs, not a package: the tests load one by its path.

>>> load_script("binder_links").binder_url("https://github.com/org/repo").startswith("https://mybinder.org/")
True
"""

import importlib.util
import pathlib
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "scripts"


def load_script(name):
    """``scripts/<name>.py`` as a module, with ``scripts/`` importable for its own imports (build_book's)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    return module
