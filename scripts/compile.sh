#!/usr/bin/env bash
# The compiled core (optional): the rules engine's hot modules and the greedy and MCTS bots,
# compiled by mypyc (from the strict-typed sources, unchanged) into C extensions placed next to
# their sources (src/judges/**/NAME.cpython-*.so and src/*__mypyc*.so, never tracked). Python
# imports an extension before a .py of the same name, so once built, every game, bot and
# server of this checkout runs compiled; the games are the same games (tests/properties/
# test_compiled_core.py compares a compiled and a pure-Python run byte for byte).
#
#   bash scripts/compile.sh            # build (about a minute of one core; needs gcc and Python's headers)
#   bash scripts/compile.sh --clean    # remove the extensions: the pure-Python path again
#   bash scripts/compile.sh --into DIR # build a copy of src/ in DIR/src instead (CI: build/compiled),
#                                      # the checkout's own src/ left pure Python
#
# A source edited after its build makes `import judges` refuse to start (judges/__init__.py),
# naming the stale module: build again or clean. docs/performance.md gives what it pays.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PYTHON=${PYTHON:-.venv/bin/python}
case "$PYTHON" in /*) ;; *) PYTHON="$ROOT/$PYTHON" ;; esac
SRC=$ROOT/src         # where the extensions go, beside their sources
BUILD=$ROOT/build/mypyc
if [ "${1:-}" = "--into" ]; then
    [ -n "${2:-}" ] || { echo "scripts/compile.sh --into DIR: DIR is missing" >&2; exit 2; }
    INTO=$(mkdir -p "$2" && cd "$2" && pwd)
    case "$INTO/" in "$ROOT/src/"*) echo "scripts/compile.sh --into: not inside src/" >&2; exit 2 ;; esac
    rm -rf "$INTO/src" "$INTO/mypyc"
    cp -r "$ROOT/src" "$INTO/src"
    find "$INTO/src" \( -name '*.so' -o -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
    rm -rf "$INTO/src/mypyc-c"
    SRC=$INTO/src
    BUILD=$INTO/mypyc
fi
# The modules compiled, one place: the engine's rules and turn machinery and the greedy bot (the
# search's rollout policy). Left out: the msgspec types (state, actions), the map (world), the
# registries built at import (decisions, rules, messages), views, scenarios and errors (mypyc
# cannot compile some of their constructs, and they cost little at run time); the dice (tests
# copy scripted dice with copy.deepcopy, which a compiled class refuses) and the MCTS bot (its
# tests replace its methods, and a compiled class trusts mypy's narrowing of an attribute
# across a call that changes it): the rollouts' time is the engine's and greedy's.
MODULES=(
    engine/acquisitions engine/board engine/combat engine/context engine/effects engine/events
    engine/game engine/income engine/interned engine/intrigue engine/invaders engine/movement
    engine/phases engine/search engine/titles engine/turns engine/undo engine/victory
    engine/wrath bots/greedy bots/seat_view bots/movement_targets bots/world_facts
)
clean() {
    find "$SRC" -name '*.so' -delete
    rm -rf "$BUILD" "$SRC/mypyc-c"
}
if [ "${1:-}" = "--clean" ]; then
    clean
    echo "compiled core removed: pure Python"
    exit 0
fi
clean
files=()
for m in "${MODULES[@]}"; do files+=("judges/$m.py"); done
mkdir -p "$BUILD/temp" "$BUILD/lib"
cat > "$BUILD/setup.py" <<PY
import os
from setuptools import setup
from mypyc.build import mypycify

files = os.environ["JUDGES_COMPILE"].split()
setup(name="judges-compiled", ext_modules=mypycify(files, opt_level="3", target_dir="mypyc-c"))
PY
(
    cd "$SRC"
    built=0
    JUDGES_COMPILE="${files[*]}" "$PYTHON" "$BUILD/setup.py" build_ext --inplace \
        --build-temp "$BUILD/temp" --build-lib "$BUILD/lib" >"$BUILD/build.log" 2>&1 || built=$?
    rm -rf mypyc-c  # the generated C (kept under src/ while it builds: the objects' paths follow it)
    exit "$built"  # (the build's status: under `||`, `set -e` stops nothing in here)
) || {
    tail -30 "$BUILD/build.log"
    cp "$BUILD/build.log" "$BUILD.log" 2>/dev/null || true  # kept: the build's folder is removed
    echo "scripts/compile.sh: the build failed (${BUILD#"$ROOT"/}.log)" >&2
    clean
    exit 1
}
PYTHONPATH="$SRC" "$PYTHON" -c "import judges; print('compiled:', ', '.join(judges.compiled_modules()))"
