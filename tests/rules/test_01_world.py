"""Rules brief § 1 (The world) and § 3 (Setup): the map data and its loader.

The first half checks the default map "Canaan" against the brief; the second half checks that
every kind of malformed map data is refused with a MapDataError naming the culprit. Those tests
mutate a fresh copy of the parsed canaan.toml.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter, deque
from importlib import resources

import pytest

from judges.render.svg import render_board_svg
from judges.world import (
    KINGDOMS,
    TERRAINS,
    MapDataError,
    World,
    load_world,
    load_world_file,
    parse_world,
)

# Brief § 1: region -> (kingdom, settlements with the city first, starting Canaanite-held)
BRIEF = {
    "Naphtali": ("israel", ["Hazor", "Kedesh", "Merom", "Chinnereth", "Hammath"], []),
    "Asher": ("israel", ["Acco", "Achzib", "Kabul", "Rehob", "Aphek"], ["Acco"]),
    "Jezreel": ("israel", ["Megiddo", "Taanach", "Shunem", "Endor", "Beth-shean"], ["Megiddo", "Beth-shean"]),
    "Manasseh": ("israel", ["Shechem", "Dothan", "Tirzah", "Ophrah", "Samaria"], []),
    "Ephraim": ("israel", ["Bethel", "Shiloh", "Timnath-serah", "Beth-horon", "Gezer"], ["Gezer"]),
    "Gilead": ("israel", ["Ramoth-gilead", "Jabesh-gilead", "Mahanaim", "Penuel", "Succoth"], []),
    "Benjamin": ("judah", ["Gibeah", "Jericho", "Gibeon", "Kiriath-jearim", "Jebus"], ["Jebus"]),
    "Judah": ("judah", ["Hebron", "Bethlehem", "Lachish", "Debir", "Keilah"], []),
    "Negev": ("judah", ["Beersheba", "Arad", "Ziklag", "Hormah", "Tamar"], []),
    "Philistia": (
        "foreign",
        ["Gaza", "Ashkelon", "Ashdod", "Ekron", "Gath"],
        ["Gaza", "Ashkelon", "Ashdod", "Ekron", "Gath"],
    ),
}
SOURCE = "canaan.toml"


@pytest.fixture(scope="module")
def world() -> World:
    return load_world()


@pytest.fixture
def raw() -> dict:
    """A fresh, mutable copy of the parsed canaan.toml."""
    return copy.deepcopy(_RAW)


_RAW = tomllib.loads((resources.files("judges") / "data" / "maps" / "canaan.toml").read_text(encoding="utf-8"))


def parse(data: dict) -> World:
    return parse_world(data, SOURCE)


def region_of(data: dict, name: str) -> dict:
    return next(r for r in data["regions"] if r["name"] == name)


def hex_of(data: dict, settlement: str) -> dict:
    return next(h for h in data["hexes"] if h.get("settlement") == settlement)


def fails(data: dict, *fragments: str) -> MapDataError:
    """Parsing must fail; the message names the file and contains every fragment."""
    with pytest.raises(MapDataError, match="^" + re.escape(SOURCE + ": ")) as info:
        parse(data)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)
    return info.value


def centre(world: World, settlement: str) -> tuple[float, float]:
    """Screen position of a settlement (x east, y south) for pointy-top axial hexes."""
    h = world.hexes[world.settlements[world.settlement_by_name[settlement]].hex]
    return math.sqrt(3) * (h.q + h.r / 2), 1.5 * h.r


# --------------------------------------------------------------------------------------------
# The default map against the brief


def test_loads_and_is_cached(world):
    assert world.name == "Canaan"
    assert load_world() is world
    assert load_world("canaan") is world


def test_ten_regions_of_five_settlements_with_the_briefs_names(world):
    assert [r.name for r in world.regions] == list(BRIEF)
    assert len(world.settlements) == 50
    for region in world.regions:
        names = [world.settlements[s].name for s in region.settlements]
        assert names == BRIEF[region.name][1]


def test_the_first_named_settlement_is_the_only_city(world):
    for region in world.regions:
        assert region.city == region.settlements[0]
        assert [world.settlements[s].is_city for s in region.settlements] == [True, False, False, False, False]
    assert sum(s.is_city for s in world.settlements) == 10


def test_settlement_indices_follow_file_order(world):
    expected = [name for _kingdom, names, _c in BRIEF.values() for name in names]
    assert [s.name for s in world.settlements] == expected
    for i, s in enumerate(world.settlements):
        assert s.index == i
        assert world.settlement_by_name[s.name] == i
        assert i in world.regions[s.region].settlements
    for i, r in enumerate(world.regions):
        assert r.index == i and world.region_by_name[r.name] == i


def test_kingdoms(world):
    for region in world.regions:
        assert region.kingdom == BRIEF[region.name][0]
        assert region.kingdom in KINGDOMS


def test_canaanite_starts(world):
    expected = {name for _k, _names, canaanite in BRIEF.values() for name in canaanite}
    assert {s.name for s in world.settlements if s.canaanite_start} == expected
    assert len(expected) == 10


def test_each_terrain_holds_at_least_ten_settlements(world):
    counts = Counter(world.settlement_terrain(s.index) for s in world.settlements)
    assert set(counts) == set(TERRAINS)
    for terrain in TERRAINS:
        assert counts[terrain] >= 10, counts


def test_terrain_is_realistic_for_landmarks(world):
    t = {s.name: world.settlement_terrain(s.index) for s in world.settlements}
    for name in ("Beersheba", "Arad", "Ziklag", "Hormah", "Tamar", "Jericho"):
        assert t[name] == "desert", name
    for name in ("Acco", "Megiddo", "Ashdod", "Ashkelon"):
        assert t[name] == "plain", name
    for name in ("Shechem", "Bethel", "Jebus", "Hebron", "Ramoth-gilead"):
        assert t[name] == "mountains", name


def test_every_hex_has_a_known_terrain(world):
    assert {h.terrain for h in world.hexes} == set(TERRAINS)


def test_hex_count_and_settlement_spacing(world):
    assert 110 <= len(world.hexes) <= 160
    hexes = [s.hex for s in world.settlements]
    for i, a in enumerate(hexes):
        for b in hexes[i + 1 :]:
            assert world.hex_distance(a, b) >= 2, (world.hexes[a], world.hexes[b])


def test_the_map_looks_like_the_land(world):
    x = {s.name: centre(world, s.name)[0] for s in world.settlements}
    y = {s.name: centre(world, s.name)[1] for s in world.settlements}
    north = lambda a, b: y[a] < y[b]  # noqa: E731
    west = lambda a, b: x[a] < x[b]  # noqa: E731
    assert north("Kedesh", "Megiddo") and north("Megiddo", "Shechem") and north("Shechem", "Jebus")
    assert north("Jebus", "Hebron") and north("Hebron", "Beersheba")
    assert north("Shiloh", "Jebus") and north("Bethel", "Jebus") and north("Bethlehem", "Hebron")
    assert west("Acco", "Hazor") and west("Jebus", "Jericho") and west("Gaza", "Beersheba")
    for name in ("Ramoth-gilead", "Jabesh-gilead", "Mahanaim", "Penuel"):
        assert x[name] > x["Jericho"], name  # Gilead lies east of the Jordan
    assert min(x, key=x.get) in {"Gaza", "Ashkelon", "Ashdod"}  # the coast is in the west
    assert max(y, key=y.get) == "Tamar"  # far south ...
    assert x["Tamar"] > x["Beersheba"] and x["Tamar"] > x["Arad"]  # ... and east
    assert y["Hazor"] < y["Acco"] < y["Megiddo"]


def test_tabernacle_is_shiloh_and_the_ark_starts_on_kiriath_jearim(world):
    assert world.tabernacle_hex == world.settlements[world.settlement_by_name["Shiloh"]].hex
    assert world.ark_start_hex == world.settlements[world.settlement_by_name["Kiriath-jearim"]].hex


def test_ring_lists_every_settlement_exactly_once(world):
    assert sorted(world.ring) == list(range(50))
    for pos, s in enumerate(world.ring):
        assert world.settlements[s].ring_pos == pos


def test_ring_next_wraps_in_both_directions(world):
    first, last = world.ring[0], world.ring[-1]
    assert world.ring_next(last, +1) == first
    assert world.ring_next(first, -1) == last
    assert world.ring_next(first, +1) == world.ring[1]
    for s in range(50):
        assert world.ring_next(world.ring_next(s, +1), -1) == s
    s, seen = first, []
    for _ in range(50):
        seen.append(s)
        s = world.ring_next(s, +1)
    assert s == first and sorted(seen) == list(range(50))
    with pytest.raises(ValueError):
        world.ring_next(first, 2)


def test_ring_goes_clockwise_from_the_north(world):
    pts = [centre(world, world.settlements[s].name) for s in world.ring]
    # shoelace with y pointing south: positive means clockwise on screen
    area = sum(pts[i][0] * pts[(i + 1) % 50][1] - pts[(i + 1) % 50][0] * pts[i][1] for i in range(50))
    assert area > 0
    top = min(p[1] for p in pts)
    assert pts[0][1] == top  # starts on the northern edge
    # neighbours on the ring are near each other on the board
    for i in range(50):
        a, b = world.ring[i], world.ring[(i + 1) % 50]
        assert world.hex_distance(world.settlements[a].hex, world.settlements[b].hex) <= 4


def test_home_regions_for_two_to_six_players(world):
    assert sorted(world.home_regions) == [2, 3, 4, 5, 6]
    assert [world.regions[r].name for r in world.home_regions[2]] == ["Manasseh", "Judah"]
    for count, homes in world.home_regions.items():
        assert len(homes) == count == len(set(homes))
        for r in homes:
            region = world.regions[r]
            assert region.name != "Philistia" and region.kingdom != "foreign"
            assert len(region.start_villages) == 2
            for s in region.start_villages:
                info = world.settlements[s]
                assert info.region == r and not info.is_city and not info.canaanite_start


def test_six_home_regions_are_spread_apart(world):
    homes = world.home_regions[6]
    camps = [world.settlements[world.regions[r].start_villages[0]].hex for r in homes]
    for i, a in enumerate(camps):
        for b in camps[i + 1 :]:
            assert world.hex_distance(a, b) >= 3


def test_hexes_are_connected(world):
    seen = {0}
    queue = deque([0])
    while queue:
        for nb in world.neighbours[queue.popleft()]:
            if nb not in seen:
                seen.add(nb)
                queue.append(nb)
    assert len(seen) == len(world.hexes)


def test_neighbours_hex_at_and_distance(world):
    for h in world.hexes:
        assert world.hex_at[(h.q, h.r)] == h.index
        assert world.hex_distance(h.index, h.index) == 0
        expected = {
            world.hex_at[(h.q + dq, h.r + dr)]
            for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
            if (h.q + dq, h.r + dr) in world.hex_at
        }
        assert set(world.neighbours[h.index]) == expected
        for nb in world.neighbours[h.index]:
            assert h.index in world.neighbours[nb]
            assert world.hex_distance(h.index, nb) == 1
    a = world.settlements[world.settlement_by_name["Kedesh"]].hex
    b = world.settlements[world.settlement_by_name["Tamar"]].hex
    assert world.hex_distance(a, b) == world.hex_distance(b, a) > 15


def test_hexes_and_settlements_agree(world):
    for s in world.settlements:
        assert world.hexes[s.hex].settlement == s.index
    assert sum(h.settlement is not None for h in world.hexes) == 50


def test_world_is_immutable_and_hashable(world):
    with pytest.raises(dataclasses.FrozenInstanceError):
        world.name = "Egypt"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        world.hexes[0].terrain = "desert"  # type: ignore[misc]
    assert hash(world) == hash(load_world())


def test_load_world_file_reads_any_path(tmp_path, world):
    path = tmp_path / "copy.toml"
    path.write_bytes((resources.files("judges") / "data" / "maps" / "canaan.toml").read_bytes())
    other = load_world_file(path)
    assert other == world and other is not world


def test_unknown_map_name():
    with pytest.raises(MapDataError, match="atlantis"):
        load_world("atlantis")


def test_map_data_error_is_a_value_error():
    assert issubclass(MapDataError, ValueError)


# --------------------------------------------------------------------------------------------
# Validation: one test per kind of malformed data


def test_unmodified_data_parses(raw):
    assert len(parse(raw).settlements) == 50


def test_unknown_top_level_key(raw):
    raw["colour"] = "red"
    fails(raw, '"colour"')


def test_missing_top_level_key(raw):
    del raw["ring"]
    fails(raw, '"ring"')


def test_unknown_region_key(raw):
    region_of(raw, "Asher")["capital"] = "Acco"
    fails(raw, "Asher", '"capital"')


def test_unknown_hex_key(raw):
    raw["hexes"][3]["river"] = True
    fails(raw, '"river"')


def test_duplicate_toml_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "Canaan"\nname = "Egypt"\n', encoding="utf-8")
    with pytest.raises(MapDataError, match=r"^bad\.toml: invalid TOML"):
        load_world_file(path)


def test_region_defined_twice(raw):
    raw["regions"].append(copy.deepcopy(region_of(raw, "Negev")))
    fails(raw, '"Negev"', "twice")


def test_settlement_listed_twice_in_a_region(raw):
    region_of(raw, "Negev")["settlements"].append("Arad")
    fails(raw, "Negev", '"Arad"', "twice")


def test_unknown_terrain(raw):
    raw["hexes"][0]["terrain"] = "swamp"
    fails(raw, '"swamp"')


def test_unknown_kingdom(raw):
    region_of(raw, "Philistia")["kingdom"] = "egypt"
    fails(raw, "Philistia", '"egypt"')


def test_duplicate_hex_coordinates(raw):
    dup = {"q": raw["hexes"][7]["q"], "r": raw["hexes"][7]["r"], "terrain": "plain"}
    raw["hexes"].append(dup)
    fails(raw, f"({dup['q']}, {dup['r']})", "twice")


def test_settlement_on_no_hex(raw):
    del hex_of(raw, "Hazor")["settlement"]
    fails(raw, '"Hazor"', "no hex")


def test_settlement_on_two_hexes(raw):
    free = next(h for h in raw["hexes"] if "settlement" not in h)
    free["settlement"] = "Hazor"
    fails(raw, '"Hazor"', "two hexes")


def test_hex_names_a_settlement_no_region_lists(raw):
    hex_of(raw, "Acco")["settlement"] = "Akko"
    fails(raw, '"Akko"')


def test_region_lists_unknown_settlement_on_no_hex(raw):
    region_of(raw, "Asher")["settlements"].append("Tyre")
    fails(raw, '"Tyre"')


def test_settlement_in_two_regions(raw):
    region_of(raw, "Asher")["settlements"].append("Hazor")
    fails(raw, '"Hazor"', "two regions")


def test_region_with_fewer_than_two_settlements(raw):
    region_of(raw, "Naphtali")["settlements"] = ["Hazor"]
    fails(raw, '"Naphtali"', "city")


def test_empty_region_needs_exactly_one_city(raw):
    region_of(raw, "Naphtali")["settlements"] = []
    fails(raw, '"Naphtali"', "exactly one city")


def test_ring_misses_a_settlement(raw):
    raw["ring"].remove("Tamar")
    fails(raw, "ring misses", '"Tamar"')


def test_ring_repeats_a_settlement(raw):
    raw["ring"].append("Gaza")
    fails(raw, "ring", '"Gaza"', "twice")


def test_ring_names_an_unknown_settlement(raw):
    raw["ring"][5] = "Nineveh"
    fails(raw, "ring", '"Nineveh"')


def test_unknown_tabernacle(raw):
    raw["tabernacle"] = "Dan"
    fails(raw, "tabernacle", '"Dan"')


def test_unknown_ark_start(raw):
    raw["ark_start"] = "Beth-shemesh"
    fails(raw, "ark_start", '"Beth-shemesh"')


@pytest.mark.parametrize("count", ["1", "7", "0"])
def test_home_regions_player_count_out_of_range(raw, count):
    raw["home_regions"][count] = raw["home_regions"]["2"]
    fails(raw, "home_regions", f"player count {count}")


def test_home_regions_key_not_a_number(raw):
    raw["home_regions"]["two"] = raw["home_regions"]["2"]
    fails(raw, '"two"')


def test_home_regions_names_unknown_region(raw):
    raw["home_regions"]["3"] = ["Naphtali", "Moab", "Judah"]
    fails(raw, '"Moab"')


def test_home_regions_repeats_a_region(raw):
    raw["home_regions"]["3"] = ["Naphtali", "Judah", "Naphtali"]
    fails(raw, "3 players", '"Naphtali"', "twice")


@pytest.mark.parametrize("homes", [["Naphtali", "Judah"], ["Naphtali", "Judah", "Gilead", "Asher"]])
def test_home_regions_must_have_exactly_that_many_regions(raw, homes):
    raw["home_regions"]["3"] = homes
    fails(raw, "3 players", f"lists {len(homes)} regions")


def test_home_region_without_start_villages(raw):
    del region_of(raw, "Gilead")["start_villages"]
    fails(raw, '"Gilead"', "start_villages")


def test_home_region_with_empty_start_villages(raw):
    region_of(raw, "Gilead")["start_villages"] = []
    fails(raw, '"Gilead"', "start_villages")


@pytest.mark.parametrize("villages", [["Bethlehem"], ["Bethlehem", "Keilah", "Debir"]])
def test_home_region_needs_exactly_two_start_villages(raw, villages):
    region_of(raw, "Judah")["start_villages"] = villages
    fails(raw, '"Judah"', "exactly 2")


def test_start_village_must_not_be_the_city(raw):
    region_of(raw, "Judah")["start_villages"] = ["Hebron", "Keilah"]
    fails(raw, '"Hebron"', "city")


def test_start_village_must_belong_to_the_region(raw):
    region_of(raw, "Judah")["start_villages"] = ["Bethlehem", "Gaza"]
    fails(raw, '"Judah"', '"Gaza"')


def test_start_village_must_not_be_canaanite(raw):
    region_of(raw, "Judah")["canaanite"] = ["Keilah"]
    fails(raw, '"Keilah"', "Canaanite")


def test_philistia_has_no_start_villages_and_need_not(raw):
    assert "start_villages" not in region_of(raw, "Philistia")
    assert parse(raw).regions[raw["regions"].index(region_of(raw, "Philistia"))].start_villages == ()


def test_canaanite_settlement_outside_its_region(raw):
    region_of(raw, "Asher")["canaanite"] = ["Acco", "Hazor"]
    fails(raw, '"Asher"', '"Hazor"')


def test_land_not_connected(raw):
    raw["hexes"].append({"q": 40, "r": 40, "terrain": "plain"})
    fails(raw, "not connected", "(40, 40)")


def test_land_not_connected_names_the_cut_off_settlement(raw):
    # Tamar's hex with no other land around it: move it far out to sea.
    tamar = hex_of(raw, "Tamar")
    tamar["q"], tamar["r"] = -30, 5
    fails(raw, "not connected", '"Tamar"')


def test_wrong_value_types(raw):
    raw["hexes"][0]["q"] = "3"
    fails(raw, "must be an integer")


# --------------------------------------------------------------------------------------------
# The board drawing


def test_render_board_svg_is_parseable_and_names_every_settlement(world):
    svg = render_board_svg(world)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = " ".join("".join(el.itertext()) for el in root.iter("{http://www.w3.org/2000/svg}text"))
    for s in world.settlements:
        assert s.name in text
    for word in ("Plain", "Mountains", "Desert", "Tabernacle", "Canaanite"):
        assert word in text
    polygons = list(root.iter("{http://www.w3.org/2000/svg}polygon"))
    assert len(polygons) >= len(world.hexes)


# § 3 [D] `[home_coins]`: the compensation of a weaker home, coins per seat per player count


def test_home_coins_are_optional_and_default_to_nothing(raw):
    del raw["home_coins"]
    world = parse(raw)
    assert world.home_coins == {count: (0,) * count for count in world.home_regions}


def test_home_coins_of_a_count_not_listed_are_zero(raw):
    raw["home_coins"].pop("4", None)
    assert parse(raw).home_coins[4] == (0, 0, 0, 0)


def test_home_coins_key_not_a_number(raw):
    raw["home_coins"]["four"] = [0, 0, 0, 0]
    fails(raw, "home_coins", '"four"', "not a player count")


def test_home_coins_for_a_count_without_home_regions(raw):
    del raw["home_regions"]["6"]
    raw["home_coins"]["6"] = [0] * 6
    fails(raw, "home_coins", "player count 6", "no home_regions")


@pytest.mark.parametrize("coins", [[1, 2, 0], [1, 2, 0, 0, 0]])
def test_home_coins_need_one_number_per_seat(raw, coins):
    raw["home_coins"]["4"] = coins
    fails(raw, "home_coins for 4 players", f"lists {len(coins)} numbers", "exactly 4")


def test_home_coins_must_not_be_negative(raw):
    raw["home_coins"]["4"] = [0, -1, 0, 0]
    fails(raw, "home_coins for 4 players", "seat 1", "-1", "negative")


@pytest.mark.parametrize("bad", [[0, 1.5, 0, 0], [0, "2", 0, 0], [0, True, 0, 0]])
def test_home_coins_must_be_whole_numbers(raw, bad):
    raw["home_coins"]["4"] = bad
    fails(raw, "an entry of home_coins for 4 players", "must be an integer")


@pytest.mark.parametrize("bad", [3, "0,0,0,0", {"0": 1}])
def test_home_coins_entry_must_be_a_list(raw, bad):
    raw["home_coins"]["4"] = bad
    fails(raw, "home_coins for 4 players", "must be a list")


def test_home_coins_must_be_a_table(raw):
    raw["home_coins"] = [1, 2]
    fails(raw, "home_coins must be a table")


def test_home_coins_list_a_player_count_once(raw):
    raw["home_coins"]["4"] = [0, 0, 0, 0]
    raw["home_coins"]["04"] = [1, 0, 0, 0]
    fails(raw, "home_coins has player count 4 twice")


# § 3 [D] `[home_villages]`: the positional compensation of a weaker home, extra villages per
# seat per player count (docs/rules-reference.md § 1–3, tuned in docs/balance.md)


def villages_table(raw: dict) -> dict:
    return raw.setdefault("home_villages", {})


def test_home_villages_are_optional_and_default_to_none(raw):
    raw.pop("home_villages", None)
    raw.pop("home_troops", None)  # its lists of one number per village count the extra villages
    world = parse(raw)
    assert world.home_villages == {count: ((),) * count for count in world.home_regions}


def test_home_villages_of_a_count_not_listed_are_none(raw):
    villages_table(raw).pop("4", None)
    assert parse(raw).home_villages[4] == ((), (), (), ())


def test_home_villages_are_read_seat_by_seat_as_settlements(raw):
    villages_table(raw)["4"] = [["Tirzah", "Ophrah"], [], ["Lachish"], []]
    world = parse(raw)
    by_name = world.settlement_by_name
    assert world.home_villages[4] == ((by_name["Tirzah"], by_name["Ophrah"]), (), (by_name["Lachish"],), ())


def test_home_villages_key_not_a_number(raw):
    villages_table(raw)["four"] = [[], [], [], []]
    fails(raw, "home_villages", '"four"', "not a player count")


def test_home_villages_for_a_count_without_home_regions(raw):
    del raw["home_regions"]["6"]
    raw.get("home_coins", {}).pop("6", None)
    villages_table(raw)["6"] = [[]] * 6
    fails(raw, "home_villages", "player count 6", "no home_regions")


@pytest.mark.parametrize("entries", [[[], [], []], [[], [], [], [], []]])
def test_home_villages_need_one_list_per_seat(raw, entries):
    villages_table(raw)["4"] = entries
    fails(raw, "home_villages for 4 players", f"lists {len(entries)} entries", "exactly 4")


@pytest.mark.parametrize("bad", [3, "Tirzah", {"0": ["Tirzah"]}])
def test_home_villages_entry_must_be_a_list(raw, bad):
    villages_table(raw)["4"] = bad
    fails(raw, "home_villages for 4 players", "must be a list")


def test_a_seats_home_villages_must_be_a_list_of_names(raw):
    villages_table(raw)["4"] = [[], "Tirzah", [], []]
    fails(raw, "home_villages for 4 players, seat 1", "must be a list of names")


def test_home_villages_name_known_settlements(raw):
    villages_table(raw)["4"] = [["Atlantis"], [], [], []]
    fails(raw, "home_villages for 4 players, seat 0", 'unknown settlement "Atlantis"')


def test_home_villages_are_villages_not_cities(raw):
    villages_table(raw)["4"] = [["Shechem"], [], [], []]
    fails(raw, "home_villages for 4 players, seat 0", '"Shechem"', "is a city")


def test_home_villages_do_not_start_canaanite(raw):
    villages_table(raw)["4"] = [[], ["Jebus"], [], []]
    fails(raw, "home_villages for 4 players, seat 1", '"Jebus"', "Canaanite-held")


def test_home_villages_are_not_another_seats_start_village(raw):
    # 4 players: seat 2's home is Negev, whose start villages are Arad and Hormah
    villages_table(raw)["4"] = [["Arad"], [], [], []]
    fails(raw, "home_villages for 4 players, seat 0", '"Arad"', "start village of seat 2")


def test_home_villages_are_not_given_to_two_seats(raw):
    villages_table(raw)["4"] = [["Tirzah"], [], [], ["Tirzah"]]
    fails(raw, "home_villages for 4 players, seat 3", '"Tirzah"', "extra village of seat 0")


def test_a_seat_lists_a_home_village_once(raw):
    villages_table(raw)["4"] = [["Tirzah", "Tirzah"], [], [], []]
    fails(raw, "home_villages for 4 players, seat 0", '"Tirzah" twice')


def test_home_villages_must_be_a_table(raw):
    raw["home_villages"] = [["Tirzah"]]
    fails(raw, "home_villages must be a table")


# § 3 [D] `[home_troops]`: the handicap of a stronger home, the garrison of each village a seat
# starts with, per seat per player count (docs/rules-reference.md § 1–3, tuned in docs/balance.md)


def troops_table(raw: dict) -> dict:
    return raw.setdefault("home_troops", {})


def test_home_troops_are_optional_and_default_to_the_start_garrison(raw):
    raw.pop("home_troops", None)
    world = parse(raw)
    assert world.home_troops == {count: (None,) * count for count in world.home_regions}


def test_home_troops_of_a_count_not_listed_are_the_start_garrison(raw):
    troops_table(raw).pop("4", None)
    assert parse(raw).home_troops[4] == (None, None, None, None)


def test_home_troops_are_read_seat_by_seat_one_number_per_village(raw):
    # 4 players: seat 0 (Manasseh) starts with its two home villages and Tirzah
    villages_table(raw)["4"] = [["Tirzah"], [], [], []]
    troops_table(raw)["4"] = [2, 1, 3, 2]
    assert parse(raw).home_troops[4] == ((2, 2, 2), (1, 1), (3, 3), (2, 2))


def test_home_troops_may_list_one_number_per_village(raw):
    # the home's start villages in their order (Manasseh: Samaria, Dothan), then Tirzah
    villages_table(raw)["4"] = [["Tirzah"], [], [], []]
    troops_table(raw)["4"] = [[2, 1, 3], 2, [1, 2], 2]
    assert parse(raw).home_troops[4] == ((2, 1, 3), (2, 2), (1, 2), (2, 2))


def test_starting_troops_name_each_village_s_garrison_or_the_default(raw):
    # what setup and the manual read: a village's number, found by the village, not its position
    villages_table(raw)["4"] = [["Tirzah"], [], [], []]
    troops_table(raw)["4"] = [[2, 1, 3], 2, [1, 2], 2]
    troops_table(raw).pop("5", None)
    world = parse(raw)
    by_name = world.settlement_by_name
    assert world.starting_troops(4, 0, by_name["Dothan"], 9) == 1
    assert world.starting_troops(4, 0, by_name["Tirzah"], 9) == 3
    # a count the table does not list: the default (START_GARRISON)
    assert world.starting_troops(5, 0, world.regions[world.home_regions[5][0]].start_villages[0], 9) == 9


@pytest.mark.parametrize("entry", [[1, 2], [1, 2, 2, 2], []])
def test_home_troops_list_needs_one_number_per_village_the_seat_starts_with(raw, entry):
    villages_table(raw)["4"] = [["Tirzah"], [], [], []]
    troops_table(raw)["4"] = [entry, 2, 2, 2]
    fails(raw, "home_troops for 4 players, seat 0", f"lists {len(entry)} numbers", "exactly 3")


def test_home_troops_key_not_a_number(raw):
    troops_table(raw)["four"] = [2, 2, 2, 2]
    fails(raw, "home_troops", '"four"', "not a player count")


def test_home_troops_for_a_count_without_home_regions(raw):
    del raw["home_regions"]["6"]
    for table in ("home_coins", "home_villages", "home_troops"):
        raw.get(table, {}).pop("6", None)
    troops_table(raw)["6"] = [2] * 6
    fails(raw, "home_troops", "player count 6", "no home_regions")


@pytest.mark.parametrize("troops", [[2, 2, 2], [2, 2, 2, 2, 2]])
def test_home_troops_need_one_entry_per_seat(raw, troops):
    troops_table(raw)["4"] = troops
    fails(raw, "home_troops for 4 players", f"lists {len(troops)} entries", "exactly 4")


@pytest.mark.parametrize("bad", [[2, 0, 2, 2], [2, -1, 2, 2], [2, [2, 0], 2, 2]])
def test_home_troops_leave_at_least_one_troop_a_village(raw, bad):
    troops_table(raw)["4"] = bad
    fails(raw, "home_troops for 4 players, seat 1", "troops", "at least 1")


@pytest.mark.parametrize("bad", [[2, 1.5, 2, 2], [2, "1", 2, 2], [2, True, 2, 2], [2, {"a": 1}, 2, 2]])
def test_home_troops_must_be_whole_numbers(raw, bad):
    troops_table(raw)["4"] = bad
    fails(raw, "home_troops for 4 players, seat 1 must be an integer")


@pytest.mark.parametrize("bad", [[2, [1, 2.5], 2, 2], [2, [1, "2"], 2, 2]])
def test_home_troops_listed_per_village_must_be_whole_numbers(raw, bad):
    troops_table(raw)["4"] = bad
    fails(raw, "an entry of home_troops for 4 players, seat 1 must be an integer")


@pytest.mark.parametrize("bad", [2, "2", {"0": 2}])
def test_home_troops_entry_must_be_a_list(raw, bad):
    troops_table(raw)["4"] = bad
    fails(raw, "home_troops for 4 players", "must be a list")


def test_home_troops_must_be_a_table(raw):
    raw["home_troops"] = [2, 1]
    fails(raw, "home_troops must be a table")


def test_home_troops_list_a_player_count_once(raw):
    troops_table(raw)["4"] = [2, 2, 2, 2]
    troops_table(raw)["04"] = [1, 2, 2, 2]
    fails(raw, "home_troops has player count 4 twice")
