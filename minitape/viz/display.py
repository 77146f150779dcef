"""How a notebook shows a picture: a MIME bundle with an HTML image whose ``alt`` says what it shows.

A front end picks the richest type it can render from a bundle: JupyterLab
and the book take ``text/html`` (:func:`html_image`, an SVG with its
description as alt text), others a PNG, nbval compares ``text/plain``.
:func:`show_in_notebooks` registers how a type of object (a tape) is shown,
with the IPython kernel that runs the notebook, if there is one.
"""

import base64
import html
import re
import sys

import graphviz

PX_PER_POINT = 96 / 72
PNG_DPI = 144  # 1.5 image pixels per screen pixel: sharp on high-resolution screens, small enough to store


def html_image(data, mime, alt):
    """An HTML ``<img>`` of ``data`` (bytes of type ``mime``), with ``alt`` as its text alternative.

    This is how a notebook shows a picture with words for a screen reader.
    JupyterLab (4.x) prefers ``text/html`` to any image type and renders it
    in untrusted notebooks too (a fresh clone, a student's copy on a
    JupyterHub), sanitized: an ``<img>`` keeps its ``alt`` and its ``data:``
    source there, while an ``image/png`` output is shown with no alt at all
    and an ``image/svg+xml`` one not at all. MyST-NB, which builds the book,
    also prefers ``text/html``. An SVG inside an ``<img>`` runs no script,
    and stays sharp when a reader zooms in.

    >>> html_image(b"<svg/>", "image/svg+xml", 'a "box"')
    '<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="a &quot;box&quot;">'
    """
    payload = base64.b64encode(data).decode("ascii")
    text = html.escape(alt, quote=False).replace('"', "&quot;")  # an apostrophe stays one
    return f'<img src="data:{mime};base64,{payload}" alt="{text}">'


def described_svg(svg, title, description):
    """Graphviz's ``svg`` with role="img", the ``<title>`` ``description`` (its accessible name, as an alt)
    and its graph titled ``title``; the titles of nodes and edges (n0, n0->n1), which tooltips show, are dropped."""
    svg = re.sub(r"<title>[^<]*</title>\n?|<!-- Title: [^\n]*-->\n", "", svg)  # "%3", n0, n0->n1, ...
    svg = re.sub(r'<g id="graph0" class="graph"[^>]*>\n', lambda m: f"{m[0]}<title>{html.escape(title)}</title>\n",
                 svg, count=1)
    return re.sub(r"<svg\b[^>]*?(?=>)", lambda m: f'{m[0]} role="img">\n<title>{html.escape(description)}</title',
                  svg, count=1)


def mimebundle(picture, text, include=None, exclude=None):
    """``(data, metadata)`` for IPython: ``text``, the picture as HTML (its SVG and its description), and
    a PNG shown at the SVG's width for front ends without HTML."""
    def wanted(mime):
        return (include is None or mime in include) and mime not in (exclude or ())

    data, metadata = {"text/plain": text}, {}
    if not (wanted("text/html") or wanted("image/png")):
        return data, metadata
    svg = picture.svg()
    if wanted("text/html"):
        data["text/html"] = html_image(svg.encode("utf-8"), "image/svg+xml", picture.text_alternative)
    if wanted("image/png"):
        sharp = picture.copy()
        sharp.attr(dpi=str(PNG_DPI))
        try:  # drawn by cairo, stored with 256 colours by gd: a third of the bytes, and notebooks store it
            png = sharp.pipe(format="png", renderer="cairo", formatter="gd")
        except graphviz.CalledProcessError:  # a Graphviz built without gd
            png = sharp.pipe(format="png")
        data["image/png"] = base64.b64encode(png).decode("ascii")
        width_points = float(re.search(r'<svg width="([\d.]+)pt"', svg)[1])
        metadata["image/png"] = {"width": round(width_points * PX_PER_POINT)}
    return data, metadata


def show_in_notebooks(cls, bundle):
    """Show every instance of ``cls`` in this notebook as ``bundle(instance)`` gives it: ``(data, metadata)``.

    IPython looks a registered function up by type before it asks the
    object for ``_repr_mimebundle_``, so ``cls`` itself needs no display code
    (a tape does not import the pictures drawn of it). Outside a kernel
    there is no notebook to tell, and IPython need not even be installed.
    """
    ipython = sys.modules.get("IPython")  # a kernel has imported it; nothing else here needs it
    shell = ipython and ipython.get_ipython()
    if shell is not None:
        shell.display_formatter.mimebundle_formatter.for_type(cls, bundle)
