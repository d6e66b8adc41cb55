#!/usr/bin/env bash
# The compiled core (optional): the rules engine's hot modules and the greedy and MCTS bots,
# compiled by mypyc (from the strict-typed sources, unchanged) into C extensions placed next to
# their sources (src/judges/**/NAME.cpython-*.so and src/*__mypyc*.so, never tracked). Python
# imports an extension before a .py of the same name, so once built, every game, bot and
# server of this checkout runs compiled; the games are the same games (tests/properties/
# test_compiled_core.py compares a compiled and a pure-Python run byte for byte).
#
#   bash scripts/compile.sh            # build (a few minutes of one core; needs gcc and Python's headers)
#   bash scripts/compile.sh --clean    # remove the extensions: the pure-Python path again
#
# A source edited after its build makes `import judges` refuse to start (judges/__init__.py),
# naming the stale module: build again or clean. docs/performance.md gives what it pays.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
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
    engine/wrath bots/greedy
)
clean() {
    find src -name '*.so' -path 'src/*' -delete
    rm -rf build/mypyc src/mypyc-c
}
if [ "${1:-}" = "--clean" ]; then
    clean
    echo "compiled core removed: pure Python"
    exit 0
fi
clean
files=()
for m in "${MODULES[@]}"; do files+=("judges/$m.py"); done
mkdir -p build/mypyc/temp build/mypyc/lib
cat > build/mypyc/setup.py <<PY
import os
from setuptools import setup
from mypyc.build import mypycify

files = os.environ["JUDGES_COMPILE"].split()
setup(name="judges-compiled", ext_modules=mypycify(files, opt_level="3", target_dir="mypyc-c"))
PY
(
    cd src
    JUDGES_COMPILE="${files[*]}" "../$PYTHON" ../build/mypyc/setup.py build_ext --inplace \
        --build-temp ../build/mypyc/temp --build-lib ../build/mypyc/lib >../build/mypyc/build.log 2>&1
    rm -rf mypyc-c  # the generated C (kept under src/ while it builds: the objects' paths follow it)
) || { tail -30 build/mypyc/build.log; echo "scripts/compile.sh: the build failed (build/mypyc/build.log)" >&2; clean; exit 1; }
"$PYTHON" -c "import judges; print('compiled:', ', '.join(judges.compiled_modules()))"
