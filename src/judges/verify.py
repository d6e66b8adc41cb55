"""A finished game's export, and its verification: every die was the one committed to.

At its start a game publishes the commitment to its dice's seed (`engine.dice.commitment`:
the SHA-256 of the seed under a domain prefix); every seat's view shows it. When the game is
over the seed is revealed, and the export (`GET /api/games/{id}/export`) holds everything
needed to check the game:

    {"format": EXPORT_FORMAT, "game_id", "rules_version",
     "options": {...the game's options, seed and dice key included, "position" if any},
     "dice": {"generator", "seed", "commitment"},
     "actions": [{"type": ..., "player": ...}, ...],
     "result": {"ending", "winners", "round", "actions", "state_sha256"}}

`verify_export` checks that the seed hashes to the commitment (and, when given, to the one
the player noted at the start), replays the action log from the options with that seed, and
checks that the replay reaches the stored ending, winners, round and final state. Any
mismatch raises `VerificationError` naming it. `judges verify FILE` runs it.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

import msgspec

from .engine import Game, Options, RuleError, action_from_dict, action_to_dict
from .engine.dice import commitment, seed_text
from .engine.errors import JudgesError
from .engine.state import options_from_builtins, state_to_json

EXPORT_FORMAT = "judges-and-kings/game-export/1"


class VerificationError(Exception):
    """The export does not prove its game: the message says which check failed."""


@dataclass
class Verified:
    game_id: str | None
    generator: str
    commitment: str
    actions: int
    ending: str | None
    winners: list[int]
    rounds: int  # Judges & Kings' rounds, Republic of Rome's turns
    game: str = "judges"


def new_game(options: dict[str, Any], position: dict[str, Any] | None = None) -> Game:
    """The setup position of `options` (a dict of Options fields), or a scenario position on
    top of it (docs/scenarios.md), as the server starts its games."""
    if position is None:
        return Game.new(options_from_builtins(options))
    from .engine.scenario import build_game

    return build_game({"options": options, "position": position, "dice": None})


def state_digest(game: Game) -> str:
    """SHA-256 (hex) of the game state's JSON: the final position, in one line."""
    return hashlib.sha256(state_to_json(game.state)).hexdigest()


def build_export(game: Game, options: dict[str, Any], game_id: str | None = None) -> dict[str, Any]:
    """The export of a game that is over. `options`: the game's stored options (Options fields,
    and "position" for a game started from a scenario position)."""
    if not game.is_over:
        raise ValueError("a game is exported once it is over (its seed is secret until then)")
    opts = game.state.options
    kept = {k: v for k, v in options.items() if k in Options.__struct_fields__ or k == "position"}
    return {
        "format": EXPORT_FORMAT,
        "game_id": game_id,
        "rules_version": game.state.rules_version,
        "options": {**kept, **msgspec.to_builtins(opts)},
        "dice": {"generator": opts.dice, "seed": seed_text(opts), "commitment": commitment(opts)},
        "actions": [action_to_dict(a) for a in game.log],
        "result": {
            "ending": game.state.ending,
            "winners": list(game.state.winners),
            "round": game.state.round,
            "actions": len(game.log),
            "state_sha256": state_digest(game),
        },
    }


def _field(data: Any, name: str, kind: type) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get(name), kind):
        raise VerificationError(f"the export has no {name!r} ({kind.__name__})")
    return data[name]


def check_dice(options: Any, dice: dict[str, Any], expected_commitment: str | None) -> None:
    """The export's dice section names the options' generator and reveals their seed, which
    hashes to the commitment (and to `expected_commitment`, the one noted at the start, when
    given). `options`: either game's options (`dice`, `seed`, `key`)."""
    seed = seed_text(options)
    committed = commitment(options)
    if dice.get("generator") != options.dice:
        raise VerificationError(
            f"the dice section names generator {dice.get('generator')!r}, the options {options.dice!r}"
        )
    if not isinstance(dice.get("seed"), str) or not hmac.compare_digest(dice["seed"], seed):
        raise VerificationError("the revealed seed is not the seed in the game's options")
    if not isinstance(dice.get("commitment"), str) or not hmac.compare_digest(dice["commitment"], committed):
        raise VerificationError(
            f"the revealed seed does not match the commitment: SHA-256 gives {committed}, "
            f"the export says {dice.get('commitment')}"
        )
    if expected_commitment is not None and not hmac.compare_digest(expected_commitment.strip().lower(), committed):
        raise VerificationError(
            f"the revealed seed does not match the commitment published at the start "
            f"({expected_commitment}); it hashes to {committed}"
        )


def verify_export(data: Any, expected_commitment: str | None = None) -> Verified:
    """Checks an export (see the module's docstring); raises VerificationError on any mismatch.
    A Republic of Rome export (its own format) is checked by `judges.rome.verify`."""
    from .rome.verify import ROME_EXPORT_FORMAT, verify_rome_export

    if isinstance(data, dict) and data.get("format") == ROME_EXPORT_FORMAT:
        return verify_rome_export(data, expected_commitment)
    if _field(data, "format", str) != EXPORT_FORMAT:
        raise VerificationError(f"unknown export format {data['format']!r} (expected {EXPORT_FORMAT!r})")
    raw_options = dict(_field(data, "options", dict))
    dice = _field(data, "dice", dict)
    actions = _field(data, "actions", list)
    result = _field(data, "result", dict)
    position = raw_options.pop("position", None)
    try:
        options = options_from_builtins(raw_options)
        committed = commitment(options)
    except (msgspec.ValidationError, ValueError) as exc:
        raise VerificationError(f"the export's options are not valid: {exc}") from None
    check_dice(options, dice, expected_commitment)
    if data.get("rules_version") is not None and data["rules_version"] != _rules_version():
        raise VerificationError(
            f"the game was played under rules version {data['rules_version']}, "
            f"this program has version {_rules_version()}"
        )
    try:
        game = new_game(msgspec.to_builtins(options), position)
    except JudgesError as exc:
        raise VerificationError(f"the game cannot be set up from its options: {exc}") from None
    for i, spec in enumerate(actions):
        try:
            game.apply(action_from_dict(spec))
        except RuleError as exc:
            raise VerificationError(f"action #{i} ({spec!r}) is refused in the replay: {exc}") from None
    checks = {
        "actions": len(game.log),
        "ending": game.state.ending,
        "winners": list(game.state.winners),
        "round": game.state.round,
        "state_sha256": state_digest(game),
    }
    for name, replayed in checks.items():
        if result.get(name) != replayed:
            raise VerificationError(
                f"the replay does not reach the stored result: {name} is "
                f"{result.get(name)!r} in the export, {replayed!r} in the replay"
            )
    if not game.is_over:
        raise VerificationError("the replayed game is not over")
    return Verified(
        game_id=data.get("game_id"),
        generator=options.dice,
        commitment=committed,
        actions=len(game.log),
        ending=game.state.ending,
        winners=list(game.state.winners),
        rounds=game.state.round,
    )


def _rules_version() -> int:
    from .engine.constants import RULES_VERSION

    return RULES_VERSION
