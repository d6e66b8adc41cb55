"""The board: loading and validating map data.

A map is data, not code (rules brief § 1): a TOML file under ``judges/data/maps/`` describing
hexes (axial coordinates ``q``, ``r``; pointy-top), their terrain, the settlements on them, the
regions those settlements form, the ring of settlements, the Tabernacle, where the Ark starts and
the home regions for each player count.

This module is pure: apart from reading the map file it does no I/O, and the :class:`World` it
builds is immutable. All validation lives in :func:`parse_world`; any problem raises
:class:`MapDataError` with a message naming the file and the offending item.

Indices used throughout the engine:

* hex index: position of the hex in the file's ``[[hexes]]`` list;
* settlement index: regions in file order, within a region in listed order (city first);
* region index: position of the region in the file's ``[[regions]]`` list.
"""

from __future__ import annotations

import functools
import tomllib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

_T = TypeVar("_T")

__all__ = [
    "TERRAINS",
    "KINGDOMS",
    "AXIAL_DIRECTIONS",
    "MapDataError",
    "Hex",
    "SettlementInfo",
    "Region",
    "World",
    "load_world",
    "load_world_file",
    "parse_world",
]

TERRAINS = ("plain", "mountains", "desert")
KINGDOMS = ("israel", "judah", "foreign")

#: Axial (dq, dr) steps to the six neighbours of a pointy-top hex, clockwise from east.
AXIAL_DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

MIN_PLAYERS = 2
MAX_PLAYERS = 6
START_VILLAGES_PER_HOME = 2
MIN_SETTLEMENTS_PER_REGION = 2

_TOP_KEYS_REQUIRED = ("name", "tabernacle", "ark_start", "ring", "home_regions", "regions", "hexes")
_TOP_KEYS_OPTIONAL = ("home_coins", "home_villages", "home_troops")
_REGION_KEYS_REQUIRED = ("name", "kingdom", "settlements")
_REGION_KEYS_OPTIONAL = ("canaanite", "start_villages")
_HEX_KEYS_REQUIRED = ("q", "r", "terrain")
_HEX_KEYS_OPTIONAL = ("settlement",)


class MapDataError(ValueError):
    """The map data is malformed; the message names the file and the problem."""


@dataclass(frozen=True, slots=True)
class Hex:
    index: int
    q: int
    r: int
    terrain: str
    settlement: int | None  # settlement index, or None


@dataclass(frozen=True, slots=True)
class SettlementInfo:
    index: int
    name: str
    hex: int
    region: int
    is_city: bool
    canaanite_start: bool
    ring_pos: int


@dataclass(frozen=True, slots=True)
class Region:
    index: int
    name: str
    kingdom: str
    settlements: tuple[int, ...]  # city first
    city: int
    start_villages: tuple[int, ...]  # empty tuple when not given


