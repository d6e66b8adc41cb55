#!/usr/bin/env bash
# Sets everything up and runs the whole test suite.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/setup-browser.sh
.venv/bin/python -m pytest "$@"
rc=$?
# pytest exits 5 when it collected no test at all: that is not a failure of the suite.
if [ "$rc" -eq 5 ]; then
  echo "pytest collected no tests"
  exit 0
fi
exit "$rc"
