"""Every number of the rules, as one value: `Rules`, carried by each game's `Options`.

[D] numbers are the project's design (rules brief), tunable without touching logic.
[M] numbers come from the owner's manual and are binding; they live here too so that
nothing in the engine is a magic number.

A `Rules` is frozen and validated when built or decoded; a game reads the rules of its
own options (`state.options.rules`, `ctx.rules`), never a module global, so games under
different rules can be played side by side in one process and a stored game replays under
the rules it was played with. `DEFAULT_RULES = Rules()` is the standard game. A variant is
`msgspec.structs.replace(DEFAULT_RULES, wrath_threshold=10)` (or `judges lab --set`).

The dict-valued rules (costs, deck, terrain move costs, event terrain by die) are read-only
mappings (`ReadOnlyDict`): they encode as JSON objects, hash by their items, and refuse to
be changed in place; build a new `Rules` instead.
"""

from __future__ import annotations

import functools
from typing import Any, NoReturn, TypeVar

import msgspec
from msgspec import Struct, field


class RulesError(ValueError):
    """A `Rules` value that no game can be played under: the message names the rule.

    `key` and `params` translate it (the server answers them with its 422); `rule` is the
    field's name."""

    def __init__(self, message: str, key: str = "error.rule_invalid", rule: str = "", **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.rule = rule
        self.params = {"rule": rule, **params}


_K = TypeVar("_K")
_V = TypeVar("_V")


class ReadOnlyDict(dict[_K, _V]):
    """A dict that refuses changes (and so may be hashed): the dict-valued rules. Its hash is
    worked out once (a dict that never changes keeps it): it keys facts derived per set of
    rules, such as each map's movement under its terrain costs, asked at every Movement turn."""

    __slots__ = ("_hash",)
    _hash: int

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("the rules are read-only: build a new Rules (msgspec.structs.replace)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash
        except AttributeError:
            self._hash = hashed = hash(tuple(sorted(self.items(), key=repr)))
            return hashed

    def __reduce__(
        self,
    ) -> tuple[
        type[ReadOnlyDict[_K, _V]], tuple[dict[_K, _V]]
    ]:  # pickle and copy build a new one rather than filling it item by item
        return (ReadOnlyDict, (dict(self),))

    def __copy__(self) -> ReadOnlyDict[_K, _V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyDict[_K, _V]:
        return self


def _ro(mapping: dict[_K, _V]) -> dict[_K, _V]:
    return field(default_factory=lambda: ReadOnlyDict(mapping))


DICT_RULES = ("deck", "event_terrain_by_die", "costs", "terrain_move_cost")


class Rules(Struct, frozen=True, kw_only=True, dict=True):
    # --- The map -----------------------------------------------------------------------------
    map: str = "canaan"  # [D] the board: judges/data/maps/{map}.toml

    # --- Players and setup -------------------------------------------------------------------
    min_players: int = 2  # [D] 2 only for quick games
    max_players: int = 6  # [D]
    start_coins: int = 0  # [D] treasury at setup
    start_cards: int = 1  # [D] intrigue cards dealt at setup
    start_villages: int = 2  # [D] home villages each player starts with
    start_garrison: int = 2  # [D] troops in each starting village
    start_generals: int = 2  # [D] generals placed on the first starting village
    canaanite_garrison: int = 3  # [D] troops of a Canaanite-held village
    canaanite_city_garrison: int = 4  # [D] troops of a Canaanite-held city (which also has walls)
    canaanite_city_walls: bool = True  # [D] a Canaanite-held city starts with walls
    default_wave_pairs: int = 1  # [M] invader pairs per wave on the default difficulty (2 = hard)
    max_wave_pairs: int = 2  # [M]
    simulation_round_limit: int = 60  # [D] round cap used by simulations (no cap by default)

    # --- Pieces ------------------------------------------------------------------------------
    max_generals: int = 6  # [D] generals per player
    village_max_developments: int = 1  # [D]
    city_max_developments: int = 3  # [D]
    max_walls: int = 1  # [D] walls per settlement
    prophet_tokens: int = 2  # [D] prophets in the supply
    anointed_tokens: int = 1  # [D]
    hand_limit: int = 5  # [D] intrigue cards in hand

    # --- Intrigue deck [D]: card -> copies (30 cards) -----------------------------------------
    deck: dict[str, int] = _ro(
        {
            "tax": 5,
            "plague": 3,
            "abundance": 4,
            "famine": 4,
            "sandstorm": 2,
            "assassin": 4,
            "revolt": 4,
            "prophet": 2,
            "anointing": 2,
        }
    )

    # --- Income [M] --------------------------------------------------------------------------
    village_income: int = 1  # [M]
    city_income: int = 2  # [M]
    development_income: int = 2  # [M] per development
    abundance_bonus: int = 1  # [M]
    famine_penalty: int = 1  # [M]
    dowry: int = 6  # [M] coins everyone receives in round 1
    dowry_round: int = 1  # [M]
    tax_multiplier: int = 2  # [M] the tax collector gets double the value of each settlement
    min_settlement_value: int = 0  # [D] income value never goes below this

    # --- Wrath of God ------------------------------------------------------------------------
    wrath_threshold: int = 13  # [M] the meter reaching this declares a judgment
    wrath_canaanite_presence: int = 1  # [M] per round while Canaanites hold a settlement of Israel or Judah
    wrath_mercenary: int = 1  # [D] per mercenary hired
    wrath_assassination: int = 2  # [D] per general killed by an assassin
    wrath_assassin_exposed: int = 1  # [D] per exposed attempt
    wrath_plunder: int = 1  # [D] per plundered settlement
    wrath_prophet_killed: int = 3  # [D] per general carrying a prophet who dies
    wrath_tax: int = 1  # [D] per tax card played

    # --- Events ------------------------------------------------------------------------------
    # [M] d6 face -> terrain when an event card lands
    event_terrain_by_die: dict[int, str] = _ro(
        {1: "plain", 2: "plain", 3: "mountains", 4: "mountains", 5: "desert", 6: "desert"}
    )
    sandstorm_terrain: str = "desert"  # [M]
    plague_troop_loss_max_die: int = 3  # [D] a garrison or army loses half its troops on a d6 of 1..this
    plague_general_death_max_die: int = 1  # [D] a general dies on a d6 of 1..this

    # --- Victory -----------------------------------------------------------------------------
    points_to_win: int = 3  # [M]
    points_per_judge: int = 1  # [M]
    points_king: int = 1  # [M]
    points_tabernacle: int = 1  # [M]
    settlements_to_sustain_judge: int = 4  # [M] standing settlements a region needs to keep its judge
    min_sustaining_regions: int = 3  # [M] fewer regions able to sustain a judge: collapse of the regions

    # --- Phase 2 Intrigue [D] ----------------------------------------------------------------
    free_draw: int = 1  # cards every living player draws at the start of Intrigue
    cards_per_turn: int = 2  # cards a player may play in one Intrigue turn
    taxes_per_region: int = 1  # Tax cards per region per round
    assassin_kill_min_die: int = 5  # d6 at least this: the target dies
    assassin_exposed_max_die: int = 2  # d6 at most this: the assassin is exposed
    assassin_exposed_fine: int = 3  # coins the exposed assassin pays the target's owner
    revolt_troops_placed: int = 1  # troops of the rebel's colour left in a successful revolt

    # --- Phase 4 Acquisitions [D]: item -> cost in coins --------------------------------------
    costs: dict[str, int] = _ro(
        {
            "troop": 1,
            "mercenary": 2,
            "development": 4,
            "wall": 10,
            "general": 6,
            "card": 3,
        }
    )

    # --- Phase 5 Movement [D] ----------------------------------------------------------------
    movement_points: int = 3  # per general per Movement phase
    terrain_move_cost: dict[str, int] = _ro({"plain": 1, "desert": 1, "mountains": 2})

    # --- Phase 6 Combat [D] ------------------------------------------------------------------
    attacker_hit_min: int = 5  # attackers hit on 5-6
    defender_hit_min: int = 5  # defenders hit on 5-6
    walls_hit_min: int = 4  # defenders behind walls hit on 4-6
    king_extra_dice: int = 1  # the King's general rolls this many extra dice
    invader_dice: int = 4  # an invader pair rolls 4 dice
    invader_hit_min: int = 4  # hitting on 4-6
    invader_pair_strength: int = 2  # hits that destroy a pair (two invaders) [rules reference]
    canaanite_hit_min: int = 5  # a Canaanite garrison hits like any defender (4-6 behind walls)
    plunder_multiplier: int = 3  # plunder gains 3 x the settlement's income value
    max_battle_rounds: int = 100  # a safety bound; every round of dice removes something on average

    def __post_init__(self) -> None:
        for name in DICT_RULES:
            value = getattr(self, name)
            if type(value) is not ReadOnlyDict:
                msgspec.structs.force_setattr(self, name, ReadOnlyDict(value))
        validate_rules(self)

    @functools.cached_property
    def prices(self) -> tuple[dict[str, int], int]:
        """Every item's price under these rules, and the cheapest (built once: Rules are frozen;
        `dict=True` gives the Struct the room to keep it, outside its fields)."""
        from .items import ITEMS, cost

        price = {item: cost(self, item) for item in ITEMS}
        return price, min(price.values())

    def constant_names(self) -> dict[str, Any]:
        """The rules under their historical UPPERCASE names (``WRATH_THRESHOLD``), for text
        templates that spell them that way."""
        return {name.upper(): getattr(self, name) for name in self.__struct_fields__}


DIE_FACES = 6  # the game's dice are d6 (judges.engine.dice)

# rules that are a d6 face: 1..6
_DIE_RULES = (
    "plague_troop_loss_max_die",
    "plague_general_death_max_die",
    "assassin_kill_min_die",
    "assassin_exposed_max_die",
    "attacker_hit_min",
    "defender_hit_min",
    "walls_hit_min",
    "invader_hit_min",
    "canaanite_hit_min",
)
# rules that must be at least 1
_POSITIVE_RULES = (
    "min_players",
    "max_players",
    "max_wave_pairs",
    "default_wave_pairs",
    "simulation_round_limit",
    "max_generals",
    "hand_limit",
    "wrath_threshold",
    "points_to_win",
    "cards_per_turn",
    "movement_points",
    "invader_dice",
    "invader_pair_strength",
    "max_battle_rounds",
    "dowry_round",
)


# The largest value of every count: a game is work proportional to these numbers (cards drawn,
# troops, dice, rounds of battle...), and a table created by anyone must stay cheap to play,
# store and replay. Generous for design (10x the standard game or more); `validate_rules`
# refuses more, and a test checks that every integer rule has its maximum here. The items'
# costs, the deck's copies and the terrains' move costs are bounded by the three `*_MAX` below.
RULE_MAXIMA: dict[str, int] = {
    "min_players": 6,
    "max_players": 6,  # the seats' colours and names: six tribes
    "start_coins": 1000,
    "start_cards": 10,
    "start_villages": 10,
    "start_garrison": 100,
    "start_generals": 12,
    "canaanite_garrison": 100,
    "canaanite_city_garrison": 100,
    "default_wave_pairs": 6,
    "max_wave_pairs": 6,
    "simulation_round_limit": 1000,
    "max_generals": 12,
    "village_max_developments": 10,
    "city_max_developments": 10,
    "max_walls": 5,
    "prophet_tokens": 10,
    "anointed_tokens": 10,
    "hand_limit": 20,
    "village_income": 100,
    "city_income": 100,
    "development_income": 100,
    "abundance_bonus": 100,
    "famine_penalty": 100,
    "dowry": 1000,
    "dowry_round": 1000,
    "tax_multiplier": 10,
    "min_settlement_value": 100,
    "wrath_threshold": 100,
    "wrath_canaanite_presence": 100,
    "wrath_mercenary": 100,
    "wrath_assassination": 100,
    "wrath_assassin_exposed": 100,
    "wrath_plunder": 100,
    "wrath_prophet_killed": 100,
    "wrath_tax": 100,
    "plague_troop_loss_max_die": 6,
    "plague_general_death_max_die": 6,
    "points_to_win": 20,
    "points_per_judge": 10,
    "points_king": 10,
    "points_tabernacle": 10,
    "settlements_to_sustain_judge": 20,
    "min_sustaining_regions": 20,
    "free_draw": 10,
    "cards_per_turn": 10,
    "taxes_per_region": 10,
    "assassin_kill_min_die": 6,
    "assassin_exposed_max_die": 6,
    "assassin_exposed_fine": 100,
    "revolt_troops_placed": 100,
    "movement_points": 20,
    "attacker_hit_min": 6,
    "defender_hit_min": 6,
    "walls_hit_min": 6,
    "king_extra_dice": 10,
    "invader_dice": 20,
    "invader_hit_min": 6,
    "invader_pair_strength": 20,
    "canaanite_hit_min": 6,
    "plunder_multiplier": 10,
    "max_battle_rounds": 1000,
}
COST_MAX = 1000  # coins an item may cost
DECK_COPIES_MAX = 20  # copies of one intrigue card
TERRAIN_COST_MAX = 20  # movement points a terrain may cost
NAME_MAX_CHARS = 40  # a terrain's name (a map's: world.MAP_NAME_MAX_CHARS)


_KIND_NAMES = {bool: "true/false", int: "an integer", str: "a string", tuple: "a list of names", dict: "a mapping"}


@functools.lru_cache(maxsize=1)
def _field_kinds() -> dict[str, type]:
    """Field name -> bool, int, str, tuple or dict (from the annotations)."""
    out = {}
    for f in msgspec.structs.fields(Rules):
        out[f.name] = getattr(f.type, "__origin__", f.type)
    return out


def _is_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is tuple:
        return isinstance(value, tuple) and all(isinstance(v, str) for v in value)
    return isinstance(value, kind)


def _range_error(name: str, value: Any, low: int, high: int, message: str) -> RulesError:
    return RulesError(message, "error.rule_range", name, min=low, max=high, value=value)


def _check_count(name: str, value: Any, low: int, high: int, message: str | None = None) -> None:
    """An integer from `low` to `high` (a bool is not an integer here)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"rule {name} must be {_KIND_NAMES[int]}, not {value!r}", "error.rule_kind", name)
    if not low <= value <= high:
        if message is None:
            if value < low:
                message = f"rule {name} must be at least {low}, not {value}"
            else:
                message = f"rule {name} may be at most {high}, not {value}"
        raise _range_error(name, value, low, high, message)


def _check_name(name: str, value: str) -> None:
    if not value or len(value) > NAME_MAX_CHARS:
        raise RulesError(f"rule {name} must be a name of 1 to {NAME_MAX_CHARS} characters", "error.rule_invalid", name)


def validate_rules(rules: Rules) -> None:
    """Raises RulesError naming the first rule no game could be played under, or one beyond its
    maximum (`RULE_MAXIMA`: what a table anyone creates may ask of the server)."""
    from ..world import map_exists  # the world module is data access; imported here to keep rules light

    for name, kind in _field_kinds().items():
        value = getattr(rules, name)
        if not _is_kind(value, kind):
            raise RulesError(
                f"rule {name} must be {_KIND_NAMES.get(kind, kind)}, not {value!r}", "error.rule_kind", name
            )
        if kind is int:
            if value < 0:
                raise _range_error(name, value, 0, RULE_MAXIMA[name], f"rule {name} must not be negative, not {value}")
            if value > RULE_MAXIMA[name] and name not in _DIE_RULES:  # a die face: said below
                raise _range_error(
                    name, value, 0, RULE_MAXIMA[name], f"rule {name} may be at most {RULE_MAXIMA[name]}, not {value}"
                )
    for name in _POSITIVE_RULES:
        _check_count(name, getattr(rules, name), 1, RULE_MAXIMA[name])
    for name in _DIE_RULES:
        value = getattr(rules, name)
        _check_count(name, value, 1, DIE_FACES, f"rule {name} is a die face: 1 to {DIE_FACES}, not {value}")
    _check_name("sandstorm_terrain", rules.sandstorm_terrain)
    if rules.min_players > rules.max_players:
        raise RulesError(
            f"rule min_players ({rules.min_players}) exceeds max_players ({rules.max_players})",
            "error.rule_invalid",
            "min_players",
        )
    if not 1 <= rules.default_wave_pairs <= rules.max_wave_pairs:
        raise _range_error(
            "default_wave_pairs",
            rules.default_wave_pairs,
            1,
            rules.max_wave_pairs,
            f"rule default_wave_pairs must be 1 to max_wave_pairs ({rules.max_wave_pairs}), "
            f"not {rules.default_wave_pairs}",
        )
    # what the engine sells and deals: the tables of items and cards (imported here, late,
    # because those modules read their prices and copies from a Rules)
    from .cards import CARDS
    from .items import ITEMS

    _ITEMS, _CARDS = tuple(ITEMS), tuple(CARDS)
    if set(rules.costs) != set(_ITEMS):
        raise RulesError(
            f"rule costs must price exactly the items {', '.join(_ITEMS)}, not {', '.join(map(str, rules.costs))}",
            "error.rule_invalid",
            "costs",
        )
    if set(rules.deck) != set(_CARDS):
        raise RulesError(
            f"rule deck must count exactly the cards {', '.join(_CARDS)}, not {', '.join(map(str, rules.deck))}",
            "error.rule_invalid",
            "deck",
        )
    for item, cost in rules.costs.items():
        _check_count(
            f"costs.{item}", cost, 1, COST_MAX, f"rule costs.{item} must be a positive number of coins, not {cost!r}"
        )
    for card, copies in rules.deck.items():
        _check_count(
            f"deck.{card}",
            copies,
            0,
            DECK_COPIES_MAX,
            f"rule deck.{card} must be a number of copies (0 to {DECK_COPIES_MAX}), not {copies!r}",
        )
    dealt = rules.start_cards * rules.max_players
    if dealt > sum(rules.deck.values()):
        raise RulesError(
            f"rule start_cards: {rules.start_cards} cards for each of {rules.max_players} players "
            f"need {dealt} cards, the deck holds {sum(rules.deck.values())}",
            "error.rule_invalid",
            "start_cards",
        )
    if sorted(rules.event_terrain_by_die) != list(range(1, DIE_FACES + 1)):
        raise RulesError(
            f"rule event_terrain_by_die must name a terrain for each die face 1 to {DIE_FACES}, "
            f"not faces {sorted(rules.event_terrain_by_die)}",
            "error.rule_invalid",
            "event_terrain_by_die",
        )
    terrains = set(rules.terrain_move_cost)
    for terrain_rule, terrain in [
        ("sandstorm_terrain", rules.sandstorm_terrain),
        *((f"event_terrain_by_die.{k}", v) for k, v in rules.event_terrain_by_die.items()),
    ]:
        if terrain not in terrains:
            raise RulesError(
                f"rule {terrain_rule} names {terrain!r}; terrains: {', '.join(sorted(terrains))}",
                "error.rule_invalid",
                terrain_rule,
            )
    for terrain, cost in rules.terrain_move_cost.items():
        _check_name("terrain_move_cost", terrain)
        _check_count(
            f"terrain_move_cost.{terrain}",
            cost,
            1,
            TERRAIN_COST_MAX,
            f"rule terrain_move_cost.{terrain} must be 1 to {TERRAIN_COST_MAX}, not {cost!r}",
        )
    if not map_exists(rules.map):
        raise RulesError(
            f"rule map: no map called {rules.map[:60]!r} (judges/data/maps/{rules.map[:60]}.toml)",
            "error.no_map",
            "map",
        )


DEFAULT_RULES = Rules()

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Rules)


def rules_to_json(rules: Rules) -> bytes:
    return _encoder.encode(rules)


def rules_from_json(data: bytes | str) -> Rules:
    """A Rules from JSON; a malformed or invalid one raises RulesError."""
    try:
        return _decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise RulesError(str(exc)) from None


def rules_with(overrides: dict[str, Any], base: Rules = DEFAULT_RULES) -> Rules:
    """`base` with the rules named in `overrides` changed (a table's variant, as a client sends
    it). Raises RulesError, with its key and parameters, for an unknown rule, a value of the
    wrong kind, or one outside its bounds."""
    known = set(base.__struct_fields__)
    for name in overrides:
        if name not in known:
            shown = str(name)[:NAME_MAX_CHARS]
            raise RulesError(f"there is no rule called {shown!r}", "error.rule_unknown", shown)
    try:
        return msgspec.convert({**msgspec.to_builtins(base), **overrides}, Rules, str_keys=True)
    except msgspec.ValidationError as exc:
        if isinstance(exc.__cause__, RulesError):
            raise exc.__cause__ from None
        # msgspec's own type check names the field: "Expected `int`, got `str` - at `$.free_draw`"
        path = str(exc).rpartition("at `$.")[2].rstrip("`")
        rule = path.split(".")[0].split("[")[0] if "at `$." in str(exc) else ""
        raise RulesError(f"rules: {exc}", "error.rule_kind", rule) from None
