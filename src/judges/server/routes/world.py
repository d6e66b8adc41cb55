"""What every table shares: the maps, the protocol of decisions and items, the UI strings."""

from __future__ import annotations

import msgspec
from fastapi import APIRouter

from ...engine import DEFAULT_RULES, Rules
from ...engine.state import PHASES
from ...i18n import normalize_language, ui_strings
from ...render.board import SEAT_COLOURS
from ...world import MapDataError, load_world, map_exists
from ..deps import ServiceDep
from ..errors import ServiceError
from ..table.played import DEFAULT_GAME, kit_of, require_capability

router = APIRouter()


def world_payload(rules: Rules) -> dict:
    """The map of `rules` (hexes, settlements, regions, ring, Tabernacle) and the rules' numbers
    the screen shows (the items' costs are the protocol's: `/api/games/{id}/protocol`)."""
    try:
        w = load_world(rules.map)
    except MapDataError:
        raise ServiceError(404, "error.no_map", f"there is no map {rules.map!r}") from None
    return {
        "name": w.name,
        "hexes": [
            {"index": h.index, "q": h.q, "r": h.r, "terrain": h.terrain, "settlement": h.settlement} for h in w.hexes
        ],
        "settlements": [
            {"index": s.index, "name": s.name, "hex": s.hex, "region": s.region, "is_city": s.is_city}
            for s in w.settlements
        ],
        "regions": [
            {"index": r.index, "name": r.name, "kingdom": r.kingdom, "settlements": list(r.settlements)}
            for r in w.regions
        ],
        "ring": list(w.ring),
        "tabernacle_hex": w.tabernacle_hex,
        "phases": list(PHASES),
        "wrath_threshold": rules.wrath_threshold,
        "seat_colours": list(SEAT_COLOURS),  # the board's tribe colours (render/board.py)
    }


@router.get("/api/world")
async def world(map: str | None = None) -> dict:
    """A map (default: the default rules' map) with the default rules' numbers."""
    if map is None or map == DEFAULT_RULES.map:
        return world_payload(DEFAULT_RULES)
    if not map_exists(map):
        raise ServiceError(404, "error.no_map", f"there is no map {map!r}")
    return world_payload(msgspec.structs.replace(DEFAULT_RULES, map=map))


@router.get("/api/games/{game_id}/world")
async def game_world(game_id: str, service: ServiceDep) -> dict:
    """The world of one game: its map and its rules' numbers (nothing secret)."""
    live = await service.get(game_id)
    require_capability(live.served, "world_map")
    return world_payload(live.game.state.options.rules)


@router.get("/api/protocol")
async def protocol() -> dict:
    """The decision kinds (the action types that answer each, with their fields; subject,
    rule, manual chapter, window, icon), the items for sale (target, cost, icon) and the
    intrigue cards, priced and counted by the default rules: docs/protocol.md; and the JSON
    Schema of the view a seat receives (`view`): the default game's kit's `protocol()`."""
    return kit_of(DEFAULT_GAME).protocol()


@router.get("/api/games/{game_id}/protocol")
async def game_protocol(game_id: str, service: ServiceDep) -> dict:
    """The protocol of one table's game (its kit's `protocol`): a Judges & Kings table's as
    `/api/protocol`, with the items' costs and the cards' copies of that table's rules; a
    Republic of Rome table's, the JSON Schema of the game's own part of a seat's view (`view`)."""
    live = await service.get(game_id)
    return live.kit.protocol(live.game)


@router.get("/api/i18n/{lang}")
async def strings(lang: str) -> dict:
    """Every UI string and game word in one language."""
    return ui_strings(normalize_language(lang))
