#!/usr/bin/env bash
# Every engine benchmark, one after the other (the server's load test: bench/load.py).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python bench/engine_speed.py --games "${GAMES:-100}"
.venv/bin/python bench/state_types.py
