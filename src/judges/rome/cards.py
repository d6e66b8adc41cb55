"""The Early Republic's cards and tables: loaded from a TOML data file and validated.

Data over code: every senator, statesman, war, enemy leader, concession, faction card, event,
province, land bill and every table the rules read (combat results, population, popular appeal,
games, contributions, mortality chits, setup) lives in ``judges/rome/data/<deck>.toml``. This
module reads it (the only file the Rome engine reads) and checks it completely: a problem raises
`RomeDataError` naming the file, the table and the item. The result, `Deck`, is immutable and
cached per file.

What the engine knows about a card beyond its numbers (what an ability, an event or a faction
card does) is code keyed by the card's id; the sets of ids the code knows are declared here
(`ABILITIES`, `EVENTS`, `INTRIGUE`, `DESTROYED_BY`, ...) and the data must use exactly those.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import msgspec
from msgspec import Struct

ERAS = ("early", "middle", "late")
DECKS = ERAS
#: What a statesman's special ability may be (the engine's combat and Senate rules read them).
ABILITIES = ("ignores_war_numbers", "halves_losses", "free_tribune")
#: How a war card arrives on the board when drawn without a matching war (ror-data §3.1).
ARRIVALS = ("active", "inactive")
#: What a concession's income is counted by.
CONCESSION_KINDS = ("fixed", "per_legion", "per_fleet")
#: What can destroy a concession (it then goes to the Curia); "" for nothing.
DESTROYED_BY = ("", "tax_farmer_roll", "natural_disaster", "sicilian_slave_revolt", "alexandrine_war")
#: The faction cards other than statesmen and concessions.
INTRIGUE = ("tribune", "assassin", "secret_bodyguard", "influence_peddling", "seduction", "blackmail")
#: Every event card of the three columns of the events table.
EVENTS = (
    "mob_violence",
    "natural_disaster",
    "ally_deserts",
    "evil_omens",
    "refuge",
    "epidemic",
    "drought",
    "storm_at_sea",
    "manpower_shortage",
    "allied_enthusiasm",
    "new_alliance",
    "rhodian_maritime_alliance",
    "enemys_ally_deserts",
    "enemy_leader_dies",
    "trial_of_verres",
    "pretender_emerges",
    "internal_disorder",
    "barbarian_raids",
)
#: How long an event card stays in play.
EVENT_DURATIONS = ("forum", "until_used", "until_ended")
COMBAT_RESULTS = ("defeat", "stalemate", "victory")
APPEAL_EFFECTS = ("killed", "votes", "freed")
ERA_ENDS = "era_ends"

_DICE = re.compile(r"^(-?)([1-3])d6(?:([+-])(\d{1,2}))?$")
_STATESMAN_ID = re.compile(r"^([1-9]|[12][0-9]|30)[A-C]$")
LOW, HIGH = -99, 99  # the open ends of a table's first and last rows


class RomeDataError(ValueError):
    """The scenario's data is not a game: the message names the file, the table and the item."""


class DiceExpr(Struct, frozen=True):
    """`sign` × (the sum of `dice` d6) + `modifier`: a province's income ("-1d6+1")."""

    text: str
    sign: int
    dice: int
    modifier: int

    @property
    def lowest(self) -> int:
        return min(self.sign * self.dice, self.sign * self.dice * 6) + self.modifier

    @property
    def highest(self) -> int:
        return max(self.sign * self.dice, self.sign * self.dice * 6) + self.modifier


def parse_dice(text: str) -> DiceExpr:
    m = _DICE.match(text.replace(" ", ""))
    if m is None:
        raise ValueError(f"{text!r} is not a dice expression like '1d6', '2d6-2' or '-1d6+1'")
    sign = -1 if m.group(1) else 1
    modifier = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return DiceExpr(text, sign, int(m.group(2)), modifier)


class SenatorCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    family: str
    deck: str
    military: int
    oratory: int
    loyalty: int
    influence: int
    popularity: int = 0


class StatesmanCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    family: str  # the family senator's id
    deck: str
    military: int
    oratory: int
    loyalty: int
    influence: int
    opposes: tuple[str, ...]
    ability: str
    ability_series: tuple[str, ...]
    popularity: int = 0


class WarCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    series: str
    number: int
    land: int
    fleet_support: int
    naval: int
    disaster: tuple[int, ...]
    standoff: tuple[int, ...]
    spoils: int
    arrives: str
    drought: bool
    starts_on_board: bool
    provinces: tuple[str, ...]
    provinces_need_whole_series: bool
    revolt_if_province: str


class LeaderCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    series: str
    strength: int
    disaster: tuple[int, ...]
    standoff: tuple[int, ...]
    tax_farmer_roll: bool


class ConcessionCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    income: int
    kind: str
    destroyed_by: str
    number: int  # a Tax Farmer's number (the die that destroys it), else 0
    needs_land_bill: bool
    grain: bool


class IntrigueCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    copies: int


class EventRoll(Struct, frozen=True, forbid_unknown_fields=True):
    roll: int
    early: str
    middle: str
    late: str


class EventCard(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    lasts: str


class ProvinceRow(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    frontier: bool
    spoils: str
    state: str
    spoils_developed: str
    state_developed: str


class Province(Struct, frozen=True):
    id: str
    frontier: bool
    spoils: DiceExpr
    state: DiceExpr
    spoils_developed: DiceExpr
    state_developed: DiceExpr


class LandBill(Struct, frozen=True, forbid_unknown_fields=True):
    type: int
    cost: int
    recurring: bool
    unrest: int
    sponsor: int
    cosponsor: int
    against: int
    repealable: bool
    repeal_sponsor: int
    repeal_for: int
    repeal_unrest: int
    most_in_force: int


class CombatRow(Struct, frozen=True, forbid_unknown_fields=True):
    low: int
    high: int
    result: str
    losses: int  # -1: everything


class PopulationRow(Struct, frozen=True, forbid_unknown_fields=True):
    low: int
    high: int
    unrest: int
    manpower_shortage: bool
    no_recruitment: bool
    mob: bool


class AppealRow(Struct, frozen=True, forbid_unknown_fields=True):
    low: int
    high: int
    effect: str
    votes: int  # > 0 for conviction, < 0 against


class Games(Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    cost: int
    popularity: int
    unrest: int


class Contribution(Struct, frozen=True, forbid_unknown_fields=True):
    talents: int
    influence: int


class Mortality(Struct, frozen=True, forbid_unknown_fields=True):
    senator_ids: int
    blank: int
    draw_two: int


class Setup(Struct, frozen=True, forbid_unknown_fields=True):
    state_treasury: int
    unrest: int
    legions: int
    fleets: int
    senators_per_player: int
    faction_cards_per_player: int
    bottom_block_early: int
    bottom_block_middle: int


class _File(Struct, frozen=True, forbid_unknown_fields=True):
    era: str
    senator: tuple[SenatorCard, ...]
    statesman: tuple[StatesmanCard, ...]
    war: tuple[WarCard, ...]
    leader: tuple[LeaderCard, ...]
    concession: tuple[ConcessionCard, ...]
    intrigue: tuple[IntrigueCard, ...]
    event_roll: tuple[EventRoll, ...]
    event: tuple[EventCard, ...]
    province: tuple[ProvinceRow, ...]
    land_bill: tuple[LandBill, ...]
    combat: tuple[CombatRow, ...]
    population: tuple[PopulationRow, ...]
    appeal: tuple[AppealRow, ...]
    games: tuple[Games, ...]
    contribution: tuple[Contribution, ...]
    mortality: Mortality
    setup: Setup


_R = TypeVar("_R", CombatRow, PopulationRow, AppealRow)


class Deck:
    """The scenario's cards and tables, validated, read-only. Cards by id in file order."""

    __slots__ = (
        "name",
        "era",
        "senators",
        "statesmen",
        "wars",
        "leaders",
        "concessions",
        "intrigue",
        "events",
        "event_table",
        "provinces",
        "land_bills",
        "combat",
        "population",
        "appeal",
        "games",
        "contributions",
        "mortality",
        "setup",
    )

    def __init__(self, name: str, data: _File, provinces: Sequence[Province]) -> None:
        self.name = name
        self.era = data.era
        self.senators: Mapping[str, SenatorCard] = MappingProxyType({s.id: s for s in data.senator})
        self.statesmen: Mapping[str, StatesmanCard] = MappingProxyType({s.id: s for s in data.statesman})
        self.wars: Mapping[str, WarCard] = MappingProxyType({w.id: w for w in data.war})
        self.leaders: Mapping[str, LeaderCard] = MappingProxyType({x.id: x for x in data.leader})
        self.concessions: Mapping[str, ConcessionCard] = MappingProxyType({c.id: c for c in data.concession})
        self.intrigue: Mapping[str, IntrigueCard] = MappingProxyType({c.id: c for c in data.intrigue})
        self.events: Mapping[str, EventCard] = MappingProxyType({e.id: e for e in data.event})
        self.event_table: Mapping[int, EventRoll] = MappingProxyType({r.roll: r for r in data.event_roll})
        self.provinces: Mapping[str, Province] = MappingProxyType({p.id: p for p in provinces})
        self.land_bills: Mapping[int, LandBill] = MappingProxyType({b.type: b for b in data.land_bill})
        self.combat = data.combat
        self.population = data.population
        self.appeal = data.appeal
        self.games: Mapping[str, Games] = MappingProxyType({g.id: g for g in data.games})
        self.contributions = data.contribution
        self.mortality = data.mortality
        self.setup = data.setup

    # --- the tables, read by a roll ----------------------------------------------------------

    def combat_result(self, total: int) -> CombatRow:
        return _row(self.combat, total)

    def population_result(self, total: int) -> PopulationRow | None:
        """The State of the Republic's row for a modified total; None: the people revolt."""
        if total < self.population[-1].low:
            return None
        return _row(self.population, total)

    def appeal_result(self, total: int) -> AppealRow:
        return _row(self.appeal, total)

    def event_for(self, roll: int, era: str) -> str:
        row = self.event_table[roll]
        return str(getattr(row, era))

    def contribution_influence(self, talents: int) -> int:
        gained = 0
        for row in self.contributions:
            if talents >= row.talents:
                gained = row.influence
        return gained

    # --- the deck's cards --------------------------------------------------------------------

    def family_cards(self, deck: str) -> list[str]:
        return [s.id for s in self.senators.values() if s.deck == deck]

    def deck_cards(self, deck: str) -> list[str]:
        """The cards of one era's deck as dealt at setup, in file order: family senators,
        statesmen, wars (not one that starts on the board), leaders, and, for the scenario's own
        era, the concessions and one card per copy of each faction card (`tribune` ×9 as
        `tribune.1` … `tribune.9`)."""
        cards = self.family_cards(deck)
        cards += [s.id for s in self.statesmen.values() if s.deck == deck]
        if deck == self.era:
            cards += [w.id for w in self.wars.values() if not w.starts_on_board]
            cards += list(self.leaders)
            cards += list(self.concessions)
            for card in self.intrigue.values():
                cards += [card.id] if card.copies == 1 else [f"{card.id}.{n}" for n in range(1, card.copies + 1)]
        return cards

    def kind_of(self, card: str) -> str:
        """What a card id is: senator, statesman, war, leader, concession, intrigue, era_ends."""
        if card in self.senators:
            return "senator"
        if card in self.statesmen:
            return "statesman"
        if card in self.wars:
            return "war"
        if card in self.leaders:
            return "leader"
        if card in self.concessions:
            return "concession"
        if card == ERA_ENDS:
            return "era_ends"
        if card.split(".", 1)[0] in self.intrigue:
            return "intrigue"
        raise KeyError(card)

    @staticmethod
    def intrigue_kind(card: str) -> str:
        """`tribune.3` -> `tribune`."""
        return card.split(".", 1)[0]


def _row(rows: Sequence[_R], total: int) -> _R:
    for row in rows:
        if row.low <= total <= row.high:
            return row
    raise ValueError(f"no row for {total}")  # pragma: no cover - validated tables cover every total


# --- loading and validation -------------------------------------------------------------------


def data_path(name: str) -> Path:
    return Path(str(resources.files("judges.rome").joinpath("data", f"{name}.toml")))


@functools.cache
def load_deck(name: str = "early") -> Deck:
    """The scenario data file `judges/rome/data/<name>.toml`, validated (cached)."""
    if not re.fullmatch(r"[a-z_]+", name):
        raise RomeDataError(f"{name!r} is not a scenario data name")
    path = data_path(name)
    if not path.is_file():
        raise RomeDataError(f"{path.name}: no such scenario data file")
    return parse_deck(path.read_text(encoding="utf-8"), path.name)


def parse_deck(text: str, source: str = "<data>") -> Deck:
    """Parses and validates a scenario data file's text; `RomeDataError` names what is wrong."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RomeDataError(f"{source}: not valid TOML: {exc}") from None
    data = _typed(raw, source)
    provinces = _provinces(data, source)
    _validate(data, {p.id for p in provinces}, source)
    return Deck(source.removesuffix(".toml"), data, provinces)


def _typed(raw: dict[str, Any], source: str) -> _File:
    for table, rows in raw.items():  # name the item before msgspec names the field
        if isinstance(rows, list):
            for i, row in enumerate(rows):
                try:
                    msgspec.convert(row, _ROW_TYPES.get(table, dict))
                except msgspec.ValidationError as exc:
                    name = row.get("id", row.get("type", row.get("roll", i + 1))) if isinstance(row, dict) else i + 1
                    raise RomeDataError(f"{source}: {table} {name!r}: {exc}") from None
    try:
        return msgspec.convert(raw, _File)
    except msgspec.ValidationError as exc:
        raise RomeDataError(f"{source}: {exc}") from None


_ROW_TYPES: dict[str, type[Any]] = {
    "senator": SenatorCard,
    "statesman": StatesmanCard,
    "war": WarCard,
    "leader": LeaderCard,
    "concession": ConcessionCard,
    "intrigue": IntrigueCard,
    "event_roll": EventRoll,
    "event": EventCard,
    "province": ProvinceRow,
    "land_bill": LandBill,
    "combat": CombatRow,
    "population": PopulationRow,
    "appeal": AppealRow,
    "games": Games,
    "contribution": Contribution,
}


def _provinces(data: _File, source: str) -> list[Province]:
    out = []
    for row in data.province:
        exprs = {}
        for name in ("spoils", "state", "spoils_developed", "state_developed"):
            try:
                exprs[name] = parse_dice(getattr(row, name))
            except ValueError as exc:
                raise RomeDataError(f"{source}: province {row.id!r}: {name}: {exc}") from None
        out.append(Province(row.id, row.frontier, **exprs))
    return out


def _fail(source: str, what: str, message: str) -> None:
    raise RomeDataError(f"{source}: {what}: {message}")


def _unique(source: str, table: str, ids: Sequence[object]) -> None:
    seen: set[object] = set()
    for x in ids:
        if x in seen:
            _fail(source, table, f"{x!r} appears twice")
        seen.add(x)


def _validate(data: _File, provinces: set[str], source: str) -> None:
    if data.era not in ERAS:
        _fail(source, "era", f"{data.era!r} is not one of {', '.join(ERAS)}")
    # senators
    _unique(source, "senator", [s.id for s in data.senator])
    ids = [s.id for s in data.senator]
    if ids != [str(n) for n in range(1, len(ids) + 1)]:
        _fail(source, "senator", "family ids must run 1, 2, 3 ... in order (the mortality chits match them)")
    for s in data.senator:
        what = f"senator {s.id!r} ({s.family})"
        if s.deck not in DECKS:
            _fail(source, what, f"deck {s.deck!r} is not one of {', '.join(DECKS)}")
        for attr in ("military", "oratory", "loyalty", "influence"):
            if not 0 <= getattr(s, attr) <= 20:
                _fail(source, what, f"{attr} {getattr(s, attr)} is outside 0-20")
    if not data.setup.senators_per_player * 6 <= sum(1 for s in data.senator if s.deck == data.era):
        _fail(source, "senator", f"too few {data.era} family cards to deal six factions")
    # statesmen
    _unique(source, "statesman", [s.id for s in data.statesman])
    series = {w.series for w in data.war}
    for st in data.statesman:
        what = f"statesman {st.id!r}"
        if not _STATESMAN_ID.match(st.id) or st.id.rstrip("ABC") != st.family:
            _fail(source, what, f"an id is the family's id and a letter (family {st.family!r})")
        if st.family not in {s.id for s in data.senator}:
            _fail(source, what, f"family {st.family!r} is not a senator of the data")
        if st.deck not in DECKS:
            _fail(source, what, f"deck {st.deck!r} is not one of {', '.join(DECKS)}")
        for other in st.opposes:
            if not _STATESMAN_ID.match(other) or other == st.id:
                _fail(source, what, f"opposes {other!r}, which is not another statesman's id")
        if st.ability not in ABILITIES:
            _fail(source, what, f"ability {st.ability!r} is not one of {', '.join(ABILITIES)}")
        for name in st.ability_series:
            if name not in series:
                _fail(source, what, f"ability series {name!r} is not a war series of the data")
    # wars
    _unique(source, "war", [w.id for w in data.war])
    _unique(source, "war", [(w.series, w.number) for w in data.war])
    if sum(w.starts_on_board for w in data.war) != 1:
        _fail(source, "war", "exactly one war starts on the board")
    for w in data.war:
        what = f"war {w.id!r}"
        if w.number < 1:
            _fail(source, what, "its number in the series starts at 1")
        for attr in ("land", "fleet_support", "naval", "spoils"):
            if getattr(w, attr) < 0:
                _fail(source, what, f"{attr} is negative")
        if w.land <= 0:
            _fail(source, what, "land strength must be positive")
        for n in (*w.disaster, *w.standoff):
            if not 3 <= n <= 18:
                _fail(source, what, f"disaster/standoff number {n} is not a 3d6 total")
        if w.arrives not in ARRIVALS:
            _fail(source, what, f"arrives {w.arrives!r} is not one of {', '.join(ARRIVALS)}")
        for p in w.provinces:
            if p not in provinces:
                _fail(source, what, f"province {p!r} is not a province of the data")
        if w.revolt_if_province and w.revolt_if_province not in provinces:
            _fail(source, what, f"revolt_if_province {w.revolt_if_province!r} is not a province of the data")
    # leaders
    _unique(source, "leader", [x.id for x in data.leader])
    for ld in data.leader:
        what = f"leader {ld.id!r}"
        if ld.series not in series:
            _fail(source, what, f"series {ld.series!r} has no war in the data")
        if ld.strength <= 0:
            _fail(source, what, "strength must be positive")
        for n in (*ld.disaster, *ld.standoff):
            if not 3 <= n <= 18:
                _fail(source, what, f"disaster/standoff number {n} is not a 3d6 total")
    # concessions
    _unique(source, "concession", [c.id for c in data.concession])
    farmers = sorted(c.number for c in data.concession if c.destroyed_by == "tax_farmer_roll")
    if farmers and farmers != list(range(1, len(farmers) + 1)):
        _fail(source, "concession", "the Tax Farmers are numbered 1, 2, 3 ... (a die picks one)")
    for c in data.concession:
        what = f"concession {c.id!r}"
        if c.income <= 0:
            _fail(source, what, "income must be positive")
        if c.kind not in CONCESSION_KINDS:
            _fail(source, what, f"kind {c.kind!r} is not one of {', '.join(CONCESSION_KINDS)}")
        if c.destroyed_by not in DESTROYED_BY:
            _fail(source, what, f"destroyed_by {c.destroyed_by!r} is not one of {', '.join(DESTROYED_BY)}")
        if (c.number > 0) != (c.destroyed_by == "tax_farmer_roll"):
            _fail(source, what, "only a Tax Farmer has a number")
    # faction cards
    _unique(source, "intrigue", [c.id for c in data.intrigue])
    for card in data.intrigue:
        if card.id not in INTRIGUE:
            _fail(
                source,
                f"intrigue {card.id!r}",
                f"not one of the faction cards the engine plays ({', '.join(INTRIGUE)})",
            )
        if card.copies < 1:
            _fail(source, f"intrigue {card.id!r}", "copies must be at least 1")
    # events
    _unique(source, "event", [e.id for e in data.event])
    if sorted(e.id for e in data.event) != sorted(EVENTS):
        missing = sorted(set(EVENTS) - {e.id for e in data.event})
        unknown = sorted({e.id for e in data.event} - set(EVENTS))
        _fail(source, "event", f"the events must be exactly the engine's (missing {missing}, unknown {unknown})")
    for e in data.event:
        if e.lasts not in EVENT_DURATIONS:
            _fail(source, f"event {e.id!r}", f"lasts {e.lasts!r} is not one of {', '.join(EVENT_DURATIONS)}")
    if sorted(r.roll for r in data.event_roll) != list(range(3, 19)):
        _fail(source, "event_roll", "the events table needs one row for each 3d6 total, 3 to 18")
    for r in data.event_roll:
        for era in ERAS:
            if getattr(r, era) not in EVENTS:
                _fail(source, f"event_roll {r.roll}", f"{era} names {getattr(r, era)!r}, not an event")
    # land bills
    if sorted(b.type for b in data.land_bill) != [1, 2, 3]:
        _fail(source, "land_bill", "there are three types, 1 to 3")
    for b in data.land_bill:
        what = f"land_bill {b.type}"
        if b.cost <= 0 or b.most_in_force <= 0:
            _fail(source, what, "cost and most_in_force must be positive")
        if b.unrest >= 0 or b.against >= 0:
            _fail(source, what, "passing one lowers unrest and costs the voters against it popularity")
        if b.repealable != (b.repeal_sponsor < 0):
            _fail(source, what, "a repealable bill costs its repeal's sponsor popularity, and only then")
    # tables
    _contiguous(source, "combat", data.combat)
    for row in data.combat:
        if row.result not in COMBAT_RESULTS or row.losses < -1:
            _fail(source, f"combat {row.low}..{row.high}", "result or losses out of range")
    _contiguous(source, "population", sorted(data.population, key=lambda r: r.low))
    if list(data.population) != sorted(data.population, key=lambda r: -r.low):
        _fail(source, "population", "rows run from the best total down")
    _contiguous(source, "appeal", data.appeal)
    for ar in data.appeal:
        if ar.effect not in APPEAL_EFFECTS:
            _fail(
                source, f"appeal {ar.low}..{ar.high}", f"effect {ar.effect!r} is not one of {', '.join(APPEAL_EFFECTS)}"
            )
    if [c.talents for c in data.contribution] != sorted({c.talents for c in data.contribution}):
        _fail(source, "contribution", "rows run by talents, ascending")
    for g in data.games:
        if g.cost <= 0 or g.popularity <= 0 or g.unrest >= 0:
            _fail(source, f"games {g.id!r}", "games cost talents, raise popularity and lower unrest")
    if data.mortality.senator_ids != len(data.senator):
        _fail(source, "mortality", f"one chit per senator id: {len(data.senator)}, not {data.mortality.senator_ids}")
    if data.mortality.blank < 0 or data.mortality.draw_two < 0:
        _fail(source, "mortality", "chit counts cannot be negative")
    for info in msgspec.structs.fields(Setup):
        if getattr(data.setup, info.name) < 0:
            _fail(source, "setup", f"{info.name} cannot be negative")


def _contiguous(source: str, table: str, rows: Sequence[CombatRow | PopulationRow | AppealRow]) -> None:
    if not rows:
        _fail(source, table, "the table is empty")
    if rows[-1].high != HIGH or (table != "population" and rows[0].low != LOW):
        _fail(source, table, f"the table must cover every total (first row from {LOW}, last to {HIGH})")
    for a, b in zip(rows, rows[1:]):
        if a.low > a.high or b.low != a.high + 1:
            _fail(source, table, f"rows {a.low}..{a.high} and {b.low}..{b.high} leave a gap or overlap")
