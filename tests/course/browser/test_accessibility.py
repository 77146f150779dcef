"""WCAG 2.1 AA, checked with axe-core where readers meet the course: every page of the book, and two lessons in
JupyterLab, untrusted (a fresh clone, a student's copy) and trusted.

axe-core (npm, pinned; installed into build/npm on the first run) is injected into each page and run with the
rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa; any critical or serious violation fails. A book page is
audited whole, the theme's chrome too (book/conf.py and book/_templates fix what it got wrong). In JupyterLab
only the notebook's rendered Markdown and outputs are audited: JupyterLab's own interface is not the course's
content. axe accepts any alt text, a file name too, so every picture is also checked for an alt that a screen
reader can usefully read: not empty, not a file name or a hash, and saying what is drawn. Problems name cells
counting from 1, as JupyterLab's status bar does.
"""

import json
import re
import shutil
import subprocess
import time

import pytest
from browser_support import (
    LESSONS,
    MISSING,
    ROOT,
    OfflinePage,
    load,
    picture_cells,
    save_screenshot,
    stored_pictures,
)

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from test_book_pages import MATHJAX_DONE
from test_lab_lessons import lab_page, opened  # noqa: F401  (lab_page: a fixture, one JupyterLab page)

AXE_VERSION = "4.14.1"
AXE_PREFIX = ROOT / "build" / "npm"  # npm install --prefix: a project-local node_modules, never a global one
AXE_SCRIPT = AXE_PREFIX / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = ("critical", "serious")

BOOK_PAGES = ["index", "genindex", "search", *(lesson.stem for lesson in LESSONS)]
# A lesson with tapes, a backward-pass strip and plots, and one with many plots.
AUDITED_LESSONS = [lesson for lesson in LESSONS if lesson.name[:2] in ("05", "09")]

# The book's content: the article (the lesson), outside the theme's navigation, header and sidebars.
BOOK_CONTENT = "article.bd-article"
# A lesson's content in JupyterLab: its rendered Markdown and its outputs, not the editors, prompts and toolbars.
LAB_CONTENT = [[".jp-MarkdownCell .jp-RenderedMarkdown"], [".jp-OutputArea-output"]]

# An alt that a screen reader reads out usefully says what kind of picture it is...
SAYS_WHAT_IS_DRAWN = re.compile(r"\b(graph|plots?|tree|backward pass|diagram|chart|map)\b", re.IGNORECASE)
# ...and is not a file name, a path or a hash (axe accepts those).
FILE_LIKE = re.compile(r"^\S+\.(png|svg|jpe?g|gif|webp)$|^\S*/\S+$|\b[0-9a-f]{16,}\b", re.IGNORECASE)
MIN_WORDS = 8

AUDIT_TIMEOUT_S = 120

# axe's violations, as records that cross from the page to Python.
VIOLATIONS = """(result) => result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160)}))}))"""

# Every picture in ``scope``: an <img> with its alt, or an <svg> with its accessible name.
PICTURES = """(scope) => [...document.querySelectorAll(scope)].flatMap(area =>
  [...area.querySelectorAll('img, svg')].filter(p => !p.closest('[data-icon], button, .jp-icon3') &&
                                                     !p.parentElement.closest('svg')).map(p => {
    const cell = p.closest('.jp-Cell');
    const index = cell ? [...cell.parentElement.children].filter(c => c.classList.contains('jp-Cell')).indexOf(cell)
                       : -1;
    const name = p.tagName.toLowerCase() === 'img' ? p.getAttribute('alt')
      : p.getAttribute('aria-label') || p.querySelector(':scope > title')?.textContent || null;
    return {tag: p.tagName.toLowerCase(), name, output: Boolean(p.closest('.cell_output, .jp-OutputArea-output')),
            src: (p.getAttribute('src') || '').slice(0, 60), cell: index};
  }))"""


