"""The course's kernel (scripts/lab-config/ipython_kernel_config.py), and the notebook metadata it makes.

JupyterLab writes the kernel's kernelspec and language_info into a notebook when the kernel connects, and marks
the notebook modified if they differ from the stored ones. The lessons store what the course's kernel reports,
which is the same on every supported Python (no version in it), so that opening a lesson changes nothing.

    python scripts/course_kernel.py install           put the kernel setting into this Python's environment
    python scripts/course_kernel.py store [A.ipynb]   store the kernel's metadata in the lessons (or these)

make lab installs it on every start; make notebooks stores the metadata after executing a lesson (nbconvert
writes the language_info of the kernel it ran, which, without the setting, has the version in it).
"""

import argparse
import pathlib
import shutil
import sys

import nbformat
from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict
from traitlets.config.loader import PyFileConfigLoader

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNEL_SETTING = ROOT / "scripts" / "lab-config" / "ipython_kernel_config.py"
NOTEBOOKS = ROOT / "notebooks"


def language_info():
    """The language_info the course's kernel reports: ipykernel's, without the version."""
    config = PyFileConfigLoader(KERNEL_SETTING.name, path=str(KERNEL_SETTING.parent)).load_config()
    return dict(config.IPKernelApp.kernel_class.language_info)


def metadata():
    """The notebook metadata JupyterLab writes for the course's kernel: kernelspec and language_info."""
    spec = get_kernel_dict()
    kernelspec = {"display_name": spec["display_name"], "language": spec["language"], "name": KERNEL_NAME}
    return {"kernelspec": kernelspec, "language_info": language_info()}


def install(prefix=sys.prefix):
    """Copy the kernel setting to ``<prefix>/etc/ipython``, where the kernels of that environment read it."""
    target = pathlib.Path(prefix) / "etc" / "ipython" / "ipython_kernel_config.py"
    if not target.exists() or target.read_bytes() != KERNEL_SETTING.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(KERNEL_SETTING, target)
    return target


def store(path, kernel_metadata):
    """Write ``kernel_metadata`` into one notebook (nothing else changes); True if the file changed."""
    notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    if all(notebook.metadata.get(key) == value for key, value in kernel_metadata.items()):
        return False
    notebook.metadata.update(kernel_metadata)
    nbformat.write(notebook, path)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description="The course's kernel setting, and the notebook metadata it makes.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("install", help="put the kernel setting into this Python's environment")
    store_command = commands.add_parser("store", help="store the kernel's metadata in the lessons (or these)")
    store_command.add_argument("notebooks", nargs="*", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.command == "install":
        print(f"the course's kernel setting is in {install()}")
    else:
        kernel_metadata = metadata()
        for path in args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb")):
            if store(path, kernel_metadata):
                print(f"{path}: stored the course kernel's metadata")


if __name__ == "__main__":
    main()
