# The two commands of the README:   make lab   (open the course)   make test   (run every test)
# ENV=conda uses the conda environment from environment.yml instead of a .venv.
ENV ?= venv
PY = $(shell scripts/setup.sh $(ENV))
NBVAL = --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg

.PHONY: lab test notebooks bench

lab:
	$(PY) -m jupyter trust notebooks/*.ipynb
	$(PY) -m jupyter lab notebooks/00_welcome.ipynb

test:
	$(PY) -m pytest tests minitape notebooks --doctest-modules $(NBVAL)

# Re-execute every lesson top to bottom in a fresh kernel and store its outputs (after a library change).
notebooks:
	for nb in notebooks/[0-9]*.ipynb; do \
	  $(PY) -m jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.record_timing=False "$$nb" || exit 1; \
	done

bench:
	$(PY) benchmarks/run.py
