"""The optional frameworks minitape is compared with: import the installed ones, one thread each.

None of them is a dependency of minitape. Each one that is missing is skipped with a note;
NumPy (the hand-written baseline) and minitape are always there.
"""

import importlib
import importlib.metadata

OPTIONAL = ("torch", "autograd", "jax", "tensorflow")
INSTALL_HINTS = {
    "torch": "pip install torch, a CPU build (see benchmarks/README.md)",
    "autograd": "pip install autograd",
    "jax": "pip install jax jaxlib",
    "tensorflow": "pip install tensorflow-cpu",
}


def _pin_threads(name, module):
    """The in-process thread settings (the environment variables are set in single_thread.py)."""
    if name == "torch":
        module.set_num_threads(1)
        module.set_num_interop_threads(1)
    elif name == "tensorflow":
        module.config.threading.set_intra_op_parallelism_threads(1)
        module.config.threading.set_inter_op_parallelism_threads(1)


def load():
    """{name: version} of the optional frameworks that import, and a note for each one that does not."""
    versions, notes = {}, []
    for name in OPTIONAL:
        try:
            module = importlib.import_module(name)
        except ImportError as error:
            notes.append(f"{name} skipped: not installed ({error}); to measure it: {INSTALL_HINTS[name]}")
            continue
        _pin_threads(name, module)
        # autograd has no __version__; tensorflow-cpu installs the module under another distribution name.
        versions[name] = getattr(module, "__version__", None) or importlib.metadata.version(name)
    return versions, notes