@pytest.fixture(scope="session")
def axe_script():
    """axe-core's browser script, installed by npm into build/npm the first time (about 1 MB, a few seconds)."""
    installed = AXE_SCRIPT.parent / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != AXE_VERSION:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("the accessibility tests need npm, to install axe-core: sudo apt-get install npm")
        AXE_PREFIX.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "install", "--prefix", str(AXE_PREFIX), "--no-audit", "--no-fund",
                               "--no-save", f"axe-core@{AXE_VERSION}"], capture_output=True, text=True)
        assert done.returncode == 0, f"npm could not install axe-core {AXE_VERSION}:\n{done.stderr[-2000:]}"
    return AXE_SCRIPT.read_text()


def violation_problems(violations):
    """The critical and serious ones, each in a line."""
    return [f"{v['impact']} {v['id']} ({v['help']}) at {len(v['nodes'])} places, e.g. {v['nodes'][0]['target']}: "
            f"{v['nodes'][0]['html']}" for v in violations if v["impact"] in FAILING_IMPACTS]


def unspoken(pictures):
    """The pictures whose text alternative a screen reader cannot usefully read."""
    problems = []
    for p in pictures:
        where = f"cell {p['cell'] + 1}: " if p["cell"] >= 0 else ""
        name = (p["name"] or "").strip()
        shown = f"{where}<{p['tag']} {p['src']}...> has alt {name[:80]!r}"
        if not name:
            problems.append(f"{shown}: no text alternative")
        elif FILE_LIKE.search(name):
            problems.append(f"{shown}: a file name, path or hash, not a description")
        elif p["output"] and (len(name.split()) < MIN_WORDS or not SAYS_WHAT_IS_DRAWN.search(name)):
            problems.append(f"{shown}: too short to say what is drawn (a graph, a plot, ...) and what it shows")
    return problems


# In a page of the book, once MathJax has typeset it (readers hear what it wrote; the contents, index and
# search pages load no MathJax): axe's violations and the pictures of the article, stored in window.bookAudit.
# Started in several pages at once, then collected.
AUDIT_BOOK_PAGE = f"""async ([tags, content]) => {{
  if (document.querySelector('script[src*="mathjax" i]')) await ({MATHJAX_DONE})();
  const result = await axe.run(document, {{runOnly: {{type: 'tag', values: tags}}, resultTypes: ['violations']}});
  window.bookAudit = {{violations: ({VIOLATIONS})(result), pictures: ({PICTURES})(content)}};
}}"""
PAGES_AT_ONCE = 3  # axe and MathJax keep a core busy each; a third page loads meanwhile


@pytest.fixture(scope="module")
def book_audits(book_server, chromium, axe_script):
    """{page name: {"violations": [...], "pictures": [...]}} for every page of the book."""
    views = [OfflinePage(chromium) for _ in range(PAGES_AT_ONCE)]
    audits, waiting, running = {}, list(BOOK_PAGES), {}
    try:
        while waiting or running:
            for view in views:
                if view not in running and waiting:
                    name = waiting.pop(0)
                    response = view.page.goto(f"{book_server}/{name}.html")
                    assert response.ok, f"the book has no page {name}.html: run `make book`"
                    view.page.add_script_tag(content=axe_script)
                    view.page.evaluate(f"(args) => {{ window.bookAudit = null; ({AUDIT_BOOK_PAGE})(args); }}",
                                       [WCAG_AA, BOOK_CONTENT])
                    running[view] = (name, time.monotonic())
            for view, (name, started) in list(running.items()):
                audit = view.page.evaluate("() => window.bookAudit")
                if audit is not None:
                    audits[name] = audit
                    del running[view]
                elif time.monotonic() - started > AUDIT_TIMEOUT_S:
                    raise AssertionError(f"auditing {name}.html took more than {AUDIT_TIMEOUT_S} s")
            views[0].page.wait_for_timeout(100)
    finally:
        for view in views:
            view.close()
    return audits


