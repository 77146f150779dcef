"""Every lesson as a learner opens it in JupyterLab: untrusted (a fresh clone), then trusted.

JupyterLab first asks the learner nothing (no dialog, no notification). At 1400x900 with the file
browser open, a lesson shows at least as many pictures as it stores, no output is wider than the
notebook, opening it marks nothing modified (on whichever supported Python runs the tests: the
kernel's metadata is the stored one), and its reference solutions are folded away. A few quick lessons
also run all their cells: no error, the notebook's metadata unchanged, and the step-through slider
moves and changes the picture. The tests run in this file's order: all lessons untrusted first.
Problems name cells counting from 1, as JupyterLab's status bar does.
"""

import contextlib
import time

import pytest
from browser_support import (
    LESSONS,
    MISSING,
    ROOT,
    SCREENSHOTS,
    OfflinePage,
    load,
    picture_cells,
    save_screenshot,
    solution_cells,
    stored_pictures,
)

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import TimeoutError as WaitedInVain  # only now: Playwright may be missing above

# Quick lessons with pictures; 05 has the step-through slider (classroom.widgets.step_through).
RUN_ALL = [lesson for lesson in LESSONS if lesson.name[:2] in ("02", "03", "05")]
STILL_CLEAN_AFTER_S = 3  # a lesson must not turn modified in the first seconds after its kernel is ready
PICTURES_TIMEOUT_MS = 20_000  # images decode and widgets render a moment after the notebook is shown: seconds
# on a loaded machine (CI runs other suites beside this one); the wait ends as soon as every stored picture shows

OPEN_LESSON = """async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  await panel.context.ready;
  await panel.sessionContext.ready;
  app.shell.activateById(panel.id);
  window.lessonPanel = panel;
}"""

KERNEL_IDLE = """() => {
  const kernel = window.lessonPanel.sessionContext.session?.kernel;
  return kernel?.connectionStatus === 'connected' && kernel.status === 'idle';
}"""

CLOSE_LESSON = """async () => {
  const panel = window.lessonPanel;
  window.lessonPanel = undefined;
  if (panel) { await panel.sessionContext.shutdown(); panel.dispose(); }
}"""

# One record per output element: its cell, whether it shows a picture, its width against the notebook's.
OUTPUTS = """() => {
  const notebook = window.lessonPanel.content;
  const shown = (picture) => {
    const box = picture.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return false;
    if (picture.tagName.toLowerCase() === 'img') return picture.complete && picture.naturalWidth > 0;
    return !picture.closest('[data-icon]') && !picture.parentElement.closest('svg');  // not an icon, not nested
  };
  const records = [];
  notebook.widgets.forEach((cell, index) => {
    for (const output of cell.node.querySelectorAll('.jp-OutputArea-output')) {
      const pictures = [...output.querySelectorAll('img, svg')].filter(shown);
      const rights = [output, ...pictures].map(element => element.getBoundingClientRect().right);
      records.push({cell: index, type: output.dataset.mimeType || '', picture: pictures.length > 0,
                    scrollWidth: output.scrollWidth, clientWidth: output.clientWidth,
                    right: Math.round(Math.max(...rights))});
    }
  });
  return {records, notebookRight: Math.round(notebook.node.getBoundingClientRect().right),
          notebookWidth: Math.round(notebook.node.getBoundingClientRect().width)};
}"""

# Every image output holds its loaded picture (JupyterLab renders outputs a moment after their model arrives).
IMAGES_LOADED = """() => [...window.lessonPanel.content.node.querySelectorAll('.jp-OutputArea-output')].every(output =>
  [...output.querySelectorAll('img')].every(image => image.complete) && !output.dataset.mimeType?.startsWith('image/')
  || [...output.querySelectorAll('img')].some(image => image.complete && image.naturalWidth > 0))"""