@dataclass(frozen=True, slots=True)
class World:
    name: str
    hexes: tuple[Hex, ...]
    settlements: tuple[SettlementInfo, ...]
    regions: tuple[Region, ...]
    ring: tuple[int, ...]  # settlement indices, clockwise
    tabernacle_hex: int
    ark_start_hex: int
    home_regions: dict[int, tuple[int, ...]]  # player count -> region indices in seat order
    # player count -> coins each seat adds to the treasury at setup (`[home_coins]`; zeros when
    # the map gives none for that count): the compensation of a weaker home
    home_coins: dict[int, tuple[int, ...]]
    # player count -> per seat, the extra villages (settlement indices) the seat starts with
    # besides its home's start villages (`[home_villages]`; none when the map gives none for that
    # count): a weaker home's positional compensation
    home_villages: dict[int, tuple[tuple[int, ...], ...]]
    # player count -> per seat, the troops of each village it starts with, in place of
    # START_GARRISON (`[home_troops]`): one number per village, the home's start villages then the
    # seat's `home_villages`; None (START_GARRISON) when the map gives none for that count. A
    # stronger home's handicap
    home_troops: dict[int, tuple[tuple[int, ...] | None, ...]]
    neighbours: tuple[tuple[int, ...], ...]  # hex index -> adjacent hex indices
    hex_at: dict[tuple[int, int], int]  # (q, r) -> hex index
    settlement_by_name: dict[str, int]
    region_by_name: dict[str, int]
    # hex index -> hex index -> hex_distance: all pairs, computed once per map, for bots and
    # searches that ask millions of times (a lookup instead of a call and arithmetic)
    distances: tuple[tuple[int, ...], ...] = ()
    # Facts derived from the map, built once each when first asked (`derived`): owned by the
    # World, so they live and die with it (no cache keyed by id(world) elsewhere).
    _derived: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def derived(self, key: Any, build: Callable[[], _T]) -> _T:
        """The fact `key` of this map, `build()` the first time (a World never changes). `key`
        names the fact and what else it depends on (terrain costs, a range)."""
        try:
            return self._derived[key]  # type: ignore[no-any-return,unused-ignore]
        except KeyError:
            value = self._derived[key] = build()
            return value

    def hexes_of(self, terrain: str) -> tuple[Hex, ...]:
        """The hexes of one terrain, in map order."""
        return self.derived(("terrain", terrain), lambda: tuple(h for h in self.hexes if h.terrain == terrain))

    def __repr__(self) -> str:
        return (
            f"World({self.name!r}: {len(self.hexes)} hexes, {len(self.settlements)} settlements, "
            f"{len(self.regions)} regions)"
        )

    # The dict fields are not hashable; hash a few cheap immutable parts (equal worlds agree on
    # them, which is all a hash needs).
    def __hash__(self) -> int:
        return hash((self.name, len(self.hexes), self.ring, self.tabernacle_hex, self.ark_start_hex))

    def ring_next(self, settlement: int, direction: int) -> int:
        """The settlement after ``settlement`` on the ring: +1 clockwise, -1 counter-clockwise."""
        if direction not in (1, -1):
            raise ValueError(f"ring direction must be +1 or -1, not {direction!r}")
        pos = self.settlements[settlement].ring_pos
        return self.ring[(pos + direction) % len(self.ring)]

    def starting_troops(self, players: int, seat: int, village: int, default: int) -> int:
        """The garrison `village` starts with for `seat` in a game of `players`: the map's
        `[home_troops]` for that seat, else `default` (START_GARRISON). Its numbers follow the
        home's start villages, then the seat's `home_villages`."""
        troops = self.home_troops[players][seat]
        if troops is None:
            return default
        home = self.regions[self.home_regions[players][seat]]
        return troops[(home.start_villages + self.home_villages[players][seat]).index(village)]

    def settlement_terrain(self, settlement: int) -> str:
        return self.hexes[self.settlements[settlement].hex].terrain

    def hex_distance(self, a: int, b: int) -> int:
        """Number of steps between two hexes on an unbounded grid (axial distance). The same
        numbers for every pair at once: `distances`."""
        return _axial_distance(self.hexes[a], self.hexes[b])


def _axial_distance(ha: Hex, hb: Hex) -> int:
    dq, dr = ha.q - hb.q, ha.r - hb.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --------------------------------------------------------------------------------------------
# Loading


def load_world(name: str = "canaan") -> World:
    """Load the packaged map ``judges/data/maps/{name}.toml``.

    Cached: every call with the same name returns the same (immutable) World.
    """
    return _load_packaged(name)


@functools.cache
def _load_packaged(name: str) -> World:
    if not name or any(ch in name for ch in "/\\.") or name != name.strip():
        raise MapDataError(f"{name!r}: not a valid map name")
    ref = resources.files("judges") / "data" / "maps" / f"{name}.toml"
    if not ref.is_file():
        raise MapDataError(f"{name}.toml: no such map in judges/data/maps")
    return _parse_bytes(ref.read_bytes(), f"{name}.toml")


MAP_NAME_MAX_CHARS = 40


def map_exists(name: str) -> bool:
    """Whether ``judges/data/maps/{name}.toml`` is a packaged map. Not cached by name: a name
    may come from a request (`/api/world?map=`), and a cache keyed by it would grow with every
    distinct one; the packaged maps are listed once."""
    return isinstance(name, str) and len(name) <= MAP_NAME_MAX_CHARS and name in _packaged_names()


