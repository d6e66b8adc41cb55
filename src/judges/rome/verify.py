"""A finished Republic of Rome game's export, and its verification: the same commit–reveal of
the dice as Judges & Kings' (`judges.verify`, `engine.dice.commitment`).

    {"format": ROME_EXPORT_FORMAT, "game_id",
     "options": {...RomeOptions, the whole rules, the seed and dice key included},
     "dice": {"generator", "seed", "commitment"},
     "actions": [{"type": ..., "player": ...}, ...],
     "result": {"ending", "winners", "turn", "actions", "state_sha256"}}

`verify_rome_export` checks that the revealed seed hashes to the commitment, replays the actions
from the options with that seed, and checks that the replay reaches the stored ending, winners,
turn and final state; `judges verify FILE` runs it for an export of this format.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from ..engine.dice import commitment, seed_text
from ..engine.errors import RuleError
from ..verify import VerificationError, Verified, _field, check_dice
from .engine.game import RomeGame
from .engine.rules import RomeRulesError
from .engine.state import RomeOptions

ROME_EXPORT_FORMAT = "republic-of-rome/game-export/1"


def state_digest(game: RomeGame) -> str:
    """SHA-256 (hex) of the game state's JSON: the final position, in one line."""
    return hashlib.sha256(msgspec.json.encode(game.state)).hexdigest()


def build_rome_export(game: RomeGame, game_id: str | None = None) -> dict[str, Any]:
    """The export of a game that is over (its seed is secret until then)."""
    if not game.over:
        raise ValueError("a game is exported once it is over (its seed is secret until then)")
    options = game.state.options
    result = game.state.result
    return {
        "format": ROME_EXPORT_FORMAT,
        "game_id": game_id,
        "options": game.options_as_dict(),
        "dice": {"generator": options.dice, "seed": seed_text(options), "commitment": commitment(options)},  # type: ignore[arg-type]
        "actions": game.log_as_dicts(),
        "result": {
            "ending": result.ending if result is not None else None,
            "winners": list(result.winners) if result is not None else [],
            "turn": game.state.turn,
            "actions": len(game.log),
            "state_sha256": state_digest(game),
        },
    }


def verify_rome_export(data: Any, expected_commitment: str | None = None) -> Verified:
    """Checks a Rome export (see the module's docstring); VerificationError on any mismatch."""
    if _field(data, "format", str) != ROME_EXPORT_FORMAT:
        raise VerificationError(f"unknown export format {data['format']!r} (expected {ROME_EXPORT_FORMAT!r})")
    dice = _field(data, "dice", dict)
    actions = _field(data, "actions", list)
    result = _field(data, "result", dict)
    try:
        options = msgspec.convert(_field(data, "options", dict), RomeOptions)
        committed = commitment(options)  # type: ignore[arg-type]  # the same dice fields
    except (msgspec.ValidationError, RomeRulesError, ValueError) as exc:
        raise VerificationError(f"the export's options are not valid: {exc}") from None
    check_dice(options, dice, expected_commitment)
    try:
        game = RomeGame.new(options)
    except (RuleError, ValueError) as exc:
        raise VerificationError(f"the game cannot be set up from its options: {exc}") from None
    for i, spec in enumerate(actions):
        try:
            game.apply(spec if isinstance(spec, dict) else {})
        except (RuleError, msgspec.ValidationError, ValueError) as exc:
            raise VerificationError(f"action #{i} ({spec!r}) is refused in the replay: {exc}") from None
    ended = game.state.result
    checks = {
        "actions": len(game.log),
        "ending": ended.ending if ended is not None else None,
        "winners": list(ended.winners) if ended is not None else [],
        "turn": game.state.turn,
        "state_sha256": state_digest(game),
    }
    for name, replayed in checks.items():
        if result.get(name) != replayed:
            raise VerificationError(
                f"the replay does not reach the stored result: {name} is "
                f"{result.get(name)!r} in the export, {replayed!r} in the replay"
            )
    if ended is None:
        raise VerificationError("the replayed game is not over")
    return Verified(
        game_id=data.get("game_id"),
        generator=options.dice,
        commitment=committed,
        actions=len(game.log),
        ending=ended.ending,
        winners=list(ended.winners),
        rounds=game.state.turn,
        game="rome",
    )
