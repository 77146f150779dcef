"""The class route on a JupyterHub: a teacher publishes the student edition, a student clicks an nbgitpuller link.

The hub is hub/jupyterhub_config.py on 127.0.0.1 (conftest.py starts it). A student signs in and clicks the
link that scripts/hub_link.py writes; lesson 06 opens untrusted with its stored pictures, and its exercise 6.1
checks the student's answers (⏳, ❌, ✅). The teacher then commits a change, the student clicks again: the
change arrives and the student's answer stays. Last, a class of students starts at once, each running a
lesson top to bottom on their own server; MINITAPE_HUB_STUDENTS sets how many (3 by default). The tests run in
this file's order, as one student's session. Cells are counted from 1 in messages, as JupyterLab does.
"""

import doctest
import json
import os
import time
import urllib.parse

import pytest
from browser_support import MISSING, OfflinePage, load, picture_cells, save_screenshot
from hub_support import EDITION, REPORT, class_at_once, git, why_not_here, write_report
from repository_scripts import load_script

from classroom.editions import tags

hub_link = load_script("hub_link")
needs_hub = pytest.mark.skipif(bool(why_not_here()), reason=str(why_not_here()))

LESSON = "06_tape_rules.ipynb"
EXERCISE = "6.1"  # df/da of a**3 at a = 2, on a tape: an answer typed from what the lesson teaches
WRONG_ANSWER = """a = mt.constant(2.0)
with mt.GradientTape() as tape:
    f = a ** 3
df_da = tape.gradient(f, a)"""  # a constant that was not watched: its gradient is None
RIGHT_ANSWER = """a = mt.constant(2.0)
with mt.GradientTape() as tape:
    tape.watch(a)
    f = a ** 3
df_da = tape.gradient(f, a)"""
STUDENT = "ada"
CLASS_LESSON = "05_reverse_mode.ipynb"
CLASS_SIZE = int(os.environ.get("MINITAPE_HUB_STUDENTS", "3"))
SPAWN_TIMEOUT_S = 600  # the hub's own timeouts (hub/jupyterhub_config.py) fail a slow start before this
OPEN_TIMEOUT_MS = 240_000  # sign-in, the server's start, the clone and JupyterLab's first load

# The lesson the link opened, once its kernel is idle: JupyterLab's current document.
LESSON_OPEN = """(path) => {
  const panel = window.jupyterapp?.shell.currentWidget;
  const kernel = panel?.sessionContext?.session?.kernel;
  if (!panel?.context?.isReady || panel.context.path !== path) return false;
  if (kernel?.connectionStatus !== 'connected' || kernel.status !== 'idle') return false;
  window.lessonPanel = panel;
  return true;
}"""

CODE_CELLS_TRUSTED = """() => window.lessonPanel.content.widgets.filter(cell => cell.model.type === 'code')
  .map(cell => cell.model.trusted)"""

# Cells off screen are not laid out, so the cell is scrolled to before its pictures are counted.
SCROLL_TO = "(index) => window.lessonPanel.content.widgets[index].node.scrollIntoView({block: 'center'})"
PICTURES_SHOWN = """([index, stored]) => {
  const pictures = [...window.lessonPanel.content.widgets[index].node.querySelectorAll('.jp-OutputArea-output')]
    .filter(output => [...output.querySelectorAll('img')].some(image => image.complete && image.naturalWidth > 0
      && image.getBoundingClientRect().width > 0));
  return pictures.length >= stored;
}"""

RUN_ALL = """() => {
  window.runAllDone = false;
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(() => { window.runAllDone = true; });
}"""
ALL_RAN = """() => {
  const kernel = window.lessonPanel.sessionContext.session?.kernel;
  return window.runAllDone && kernel?.status === 'idle' && window.lessonPanel.content.widgets
    .filter(cell => cell.model.type === 'code').every(cell => cell.model.executionCount !== null);
}"""
OUTPUT_TEXT = """(index) => [...window.lessonPanel.content.widgets[index].node
  .querySelectorAll('.jp-OutputArea-output')].map(output => output.textContent).join('\\n')"""
EXECUTION_COUNT = "(index) => window.lessonPanel.content.widgets[index].model.executionCount"
# The check cell ran again: a new execution count (set by the kernel's reply, after the outputs) and an output.
CHECK_RAN = f"""([index, before]) => {{
  const count = ({EXECUTION_COUNT})(index);
  return count !== null && count !== before && ({OUTPUT_TEXT})(index).trim() !== '';
}}"""
SOURCE = "(index) => window.lessonPanel.content.widgets[index].model.sharedModel.getSource()"
MARK_CELL = "([index, name]) => window.lessonPanel.content.widgets[index].node.setAttribute('data-hub-test', name)"
SAVED = "() => !window.lessonPanel.context.model.dirty"


