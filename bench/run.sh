#!/usr/bin/env bash
# Every engine benchmark, one after the other (the server's: bench/load.py, bench/attack_latency.py).
#
# First the side-by-side run (bench/rollouts.py): random games on this checkout (with and without
# what Undo keeps, each named: `undoable=False`, the path of bots, the lab and search;
# `undoable=True`, every server game's) against an older tree (--against REF, a git ref, named in
# the output; default: ca0ff88, the tree of 2026-12-04 the current targets are set against),
# checked out as a worktree of that commit in a temporary folder (removed at the end) and run
# with its own src on PYTHONPATH,
# then against OpenSpiel's backgammon and chess and python-chess (the `bench` extra:
# `pip install -e '.[bench]'`; a peer not installed is skipped, with the reason). The older
# tree is not run at all if its src is this checkout's (the ratio would measure only noise); a
# tree that plays other games from the same seeds still gets its ratio, marked; each figure is
# also set beside the stored ones (bench/reference/, bench/reference.py), which stand in when no
# side-by-side comparison can be made. When the compiled core is built (scripts/compile.sh), or
# NEW_SRC names a compiled copy (scripts/compile.sh --into build/compiled: NEW_SRC=build/compiled/src),
# the rollouts time it and the same sources as pure Python, each named.
#
# Then whole games and replay (bench/engine_speed.py), the state types (bench/state_types.py),
# and MCTS at its default budget against the same older tree (bench/mcts_speed.py; MCTS_REF to
# name another, MCTS_PAIRS, MCTS_GAMES; MCTS_PAIRS=0 skips it: whole games, it takes tens of minutes).
#
#   bash bench/run.sh                  # ROUNDS=5 GAMES=30 SPEED_GAMES=100, against ca0ff88
#   bash bench/run.sh --quick          # every step at a small size: a few minutes on 2 busy cores
#   bash bench/run.sh --against 1fa966f     # side by side with that tree (OLD_REF=1fa966f says the same)
#   ROUNDS=9 NEW_SRC=build/compiled/src MCTS_PAIRS=0 bash bench/run.sh --against ca0ff88
#   PYTHON=/path/to/python bash bench/run.sh     # default: .venv/bin/python, else python3
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --against)
            [ -n "${2:-}" ] || { echo "bench/run.sh: --against needs a commit" >&2; exit 2; }
            OLD_REF=$2
            shift ;;
        --against=*) OLD_REF=${1#--against=} ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/run.sh: unknown option $1 (--quick, --against REF, --help)" >&2; exit 2 ;;
    esac
    shift
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
MCTS_REF="${MCTS_REF:-$OLD_REF}"
NEW_SRC="${NEW_SRC:-src}"
case "$NEW_SRC" in /*) ;; *) NEW_SRC="$PWD/$NEW_SRC" ;; esac

old_args=()
old="$(mktemp -d)"
cleanup() {
    if [ -e "$old/tree" ]; then git worktree remove --force "$old/tree" >/dev/null 2>&1 || true; fi
    rm -rf "$old"
    git worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT
if ! commit="$(git rev-parse --short --verify -q "$OLD_REF^{commit}")"; then
    echo "(--against $OLD_REF is no commit of this repository: no side-by-side run with an older tree)"
elif git diff --quiet "$commit" -- src; then
    echo "(--against $OLD_REF ($commit) has this checkout's src: a side-by-side run would measure only"
    echo " noise, so there is none; --against <another ref> compares with that tree)"
else
    git worktree add --detach "$old/tree" "$commit" >/dev/null 2>&1 || {
        echo "bench/run.sh: cannot check out $OLD_REF ($commit) as a worktree in $old/tree" >&2
        exit 2
    }
    name="$OLD_REF ($commit)"
    case "$commit" in "$OLD_REF"*) name=$commit ;; esac
    old_args=(--old-src "$old/tree/src" --old-name "$name")
    echo "== random rollouts: this checkout against $name, a worktree in $old/tree"
fi
[ ${#old_args[@]} = 0 ] && echo "== random rollouts: this checkout"
"$PYTHON" bench/rollouts.py --new-src "$NEW_SRC" "${old_args[@]}" --peers --rounds "${ROUNDS:-5}" --games "${GAMES:-30}"

echo
echo "== whole games and replay"
PYTHONPATH="$NEW_SRC" "$PYTHON" bench/engine_speed.py --games "${SPEED_GAMES:-100}"
echo
echo "== state types"
PYTHONPATH="$NEW_SRC" "$PYTHON" bench/state_types.py
if [ "${MCTS_PAIRS:-2}" != 0 ]; then
    echo
    echo "== MCTS per decision, default budget: this checkout against $MCTS_REF"
    "$PYTHON" bench/mcts_speed.py --baseline "$MCTS_REF" "${mcts[@]}"
fi
echo
echo "== every step ran"
