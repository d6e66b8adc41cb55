#!/usr/bin/env bash
# The screen's JavaScript (src/judges/web/static/js): its types checked by `tsc --noEmit`
# (tsconfig.json: allowJs and checkJs; the view's types are wire.d.ts and rome/wire.d.ts,
# generated from each game's view schema by scripts/wire-types.py) and ESLint's recommended rules
# (scripts/js/eslint.config.mjs). The checkers are pinned in scripts/js/package.json and its
# lock, and installed by npm into scripts/js/node_modules (not tracked) when missing or stale.
set -uo pipefail
cd "$(dirname "$0")/.."
TOOLS=scripts/js
if ! command -v npm >/dev/null 2>&1; then
  echo "check-js: npm is missing (Node.js 20 or later)"
  exit 1
fi
if [ ! -x "$TOOLS/node_modules/.bin/tsc" ] || [ ! -x "$TOOLS/node_modules/.bin/eslint" ] \
  || [ "$TOOLS/package-lock.json" -nt "$TOOLS/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$TOOLS" --no-audit --no-fund --loglevel=error || exit 1
fi
status=0
echo "tsc --noEmit"; "$TOOLS/node_modules/.bin/tsc" --noEmit -p tsconfig.json || status=1
# the generated view types themselves, strictly (the project's skipLibCheck skips .d.ts files)
echo "tsc --strict (view types)"
"$TOOLS/node_modules/.bin/tsc" --noEmit --strict --target es2022 \
  src/judges/web/static/js/wire.d.ts src/judges/web/static/js/rome/wire.d.ts || status=1
echo "eslint";       "$TOOLS/node_modules/.bin/eslint" --config "$TOOLS/eslint.config.mjs" src/judges/web/static/js || status=1
exit $status