STATE = """(solutions) => {
  const panel = window.lessonPanel;
  const cells = panel.content.widgets;
  const tab = [...document.querySelectorAll('.lm-DockPanel .lm-TabBar-tab')]
    .find(tab => tab.querySelector('.lm-TabBar-tabLabel')?.textContent === panel.title.label);
  const browser = document.querySelector('#filebrowser');
  return {
    cells: cells.length,
    trusted: cells.filter(cell => cell.model.type === 'code').map(cell => cell.model.trusted),
    tabDirty: tab ? tab.classList.contains('jp-mod-dirty') : null,
    modelDirty: panel.context.model.dirty,
    metadata: panel.context.model.toJSON().metadata,
    fileBrowserWidth: browser && browser.checkVisibility() ? browser.getBoundingClientRect().width : 0,
    solutions: solutions.map(index => {
      const input = cells[index].node.querySelector('.jp-Cell-inputArea');
      return {cell: index, firstLine: cells[index].model.sharedModel.getSource().split('\\n')[0],
              sourceShown: Boolean(input && input.checkVisibility())};
    }),
  };
}"""


# What JupyterLab shows to ask or tell something: a dialog, or a notification (a toast, e.g. the announcements
# plugin's "Would you like to get notified about official Jupyter news?").
QUESTIONS = """() => [...document.querySelectorAll('.jp-Dialog, .Toastify__toast')].map(element => element.innerText)"""
QUESTION_WAIT_MS = 5000  # the news question comes a moment after JupyterLab has restored its layout


def test_jupyterlab_asks_nothing_on_first_open(lab, chromium):
    view = OfflinePage(chromium)
    try:
        view.page.goto(f"{lab.url}/lab?reset&token={lab.token}")
        view.page.wait_for_function("window.jupyterapp !== undefined", timeout=60_000)
        view.page.evaluate("async () => { await window.jupyterapp.restored; }")
        view.page.wait_for_timeout(QUESTION_WAIT_MS)
        save_screenshot(view.page, "first-open")
        assert view.page.evaluate(QUESTIONS) == [], "JupyterLab asks a learner something on first open"
    finally:
        view.close()


@pytest.fixture(scope="module")
def lab_page(lab, chromium):
    """One JupyterLab page, loaded once with a fresh workspace (the file browser open, as by default)."""
    view = OfflinePage(chromium)
    view.page.goto(f"{lab.url}/lab?reset&token={lab.token}")
    view.page.wait_for_function("window.jupyterapp !== undefined", timeout=60_000)
    view.page.evaluate("async () => { await window.jupyterapp.restored; }")
    yield view  # what it tried to load from elsewhere (lesson 00's Binder badge) was blocked, so nothing waits on it
    view.close()


@contextlib.contextmanager
def opened(lab_page, lesson):
    """Open ``lesson``, wait until its kernel is ready and its pictures are loaded; yield the page and the
    time the kernel was ready. Close the lesson and shut its kernel down after."""
    page = lab_page.page
    page.evaluate(OPEN_LESSON, lesson.relative_to(ROOT).as_posix())
    try:
        page.wait_for_function(KERNEL_IDLE, timeout=180_000)  # seconds, but CI runs test suites side by side
        kernel_ready = time.monotonic()
        page.wait_for_function(IMAGES_LOADED, timeout=30_000)
        yield page, kernel_ready
    finally:
        page.evaluate(CLOSE_LESSON)


def wait_for_pictures(page, at_least):
    with contextlib.suppress(WaitedInVain):  # the count is asserted afterwards, with what did show
        page.wait_for_function(f"() => ({OUTPUTS})().records.filter(r => r.picture).length >= {at_least}",
                               timeout=PICTURES_TIMEOUT_MS)
    return page.evaluate(OUTPUTS)


