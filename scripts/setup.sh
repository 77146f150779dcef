#!/usr/bin/env bash
# Make everything the course and its tests need available, then print the Python to use.
#   scripts/setup.sh venv   -> a .venv with pip (the default)
#   scripts/setup.sh conda  -> the conda environment "minitape" from environment.yml
# Graphviz's `dot` is installed with apt-get when we are root, or conda in the conda route;
# otherwise we stop with one line saying how to install it.
set -euo pipefail
cd "$(dirname "$0")/.."
route="${1:-venv}"
log() { echo "setup: $*" >&2; }

if [ "$route" = conda ]; then
  command -v conda >/dev/null || { log "conda not found: install Miniforge (https://conda-forge.org/download/) or use the default .venv route"; exit 1; }
  if ! conda env list | grep -q '^minitape '; then
    log "creating the conda environment 'minitape' from environment.yml"
    conda env create -q -f environment.yml >&2
    # environment.yml holds the dependencies only (a "pip: -e ." line there breaks Binder builds).
    conda run -n minitape python -m pip install -q --no-deps -e . >&2
  fi
  # classroom/ (the course's checks and editions) is no part of the minitape wheel: put the repository on the path.
  conda run -n minitape python -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "minitape-course.pth").write_text(sys.argv[1] + "\n")' "$PWD"
  echo "conda run --no-capture-output -n minitape python"
  exit 0
fi

if ! command -v dot >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Graphviz (dot) with apt-get"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz) >&2
  else
    log "Graphviz's dot is missing; install it: sudo apt-get install graphviz | brew install graphviz | conda install -c conda-forge graphviz"
    exit 1
  fi
fi

python=${PYTHON:-python3}
stamp=.venv/.installed
if [ ! -x .venv/bin/python ]; then
  log "creating .venv with $($python --version 2>&1)"
  $python -m venv .venv >&2
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  log "installing minitape and its course, test and book dependencies into .venv"
  .venv/bin/python -m pip install -q --upgrade pip >&2
  .venv/bin/python -m pip install -q -e '.[course,test,book]' >&2
  touch "$stamp"
fi
# classroom/ (the course's checks and editions) is no part of the minitape wheel: the repository goes on the
# environment's path, so that the lessons' kernels, the tests and JupyterLab import it wherever they run.
.venv/bin/python -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "minitape-course.pth").write_text(sys.argv[1] + "\n")' "$PWD"
echo ".venv/bin/python"
