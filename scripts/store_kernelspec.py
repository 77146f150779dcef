"""Store in every lesson the kernelspec metadata that the installed ipykernel reports.

JupyterLab rewrites a notebook's kernelspec with the running kernel's as soon as the kernel starts;
if the stored one differs (an older "Python 3" display name), the lesson opens already modified and
autosave changes it in git after a minute of reading. Only the notebook-level metadata is touched.

    python scripts/store_kernelspec.py            # every notebooks/*.ipynb
    python scripts/store_kernelspec.py A.ipynb    # only these
"""

import json
import pathlib
import sys

from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent / "notebooks"


def ipykernel_kernelspec():
    """The three fields JupyterLab stores for the installed Python kernel."""
    spec = get_kernel_dict()
    return {"display_name": spec["display_name"], "language": spec["language"], "name": KERNEL_NAME}


def store_kernelspec(path, kernelspec):
    """Write ``kernelspec`` into one notebook, formatted as nbformat writes it; True if the file changed."""
    text = path.read_text(encoding="utf-8")
    notebook = json.loads(text)
    notebook["metadata"]["kernelspec"] = kernelspec
    new_text = json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    if new_text != text:
        path.write_text(new_text, encoding="utf-8")
    return new_text != text


def main(paths):
    kernelspec = ipykernel_kernelspec()
    for path in paths or sorted(NOTEBOOKS.glob("*.ipynb")):
        if store_kernelspec(pathlib.Path(path), kernelspec):
            print(f"{path}: kernelspec set to {kernelspec['display_name']!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
