#!/usr/bin/env bash
# Every engine benchmark, one after the other (the server's load test: bench/load.py).
#
# First the side-by-side run (bench/rollouts.py): random games on this checkout against an
# older version (OLD_REF, a git ref; default: main before the rollouts were made twice as
# fast), then against OpenSpiel's backgammon and chess and python-chess when the `bench`
# extra is installed (`pip install -e .[bench]`). The old version is exported from git into
# a temporary folder, removed afterwards.
#
# Then MCTS at its default budget against the default before issue 14 (bench/mcts_speed.py:
# whole 2-player games against greedy, every decision timed on CPU, alternating child
# processes; MCTS_REF, MCTS_PAIRS, MCTS_GAMES; MCTS_PAIRS=0 skips it — it takes minutes).
#
#   bash bench/run.sh                      # ROUNDS=5 GAMES=30 OLD_REF=1fa966f MCTS_REF=523f900
#   OLD_REF=main ROUNDS=9 bash bench/run.sh
#   PYTHON=/path/to/python bash bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
OLD_REF="${OLD_REF:-1fa966f}"

old="$(mktemp -d)"
trap 'rm -rf "$old"' EXIT
git archive "$OLD_REF" src | tar -x -C "$old"

peers=()
if "$PYTHON" -c "import pyspiel, chess" 2>/dev/null; then
    peers=(--peers)
else
    echo "(OpenSpiel or python-chess missing: pip install -e .[bench] to compare with them)"
fi
echo "== random rollouts: this checkout against $OLD_REF ($(git rev-parse --short "$OLD_REF"))"
"$PYTHON" bench/rollouts.py --old-src "$old/src" --rounds "${ROUNDS:-5}" --games "${GAMES:-30}" "${peers[@]}"

echo
echo "== whole games and replay"
PYTHONPATH=src "$PYTHON" bench/engine_speed.py --games "${SPEED_GAMES:-100}"
echo
echo "== state types"
PYTHONPATH=src "$PYTHON" bench/state_types.py
if [ "${MCTS_PAIRS:-2}" != 0 ]; then
    echo
    echo "== MCTS per decision, default budget: this checkout against ${MCTS_REF:-523f900}"
    "$PYTHON" bench/mcts_speed.py --baseline "${MCTS_REF:-523f900}" --pairs "${MCTS_PAIRS:-2}" --games "${MCTS_GAMES:-2}"
fi
