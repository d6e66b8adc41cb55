#!/usr/bin/env bash
# Creates .venv (Python 3.11+) and installs the project with the extras its tests need
# (test; lab for the lab's plots; redis for the fan-out tests; rl for the RL environment;
# cluster for the lab's Dask backend). The install is editable (the sources are read from src/),
# so it is redone only when pyproject.toml or this script changed since the last one (their
# hash is stamped in .venv/judges-install.sha256); JUDGES_REINSTALL=1 redoes it anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
STAMP=.venv/judges-install.sha256
WANTED=$(cat pyproject.toml scripts/setup.sh | .venv/bin/python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
if [ "${JUDGES_REINSTALL:-0}" = "0" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANTED" ]; then
  exit 0
fi
rm -f "$STAMP"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test,lab,redis,rl,cluster,dev]"
echo "$WANTED" > "$STAMP"
