"""Scenario files: a standard setup, a partial position on top, scripted dice, actions.

The format is documented in docs/scenarios.md. Everything here is pure: the caller reads
the file; this module turns its parsed JSON into a Game and runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ..world import TERRAINS, World, load_world
from .actions import action_from_dict
from .cards import CARDS, is_event
from .dice import Dice, ScriptedDice, dice_for
from .errors import RuleError, SetupError
from .game import Game
from .state import CANAANITES, PHASES, GameState, General, InvaderPair, LandedEvent, Title, options_from_builtins
from .victory import score

_DIRECTIONS = {"clockwise": 1, "cw": 1, 1: 1, "counter-clockwise": -1, "counterclockwise": -1, "ccw": -1, -1: -1}
TOP_KEYS = {"name", "description", "options", "position", "dice", "actions"}
#: Every key a scenario's `position` accepts (docs/scenarios.md documents each with an example).
POSITION_KEYS = {
    "clear_board",
    "round",
    "phase",
    "wrath",
    "wrath_registered",
    "judgments",
    "players",
    "settlements",
    "remove_generals",
    "clear_generals",
    "generals",
    "titles",
    "king",
    "succession_owner",
    "ark",
    "invaders",
    "events_area",
    "events_landed",
    "taxes",
    "deck",
    "discard",
}
#: The keys of each entry of the position keys that hold objects.
ENTRY_KEYS: dict[str, set[str]] = {
    "players": {"seat", "coins", "hand", "eliminated", "elimination_announced"},
    "settlements": {"owner", "troops", "walls", "developments", "razed"},
    "generals": {"id", "owner", "at", "captor", "army", "ark", "anointed", "prophet"},
    "titles": {"owner", "holder", "in_play"},
    "invaders": {"at", "direction", "wave"},
    "events_landed": {"card", "terrain"},
}


def _check_keys(where: str, data: dict[str, Any], allowed: set[str]) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise SetupError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")


def _settlement(world: World, name: Any, where: str) -> int:
    if name not in world.settlement_by_name:
        raise SetupError(f"{where}: unknown settlement {name!r}")
    return world.settlement_by_name[name]


def _region(world: World, name: Any, where: str) -> int:
    if name not in world.region_by_name:
        raise SetupError(f"{where}: unknown region {name!r}")
    return world.region_by_name[name]


def _hex(world: World, at: Any, where: str) -> int:
    """A place: a settlement name, or {"q": .., "r": ..}."""
    if isinstance(at, dict):
        key = (at.get("q"), at.get("r"))
        if key not in world.hex_at:
            raise SetupError(f"{where}: no hex at q={key[0]}, r={key[1]}")
        return world.hex_at[key]
    return world.settlements[_settlement(world, at, where)].hex


def _card(card: Any, where: str) -> str:
    if card not in CARDS or not isinstance(card, str):
        raise SetupError(f"{where}: unknown card {card!r}; cards: {sorted(CARDS)}")
    return card


def make_dice(spec: Any) -> Callable[[GameState], Dice] | None:
    """`dice`: null (seeded by the options' seed), a list of faces (a test script that fails
    when it runs out), or {"faces": [...], "then": "seeded", "shuffles": [[...], ...]}."""
    if spec is None:
        return None
    if isinstance(spec, list):
        return lambda state: ScriptedDice(spec)
    if isinstance(spec, dict):
        _check_keys("dice", spec, {"faces", "then", "shuffles"})
        faces = spec.get("faces", [])
        then = spec.get("then")
        if then not in (None, "seeded", "fail"):
            raise SetupError(f"dice.then must be 'seeded' or 'fail', not {then!r}")
        return lambda state: ScriptedDice(
            faces, shuffles=spec.get("shuffles"), fallback=dice_for(state) if then == "seeded" else None
        )
    raise SetupError("dice must be null, a list of faces, or an object")


def apply_position(game: Game, position: dict[str, Any]) -> None:
    """Edits a setup position in place. Raises SetupError naming the offending entry."""
    state, world = game.state, game.world
    _check_keys("position", position, POSITION_KEYS)
    if position.get("clear_board"):
        # An empty land: no player holdings, no generals (Canaanite holdings stay).
        for s in state.settlements:
            if s.owner is not None and s.owner != CANAANITES:
                s.owner, s.troops = None, 0
        state.generals = {}
    for key in ("round", "wrath", "wrath_registered", "judgments"):
        if key in position:
            setattr(state, key, int(position[key]))
    if "phase" in position:
        phase = position["phase"]
        if isinstance(phase, str):
            if phase not in PHASES:
                raise SetupError(f"position.phase: unknown phase {phase!r}; phases: {list(PHASES)}")
            phase = PHASES.index(phase) + 1
        if not 1 <= phase <= 7:
            raise SetupError(f"position.phase must be 1..7, not {phase}")
        state.phase, state.step = phase, 0
    for i, p in enumerate(position.get("players", [])):
        where = f"position.players[{i}]"
        _check_keys(where, p, ENTRY_KEYS["players"])
        seat = p.get("seat", i)
        if not 0 <= seat < len(state.players):
            raise SetupError(f"{where}: no seat {seat}")
        player = state.players[seat]
        if "coins" in p:
            player.coins = int(p["coins"])
        if "hand" in p:
            player.hand = [_card(c, where) for c in p["hand"]]
        if "eliminated" in p:
            player.eliminated = bool(p["eliminated"])
            player.eliminated_round = state.round - 1 if player.eliminated else None
            player.elimination_announced = bool(p.get("elimination_announced", player.eliminated))
    for name, spec in position.get("settlements", {}).items():
        where = f"position.settlements.{name}"
        index = _settlement(world, name, where)
        _check_keys(where, spec, ENTRY_KEYS["settlements"])
        s = state.settlements[index]
        if "owner" in spec:
            owner = spec["owner"]
            s.owner = CANAANITES if owner == "canaanites" else owner
            if s.owner is not None and s.owner != CANAANITES and not 0 <= s.owner < len(state.players):
                raise SetupError(f"{where}: no seat {s.owner}")
        for key in ("troops", "developments"):
            if key in spec:
                setattr(s, key, int(spec[key]))
        if "walls" in spec:
            s.walls = bool(spec["walls"])
        if spec.get("razed"):
            s.razed, s.owner, s.troops, s.walls, s.developments = True, None, 0, False, 0
        if s.owner is None:
            s.troops = 0
        elif s.troops <= 0:
            raise SetupError(f"{where}: a garrison needs at least one troop")
    if position.get("clear_generals"):
        state.generals = {}
    for gid in position.get("remove_generals", []):
        if gid not in state.generals:
            raise SetupError(f"position.remove_generals: no general {gid}")
        del state.generals[gid]
    for i, spec in enumerate(position.get("generals", [])):
        where = f"position.generals[{i}]"
        _check_keys(where, spec, ENTRY_KEYS["generals"])
        gid = spec.get("id", state.next_general_id)
        owner = spec.get("owner")
        if not isinstance(owner, int) or not 0 <= owner < len(state.players):
            raise SetupError(f"{where}: owner must be a seat number")
        g = General(
            id=gid,
            owner=owner,
            hex=_hex(world, spec.get("at"), where),
            captor=spec.get("captor"),
            army=int(spec.get("army", 0)),
            ark=bool(spec.get("ark", False)),
            anointed=bool(spec.get("anointed", False)),
            prophet=bool(spec.get("prophet", False)),
        )
        state.generals[gid] = g
        state.next_general_id = max(state.next_general_id, gid + 1)
        if g.ark:
            state.ark_hex = None
    for name, spec in position.get("titles", {}).items():
        where = f"position.titles.{name}"
        region = _region(world, name, where)
        _check_keys(where, spec, ENTRY_KEYS["titles"])
        title = Title(owner=spec.get("owner"), holder=spec.get("holder"), in_play=spec.get("in_play", True))
        if title.holder is not None:
            if title.holder not in state.generals:
                raise SetupError(f"{where}: no general {title.holder}")
            title.owner = state.generals[title.holder].owner
        state.titles[region] = title
    if "king" in position:
        king = position["king"]
        if king is not None and king not in state.generals:
            raise SetupError(f"position.king: no general {king}")
        state.king = king
    if "succession_owner" in position:
        state.succession_owner = position["succession_owner"]
    if "ark" in position:
        state.ark_hex = None if position["ark"] is None else _hex(world, position["ark"], "position.ark")
        for g in state.generals.values():
            if state.ark_hex is not None:
                g.ark = False
    if "invaders" in position:
        state.invaders = []
        for i, spec in enumerate(position["invaders"]):
            where = f"position.invaders[{i}]"
            _check_keys(where, spec, ENTRY_KEYS["invaders"])
            direction = _DIRECTIONS.get(spec.get("direction", "clockwise"))
            if direction is None:
                raise SetupError(f"{where}: direction must be clockwise or counter-clockwise")
            state.invaders.append(
                InvaderPair(
                    id=state.next_pair_id,
                    at=_settlement(world, spec.get("at"), where),
                    direction=direction,
                    wave=int(spec.get("wave", 1)),
                )
            )
            state.next_pair_id += 1
    if "events_area" in position:
        state.events_area = [_card(c, "position.events_area") for c in position["events_area"]]
        for c in state.events_area:
            if not is_event(c):
                raise SetupError(f"position.events_area: {c!r} is not an event card")
    if "events_landed" in position:
        state.events_landed = []
        for i, spec in enumerate(position["events_landed"]):
            _check_keys(f"position.events_landed[{i}]", spec, ENTRY_KEYS["events_landed"])
            if spec.get("terrain") not in TERRAINS:
                raise SetupError(f"position.events_landed: unknown terrain {spec.get('terrain')!r}")
            state.events_landed.append(
                LandedEvent(card=_card(spec.get("card"), "position.events_landed"), terrain=spec["terrain"])
            )
    if "taxes" in position:
        state.taxes = {_region(world, name, "position.taxes"): seat for name, seat in position["taxes"].items()}
    if "deck" in position:
        state.deck = [_card(c, "position.deck") for c in position["deck"]]
    if "discard" in position:
        state.discard = [_card(c, "position.discard") for c in position["discard"]]


def build_game(data: dict[str, Any]) -> Game:
    """The scenario's game, with its position applied and automatic steps run."""
    if not isinstance(data, dict):
        raise SetupError("a scenario is a JSON object")
    _check_keys("scenario", data, TOP_KEYS)
    try:
        options = options_from_builtins(data.get("options", {}))
    except msgspec.ValidationError as exc:
        raise SetupError(f"options: {exc}") from None
    game = Game.new(options, dice_factory=make_dice(data.get("dice")), world=load_world(options.rules.map), start=False)
    apply_position(game, data.get("position", {}))
    game.forget()  # the position was edited by hand
    game.advance()
    return game


