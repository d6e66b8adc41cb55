"""The typed game state: plain msgspec Structs, mutable in place, lossless through JSON.

Static facts of the board (hexes, regions, ring) live in `judges.world.World`; the state
holds only what changes during a game, indexed by the world's settlement, region and hex
indices. Why msgspec Structs rather than slotted dataclasses: docs/architecture.md
(measured by bench/state_types.py).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec
from msgspec import Struct, field

from .rules import DEFAULT_RULES, Rules

CANAANITES: Final = -1  # garrison owner value for a Canaanite-held settlement

PHASES = (
    "announcements",  # 1
    "intrigue",  # 2
    "income",  # 3
    "acquisitions",  # 4
    "movement",  # 5
    "combat",  # 6
    "victory",  # 7
)

ENDINGS = ("three_points", "last_standing", "collapse", "general_elimination", "round_limit")


class Options(Struct, frozen=True, kw_only=True):
    players: int = 4
    seed: int = 0
    wave_pairs: int = 1  # invader pairs per wave: 1 default difficulty, 2 hard
    round_limit: int | None = None
    rules: Rules = DEFAULT_RULES  # every number of the rules, and the map, this game is played under
    # The dice (engine/dice.py): "splitmix64", keyed by `seed` (simulations, tests; games stored
    # before this field existed), or "blake2b", keyed by `key` (hex, 128 to 512 bits: server games).
    # `seed` and `key` are secret until the game ends: no view shows them.
    dice: str = "splitmix64"
    key: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):  # Options(**stored_dict): the rules as a JSON-like dict
            msgspec.structs.force_setattr(self, "rules", msgspec.convert(self.rules, Rules, str_keys=True))


def upgrade_options(data: dict[str, Any]) -> dict[str, Any]:
    """An options dict as stored before the rules were part of the options (a top-level "map",
    no "rules"): the map moves into the rules, the other rules are the defaults. A current
    options dict is returned unchanged."""
    if "map" not in data:
        return data
    data = dict(data)
    name = data.pop("map")
    if "rules" not in data:
        data["rules"] = {**msgspec.to_builtins(DEFAULT_RULES), "map": name}
    return data


def options_from_builtins(data: dict[str, Any]) -> Options:
    """Options from a JSON-like dict (stored with a game, or written in a scenario file); old
    options with a top-level "map" still decode (`upgrade_options`)."""
    return msgspec.convert(upgrade_options(data), Options, str_keys=True)


class Player(Struct, kw_only=True):
    seat: int
    coins: int = 0
    hand: list[str] = field(default_factory=list)
    eliminated: bool = False  # decided at a Victory Check
    eliminated_round: int | None = None
    elimination_announced: bool = False


class SettlementState(Struct, kw_only=True):
    owner: int | None = None  # garrison owner: a seat, CANAANITES, or None
    troops: int = 0  # garrison size (0 when owner is None)
    walls: bool = False
    developments: int = 0
    razed: bool = False


class General(Struct, kw_only=True):
    id: int
    owner: int
    hex: int
    captor: int | None = None  # seat holding him captive
    army: int = 0  # troops marching with him
    ark: bool = False
    anointed: bool = False
    prophet: bool = False


class Title(Struct, kw_only=True):
    """The Judge title of one region."""

    owner: int | None = None  # the player whose general holds it; a vacant title keeps its owner
    holder: int | None = None  # general id, None when vacant or unowned
    in_play: bool = True  # False once the region can no longer sustain a judge


class InvaderPair(Struct, kw_only=True):
    id: int
    at: int  # settlement index it besieges (or stands on, once razed)
    direction: int  # +1 clockwise, -1 counter-clockwise
    wave: int


class LandedEvent(Struct, kw_only=True):
    card: str
    terrain: str


class Entry(Struct, kw_only=True):
    """One line of a report: a message key and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


class Notification(Struct, kw_only=True):
    """A structured notification for the bell: rendered in the reader's language later."""

    id: int
    round: int
    phase: str
    key: str
    to: list[int]  # seats addressed
    params: dict[str, Any] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    after: int = 0  # actions applied before it (where it stands in the game's log: the screen's log panel)


