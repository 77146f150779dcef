# The two commands of the README:   make lab   (open the course)   make test   (run every test)
# $(PY) is Python in the environment with the extras of pyproject.toml a target needs (EXTRAS; the course by
# default), made ready first by scripts/setup.sh; a failed setup stops make with setup's own message.
#   make lab PYTHON=python3.13   makes .venv with that interpreter (a .venv made by another one is made again)
#   make lab ENV=conda           uses the conda environment from environment.yml instead of a .venv
#   make lab LAB_ARGS="--port 9999 --no-browser" passes options on to JupyterLab.
ENV ?= venv
PY = scripts/setup.sh $(ENV) $(EXTRAS) --
NBVAL = --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg
LAB_ARGS ?=

# pytest-xdist's workers: JOBS=1 runs in one process. make test keeps each test file on one worker
# (--dist loadscope), so a lesson's cells run in order in one kernel and a module's fixtures are built once.
JOBS ?= 2
XDIST = -n $(JOBS)
XDIST_BY_FILE = -n $(JOBS) --dist loadscope

LESSONS ?=
ALL_LESSONS = $(wildcard notebooks/[0-9]*.ipynb)
LESSON_FILES = $(if $(LESSONS),$(foreach n,$(LESSONS),$(wildcard notebooks/$(n)_*.ipynb)),$(ALL_LESSONS))

.PHONY: lab test test-library test-python test-lab-python lint book notebooks student nbgrader grade bench

# A learner's install: the course only.
lab: EXTRAS = course
lab:
	$(PY) scripts/lab.py $(LAB_ARGS)

# The linter first (pyproject.toml's [tool.ruff]), then the static book (build/book/index.html), so that a lesson
# it cannot render fails the tests.
test: EXTRAS = course test browser lint grading book
test: lint book
	$(PY) -m pytest $(XDIST_BY_FILE) tests minitape classroom notebooks --doctest-modules $(NBVAL)

# The quick loop of a change to the library (tests/README.md): its unit tests and docstring examples, on JOBS
# workers, with hypothesis's quick profile (conftest.py: 4 random inputs per op, where make test draws 12 fixed
# ones); no notebook, so no nbval plugin (importing it alone takes over a second).
test-library: EXTRAS = course test
test-library:
	HYPOTHESIS_PROFILE=dev $(PY) -m pytest $(XDIST) -p no:cacheprovider -p no:nbval tests/library minitape \
	  --doctest-modules

# The unit tests, docstring examples and lessons (nbval) on another Python, in a light environment of its own; CI
# runs it for every supported Python beside make test's:   make test-python PYTHON=python3.13 VENV=.venv-3.13
# The classroom's build and grading routes (the editions run every lesson again; the grader runs submissions in its
# sandbox) are make test's: they depend on the machine's tools, not on the Python, which nbval and the grader's own
# tests (tests/course/test_grader.py) cover here.
# Hypothesis's quick profile there (4 inputs per op, conftest.py): the ops' derivatives are the same NumPy code on
# every Python, and make test draws 12.
test-python: EXTRAS = course test grading
test-python:
	HYPOTHESIS_PROFILE=quick $(PY) -m pytest $(XDIST_BY_FILE) -p no:cacheprovider tests minitape classroom notebooks \
	  --doctest-modules $(NBVAL) \
	  --ignore=tests/course/browser --ignore=tests/course/test_editions.py --ignore=tests/course/test_cheating_student.py

# Every lesson opened and run in JupyterLab (tests/course/browser/test_lab_lessons.py) on another Python: CI runs it on
# one, so that a lesson is seen to open unmodified on two Pythons.
test-lab-python: EXTRAS = course test browser
test-lab-python:
	$(PY) -m pytest -p no:cacheprovider tests/course/browser/test_lab_lessons.py

lint: EXTRAS = lint
lint:
	$(PY) -m ruff check

book: EXTRAS = course book
book:
	$(PY) scripts/build_book.py

