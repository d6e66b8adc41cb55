"""What the lab keeps of one finished game: computed from the final `Game` (state + notifications)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from ..engine import Game
from ..engine.board import controlled_settlements, sustaining_regions
from ..engine.items import ITEM_NAMES
from ..engine.victory import score

ITEMS = ITEM_NAMES  # the items table's order: the report lists coins spent by item in it


def judgment_rounds(game: Game) -> list[int]:
    """The rounds whose Announcements declared a judgment (from the notifications)."""
    return [n.round for n in game.notifications if n.key == "notification.announcements" and n.params.get("judgment")]


def game_record(
    game: Game, *, variant: str, index: int, seed: int, bots: list[str], seconds: float = 0.0
) -> dict[str, Any]:
    """One line of records.jsonl (and one row of games.csv). Victory points are measured at the end
    of the game, for every seat, by source (judge titles, King, Tabernacle)."""
    state, world = game.state, game.world
    points = [score(state, world, seat) for seat in range(len(state.players))]
    rounds_judged = judgment_rounds(game)
    return {
        "variant": variant,
        "game": index,
        "seed": seed,
        "bots": list(bots),
        "ending": state.ending or "",
        "winners": list(state.winners),
        "rounds": state.round,
        "judgments": state.judgments,
        "judgment_rounds": rounds_judged,
        "first_judgment_round": rounds_judged[0] if rounds_judged else None,
        "razed_by_invaders": state.razed_by_invaders,
        "razed_by_plunder": state.razed_by_plunder,
        "battles": state.battles,
        "actions": len(game.log),
        "regions_sustaining": sustaining_regions(state, world, state.options.rules.settlements_to_sustain_judge),
        "wrath": state.wrath,
        "points": [{k: p[k] for k in ("judges", "king", "tabernacle", "total")} for p in points],
        "settlements": [len(controlled_settlements(state, world, seat)) for seat in range(len(state.players))],
        "coins": [p.coins for p in state.players],
        "eliminated": [p.eliminated for p in state.players],
        "spent": {item: state.spent.get(item, 0) for item in sorted(set(ITEMS) | set(state.spent))},
        "seconds": round(seconds, 3),
        # the whole options, rules included: the game replays from these and the bots (replay_record)
        "options": msgspec.to_builtins(state.options),
    }


# --- the records file -------------------------------------------------------------------------
#
# A run streams its records to a JSONL file, one line per finished game, flushed as each game
# ends: `pandas.read_json(path, lines=True)` opens it, and a killed run loses at most the games
# that were being played. A game is identified by (variant, seed); the file's order is the order
# games finished in, which differs between backends, so readers sort.

TIMING_FIELDS = ("seconds",)  # what differs between two plays of the same game


class RecordsError(ValueError):
    """A records file that cannot be read or does not belong to the run resuming it."""


def record_key(record: dict[str, Any]) -> tuple[str, int]:
    return record["variant"], record["seed"]


def sort_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(records, key=lambda r: (r["variant"] != "default", r["variant"], r["game"]))


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in TIMING_FIELDS}


def _complete_lines(path: Path) -> tuple[list[bytes], int]:
    """The file's complete lines and the byte length they take. A last line without its newline
    is a game whose writing was interrupted: it is left out (resuming plays that game again)."""
    data = path.read_bytes() if path.exists() else b""
    end = data.rfind(b"\n") + 1
    return data[:end].splitlines(), end


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every complete record of a records file (which may still be growing), each game once."""
    records: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], int] = {}
    lines, _ = _complete_lines(Path(path))
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key = record_key(record)
        except (ValueError, KeyError, TypeError) as exc:
            raise RecordsError(f"{path}, line {number}: not a lab record ({exc})") from None
        if key in seen:
            raise RecordsError(
                f"{path}, line {number}: the game of variant {key[0]!r}, seed {key[1]} is already on line {seen[key]}"
            )
        seen[key] = number
        records.append(record)
    return records


def drop_partial_line(path: Path) -> None:
    """Cuts an interrupted last line off the file, so the next record starts a line of its own."""
    _, end = _complete_lines(path)
    if path.exists() and path.stat().st_size != end:
        with path.open("r+b") as f:
            f.truncate(end)


class RecordsWriter:
    """Appends records to the file, one JSON line each, flushed to the operating system at once."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        drop_partial_line(self.path)
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, sort_keys=True) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> RecordsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