def picture_and_width_problems(outputs, notebook):
    problems = []
    records = outputs["records"]
    shown, stored = sum(record["picture"] for record in records), stored_pictures(notebook)
    if shown < stored:
        showing = {record["cell"] for record in records if record["picture"]}
        missing = [index for index in picture_cells(notebook) if index not in showing]
        instead = sorted({record["type"] for record in records if record["cell"] in missing})
        problems.append(f"{shown} pictures shown, {stored} stored: cells {[index + 1 for index in missing]} "
                        f"store a picture and show {instead or 'nothing'} instead")
    for r in records:
        where = f"cell {r['cell'] + 1}: {r['type'] or 'an'} output"
        if r["scrollWidth"] > r["clientWidth"] + 1:
            problems.append(f"{where} is {r['scrollWidth']} px wide in a {r['clientWidth']} px output area "
                            f"(notebook {outputs['notebookWidth']} px), so it scrolls sideways")
        elif r["right"] > outputs["notebookRight"] + 1:
            problems.append(f"{where} reaches x = {r['right']} px, past the notebook's right edge "
                            f"(x = {outputs['notebookRight']} px)")
    return problems


def modified_problem(state, stored_metadata):
    if not (state["tabDirty"] or state["modelDirty"]):
        return []
    changed = sorted(key for key in set(state["metadata"]) | set(stored_metadata)
                     if state["metadata"].get(key) != stored_metadata.get(key))
    details = "; ".join(f"{key}: stored {stored_metadata.get(key)!r:.150}, now {state['metadata'].get(key)!r:.150}"
                        for key in changed)
    return [(f"opening marks the lesson modified (tab dirty: {state['tabDirty']}); "
             f"notebook metadata that changed: {details or 'none (a cell changed)'}")]


def check_as_opened(page, kernel_ready, lesson, trusted):
    """Everything a learner should see right after opening ``lesson``; returns the problems found."""
    notebook = load(lesson)
    outputs = wait_for_pictures(page, stored_pictures(notebook))
    solutions = solution_cells(notebook)
    state = page.evaluate(STATE, solutions)
    expected_trust = "trusted" if trusted else "untrusted"
    assert state["cells"] == len(notebook["cells"]), "JupyterLab shows a different number of cells than stored"
    assert state["trusted"] and all(t == trusted for t in state["trusted"]), (
        f"{lesson.name} should open {expected_trust} (the untrusted tests must run before the trusted ones)")
    assert state["fileBrowserWidth"] > 100, "the file browser should be open beside the notebook"

    problems = picture_and_width_problems(outputs, notebook)
    problems += [f"cell {s['cell'] + 1}: the reference solution ({s['firstLine']!r}) is not collapsed"
                 for s in state["solutions"] if s["sourceShown"]]
    page.wait_for_timeout(max(0, STILL_CLEAN_AFTER_S - (time.monotonic() - kernel_ready)) * 1000)
    problems += modified_problem(page.evaluate(STATE, solutions), notebook["metadata"])
    screenshot_at_cell(page, f"{lesson.stem}-{expected_trust}", first_picture_cell(notebook))
    return problems


def screenshot_at_cell(page, name, index):
    """Save a screenshot (when asked for) with cell ``index`` at the top of the notebook."""
    if SCREENSHOTS and index is not None:
        page.evaluate("(index) => window.lessonPanel.content.widgets[index].node.scrollIntoView()", index)
    save_screenshot(page, name)


def first_picture_cell(notebook):
    return next(iter(picture_cells(notebook)), None)


