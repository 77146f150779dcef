"""Sphinx configuration of the course's static book (make book; scripts/build_book.py stages the sources).

The lessons are rendered from their stored outputs, never re-executed, and the book loads nothing from
the network: MathJax is copied in from the jupyter-server-mathjax package.
"""

import html
import pathlib
import shutil
import sys

import jupyter_server_mathjax
from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from binder_links import repository_url  # noqa: E402  (the address is read from pyproject.toml in one place)

REPOSITORY = repository_url()
MATHJAX = pathlib.Path(jupyter_server_mathjax.__file__).parent / "static"

project = "minitape"
author = "the minitape authors"
copyright = "2026, the minitape authors"
html_title = "minitape: automatic differentiation, taken apart"

extensions = ["myst_nb"]
myst_enable_extensions = ["dollarmath", "amsmath"]
nb_execution_mode = "off"
# display(Markdown(...)) outputs hold $maths$ and tables, as the lessons' own cells do: read them as MyST too
nb_render_markdown_format = "myst"
# A cell that prints in several writes is stored as several stream outputs: show them as the one block JupyterLab shows
nb_merge_streams = True
# scripts/build_book.py folds the cells tagged "solution" (and only those) behind MyST-NB's toggle.
nb_code_prompt_show = "Show the reference solution"
nb_code_prompt_hide = "Hide the reference solution"
# The step-through slider needs a live kernel: the book shows the first picture stored beside it, and a
# widget view left in a lesson is skipped rather than loading the widget JavaScript from a CDN.
nb_ipywidgets_js = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

html_theme = "sphinx_book_theme"
templates_path = ["_templates"]  # search-button-field.html: the search button named by its own text
html_theme_options = {
    "repository_url": REPOSITORY,
    "repository_branch": "HEAD",
    "path_to_docs": "notebooks",  # the staged lessons are notebooks/*.ipynb of the repository
    "use_repository_button": True,
    "launch_buttons": {"binderhub_url": "https://mybinder.org", "notebook_interface": "jupyterlab"},
}

# MathJax 2 as shipped by jupyter-server-mathjax, copied into _static/mathjax (see setup below). That copy
# carries only the STIX-Web fonts, so MathJax is told to use them rather than look for its TeX fonts.
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {"HTML-CSS": {"availableFonts": [], "webFont": "STIX-Web", "imageFont": None}}
# MyST's MathJax 3 settings would mark the pages "tex2jax_ignore", which MathJax 2 obeys: no maths at all.
myst_update_mathjax = False


def copy_mathjax(app, exception):
    target = pathlib.Path(app.outdir) / "_static" / "mathjax"
    if exception is None and not (target / "MathJax.js").exists():
        shutil.copytree(MATHJAX, target, dirs_exist_ok=True)


def visit_folded_cell(translator, node):
    """MyST-NB's fold around a solution, with a summary named by what it shows ("Show the reference
    solution"): MyST-NB labels it aria-label="Toggle hidden content", a name that does not contain the
    visible words, so a speech-input user saying "click Show the reference solution" misses it (WCAG 2.5.3)."""
    classes = " ".join(node["classes"])
    translator.body.append(f'<details class="admonition hide {classes}">\n<summary>\n'
                           f'<p class="collapsed admonition-title">{html.escape(node["prompt_show"])}</p>\n'
                           f'<p class="expanded admonition-title">{html.escape(node["prompt_hide"])}</p>\n'
                           f'</summary>\n')


def setup(app):
    app.connect("build-finished", copy_mathjax)
    app.add_node(HideCodeCellNode, override=True, html=(visit_folded_cell, depart_HideCellInput))
