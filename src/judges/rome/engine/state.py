"""The typed state of a Republic of Rome game: plain msgspec Structs, mutable in place,
lossless through JSON and msgpack (a clone is a msgpack round trip, as in *Judges & Kings*).

Card ids are the scenario data's (`judges.rome.cards`): a family senator "1".."30", a
statesman "1A", a war "punic_1", a leader "hannibal", a concession "tax_farmer_3", a faction
card "assassin" or one copy of a multiple one ("tribune.4"), and "era_ends". Every card is
in exactly one place at any time (`card_places` lists them; a property test checks it):
the deck, a faction's hand, a senator in play (his family card, his statesman card, his
concessions), the Forum (unaligned senators are senators in play with no faction; concessions
waiting for the Senate), the wars and leaders on the board, the Curia, the discard pile, or
out of the game (`removed`: dead statesmen, beaten wars, dead leaders).
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct, field

from .rules import DEFAULT_ROME_RULES, RomeRules

PHASES = ("setup", "mortality", "revenue", "forum", "population", "senate", "combat", "revolution")
#: The offices, in the order of precedence (R8): Dictator first.
OFFICES = ("dictator", "rome_consul", "field_consul", "censor", "master_of_horse")
#: Where a senator in play is: in Rome, commanding in the field, governing a province, held
#: captive, or in revolt.
LOCATIONS = ("rome", "field", "province", "captive", "rebel")
WAR_STATES = ("active", "inactive", "imminent", "unprosecuted")
#: How a game ends (ror-data §15): the three ways Rome falls for everyone, and the winners.
ENDINGS = (
    "wars",  # four or more active wars at the end of a Combat phase
    "people_revolt",  # the State of the Republic below the table
    "bankruptcy",  # the State cannot pay what it owes
    "era_ends",  # the Era Ends card: the most influential faction wins
    "consul_for_life",  # a Consul for Life at the end of a Revolution phase
    "rebel",  # a rebel wins the civil war
    "all_factions_gone",  # every faction eliminated
)
UNALIGNED = -1
#: The war a Senate force fights when it is sent against the rebel (VG 1.11.3: his army is an
#: active war while he marches on Rome).
CIVIL_WAR = "civil_war"


class RomeOptions(Struct, frozen=True, kw_only=True):
    players: int = 5
    seed: int = 0
    rules: RomeRules = DEFAULT_ROME_RULES
    # The dice, as in Judges & Kings (judges.engine.dice): "splitmix64" keyed by `seed`, or
    # "blake2b" keyed by the hex `key` (server games). Secret until the game ends.
    dice: str = "splitmix64"
    key: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, RomeRules):
            msgspec.structs.force_setattr(self, "rules", msgspec.convert(self.rules, RomeRules))


class Senator(Struct, kw_only=True):
    """A senator in play, keyed by his family id (the mortality chit that kills him). A
    statesman stands on his family card (`statesman`), or alone (`family_card` False: the
    family card is elsewhere and joins him when it reaches the Forum)."""

    id: str
    statesman: str = ""
    family_card: bool = True
    faction: int = UNALIGNED
    military: int
    oratory: int
    loyalty: int
    influence: int
    popularity: int = 0
    knights: int = 0
    talents: int = 0
    location: str = "rome"
    office: str = ""
    prior_consul: bool = False
    corrupt: bool = False
    concessions: list[str] = field(default_factory=list)
    governor_of: str = ""
    captive_of: str = ""  # the war that holds him captive
    # offices held during the previous turn's Senate (minor/major prosecutions, R126/R128) and
    # this turn's (a consul cannot serve two turns running, R97)
    held_office: str = ""
    consul_last_turn: bool = False

    @property
    def card(self) -> str:
        """The card that shows: the statesman's, else the family's."""
        return self.statesman or self.id


class Faction(Struct, kw_only=True):
    seat: int
    treasury: int = 0
    leader: str = ""  # the senator id carrying the faction-leader marker
    hand: list[str] = field(default_factory=list)
    eliminated: bool = False


class WarInPlay(Struct, kw_only=True):
    id: str
    state: str  # one of WAR_STATES
    leaders: list[str] = field(default_factory=list)
    naval_won: bool = False  # a naval victory marker: never fought at sea again (R210)
    revolt: bool = False  # the last war of its series was beaten: no spoils (R200, VG 1.07.333)


class ProvinceInPlay(Struct, kw_only=True):
    id: str
    governor: str = ""  # a senator id; "" while it waits in the Forum for one
    developed: bool = False
    term: int = 0  # turns left for its governor


class Units(Struct, kw_only=True):
    """Rome's forces: legions and fleets raised and in Rome's active-forces box."""

    legions: int = 0
    veterans: int = 0  # of the legions, how many are veterans (each counts 2 in battle)
    fleets: int = 0
    loyal: dict[str, int] = field(default_factory=dict)  # veterans owing each senator (R225)


class Force(Struct, kw_only=True):
    """Roman units away from Rome: on a war under a commander (a senator id; "" when he fell
    and the survivors wait on the war card for the next Senate)."""

    war: str
    commander: str = ""
    legions: int = 0  # veterans included
    veterans: int = 0
    fleets: int = 0
    loyal: dict[str, int] = field(default_factory=dict)  # veterans owing each senator (R225)
    fought: bool = False  # fought this Combat phase
    won: bool = False  # its commander won the war this turn: he returns in the Revolution phase


class Rebellion(Struct, kw_only=True):
    """The primary rebel marching on Rome with his army (VG 1.11.3; R239-R255). His secondary
    rebels are the senators of his faction whose location is "rebel"."""

    rebel: str
    legions: int = 0  # veterans included
    veterans: int = 0
    loyal: dict[str, int] = field(default_factory=dict)  # veterans owing each senator (R225)
    master: str = ""  # the ex-Master of Horse who joined a rebel Dictator (R245): adds his rating
    won: bool = False  # he met a winning condition (VG 1.12.2): no longer an active war


class Decision(Struct, frozen=True):
    """A seat owes an answer of `kind` (judges.rome.engine.decisions.KINDS); `subject` names
    what it is about (a senator, a card), "" when nothing."""

    player: int
    kind: str
    subject: str = ""


class Entry(Struct, frozen=True):
    """One report line: a message key and its typed parameters (never a sentence)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


