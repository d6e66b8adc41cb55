#!/usr/bin/env bash
# Every engine benchmark, one after the other (the server's: bench/load.py, bench/attack_latency.py).
#
# First the side-by-side run (bench/rollouts.py): random games on this checkout (with and without
# what Undo keeps, each named) against an older tree (OLD_REF, a git ref, named in the output;
# default: ca0ff88, the tree of 2026-12-04 the current targets are set against), exported from
# git into a temporary folder,
# then against OpenSpiel's backgammon and chess and python-chess (the `bench` extra:
# `pip install -e '.[bench]'`; a peer not installed is skipped, with the reason). The older
# tree is compared only if it plays the same games from the same seeds, and is not run at all
# if its src is this checkout's (the ratio would measure only noise); each figure is also set
# beside the stored ones (bench/reference/, bench/reference.py), which stand in when no
# side-by-side comparison can be made.
#
# Then whole games and replay (bench/engine_speed.py), the state types (bench/state_types.py),
# and MCTS at its default budget against an older tree (bench/mcts_speed.py; MCTS_REF, default ca0ff88,
# MCTS_PAIRS, MCTS_GAMES; MCTS_PAIRS=0 skips it: whole games, it takes tens of minutes).
#
#   bash bench/run.sh                  # ROUNDS=5 GAMES=30 SPEED_GAMES=100 OLD_REF=ca0ff88 MCTS_REF=ca0ff88
#   bash bench/run.sh --quick          # every step at a small size: a few minutes on 2 busy cores
#   OLD_REF=1fa966f ROUNDS=9 bash bench/run.sh
#   PYTHON=/path/to/python bash bench/run.sh     # default: .venv/bin/python, else python3
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/run.sh: unknown option $arg (--quick, --help)" >&2; exit 2 ;;
    esac
done
if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
if ! PYTHONPATH="$PWD/src" "$PYTHON" -c "import judges" 2>/dev/null; then
    echo "bench/run.sh: $PYTHON cannot import judges: pip install -e '.[bench]' first (or set PYTHON)" >&2
    exit 2
fi
if [ "$quick" = 1 ]; then
    ROUNDS="${ROUNDS:-2}" GAMES="${GAMES:-5}" SPEED_GAMES="${SPEED_GAMES:-10}"
    mcts=(--mode positions --games "${MCTS_GAMES:-1}" --every 20 --pairs "${MCTS_PAIRS:-1}")
else
    mcts=(--pairs "${MCTS_PAIRS:-2}" --games "${MCTS_GAMES:-2}")
fi
OLD_REF="${OLD_REF:-ca0ff88}"

old_args=()
old="$(mktemp -d)"
trap 'rm -rf "$old"' EXIT
if ! commit="$(git rev-parse --short --verify -q "$OLD_REF^{commit}")"; then
    echo "(OLD_REF $OLD_REF is no commit of this repository: no side-by-side run with an older tree)"
elif git diff --quiet "$commit" -- src; then
    echo "(OLD_REF $OLD_REF ($commit) has this checkout's src: a side-by-side run would measure only"
    echo " noise, so there is none; OLD_REF=<another ref> compares with that tree)"
else
    git archive "$commit" src | tar -x -C "$old"
    old_args=(--old-src "$old/src" --old-name "$OLD_REF ($commit)")
    echo "== random rollouts: this checkout against $OLD_REF ($commit)"
fi
[ ${#old_args[@]} = 0 ] && echo "== random rollouts: this checkout"
"$PYTHON" bench/rollouts.py "${old_args[@]}" --peers --rounds "${ROUNDS:-5}" --games "${GAMES:-30}"

echo
echo "== whole games and replay"
PYTHONPATH="$PWD/src" "$PYTHON" bench/engine_speed.py --games "${SPEED_GAMES:-100}"
echo
echo "== state types"
PYTHONPATH="$PWD/src" "$PYTHON" bench/state_types.py
if [ "${MCTS_PAIRS:-2}" != 0 ]; then
    echo
    echo "== MCTS per decision, default budget: this checkout against ${MCTS_REF:-ca0ff88}"
    "$PYTHON" bench/mcts_speed.py --baseline "${MCTS_REF:-ca0ff88}" "${mcts[@]}"
fi
echo
echo "== every step ran"