class Decision(Struct, kw_only=True, frozen=True):
    """Something a player owes before the game can go on.

    kind: a decision kind of the registry, `judges.engine.decisions.KINDS` ("vote",
    "turn"...; docs/protocol.md lists them). subject: what the decision is about, as the
    kind's registry entry says (a region, a settlement, an invader pair's id), or None.
    """

    player: int
    kind: str
    subject: int | None = None

    @property
    def subject_index(self) -> int:
        """The subject of a decision whose kind has one (a region, settlement or pair index)."""
        if self.subject is None:
            raise ValueError(f"a {self.kind} decision has no subject")
        return self.subject


class GameState(Struct, kw_only=True):
    rules_version: int
    options: Options
    rng: int  # the dice's state: SplitMix64's whole state, or the blake2b dice's counter
    round: int = 1
    phase: int = 1  # 1..7
    step: int = 0  # cursor into the phase's automatic steps
    players: list[Player] = field(default_factory=list)
    settlements: list[SettlementState] = field(default_factory=list)
    generals: dict[int, General] = field(default_factory=dict)
    next_general_id: int = 0
    titles: list[Title] = field(default_factory=list)  # per region
    king: int | None = None  # general id of the reigning King
    succession_owner: int | None = None  # seat whose King died, owing a successor
    ark_hex: int | None = None  # hex of the unattended Ark (None while a general carries it)
    wrath: int = 0
    wrath_registered: int = 0  # added at the next Announcements
    judgment: bool = False  # this round's Announcements declared a judgment
    judgments: int = 0
    invaders: list[InvaderPair] = field(default_factory=list)
    next_pair_id: int = 0
    waves: int = 0
    events_area: list[str] = field(default_factory=list)  # cards played, landing next Announcements
    events_landed: list[LandedEvent] = field(default_factory=list)  # in force this round
    # terrains assigned, before displacement; while a prophet's owner chooses them card by card,
    # those chosen so far (only that seat's view shows them)
    pending_terrains: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # top of the deck is the end of the list
    discard: list[str] = field(default_factory=list)
    taxes: dict[int, int] = field(default_factory=dict)  # region -> collecting seat, this round
    turn_queue: list[int] = field(default_factory=list)  # seats still to act in a turn phase
    cards_played: int = 0  # cards played in the current Intrigue turn
    move_points: dict[int, int] = field(default_factory=dict)  # general -> points left this Movement
    arrivals: dict[int, int] = field(default_factory=dict)  # general -> order of arrival this Movement
    arrival_counter: int = 0
    battles: int = 0  # battles fought in the game
    spent: dict[str, int] = field(default_factory=dict)  # coins spent by item, over the game
    pending: list[Decision] = field(default_factory=list)
    votes: dict[int, int] = field(default_factory=dict)  # seat -> candidate general, this election
    report: list[Entry] = field(default_factory=list)  # lines of the phase report being written
    round_log: list[Entry] = field(default_factory=list)  # the round's actions for the Round report
    razed_by_invaders: int = 0
    razed_by_plunder: int = 0
    ending: str | None = None
    winners: list[int] = field(default_factory=list)
    next_notification_id: int = 0


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(GameState)
_mp_encoder = msgspec.msgpack.Encoder()
_mp_decoder = msgspec.msgpack.Decoder(GameState)


def state_to_json(state: GameState) -> bytes:
    return _encoder.encode(state)


def state_from_json(data: bytes | str) -> GameState:
    if b'"rules"' not in data if isinstance(data, bytes) else '"rules"' not in data:  # stored before rules were options
        raw = msgspec.json.decode(data)
        raw["options"] = upgrade_options(raw.get("options", {}))
        return msgspec.convert(raw, GameState, str_keys=True)
    return _decoder.decode(data)


class _NoOptions(Struct):
    """Stands for the options while a state is copied: decoded as the default Options, then
    replaced by the original (frozen, so shared), which spares decoding the rules each copy."""


_NO_OPTIONS = _NoOptions()


def state_to_bytes(state: GameState) -> bytes:
    """The state as msgpack, but its options (frozen: `state_from_bytes` is handed them)."""
    return _mp_encoder.encode(msgspec.structs.replace(state, options=_NO_OPTIONS))


def state_from_bytes(data: bytes, options: Options) -> GameState:
    """The state `state_to_bytes` wrote, with these options (shared, not copied)."""
    state = _mp_decoder.decode(data)
    state.options = options
    return state


def clone_state(state: GameState) -> GameState:
    """A deep copy, through msgpack (faster than copy.deepcopy by an order of magnitude). The
    options are frozen: the copy shares them."""
    return state_from_bytes(state_to_bytes(state), state.options)
