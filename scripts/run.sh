#!/usr/bin/env bash
# Sets everything up (a local virtualenv with the project installed) and starts the game
# server on http://127.0.0.1:8000/ with its SQLite file judges.db here.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/judges serve "$@"
