#!/usr/bin/env bash
# Static checks: ruff (lint and format) and mypy (strict on the rules engines; the Rome tests too), as configured
# in pyproject.toml (scripts/setup.sh installs them with the dev extra); the screen's
# JavaScript: its wire types current, tsc and ESLint (scripts/check-js.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null || exit 1
status=0
echo "ruff check";        .venv/bin/ruff check src tests bench scripts || status=1
echo "ruff format";       .venv/bin/ruff format --check src tests bench scripts || status=1
echo "mypy";              .venv/bin/mypy || status=1
echo "wire types";        .venv/bin/python scripts/wire-types.py --check || status=1
echo "javascript";        bash scripts/check-js.sh || status=1
exit $status
