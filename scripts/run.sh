#!/usr/bin/env bash
# Sets everything up (a local virtualenv with the project installed) and runs the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/judges simulate --players 4 --games 50 --bot greedy --seed 1 "$@"
