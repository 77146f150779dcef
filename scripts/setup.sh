#!/usr/bin/env bash
# Make ready the environment a make target needs, then run Python in it with the arguments after --, or print the
# Python command to run it with.
#   scripts/setup.sh venv course test -- -m pytest   .venv with minitape and these extras of pyproject.toml (the
#                                                     default), then .venv/bin/python -m pytest
#   scripts/setup.sh conda course test               the conda environment "minitape" from environment.yml (the
#                                                     course's packages), the other extras added with pip
# PYTHON names the interpreter that makes the .venv (python3 by default); a .venv made by another one is made
# again. VENV names another folder than .venv (CI's light environments for other Pythons).
# Graphviz's `dot` is installed with apt-get when we are root, or by conda in the conda route.
# Whatever fails ends with a line saying how to fix it, and a non-zero exit that stops make.
set -euo pipefail
cd "$(dirname "$0")/.."
route=${1:-venv}
shift || true
extras=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do extras+=("$1"); shift; done
[ ${#extras[@]} -gt 0 ] || extras=(course)
run=$#  # after --: the arguments for Python
[ $# -eq 0 ] || shift
log() { echo "setup: $*" | sed '2,$s/^/setup:   /' >&2; }  # a message's further lines are indented under it
fail() { log "$*"; exit 1; }
as_root_with_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
apt_install() { (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@") >&2; }

# The Pythons CI tests, from pyproject.toml's classifiers: "3.11 3.12 3.13".
supported=$(echo $(sed -n 's/^ *"Programming Language :: Python :: \(3\.[0-9]*\)",$/\1/p' pyproject.toml))
oldest=${supported%% *} newest=${supported##* }
how_to_get="To get Python $newest and run make with it:
pyenv: pyenv install $newest, then make lab PYTHON=\$(pyenv prefix $newest)/bin/python3
uv: uv python install $newest, then make lab PYTHON=\$(uv python find $newest)
conda: make lab ENV=conda (an environment of its own, from environment.yml)
your system's package: sudo apt-get install python$newest-venv (Debian, Ubuntu), sudo dnf install python$newest \
(Fedora) or brew install python@$newest (macOS), then make lab PYTHON=python$newest"

# Stops on a Python older than the oldest supported; says so for one newer than the newest CI tests.
check_version() {  # $1: a Python command
  local version
  version=$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])') || fail "$1 does not run.
$how_to_get"
  case " $supported " in *" $version "*) return ;; esac
  if "$1" -c "import sys; sys.exit(sys.version_info[:2] < (${oldest/./, }))"; then
    log "$1 is Python $version, newer than the ones CI tests (${supported// /, }): if something fails, use $newest."
  else
    fail "$1 is Python $version; the course needs Python $(echo "${supported// /, }" | sed 's/\(.*\), /\1 or /').
$how_to_get"
  fi
}

# Installs the extras not installed yet (or all, after pyproject.toml changed); a stamp per extra in the prefix.
install_extras() {  # $1: the environment's Python command (word-split), $2: its prefix
  local wanted=() extra
  for extra in "${extras[@]}"; do
    [ "$2/.minitape-extras/$extra" -nt pyproject.toml ] || wanted+=("$extra")
  done
  [ ${#wanted[@]} -gt 0 ] || return 0
  log "installing minitape with ${wanted[*]} into $2"
  # --no-compile: Python compiles a module when it is first imported; compiling every module of every package at
  # install time (most of them never imported by the course) would add a quarter to the environment's size.
  $1 -m pip install -q --no-compile -e ".[$(IFS=,; echo "${wanted[*]}")]" >&2 \
    || fail "pip could not install minitape[$(IFS=,; echo "${wanted[*]}")] (its message is above); once fixed, run make again"
  mkdir -p "$2/.minitape-extras"
  for extra in "${wanted[@]}"; do touch "$2/.minitape-extras/$extra"; done
}

# classroom/ (the course's checks and editions) is no part of the minitape wheel: a .pth file puts the repository
# on the environment's path, so that the lessons' kernels, the tests and JupyterLab import it wherever they run.
put_repository_on_path() {  # $1: the environment's Python command (word-split)
  $1 -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_paths()["purelib"], "minitape-course.pth").write_text(sys.argv[1] + "\n")' "$PWD" \
    || fail "could not put $PWD on the environment's path (its message is above)"
}

# The grading extra's trusted grader (classroom/grader) runs each submission under bubblewrap's bwrap: Linux only.
# Building the nbgrader course needs no bwrap, so its absence is said, not fatal: make grade stops with the same words.
if [[ " ${extras[*]} " == *" grading "* ]] && ! command -v bwrap >/dev/null; then
  if as_root_with_apt; then
    log "installing bubblewrap (bwrap, the grader's sandbox) with apt-get"
    apt_install bubblewrap
  else
    log "bubblewrap's bwrap is missing: make grade and its tests need it (the grader runs each submission in its
sandbox); install it: sudo apt-get install bubblewrap (Debian, Ubuntu) or sudo dnf install bubblewrap (Fedora)"
  fi
fi

if [ "$route" = conda ]; then
  command -v conda >/dev/null \
    || fail "conda not found: install Miniforge (https://conda-forge.org/download/), or leave out ENV=conda to use a .venv"
  python="conda run --no-capture-output -n minitape python"
  if ! conda env list | grep -q '^minitape '; then
    log "creating the conda environment 'minitape' from environment.yml"
    conda env create -q -f environment.yml >&2 || fail "conda could not create the environment (its message is above)"
    # environment.yml holds the course's packages (a "pip: -e ." line there breaks Binder builds): minitape itself
    # comes with pip, and so do the other extras.
    $python -m pip install -q --no-deps -e . >&2 || fail "pip could not install minitape (its message is above)"
    prefix=$($python -c 'import sys; print(sys.prefix)')
    mkdir -p "$prefix/.minitape-extras" && touch "$prefix/.minitape-extras/course"
  fi
  put_repository_on_path "$python"
  install_extras "$python" "$($python -c 'import sys; print(sys.prefix)')"
  [ "$run" = 0 ] || exec $python "$@"
  echo "$python"
  exit 0
fi
[ "$route" = venv ] || fail "unknown route '$route': venv or conda"

if ! command -v dot >/dev/null; then
  if as_root_with_apt; then
    log "installing Graphviz (dot) with apt-get"
    apt_install graphviz
  else
    fail "Graphviz's dot is missing; install it: sudo apt-get install graphviz | brew install graphviz | conda install -c conda-forge graphviz"
  fi
fi

venv=${VENV:-.venv}
identity='import sys; print(sys.version.split()[0], sys.base_prefix)'  # a venv shares its base's
if [ -e "$venv" ]; then
  [ -f "$venv/pyvenv.cfg" ] || fail "$venv is not a virtual environment: move it away, then run make again"
  if ! made_by=$("$venv/bin/python" -c "$identity" 2>/dev/null); then
    log "$venv does not run any more (its Python was moved or removed): making it again"
    rm -rf "$venv"
  elif [ -n "${PYTHON:-}" ]; then
    asked=$("$PYTHON" -c "$identity") || fail "PYTHON=$PYTHON does not run.
$how_to_get"
    if [ "$made_by" != "$asked" ]; then
      log "$venv was made by Python ${made_by%% *} (${made_by#* }), PYTHON=$PYTHON is ${asked%% *} (${asked#* }): making $venv again with it"
      rm -rf "$venv"
    fi
  fi
fi

if [ ! -e "$venv" ]; then
  python=${PYTHON:-python3}
  if ! command -v "$python" >/dev/null; then
    if [ -z "${PYTHON:-}" ] && as_root_with_apt; then
      log "installing Python (python3, python3-venv) with apt-get"
      apt_install python3 python3-venv
    else
      fail "no Python here: '$python' not found.
$how_to_get"
    fi
  fi
  check_version "$python"
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then  # Debian and Ubuntu package them apart
    version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if as_root_with_apt && [ "$(command -v "$python")" = "/usr/bin/${python##*/}" ]; then
      log "installing python$version-venv with apt-get (the venv module's pip)"
      apt_install "python$version-venv"
    else
      fail "$python cannot make a virtual environment (no ensurepip): sudo apt-get install python$version-venv"
    fi
  fi
  log "creating $venv with $("$python" --version 2>&1) ($(command -v "$python"))"
  "$python" -m venv "$venv" >&2 || fail "$python -m venv $venv failed (its message is above)"
  "$venv/bin/python" -m pip install -q --upgrade pip >&2 || fail "pip could not upgrade itself: is PyPI reachable?"
else
  check_version "$venv/bin/python"
fi
put_repository_on_path "$venv/bin/python"
install_extras "$venv/bin/python" "$venv"
[ "$run" = 0 ] || exec "$venv/bin/python" "$@"
echo "$venv/bin/python"