def report(lesson, situation, problems):
    return f"{lesson.name} {situation}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_lesson_as_opened_untrusted(lab_page, lesson):
    stored_file = lesson.read_bytes()
    with opened(lab_page, lesson) as (page, kernel_ready):
        problems = check_as_opened(page, kernel_ready, lesson, trusted=False)
    assert lesson.read_bytes() == stored_file, "opening the lesson must not write it"
    assert not problems, report(lesson, "opened untrusted", problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_lesson_as_opened_trusted(lab, lab_page, lesson):
    lab.trust(lesson)  # into the session's fresh trust database; the notebook file is not changed
    stored_file = lesson.read_bytes()
    with opened(lab_page, lesson) as (page, kernel_ready):
        problems = check_as_opened(page, kernel_ready, lesson, trusted=True)
    assert lesson.read_bytes() == stored_file, "opening the lesson must not write it"
    assert not problems, report(lesson, "opened trusted", problems)


# Outputs are cleared first, so that every execution count seen afterwards comes from this run.
RUN_ALL_CELLS = """async () => {
  window.runAllDone = false;
  await window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs');
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(() => { window.runAllDone = true; });
}"""

ALL_RAN = f"""() => window.runAllDone && ({KERNEL_IDLE})() && window.lessonPanel.content.widgets
  .filter(cell => cell.model.type === 'code').every(cell => cell.model.executionCount !== null)"""

ERRORS = """() => window.lessonPanel.content.widgets.flatMap((cell, index) => cell.model.type !== 'code' ? [] :
  cell.model.outputs.toJSON()
    .filter(output => output.output_type === 'error' || output.name === 'stderr')
    .map(output => `cell ${index + 1}: ` + (output.output_type === 'error'
      ? `${output.ename}: ${output.evalue}` : `stderr: ${[].concat(output.text).join('').slice(0, 300)}`)))"""

# The picture(s) inside the step-through widget, and the slider's handle, of the cell calling step_through.
STEP_THROUGH_PICTURE = """(index) => [...window.lessonPanel.content.widgets[index].node
  .querySelectorAll('.jp-OutputArea-output svg, .jp-OutputArea-output img')].map(p => p.outerHTML).join('')"""
SLIDER_HANDLE = """(index) => window.lessonPanel.content.widgets[index].node.querySelector('.noUi-handle')"""
SLIDER_VALUE = """(index) => window.lessonPanel.content.widgets[index].node.querySelector('.widget-readout')
  ?.textContent.trim()"""


def step_through_problems(page, notebook):
    problems = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or "step_through(" not in "".join(cell["source"]):
            continue
        handle = page.evaluate_handle(SLIDER_HANDLE, index).as_element()
        if handle is None:
            problems.append(f"cell {index + 1}: no step-through slider after the cell ran")
            continue
        before, value = page.evaluate(STEP_THROUGH_PICTURE, index), page.evaluate(SLIDER_VALUE, index)
        if not before:
            problems.append(f"cell {index + 1}: the step-through slider shows no picture")
        handle.press("ArrowRight")
        moved = f"() => ({SLIDER_VALUE})({index}) !== {value!r}"
        changed = f"() => ({STEP_THROUGH_PICTURE})({index}) !== {before!r}"
        try:
            page.wait_for_function(moved, timeout=5_000)
        except WaitedInVain:
            problems.append(f"cell {index + 1}: the step-through slider stays at {value} on ArrowRight")
            continue
        try:
            page.wait_for_function(changed, timeout=30_000)
        except WaitedInVain:
            problems.append(f"cell {index + 1}: moving the step-through slider did not change the picture")
    return problems


@pytest.mark.parametrize("lesson", RUN_ALL, ids=[lesson.stem for lesson in RUN_ALL])
def test_run_all_cells(lab_page, lesson):
    stored_file = lesson.read_bytes()
    notebook = load(lesson)
    with opened(lab_page, lesson) as (page, _):
        page.evaluate(RUN_ALL_CELLS)
        page.wait_for_function(ALL_RAN, timeout=180_000)
        problems = [f"error output: {error}" for error in page.evaluate(ERRORS)]
        page.wait_for_function(IMAGES_LOADED, timeout=30_000)
        problems += picture_and_width_problems(wait_for_pictures(page, stored_pictures(notebook)), notebook)
        screenshot_at_cell(page, f"{lesson.stem}-run-all", first_picture_cell(notebook))
        problems += step_through_problems(page, notebook)
        save_screenshot(page, f"{lesson.stem}-run-all-slider-moved")
        metadata = page.evaluate(STATE, [])["metadata"]
        if metadata != notebook["metadata"]:
            problems.append(f"running the cells changed the notebook's metadata to {metadata}")
    assert lesson.read_bytes() == stored_file, "running the lesson in the browser must not write it"
    assert not problems, report(lesson, "after Run All Cells", problems)
