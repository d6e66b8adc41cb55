#!/usr/bin/env bash
# Regenerates the lab's records, reports and tables that docs/balance.md and docs/bots.md cite,
# into docs/balance/ and docs/bots/ (ignored by git: derived data, docs/decisions/0018).
#
#   bash scripts/lab-records.sh --list                  # the targets and their commands
#   bash scripts/lab-records.sh greedy-2000 fairness    # some targets
#   bash scripts/lab-records.sh all                     # every target: about two hours of CPU
#
# Each `judges` line below is a command the docs show, word for word (tests/test_docs.py checks
# it); a target starts its folder again. JUDGES=/path/to/judges uses that command instead of
# setting up .venv.
set -euo pipefail
cd "$(dirname "$0")/.."

greedy_2000() {  # docs/balance.md, "The greedy table": 2 CPU-min
  rm -rf docs/balance/greedy-2000
  judges lab --players 4 --games 2000 --bots greedy,greedy,greedy,random --seed 1 --workers 2 --out docs/balance/greedy-2000
}
designer_100() {  # docs/bots.md, "Strength and cost", four players: 12 CPU-min
  rm -rf docs/balance/designer-100
  judges lab --players 4 --games 100 --bots greedy,greedy,mcts,random --seed 1 --workers 2 --out docs/balance/designer-100
}
fairness() {  # docs/balance.md, "Fairness by seat", the seed sets and their plot: 25 CPU-min
  judges lab-fairness --players 3,4,5,6 --games 2000 --seed 777 --workers 2 --json docs/balance/fairness/seeds-777.json
  judges lab-fairness --players 3,4,5,6 --games 2000 --seed 100000 --workers 2 --json docs/balance/fairness/seeds-100000.json
  judges lab-fairness --players 4 --games 2000 --seed 4242000 --workers 2 --json docs/balance/fairness/fresh-4242000.json
  judges lab-fairness-plot seeds-777=docs/balance/fairness/seeds-777.json seeds-100000=docs/balance/fairness/seeds-100000.json --out docs/balance/fairness/wins-by-seat.png
}
fairness_mcts() {  # docs/balance.md, "One MCTS seat, rotating": 55 CPU-min
  judges lab-fairness --players 3,4,5,6 --games 100 --seed 777 --guest mcts:4:1 --workers 2 --json docs/balance/fairness/mcts-777.json --out docs/balance/fairness/mcts-777
  judges lab-fairness --players 5,6 --games 100 --seed 100000 --guest mcts:4:1 --workers 2 --json docs/balance/fairness/mcts-100000.json
}
fresh() {  # docs/bots.md, two players on fresh seeds: 17 CPU-min
  rm -rf docs/bots/fresh-7001 docs/bots/fresh-7101
  judges lab --players 2 --games 100 --bots mcts,greedy --seed 7001 --workers 2 --round-limit 60 --out docs/bots/fresh-7001
  judges lab --players 2 --games 100 --bots mcts,greedy --seed 7101 --workers 2 --round-limit 60 --out docs/bots/fresh-7101
}
ladder() {  # docs/bots.md, the ladder's 40 seeds: 5 CPU-min
  rm -rf docs/bots/ladder-3001
  judges lab --players 2 --games 40 --bots mcts,greedy --seed 3001 --workers 2 --round-limit 60 --out docs/bots/ladder-3001
}

TARGETS=(greedy-2000 designer-100 fairness fairness-mcts fresh ladder)

list() {
  # each target: its comment, then its commands
  awk '/^[a-z0-9_]+\(\) \{  #/ { name = $1; sub(/\(\)/, "", name); gsub(/_/, "-", name); c = $0;
         sub(/^[^#]*# /, "", c); print name ": " c }
       /^  judges / { line = $0; sub(/^  /, "    ", line); print line }' "$0"
}

if [ $# -eq 0 ] || [ "$1" = "--list" ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  list
  exit 0
fi
if [ "$1" = "all" ]; then
  set -- "${TARGETS[@]}"
fi
for target in "$@"; do
  if [[ ! " ${TARGETS[*]} " == *" $target "* ]]; then
    echo "unknown target: $target (bash scripts/lab-records.sh --list)" >&2
    exit 2
  fi
done

if [ -z "${JUDGES:-}" ]; then
  bash scripts/setup.sh
  JUDGES=.venv/bin/judges
fi
judges() { echo "+ judges $*" >&2; "$JUDGES" "$@"; }
mkdir -p docs/balance/fairness docs/bots
for target in "$@"; do
  "${target//-/_}"
done
