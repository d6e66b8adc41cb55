#!/usr/bin/env bash
# Regenerates the documentation's gallery, docs/screenshots/: every moment of a game (start,
# movement with a selection, acquisitions, a battle with its dice, each window, elimination,
# the final table, the replay at step 0) at 1400x900, 1280x720 with 5 players and on a
# 390x844 phone, and its index docs/screenshots/README.md (tests/browser/gallery.py).
# Arguments go to the gallery: --profile desktop|laptop|phone, --moment NAME (each repeatable).
# Only the README's picture and the index are kept in git (.gitignore).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup-browser.sh
PYTHONPATH="$PWD/src:$PWD/tests" .venv/bin/python -m browser.gallery docs/screenshots "$@"
