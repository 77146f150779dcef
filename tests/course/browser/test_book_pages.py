"""The static book (``make book`` writes ``build/book``), read offline: every lesson's page shows its
pictures and typeset maths, and nothing is loaded from anywhere but 127.0.0.1."""

import pytest
from browser_support import LESSONS, MISSING, load, save_screenshot, stored_pictures

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

# Typeset maths in the page: MathJax 2's and MathJax 3's output elements.
MATHJAX_OUTPUT = ".MathJax, .MathJax_Display, .MathJax_SVG, .MathJax_SVG_Display, .MathJax_CHTML, mjx-container"

# Resolves once MathJax has typeset the page (MathJax 2 or 3); null when MathJax never arrives.
MATHJAX_DONE = """async () => {
  for (let tries = 0; tries < 300; tries++) {
    const mathjax = window.MathJax;
    if (mathjax?.Hub?.Register) {
      await new Promise(done => mathjax.Hub.Register.StartupHook('End', done));
      return 'MathJax 2';
    }
    if (mathjax?.startup?.promise) { await mathjax.startup.promise; return 'MathJax 3'; }
    await new Promise(wait => setTimeout(wait, 100));
  }
  return null;
}"""

PAGE = """(mathjaxOutput) => {
  const article = document.querySelector('article') || document.querySelector('main') || document.body;
  const sphinxMath = '.math.notranslate';  // Sphinx's formula containers (MathJax 2 also uses class math inside)
  const images = [...article.querySelectorAll('.cell_output img, .output img')];
  // Visible text outside code and outside MathJax's own elements: raw TeX there was never typeset.
  const skip = 'pre, code, script, style, .highlight, ' + mathjaxOutput;
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const raw = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(skip)) continue;
    const found = node.textContent.match(/\\$[^$\\s][^$]*\\$|\\$\\$|\\\\\\(|\\\\\\[/);
    if (found) raw.push(node.textContent.trim().slice(0, 80));
  }
  return {
    pictures: images.filter(image => image.complete && image.naturalWidth > 0).length,
    broken: images.filter(image => !(image.complete && image.naturalWidth > 0)).map(image => image.src),
    maths: article.querySelectorAll(sphinxMath).length,
    untypeset: [...article.querySelectorAll(sphinxMath)].filter(math => !math.querySelector(mathjaxOutput))
      .map(math => math.textContent.trim().slice(0, 80)),
    typeset: article.querySelectorAll(mathjaxOutput).length,
    raw,
  };
}"""


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_book_page_shows_pictures_and_maths_offline(book_server, offline_page, lesson):
    page = offline_page.page
    response = page.goto(f"{book_server}/{lesson.stem}.html")
    assert response.ok, f"the book has no page for {lesson.name} ({lesson.stem}.html): run `make book`"
    mathjax = page.evaluate(MATHJAX_DONE)
    page.wait_for_load_state("load")
    seen = page.evaluate(PAGE, MATHJAX_OUTPUT)
    save_screenshot(page, f"book-{lesson.stem}")

    problems = []
    stored = stored_pictures(load(lesson))
    if seen["pictures"] < stored:
        problems.append(f"{seen['pictures']} pictures shown, {stored} stored; not loading: {seen['broken']}")
    if mathjax is None:
        problems.append("MathJax did not load")
    if seen["untypeset"] or seen["raw"]:
        problems.append(f"maths not typeset: {(seen['untypeset'] + seen['raw'])[:3]}")
    if seen["maths"] and not seen["typeset"]:
        problems.append(f"{seen['maths']} formulas and no MathJax output")
    if offline_page.elsewhere:
        problems.append(f"requests that left 127.0.0.1 (blocked): {offline_page.elsewhere[:5]}")
    assert not problems, f"book page {lesson.stem}.html:\n  " + "\n  ".join(problems)


def test_book_contents_link_every_lesson(book_server, offline_page):
    page = offline_page.page
    page.goto(f"{book_server}/index.html")
    links = set(page.eval_on_selector_all("a[href]", "links => links.map(link => link.getAttribute('href'))"))
    missing = [lesson.stem for lesson in LESSONS if f"{lesson.stem}.html" not in links]
    assert not missing, f"the book's contents page does not link {missing}"
    assert not offline_page.elsewhere, f"requests that left 127.0.0.1 (blocked): {offline_page.elsewhere[:5]}"
