"""Republic of Rome scenario files: options, a position, scripted dice, actions.

A scenario with `"game": "rome"` (docs/scenarios.md) is run here. Everything is pure: the
caller reads the file; this module turns its parsed JSON into a RomeGame, plays the actions and
reports the outcome as JSON-able data.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..engine.dice import Dice, ScriptedDice
from ..engine.errors import RuleError, SetupError
from .cards import load_deck
from .engine.actions import action_from_dict, action_to_dict
from .engine.effects import senator_from_card
from .engine.game import RomeGame, dice_of
from .engine.rules import RomeRules
from .engine.setup import initial_state
from .engine.state import PHASES, RomeOptions, RomeState, Senator
from .engine.view import player_view

TOP_KEYS = {"game", "name", "description", "options", "position", "dice", "actions"}
DICE_KEYS = {"faces", "then"}


def _check_keys(where: str, data: Any, allowed: set[str]) -> None:
    if not isinstance(data, dict):
        raise SetupError(f"{where}: expected an object, got {type(data).__name__}")
    unknown = set(data) - allowed
    if unknown:
        raise SetupError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")


def _check_known(where: str, data: Any, value: Any) -> None:
    """Every key of `data` names a field of the Struct it became (msgspec would ignore it)."""
    if isinstance(value, msgspec.Struct):
        fields = set(value.__struct_fields__)
        _check_keys(where, data, fields)
        for key, item in data.items():
            _check_known(f"{where}.{key}", item, getattr(value, key))
    elif isinstance(value, list) and isinstance(data, list):
        for i, (item, converted) in enumerate(zip(data, value, strict=False)):
            _check_known(f"{where}[{i}]", item, converted)
    elif isinstance(value, dict) and isinstance(data, dict):
        for key, item in data.items():
            if key in value:
                _check_known(f"{where}.{key}", item, value[key])


def _convert(where: str, data: Any, kind: type[Any]) -> Any:
    try:
        value = msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        raise SetupError(f"{where}: {exc}") from None
    _check_known(where, data, value)
    return value


def options_from(data: Any) -> RomeOptions:
    """`options`: RomeOptions' fields (players, seed, dice, key) and `rules`, RomeRules' fields
    to change (rules changes)."""
    if data is None:
        data = {}
    _check_keys("options", data, set(RomeOptions.__struct_fields__))
    data = dict(data)
    if "rules" in data:
        rules = msgspec.to_builtins(RomeRules())
        _check_keys("options.rules", data["rules"], set(rules))
        data["rules"] = msgspec.to_builtins(_convert("options.rules", {**rules, **data["rules"]}, RomeRules))
    options: RomeOptions = _convert("options", data, RomeOptions)
    return options


def position_from(options: RomeOptions, data: Any) -> RomeState:
    """`position`: RomeState's fields (state_to_json's form) but `options`. `phase` may be a
    phase's name; a senator needs only the fields that differ from his family card; without
    `factions`, one empty faction a seat; `turn` is 1 unless given."""
    _check_keys("position", data, set(RomeState.__struct_fields__) - {"options"})
    data = dict(data)
    phase = data.get("phase", "mortality")
    if isinstance(phase, str):
        if phase not in PHASES:
            raise SetupError(f"position.phase: unknown phase {phase!r}; phases: {list(PHASES)}")
        data["phase"] = PHASES.index(phase)
    data.setdefault("turn", 1)
    data.setdefault("factions", [{"seat": i} for i in range(options.players)])
    deck = load_deck(options.rules.deck)
    senators = data.get("senators", {})
    if not isinstance(senators, dict):
        raise SetupError("position.senators: expected an object of senators by family id")
    filled = {}
    for sid, spec in senators.items():
        _check_keys(f"position.senators.{sid}", spec, set(Senator.__struct_fields__))
        base = msgspec.to_builtins(senator_from_card(deck, sid)) if sid in deck.senators else {"id": sid}
        filled[sid] = {**base, **spec}
    data["senators"] = filled
    state: RomeState = _convert("position", {**data, "options": msgspec.to_builtins(options)}, RomeState)
    state.options = options
    if len(state.factions) != options.players:
        raise SetupError(f"position.factions: {len(state.factions)} factions for {options.players} players")
    return state


def make_dice(spec: Any, state: RomeState) -> Dice:
    """`dice`: null (the options' seeded dice), a list of individual die faces (the run fails
    when they run out), or {"faces": [...], "then": "seeded"} (seeded dice after the faces)."""
    if spec is None:
        return dice_of(state)
    if isinstance(spec, list):
        return ScriptedDice(_faces("dice", spec))
    _check_keys("dice", spec, DICE_KEYS)
    then = spec.get("then")
    if then not in (None, "seeded", "fail"):
        raise SetupError(f"dice.then must be 'seeded' or 'fail', not {then!r}")
    return ScriptedDice(
        _faces("dice.faces", spec.get("faces", [])), fallback=dice_of(state) if then == "seeded" else None
    )


def _faces(where: str, faces: Any) -> list[int]:
    if not isinstance(faces, list) or not all(isinstance(f, int) and f >= 1 for f in faces):
        raise SetupError(f"{where}: expected a list of die faces (whole numbers from 1)")
    return faces


def build_game(data: Any) -> RomeGame:
    """The scenario's game, its position set (its automatic steps not yet run)."""
    _check_keys("scenario", data, TOP_KEYS)
    if data.get("game", "rome") != "rome":
        raise SetupError(f"game: {data['game']!r} is not rome")
    options = options_from(data.get("options"))
    if "position" in data:
        state = position_from(options, data["position"])
    else:
        state = initial_state(options)  # the standard setup (scripted dice start after it)
    return RomeGame(state, make_dice(data.get("dice"), state))


def run_scenario(data: Any, seat: int | None = None) -> dict[str, Any]:
    """Builds the game, plays the scenario's actions, and reports the outcome. An action the
    rules refuse stops the run and is reported (`error`: its index, the rule, the message key).

    `report` holds the report lines written during the run (message keys and parameters).
    With `seat`, `view` is what that faction sees (others' hands and treasuries, the deck and
    the dice hidden: `player_view`) and `legal_actions` its own; otherwise `state` is the whole
    state and `legal_actions` every seat's."""
    game = build_game(data)
    start = len(game.state.report)
    game.advance()
    if seat is not None and not 0 <= seat < game.state.players:
        raise SetupError(f"seat {seat}: the game has seats 0..{game.state.players - 1}")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise SetupError("actions: expected a list of actions")
    error = None
    applied = 0
    for i, spec in enumerate(actions):
        try:
            game.apply(action_from_dict(spec))
            applied += 1
        except RuleError as exc:
            error = {"action_index": i, "action": spec, **exc.to_dict()}
            break
    state = game.state
    seats = range(state.players) if seat is None else [seat]
    out: dict[str, Any] = {
        "game": "rome",
        "applied_actions": applied,
        "error": error,
        "turn": state.turn,
        "phase": PHASES[state.phase],
        "result": msgspec.to_builtins(state.result),
        "pending": msgspec.to_builtins(state.pending),
        "report": msgspec.to_builtins(state.report[start:]),
        "legal_actions": {str(s): [action_to_dict(a) for a in game.legal_actions(s)][:200] for s in seats},
    }
    if seat is None:
        out["state"] = msgspec.to_builtins(state)
    else:
        out["seat"] = seat
        out["view"] = player_view(state, seat)
    return out
