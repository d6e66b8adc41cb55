#!/usr/bin/env bash
# Regenerates the documentation's screenshots (docs/screenshots/) by running the browser
# tests with JUDGES_SCREENSHOTS_DIR pointing there: every moment of the gallery in English,
# and in Spanish and Portuguese (<moment>-es.png, <moment>-pt_BR.png: test_screen_languages.py).
# The ordinary test run writes its screenshots to a temporary folder and leaves the checkout clean.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup-browser.sh
JUDGES_SCREENSHOTS_DIR="$PWD/docs/screenshots" .venv/bin/python -m pytest tests/browser -q "$@"