def test_a_link_pulls_the_repository_and_opens_the_lesson_in_its_folder():
    link = hub_link.puller_link("https://hub.example.edu/base/", "https://git.example.edu/t/ad-class.git", LESSON,
                                branch="spring")
    address, query = link.split("?")
    assert address == "https://hub.example.edu/base/hub/user-redirect/git-pull"
    assert urllib.parse.parse_qs(query, strict_parsing=True) == {
        "repo": ["https://git.example.edu/t/ad-class.git"], "branch": ["spring"],
        "urlpath": [f"lab/tree/ad-class.git/{LESSON}"]}  # nbgitpuller's folder: the address's last part, as it is
    assert doctest.testmod(hub_link).failed == 0


@pytest.fixture(scope="module")
def lesson():
    """The lesson as published: the student edition's notebook, and its exercise and check cells for 6.1."""
    notebook = load(EDITION / LESSON)
    cells = notebook["cells"]
    check = next(i for i, cell in enumerate(cells)
                 if "check" in tags(cell) and f'check("{EXERCISE}"' in "".join(cell["source"]))
    exercise = max(i for i in range(check) if "exercise" in tags(cells[i]))
    return {"notebook": notebook, "check": check, "exercise": exercise}


@pytest.fixture(scope="module")
def student(chromium):
    if MISSING:
        pytest.skip(MISSING)
    view = OfflinePage(chromium)
    yield view.page
    view.close()


def click_link(page, link, text):
    """The student's course page holds the link; the student clicks it."""
    page.set_content(f'<a href="{link}">{text}</a>')
    page.get_by_role("link", name=text).click()


def lesson_path(repository_folder):
    return f"{repository_folder.name}/{LESSON}"


@needs_hub
def test_the_link_opens_the_lesson_untrusted_with_its_pictures(hub, repository, student, lesson):
    address, folder = repository
    link = hub_link.puller_link(hub.url, address, LESSON)
    started = time.monotonic()
    click_link(student, link, "Lesson 06")
    student.get_by_label("Username:").fill(STUDENT)
    student.get_by_label("Password:").fill("any password")
    student.get_by_role("button", name="Sign in").click()
    student.wait_for_function(LESSON_OPEN, arg=lesson_path(folder), timeout=OPEN_TIMEOUT_MS)
    REPORT["sign-in to lesson open (server start and clone included)"] = time.monotonic() - started
    assert student.url.endswith(f"/user/{STUDENT}/lab/tree/{lesson_path(folder)}"), student.url

    trusted = student.evaluate(CODE_CELLS_TRUSTED)
    assert trusted and not any(trusted), "a student's copy must open untrusted (it was not signed on their server)"
    missing = []
    for index in picture_cells(lesson["notebook"]):
        stored = sum(any(kind in output.get("data", {}) for kind in ("image/png", "image/svg+xml"))
                     for output in lesson["notebook"]["cells"][index]["outputs"])
        student.evaluate(SCROLL_TO, index)
        try:
            student.wait_for_function(PICTURES_SHOWN, arg=[index, stored], timeout=10_000)
        except Exception:  # Playwright's timeout: the cell is reported with the others below
            missing.append(index + 1)
    save_screenshot(student, "hub-lesson-06-untrusted")
    assert picture_cells(lesson["notebook"]), f"{LESSON} stores no picture: choose a lesson with pictures"
    assert not missing, f"{LESSON} opened untrusted shows no stored picture in cells {missing}"


def run_cell_and_its_check(page, lesson, answer):
    """Type ``answer`` into the exercise cell, run it and the check cell below it (Shift+Enter twice)."""
    page.evaluate(SCROLL_TO, lesson["exercise"])
    page.locator('[data-hub-test="exercise"] .cm-content').click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(answer)
    count = page.evaluate(EXECUTION_COUNT, lesson["check"])
    page.keyboard.press("Shift+Enter")
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(CHECK_RAN, arg=[lesson["check"], count], timeout=60_000)
    return page.evaluate(OUTPUT_TEXT, lesson["check"])


def verdict(output):
    """The one verdict symbol a check's output shows, or all it shows if not exactly one."""
    return "".join(symbol for symbol in "⏳❌✅" if symbol in output)


