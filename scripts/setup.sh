#!/usr/bin/env bash
# Creates .venv (Python 3.11+) and installs the project with the extras its tests need
# (test; lab for the lab's plots; redis for the fan-out tests; rl for the RL environment;
# cluster for the lab's Dask backend).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test,lab,redis,rl,cluster,dev]"