@pytest.mark.parametrize("name", BOOK_PAGES)
def test_book_page_meets_wcag_aa(book_audits, name):
    audit = book_audits[name]
    problems = violation_problems(audit["violations"]) + unspoken(audit["pictures"])
    if name in {lesson.stem for lesson in LESSONS}:
        stored = stored_pictures(load(ROOT / "notebooks" / f"{name}.ipynb"))
        described = sum(p["output"] for p in audit["pictures"])
        if described < stored:
            problems.append(f"{described} pictures in the page's outputs, {stored} stored in the lesson")
    assert not problems, f"book page {name}.html:\n  " + "\n  ".join(problems)


# Marks every code cell of the open lesson trusted in the page only: the trust database, which the other
# browser tests rely on to open the lessons untrusted, is not touched. Outputs are rendered again, trusted.
TRUST_IN_PAGE = """() => { for (const cell of window.lessonPanel.content.widgets)
  if (cell.model.type === 'code') cell.model.trusted = true; }"""
ALL_TRUSTED = """() => window.lessonPanel.content.widgets.every(cell => cell.model.type !== 'code'
  || cell.model.trusted && [...cell.node.querySelectorAll('.jp-OutputArea-output')].length ===
     cell.model.outputs.length)"""


AUDIT_LESSON = f"""async ([tags, content]) => ({VIOLATIONS})(
  await axe.run({{include: content}}, {{runOnly: {{type: 'tag', values: tags}}, resultTypes: ['violations']}}))"""
# Every stored picture is shown: as many loaded images in the outputs as the lesson stores pictures.
PICTURES_LOADED = """(stored) => [...window.lessonPanel.content.node.querySelectorAll('.jp-OutputArea-output img')]
  .filter(image => image.complete && image.naturalWidth > 0).length >= stored"""


def lesson_problems(page, axe_script, notebook, situation):
    """What axe finds in the open lesson's cells and outputs, pictures without a useful text alternative, and
    stored pictures a screen reader is not told about; a screenshot at the first picture."""
    stored = stored_pictures(notebook)
    page.wait_for_function(PICTURES_LOADED, arg=stored, timeout=10_000)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script)
    problems = violation_problems(page.evaluate(AUDIT_LESSON, [WCAG_AA, LAB_CONTENT]))
    problems += unspoken(page.evaluate(PICTURES, ".jp-NotebookPanel .jp-Notebook"))
    # what a screen reader is given: an image named by a description (its accessible name, as a browser
    # computes it) for every stored picture
    spoken = page.locator(".jp-NotebookPanel .jp-Notebook").get_by_role("img", name=SAYS_WHAT_IS_DRAWN).count()
    if spoken < stored:
        problems.append(f"{spoken} images named by a description, {stored} pictures stored")
    first = next(iter(picture_cells(notebook)), 0)
    page.evaluate("(index) => window.lessonPanel.content.widgets[index].node.scrollIntoView()", first)
    save_screenshot(page, f"a11y-{situation.replace(' ', '-')}")
    return [f"{situation}: {problem}" for problem in problems]


@pytest.mark.parametrize("lesson", AUDITED_LESSONS, ids=[lesson.stem for lesson in AUDITED_LESSONS])
def test_lesson_in_jupyterlab_meets_wcag_aa_and_every_picture_speaks(lab_page, axe_script, lesson):  # noqa: F811
    notebook = load(lesson)
    with opened(lab_page, lesson) as (page, _):
        problems = lesson_problems(page, axe_script, notebook, f"{lesson.stem} untrusted")
        page.evaluate(TRUST_IN_PAGE)
        page.wait_for_function(ALL_TRUSTED, timeout=10_000)
        problems += lesson_problems(page, axe_script, notebook, f"{lesson.stem} trusted")
    assert not problems, f"{lesson.name} in JupyterLab:\n  " + "\n  ".join(problems)