@functools.cache
def _packaged_names() -> frozenset[str]:
    names = (p.name[:-5] for p in (resources.files("judges") / "data" / "maps").iterdir() if p.name.endswith(".toml"))
    return frozenset(n for n in names if n and "." not in n and n == n.strip())


def available_maps() -> list[str]:
    """The names of the packaged maps."""
    return sorted(_packaged_names())


load_world.cache_clear = _load_packaged.cache_clear  # type: ignore[attr-defined]


def load_world_file(path: str | Path) -> World:
    """Load a map from any TOML file."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise MapDataError(f"{path.name}: cannot read map file ({exc.strerror or exc})") from exc
    return _parse_bytes(raw, path.name)


def _parse_bytes(raw: bytes, source: str) -> World:
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise MapDataError(f"{source}: not UTF-8 text ({exc.reason})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise MapDataError(f"{source}: invalid TOML ({exc})") from exc
    return parse_world(data, source)


# --------------------------------------------------------------------------------------------
# Validation helpers


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str) -> MapDataError:
        return MapDataError(f"{self.source}: {message}")

    def table(self, value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be a table, not {_type_name(value)}")
        return value

    def keys(self, table: dict[str, Any], what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        for key in table:
            if key not in required and key not in optional:
                allowed = ", ".join(required + optional)
                raise self.fail(f'{what} has unknown key "{key}" (allowed: {allowed})')
        for key in required:
            if key not in table:
                raise self.fail(f'{what} is missing the key "{key}"')

    def string(self, value: Any, what: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{what} must be a string, not {_type_name(value)}")
        if not value.strip():
            raise self.fail(f"{what} must not be empty")
        return value

    def integer(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{what} must be an integer, not {_type_name(value)}")
        return value

    def str_list(self, value: Any, what: str) -> list[str]:
        if not isinstance(value, list):
            raise self.fail(f"{what} must be a list of names, not {_type_name(value)}")
        return [self.string(item, f"an entry of {what}") for item in value]

    def no_repeats(self, names: list[str], what: str) -> None:
        seen: set[str] = set()
        for name in names:
            if name in seen:
                raise self.fail(f'{what} lists "{name}" twice')
            seen.add(name)


def _type_name(value: Any) -> str:
    return {
        dict: "a table",
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
    }.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------------------------
# Parsing


def parse_world(data: dict[str, Any], source: str = "<data>") -> World:
    """Validate parsed map data (e.g. from ``tomllib``) and build the :class:`World`."""
    ck = _Checker(source)
    ck.table(data, "the map")
    ck.keys(data, "the map", _TOP_KEYS_REQUIRED, _TOP_KEYS_OPTIONAL)
    name = ck.string(data["name"], "name")

    # ---- regions and settlements ------------------------------------------------------------
    raw_regions = data["regions"]
    if not isinstance(raw_regions, list) or not raw_regions:
        raise ck.fail("regions must be a non-empty list of [[regions]] tables")

    settlement_by_name: dict[str, int] = {}
    settlement_names: list[str] = []
    settlement_region: list[int] = []
    settlement_is_city: list[bool] = []
    settlement_canaanite: list[bool] = []
    region_by_name: dict[str, int] = {}
    region_rows: list[tuple[str, str, tuple[int, ...], list[str] | None]] = []

    for ri, raw in enumerate(raw_regions):
        where = f"region #{ri + 1}"
        ck.table(raw, where)
        if "name" in raw:
            where = f'region "{ck.string(raw["name"], f"the name of {where}")}"'
        ck.keys(raw, where, _REGION_KEYS_REQUIRED, _REGION_KEYS_OPTIONAL)
        rname = raw["name"]
        if rname in region_by_name:
            raise ck.fail(f'region "{rname}" is defined twice')
        kingdom = ck.string(raw["kingdom"], f"the kingdom of {where}")
        if kingdom not in KINGDOMS:
            raise ck.fail(f'{where} has unknown kingdom "{kingdom}" (expected one of {", ".join(KINGDOMS)})')
        names = ck.str_list(raw["settlements"], f"the settlements of {where}")
        if not names:
            raise ck.fail(
                f"{where} has no settlements: a region has exactly one city (the first listed) and at least one village"
            )
        if len(names) < MIN_SETTLEMENTS_PER_REGION:
            raise ck.fail(
                f'{where} has only {len(names)} settlement ("{names[0]}"): a region needs its '
                f"city (the first listed) and at least one village"
            )
        ck.no_repeats(names, where)
        indices = []
        for pos, sname in enumerate(names):
            if sname in settlement_by_name:
                other = raw_regions[settlement_region[settlement_by_name[sname]]]["name"]
                raise ck.fail(f'settlement "{sname}" is listed by two regions ("{other}" and "{rname}")')
            index = len(settlement_names)
            settlement_by_name[sname] = index
            settlement_names.append(sname)
            settlement_region.append(ri)
            settlement_is_city.append(pos == 0)
            settlement_canaanite.append(False)
            indices.append(index)

        canaanite = ck.str_list(raw.get("canaanite", []), f"the canaanite list of {where}")
        ck.no_repeats(canaanite, f"the canaanite list of {where}")
        for sname in canaanite:
            if sname not in names:
                raise ck.fail(f'{where} marks "{sname}" as Canaanite-held but "{sname}" is not one of its settlements')
            settlement_canaanite[settlement_by_name[sname]] = True

        start_villages = None
        if "start_villages" in raw:
            start_villages = ck.str_list(raw["start_villages"], f"the start_villages of {where}")
        region_by_name[rname] = ri
        region_rows.append((rname, kingdom, tuple(indices), start_villages))

    # start villages (validated whenever given; required for home regions, checked below)
    region_start: list[tuple[int, ...]] = []
    for rname, _kingdom, region_indices, start_villages in region_rows:
        if not start_villages:  # not given (or given empty): only an error for a home region
            region_start.append(())
            continue
        region_start.append(
            _check_start_villages(
                ck, rname, start_villages, region_indices, settlement_by_name, settlement_names, settlement_canaanite
            )
        )

    # ---- hexes ------------------------------------------------------------------------------
    raw_hexes = data["hexes"]
    if not isinstance(raw_hexes, list) or not raw_hexes:
        raise ck.fail("hexes must be a non-empty list of [[hexes]] tables")
    hex_at: dict[tuple[int, int], int] = {}
    hex_rows: list[tuple[int, int, str, int | None]] = []
    settlement_hex: dict[int, int] = {}
    for hi, raw in enumerate(raw_hexes):
        where = f"hex #{hi + 1}"
        ck.table(raw, where)
        ck.keys(raw, where, _HEX_KEYS_REQUIRED, _HEX_KEYS_OPTIONAL)
        q = ck.integer(raw["q"], f"q of {where}")
        r = ck.integer(raw["r"], f"r of {where}")
        where = f"hex ({q}, {r})"
        if (q, r) in hex_at:
            raise ck.fail(f"{where} is listed twice")
        terrain = ck.string(raw["terrain"], f"the terrain of {where}")
        if terrain not in TERRAINS:
            raise ck.fail(f'{where} has unknown terrain "{terrain}" (expected one of {", ".join(TERRAINS)})')
        settlement = None
        if "settlement" in raw:
            sname = ck.string(raw["settlement"], f"the settlement of {where}")
            if sname not in settlement_by_name:
                raise ck.fail(f'{where} holds settlement "{sname}" that no region lists')
            settlement = settlement_by_name[sname]
            if settlement in settlement_hex:
                other = hex_rows[settlement_hex[settlement]]
                raise ck.fail(f'settlement "{sname}" is on two hexes: ({other[0]}, {other[1]}) and ({q}, {r})')
            settlement_hex[settlement] = hi
        hex_at[(q, r)] = hi
        hex_rows.append((q, r, terrain, settlement))
    for index, sname in enumerate(settlement_names):
        if index not in settlement_hex:
            raise ck.fail(f'settlement "{sname}" is on no hex')

    neighbours = tuple(
        tuple(hex_at[(q + dq, r + dr)] for dq, dr in AXIAL_DIRECTIONS if (q + dq, r + dr) in hex_at)
        for q, r, _terrain, _settlement in hex_rows
    )
    _check_connected(ck, hex_rows, neighbours, settlement_names)

    # ---- ring -------------------------------------------------------------------------------
    ring_names = ck.str_list(data["ring"], "ring")
    ring_pos: dict[int, int] = {}
    for pos, sname in enumerate(ring_names):
        if sname not in settlement_by_name:
            raise ck.fail(f'ring names unknown settlement "{sname}"')
        index = settlement_by_name[sname]
        if index in ring_pos:
            raise ck.fail(f'ring lists settlement "{sname}" twice')
        ring_pos[index] = pos
    for index, sname in enumerate(settlement_names):
        if index not in ring_pos:
            raise ck.fail(f'ring misses settlement "{sname}"')
    ring = tuple(settlement_by_name[sname] for sname in ring_names)

    # ---- Tabernacle and Ark -----------------------------------------------------------------
    tabernacle = ck.string(data["tabernacle"], "tabernacle")
    if tabernacle not in settlement_by_name:
        raise ck.fail(f'tabernacle names unknown settlement "{tabernacle}"')
    ark_start = ck.string(data["ark_start"], "ark_start")
    if ark_start not in settlement_by_name:
        raise ck.fail(f'ark_start names unknown settlement "{ark_start}"')

    # ---- home regions -----------------------------------------------------------------------
    raw_homes = ck.table(data["home_regions"], "home_regions")
    home_regions: dict[int, tuple[int, ...]] = {}
    for key, value in raw_homes.items():
        try:
            count = int(key)
        except ValueError:
            raise ck.fail(f'home_regions key "{key}" is not a player count') from None
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise ck.fail(f"home_regions has player count {key}, outside {MIN_PLAYERS}..{MAX_PLAYERS}")
        if count in home_regions:
            raise ck.fail(f"home_regions has player count {count} twice")
        what = f"home_regions for {count} players"
        names = ck.str_list(value, what)
        for rname in names:
            if rname not in region_by_name:
                raise ck.fail(f'{what} names unknown region "{rname}"')
        ck.no_repeats(names, what)
        if len(names) != count:
            raise ck.fail(f"{what} lists {len(names)} regions, needs exactly {count}")
        for rname in names:
            ri = region_by_name[rname]
            if not region_start[ri]:
                raise ck.fail(
                    f'region "{rname}" is a home region ({what}) but has no start_villages: '
                    f"it needs exactly {START_VILLAGES_PER_HOME}"
                )
        home_regions[count] = tuple(region_by_name[rname] for rname in names)
    home_regions = dict(sorted(home_regions.items()))
    home_coins = _parse_home_coins(ck, data.get("home_coins", {}), home_regions)
    home_villages = _parse_home_villages(
        ck,
        data.get("home_villages", {}),
        home_regions,
        region_start,
        settlement_by_name,
        settlement_is_city,
        settlement_canaanite,
    )
    home_troops = _parse_home_troops(ck, data.get("home_troops", {}), home_regions, region_start, home_villages)

    # ---- build ------------------------------------------------------------------------------
    hexes = tuple(
        Hex(index=i, q=q, r=r, terrain=terrain, settlement=s) for i, (q, r, terrain, s) in enumerate(hex_rows)
    )
    settlements = tuple(
        SettlementInfo(
            index=i,
            name=sname,
            hex=settlement_hex[i],
            region=settlement_region[i],
            is_city=settlement_is_city[i],
            canaanite_start=settlement_canaanite[i],
            ring_pos=ring_pos[i],
        )
        for i, sname in enumerate(settlement_names)
    )
    regions = tuple(
        Region(
            index=ri,
            name=rname,
            kingdom=kingdom,
            settlements=indices,
            city=indices[0],
            start_villages=region_start[ri],
        )
        for ri, (rname, kingdom, indices, _sv) in enumerate(region_rows)
    )
    return World(
        name=name,
        hexes=hexes,
        settlements=settlements,
        regions=regions,
        ring=ring,
        tabernacle_hex=settlement_hex[settlement_by_name[tabernacle]],
        ark_start_hex=settlement_hex[settlement_by_name[ark_start]],
        home_regions=home_regions,
        home_coins=home_coins,
        home_villages=home_villages,
        home_troops=home_troops,
        neighbours=neighbours,
        hex_at=hex_at,
        settlement_by_name=settlement_by_name,
        region_by_name=region_by_name,
        distances=_distance_table(hexes),
    )


def _per_player_count(
    ck: _Checker, table: dict[str, Any], name: str, home_regions: dict[int, tuple[int, ...]]
) -> Iterator[tuple[int, str, Any]]:
    """The entries of a per-seat setup table (`[home_coins]`, `[home_villages]`, `[home_troops]`): each key a
    player count listed once that has home regions; yields (count, "NAME for N players", value)."""
    seen: set[int] = set()
    for key, value in table.items():
        try:
            count = int(key)
        except ValueError:
            raise ck.fail(f'{name} key "{key}" is not a player count') from None
        if count in seen:
            raise ck.fail(f"{name} has player count {count} twice")
        seen.add(count)
        if count not in home_regions:
            raise ck.fail(f"{name} has player count {count}, which has no home_regions")
        yield count, f"{name} for {count} players", value


def _parse_home_coins(ck: _Checker, raw: Any, home_regions: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
    """`[home_coins]`: player count -> one number of coins per seat, in seat order, for a count
    that has home regions; a count not listed gets 0 for every seat."""
    table = ck.table(raw, "home_coins")
    home_coins = {count: (0,) * count for count in home_regions}
    for count, what, value in _per_player_count(ck, table, "home_coins", home_regions):
        if not isinstance(value, list):
            raise ck.fail(f"{what} must be a list of numbers of coins, not {_type_name(value)}")
        coins = [ck.integer(item, f"an entry of {what}") for item in value]
        if len(coins) != count:
            raise ck.fail(f"{what} lists {len(coins)} numbers, needs exactly {count} (one per seat)")
        for seat, amount in enumerate(coins):
            if amount < 0:
                raise ck.fail(f"{what} gives seat {seat} {amount} coins: must not be negative")
        home_coins[count] = tuple(coins)
    return dict(sorted(home_coins.items()))


def _parse_home_troops(
    ck: _Checker,
    raw: Any,
    home_regions: dict[int, tuple[int, ...]],
    region_start: list[tuple[int, ...]],
    home_villages: dict[int, tuple[tuple[int, ...], ...]],
) -> dict[int, tuple[tuple[int, ...] | None, ...]]:
    """`[home_troops]`: player count -> one entry per seat, in seat order: the garrison of the
    villages that seat starts with, in place of START_GARRISON — a number for every one of them,
    or a list of one number per village, in the order the home's start villages then the seat's
    `[home_villages]`. Each at least 1 (a village a player holds keeps a troop). Read as one
    number per village, in that order; None (START_GARRISON) for every seat of a count not
    listed."""
    table = ck.table(raw, "home_troops")
    home_troops: dict[int, tuple[tuple[int, ...] | None, ...]] = {count: (None,) * count for count in home_regions}
    for count, what, value in _per_player_count(ck, table, "home_troops", home_regions):
        if not isinstance(value, list):
            raise ck.fail(f"{what} must be a list of one entry of troops per seat, not {_type_name(value)}")
        if len(value) != count:
            raise ck.fail(f"{what} lists {len(value)} entries, needs exactly {count} (one per seat)")
        per_seat: list[tuple[int, ...]] = []
        for seat, entry in enumerate(value):
            where = f"{what}, seat {seat}"
            villages = len(region_start[home_regions[count][seat]]) + len(home_villages[count][seat])
            if isinstance(entry, list):
                troops = [ck.integer(item, f"an entry of {where}") for item in entry]
                if len(troops) != villages:
                    raise ck.fail(
                        f"{where} lists {len(troops)} numbers, needs exactly {villages} "
                        "(one per village the seat starts with: its home's, then its home_villages)"
                    )
            else:
                troops = [ck.integer(entry, where)] * villages
            for amount in troops:
                if amount < 1:
                    raise ck.fail(f"{where} gives a village {amount} troops: must be at least 1")
            per_seat.append(tuple(troops))
        home_troops[count] = tuple(per_seat)
    return dict(sorted(home_troops.items()))


def _parse_home_villages(
    ck: _Checker,
    raw: Any,
    home_regions: dict[int, tuple[int, ...]],
    region_start: list[tuple[int, ...]],
    settlement_by_name: dict[str, int],
    settlement_is_city: list[bool],
    settlement_canaanite: list[bool],
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """`[home_villages]`: player count -> one list of village names per seat, in seat order: the
    villages that seat starts with besides its home's start villages. Each must be a village of
    the map (not a city), not Canaanite-held at the start, and not taken by another seat (a start
    village of that count's homes or another entry). A count not listed gives no seat any."""
    table = ck.table(raw, "home_villages")
    home_villages: dict[int, tuple[tuple[int, ...], ...]] = {count: ((),) * count for count in home_regions}
    for count, what, value in _per_player_count(ck, table, "home_villages", home_regions):
        if not isinstance(value, list):
            raise ck.fail(f"{what} must be a list of one list of village names per seat, not {_type_name(value)}")
        if len(value) != count:
            raise ck.fail(f"{what} lists {len(value)} entries, needs exactly {count} (one list per seat)")
        taken: dict[int, str] = {}
        for seat, ri in enumerate(home_regions[count]):
            for v in region_start[ri]:
                taken[v] = f"a start village of seat {seat}'s home"
        per_seat: list[tuple[int, ...]] = []
        for seat, entry in enumerate(value):
            where = f"{what}, seat {seat}"
            names = ck.str_list(entry, where)
            indices: list[int] = []
            for sname in names:
                index = settlement_by_name.get(sname)
                if index is None:
                    raise ck.fail(f'{where} names unknown settlement "{sname}"')
                if settlement_is_city[index]:
                    raise ck.fail(f'{where} names "{sname}", which is a city, not a village')
                if settlement_canaanite[index]:
                    raise ck.fail(f'{where} names "{sname}", which starts Canaanite-held')
                if index in taken:
                    if taken[index] == f"an extra village of seat {seat}":
                        raise ck.fail(f'{where} lists "{sname}" twice')
                    raise ck.fail(f'{where} names "{sname}", which is already {taken[index]}')
                taken[index] = f"an extra village of seat {seat}"
                indices.append(index)
            per_seat.append(tuple(indices))
        home_villages[count] = tuple(per_seat)
    return dict(sorted(home_villages.items()))


def _distance_table(hexes: tuple[Hex, ...]) -> tuple[tuple[int, ...], ...]:
    """`World.hex_distance` for every pair of hexes."""
    return tuple(tuple(_axial_distance(a, b) for b in hexes) for a in hexes)


def _check_start_villages(
    ck: _Checker,
    rname: str,
    names: list[str],
    indices: tuple[int, ...],
    settlement_by_name: dict[str, int],
    settlement_names: list[str],
    settlement_canaanite: list[bool],
) -> tuple[int, ...]:
    where = f'the start_villages of region "{rname}"'
    ck.no_repeats(names, where)
    for sname in names:
        index = settlement_by_name.get(sname)
        if index is None or index not in indices:
            raise ck.fail(f'{where} names "{sname}", which is not a settlement of "{rname}"')
        if index == indices[0]:
            raise ck.fail(f'{where} names "{sname}", which is the region\'s city, not a village')
        if settlement_canaanite[index]:
            raise ck.fail(f'{where} names "{sname}", which starts Canaanite-held')
    if len(names) != START_VILLAGES_PER_HOME:
        raise ck.fail(
            f"{where} lists {len(names)} village{'' if len(names) == 1 else 's'}, "
            f"needs exactly {START_VILLAGES_PER_HOME}"
        )
    return tuple(settlement_by_name[sname] for sname in names)


def _check_connected(
    ck: _Checker,
    hex_rows: list[tuple[int, int, str, int | None]],
    neighbours: tuple[tuple[int, ...], ...],
    settlement_names: list[str],
) -> None:
    seen = [False] * len(hex_rows)
    seen[0] = True
    queue = deque([0])
    while queue:
        for nb in neighbours[queue.popleft()]:
            if not seen[nb]:
                seen[nb] = True
                queue.append(nb)
    for i, reached in enumerate(seen):
        if not reached:
            q, r, _terrain, s = hex_rows[i]
            label = f"hex ({q}, {r})"
            if s is not None:
                label += f' (settlement "{settlement_names[s]}")'
            q0, r0 = hex_rows[0][0], hex_rows[0][1]
            raise ck.fail(f"the land is not connected: {label} cannot be reached from hex ({q0}, {r0})")