def run_scenario(data: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """Builds the game, plays the scenario's actions, and reports the outcome as JSON-able
    data. An action the rules refuse stops the run and is reported with its error.

    Every player's score by source (§ 14, `victory.score`) is in `scores`. With `seat`, the
    output shows what that seat sees instead of the whole game: its typed `PlayerView` (other
    hands, the deck, the dice's state and open ballots hidden) as `view`, its own legal actions
    and its own notifications; no `state`."""
    game = build_game(data)
    if seat is not None and not 0 <= seat < len(game.state.players):
        raise SetupError(f"seat {seat}: the game has seats 0..{len(game.state.players) - 1}")
    error = None
    applied = 0
    for i, spec in enumerate(data.get("actions", [])):
        try:
            game.apply(action_from_dict(spec))
            applied += 1
        except RuleError as exc:
            error = {"action_index": i, "action": spec, **exc.to_dict()}
            break
    out: dict[str, Any] = {
        "applied_actions": applied,
        "error": error,
        "round": game.state.round,
        "phase": game.phase_name,
        "ending": game.state.ending,
        "winners": game.state.winners,
        "pending": [msgspec.to_builtins(d) for d in game.pending],
        "scores": [{"seat": p.seat, **score(game.state, game.world, p.seat)} for p in game.state.players],
    }
    if seat is None:
        out["legal_actions"] = [msgspec.to_builtins(a) for a in game.legal_actions()][:200]
        out["notifications"] = msgspec.to_builtins(game.notifications)
        out["state"] = msgspec.to_builtins(game.state)
    else:
        out["seat"] = seat
        out["legal_actions"] = [msgspec.to_builtins(a) for a in game.legal_actions(seat)][:200]
        out["view"] = msgspec.to_builtins(game.view(seat))
    return out