class Result(Struct, frozen=True):
    ending: str  # one of ENDINGS
    winners: tuple[int, ...] = ()  # seats; empty when Rome fell for everyone


class RomeState(Struct, kw_only=True):
    options: RomeOptions
    rng: int = 0
    turn: int = 0
    phase: int = 0  # index into PHASES
    step: int = 0  # cursor into the phase's steps (judges.rome.engine.phases)
    pending: list[Decision] = field(default_factory=list)
    factions: list[Faction] = field(default_factory=list)
    senators: dict[str, Senator] = field(default_factory=dict)
    treasury: int = 0  # the State's
    unrest: int = 0
    units: Units = field(default_factory=Units)  # the active-forces box in Rome
    forces: list[Force] = field(default_factory=list)  # in the order they were sent
    wars: list[WarInPlay] = field(default_factory=list)
    provinces: list[ProvinceInPlay] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # the top is the end of the list
    discard: list[str] = field(default_factory=list)
    curia: list[str] = field(default_factory=list)  # dead family cards, leaders, concessions
    forum_concessions: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    events: dict[str, int] = field(default_factory=dict)  # event in play -> 1 normal, 2 intensified
    land_bills: list[int] = field(default_factory=list)  # types in force
    state_due: int = 0  # talents the State receives at the next Revenue phase (events)
    no_recruitment: bool = False  # the population table forbids raising forces this turn
    era_ended: bool = False
    consul_for_life: str = ""  # the senator who is Consul for Life (R178-R182, VG 1.09.82)
    # the Rhodian Maritime Alliance's fleets, and the wars whose end sends them away
    rhodian_fleets: int = 0
    rhodian_wars: list[str] = field(default_factory=list)
    rebellion: Rebellion | None = None  # a civil war (VG 1.11.3): at most one rebel at a time
    result: Result | None = None
    # every report line of the game so far, in order (public: nothing secret is reported)
    report: list[Entry] = field(default_factory=list)
    # a phase's working data (whose turn, a roll in progress): cleared when the phase ends
    scratch: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def over(self) -> bool:
        return self.result is not None


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(RomeState)
_JSON_DECODER = msgspec.json.Decoder(RomeState)


def clone_state(state: RomeState) -> RomeState:
    """A deep copy (a msgpack round trip; the frozen options are shared)."""
    copy = _DECODER.decode(_ENCODER.encode(state))
    copy.options = state.options
    return copy


def state_to_json(state: RomeState) -> bytes:
    return msgspec.json.encode(state)


def state_from_json(data: bytes | str) -> RomeState:
    return _JSON_DECODER.decode(data)


def card_places(state: RomeState) -> list[tuple[str, str]]:
    """Every card and where it is: (card, place). A card listed twice, or missing, breaks
    the conservation of cards."""
    out: list[tuple[str, str]] = [(c, "deck") for c in state.deck]
    for f in state.factions:
        out += [(c, f"hand:{f.seat}") for c in f.hand]
    for s in state.senators.values():
        if s.family_card:
            out.append((s.id, f"senator:{s.id}"))
        if s.statesman:
            out.append((s.statesman, f"senator:{s.id}"))
        out += [(c, f"senator:{s.id}") for c in s.concessions]
    out += [(c, "forum") for c in state.forum_concessions]
    for w in state.wars:
        out.append((w.id, f"war:{w.state}"))
        out += [(x, f"war:{w.id}") for x in w.leaders]
    out += [(c, "curia") for c in state.curia]
    out += [(c, "discard") for c in state.discard]
    out += [(c, "removed") for c in state.removed]
    return out