@needs_hub
def test_the_exercise_checks_the_students_answers(hub, repository, student, lesson):
    student.evaluate(MARK_CELL, [lesson["exercise"], "exercise"])
    student.evaluate(RUN_ALL)
    student.wait_for_function(ALL_RAN, timeout=180_000)
    unanswered = student.evaluate(OUTPUT_TEXT, lesson["check"])
    assert verdict(unanswered) == "⏳", f"unanswered, check {EXERCISE} says {unanswered!r}"

    wrong = run_cell_and_its_check(student, lesson, WRONG_ANSWER)
    assert student.evaluate(SOURCE, lesson["exercise"]) == WRONG_ANSWER, "the typed answer is not in the cell"
    assert verdict(wrong) == "❌", f"an unwatched constant's gradient (None): check says {wrong!r}"
    right = run_cell_and_its_check(student, lesson, RIGHT_ANSWER)
    assert verdict(right) == "✅", f"the right answer: check says {right!r}"
    save_screenshot(student, "hub-lesson-06-checked")

    student.keyboard.press("Control+S")
    student.wait_for_function(SAVED, timeout=30_000)
    saved = load(hub.homes / STUDENT / lesson_path(repository[1]))
    assert "".join(saved["cells"][lesson["exercise"]]["source"]) == RIGHT_ANSWER, "Ctrl+S did not save the answer"


@needs_hub
def test_a_second_click_brings_the_update_and_keeps_the_students_work(hub, repository, student, lesson):
    address, folder = repository
    title = lesson["notebook"]["cells"][0]["source"][0].rstrip("\n")
    updated_title = f"{title} (updated by your teacher)"
    published = folder / LESSON
    text = published.read_text(encoding="utf-8")
    encoded = json.dumps(title, ensure_ascii=False)[1:-1]  # the line as the notebook file stores it
    assert text.count(encoded) == 1, f"the lesson's first line {title!r} is not once in {published}"
    published.write_text(text.replace(encoded, json.dumps(updated_title, ensure_ascii=False)[1:-1]), encoding="utf-8")
    git("commit", "-q", "-am", "A clearer title for lesson 06", cwd=folder)

    started = time.monotonic()
    click_link(student, hub_link.puller_link(hub.url, address, LESSON), "Lesson 06")
    student.wait_for_function(LESSON_OPEN, arg=lesson_path(folder), timeout=OPEN_TIMEOUT_MS)
    REPORT["second click to lesson open (pull and merge)"] = time.monotonic() - started

    on_disk = load(hub.homes / STUDENT / lesson_path(folder))
    assert "".join(on_disk["cells"][lesson["exercise"]]["source"]) == RIGHT_ANSWER, "the student's answer was lost"
    assert "".join(on_disk["cells"][0]["source"]).startswith(updated_title), "the teacher's update did not arrive"
    assert student.evaluate(SOURCE, lesson["exercise"]) == RIGHT_ANSWER, "JupyterLab shows another answer"
    assert student.evaluate(SOURCE, 0).startswith(updated_title), "JupyterLab shows the lesson before the update"


@needs_hub
def test_a_class_works_through_a_lesson_at_once(hub, repository):
    address, folder = repository
    names = [f"student{number:02d}" for number in range(1, CLASS_SIZE + 1)]
    started = time.monotonic()
    students = class_at_once(hub, names, address, f"{folder.name}/{CLASS_LESSON}", SPAWN_TIMEOUT_S)
    REPORT["class at once"] = time.monotonic() - started
    REPORT["class lesson"] = CLASS_LESSON.removesuffix(".ipynb")
    REPORT["class"] = [{"name": s.name, **{step: round(seconds, 2) for step, seconds in s.timings.items()},
                        "peak_MB": round(s.peak_pss / 2**20),
                        **{f"{kind}_cpu_s": round(seconds, 2) for kind, seconds in s.cpu_s.items()}}
                       for s in students]
    write_report()

    errors = [f"{s.name}: {error}" for s in students for error in s.errors]
    assert not errors, "lessons that failed on a student's server:\n" + "\n".join(errors)
    assert all(s.cells_run == s.code_cells > 0 for s in students), [(s.name, s.cells_run, s.code_cells)
                                                                     for s in students]
    assert all((hub.homes / name / folder.name / CLASS_LESSON).exists() for name in names), "a clone is missing"
    assert all(s.peak_pss > 0 for s in students), "a student's server and kernel were not found to measure"
