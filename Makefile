# The two commands of the README:   make lab   (open the course)   make test   (run every test)
# ENV=conda uses the conda environment from environment.yml instead of a .venv.
# make lab LAB_ARGS="--port 9999 --no-browser" passes options on to JupyterLab.
ENV ?= venv
PY = $(shell scripts/setup.sh $(ENV))
NBVAL = --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg
LAB_ARGS ?=

.PHONY: lab test book notebooks bench

lab:
	$(PY) scripts/lab.py $(LAB_ARGS)

# The static book (build/book/index.html) is built first, so a lesson it cannot render fails the tests.
test: book
	$(PY) -m pytest tests minitape notebooks --doctest-modules $(NBVAL)

book:
	$(PY) scripts/build_book.py

# Re-execute every lesson top to bottom in a fresh kernel and store its outputs (after a library change).
notebooks:
	for nb in notebooks/[0-9]*.ipynb; do \
	  $(PY) -m jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	done

bench:
	$(PY) benchmarks/run.py