# Re-execute every lesson top to bottom in a fresh kernel and store its outputs (after a library change);
# first the exercises' data is written from their answers (classroom/data/, what the checks compare with).
# Reference solutions then lose their outputs, so that a collapsed solution shows nothing, sliders are stored as
# their first picture (scripts/drop_widget_views.py says why), and the notebook's kernel metadata is the course
# kernel's, the same on every Python (scripts/course_kernel.py). LESSONS="00 05" for some.
notebooks: EXTRAS = course
notebooks:
	$(PY) -m classroom.safe_data
	for nb in $(LESSON_FILES); do \
	  $(PY) -m jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	  $(PY) -m classroom.editions tidy "$$nb" || exit 1; \
	  $(PY) scripts/drop_widget_views.py "$$nb" || exit 1; \
	  $(PY) scripts/course_kernel.py store "$$nb" || exit 1; \
	done

# The student edition in build/student/: no reference solutions, exercise and check cells without outputs, and
# beside the lessons classroom/'s public part (the checks and their hashed data, no answer).
student: EXTRAS = course
student:
	rm -rf build/student
	$(PY) -m classroom.editions student build/student $(LESSON_FILES)

# An nbgrader course folder in build/nbgrader/ (INSTRUCTORS.md): source/<lesson>/ is rewritten, the gradebook and
# the submissions stay. Then: cd build/nbgrader && ../../.venv/bin/nbgrader generate_assignment 05_reverse_mode
# The class (each student's own numbers): the gradebook's students, STUDENTS="ada bob" and ROSTER=a file of ids.
STUDENTS ?=
ROSTER ?=
nbgrader: EXTRAS = course grading
nbgrader:
	rm -rf build/nbgrader/source
	$(PY) -m classroom.editions nbgrader build/nbgrader $(LESSON_FILES) --students $(STUDENTS) $(if $(ROSTER),--roster $(ROSTER))

# The trusted grader (classroom/grader, INSTRUCTORS.md): every submission in build/nbgrader/submitted/ runs in a
# bubblewrap sandbox, is judged outside it, and its scores go into build/nbgrader/gradebook.db (then nbgrader
# export). GRADE_ARGS="--assignment 05_reverse_mode --student ada --jobs 4" for fewer submissions, or faster.
GRADE_ARGS ?=
grade: EXTRAS = course grading
grade:
	$(PY) -m classroom.grader build/nbgrader $(GRADE_ARGS)

bench: EXTRAS = course
bench:
	$(PY) benchmarks/run.py

# The class route on a JupyterHub (tests/course/hub, hub/jupyterhub_config.py): JupyterHub and nbgitpuller (the hub
# extra), configurable-http-proxy from npm into build/hub-node/ (PyPI's Python implementation where npm is
# missing), then a hub on 127.0.0.1 serving the student edition. MINITAPE_HUB_STUDENTS=10 for a bigger class.
.PHONY: hub-test hub-links
PROXY_NPM = configurable-http-proxy@5.3.0
PROXY_PYPI = configurable-http-proxy==0.4.0
hub-test: EXTRAS = course test browser hub
hub-test: student
	$(PY) -m pip install -q -e '.[hub]'
	if command -v npm >/dev/null; then \
	  npm install --silent --no-audit --no-fund --prefix build/hub-node $(PROXY_NPM); \
	else \
	  $(PY) -m pip install -q $(PROXY_PYPI); \
	fi
	MINITAPE_HUB_TEST=1 $(PY) -m pytest tests/course/hub

# nbgitpuller links that open each lesson of build/student/ on your hub, once that folder is published as a
# git repository: make hub-links STUDENT_REPO=https://github.com/you/ad-class HUB_URL=https://hub.example.edu
hub-links: student
	$(PY) scripts/hub_link.py "$(STUDENT_REPO)" --hub "$(HUB_URL)" --output build/hub-links.md
