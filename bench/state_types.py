"""Measures why the game state is made of msgspec Structs rather than slotted dataclasses.

Builds the same mid-game-sized state both ways and times, on CPU time: JSON encode, JSON
decode into typed objects, and a deep clone. The figures are compared with the stored ones
(bench/reference.py). Run: .venv/bin/python bench/state_types.py [--save-reference FILE]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import sys
import time
import timeit
from dataclasses import dataclass, field
from pathlib import Path

from judges.bots import RandomBot
from judges.engine import Game, Options
from judges.engine.state import GameState, clone_state, state_from_json, state_to_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # noqa: E402


def mid_game_state() -> GameState:
    game = Game.new(Options(players=4, seed=7, round_limit=12))
    bots = [RandomBot(seat) for seat in range(4)]
    while game.state.round < 10 and not game.is_over:
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: {}))
    return game.state


# The same shape as slotted dataclasses.
@dataclass(slots=True)
class DSettlement:
    owner: int | None = None
    troops: int = 0
    walls: bool = False
    developments: int = 0
    razed: bool = False


@dataclass(slots=True)
class DGeneral:
    id: int
    owner: int
    hex: int
    captor: int | None = None
    army: int = 0
    ark: bool = False
    anointed: bool = False
    prophet: bool = False


@dataclass(slots=True)
class DPlayer:
    seat: int
    coins: int = 0
    hand: list = field(default_factory=list)


@dataclass(slots=True)
class DState:
    round: int
    rng: int
    players: list
    settlements: list
    generals: dict
    deck: list
    report: list


def as_dataclasses(s: GameState) -> DState:
    return DState(
        round=s.round,
        rng=s.rng,
        players=[DPlayer(seat=p.seat, coins=p.coins, hand=list(p.hand)) for p in s.players],
        settlements=[DSettlement(x.owner, x.troops, x.walls, x.developments, x.razed) for x in s.settlements],
        generals={
            k: DGeneral(g.id, g.owner, g.hex, g.captor, g.army, g.ark, g.anointed, g.prophet)
            for k, g in s.generals.items()
        },
        deck=list(s.deck),
        report=[],
    )


def d_from_json(raw: str) -> DState:
    d = json.loads(raw)
    return DState(
        round=d["round"],
        rng=d["rng"],
        players=[DPlayer(**p) for p in d["players"]],
        settlements=[DSettlement(**x) for x in d["settlements"]],
        generals={int(k): DGeneral(**g) for k, g in d["generals"].items()},
        deck=d["deck"],
        report=[],
    )


FIGURES: dict[str, float] = {}


def bench(label: str, fn, number: int = 2000) -> float:
    per = min(timeit.repeat(fn, number=number, repeat=5, timer=time.process_time)) / number * 1e6
    print(f"{label:<44} {per:8.1f} µs")
    FIGURES[f"{label} µs"] = per
    return per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--save-reference", type=Path, help="store this run's figures there (bench/reference.py)")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    s = mid_game_state()
    raw = state_to_json(s)
    d = as_dataclasses(s)
    d_raw = json.dumps(dataclasses.asdict(d))
    print(f"state: round {s.round}, {len(s.generals)} generals, JSON {len(raw)} bytes")
    bench("msgspec Struct: encode JSON", lambda: state_to_json(s))
    bench("msgspec Struct: decode JSON (typed)", lambda: state_from_json(raw))
    bench("msgspec Struct: clone (msgpack round-trip)", lambda: clone_state(s))
    bench("msgspec Struct: clone (copy.deepcopy)", lambda: copy.deepcopy(s), number=200)
    bench("dataclass(slots): encode JSON (asdict+json)", lambda: json.dumps(dataclasses.asdict(d)), number=500)
    bench("dataclass(slots): decode JSON (typed)", lambda: d_from_json(d_raw), number=500)
    bench("dataclass(slots): clone (copy.deepcopy)", lambda: copy.deepcopy(d), number=200)
    reference.compare("state_types", FIGURES, higher_is_better=False)
    if args.save_reference:
        reference.save(args.save_reference, "state_types", FIGURES, load_before)


if __name__ == "__main__":
    main()
