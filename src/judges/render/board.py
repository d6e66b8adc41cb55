"""The board as a description: what is where, in drawing coordinates, from the world and a state.

One description feeds every drawing of the board: `render/svg.py` turns it into SVG for the
CLI (`judges board --svg`), the manual's figures, the game screen and the replays (the screen
inserts that SVG and wires its `data-*` groups to clicks). A state is optional: without one
the description is the board at the start (every settlement free, the Ark at its start).

The description is plain data (JSON-able): hexes with their territory's region and the events
landed on their terrain; regions with their outline and label; settlements with
garrison/walls/developments/siege/razed; the Tabernacle and the Ark; invader pairs with the
direction they march; generals as tokens with their id, colour, relics and titles.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from ..engine.board import besieged_settlements
from ..engine.state import CANAANITES, GameState
from ..i18n import DEFAULT_LANGUAGE, place_name
from ..world import World

__all__ = ["HEX_SIZE", "SEAT_COLOURS", "CANAANITE_COLOUR", "REGION_COLOURS", "describe_board", "territories"]

HEX_SIZE = 30.0  # centre to corner, in drawing units
# Generals stand under their hex's settlement, side by side, this far apart (drawing units).
GENERAL_ROW = 22.0
GENERAL_SPACING = 28.0
# The tribes' colours, by seat: the board, the Players panel and the final table read them here.
SEAT_COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b83280", "#b7791f")
CANAANITE_COLOUR = "#7a0019"
REGION_COLOURS = (
    "#1f77b4",
    "#17becf",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#d62728",
    "#bcbd22",
    "#7f7f7f",
    "#393b79",
    "#637939",
)
_SQRT3 = math.sqrt(3.0)
# Edge i of a pointy-top hex (corners i and i+1, corner i at 60*i-30 degrees, y down) faces
# this axial neighbour.
_EDGE_DIRECTION = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def centre(q: int, r: int) -> tuple[float, float]:
    return HEX_SIZE * _SQRT3 * (q + r / 2.0), HEX_SIZE * 1.5 * r


def corners(cx: float, cy: float, size: float = HEX_SIZE) -> list[tuple[float, float]]:
    return [
        (
            round(cx + size * math.cos(math.radians(60 * i - 30)), 1),
            round(cy + size * math.sin(math.radians(60 * i - 30)), 1),
        )
        for i in range(6)
    ]


def territories(world: World) -> list[int | None]:
    """The region of each hex: that of its nearest settlement (a breadth-first search over the
    land from every settlement at once), so that regions show as areas with borders."""
    owner: list[int | None] = [None] * len(world.hexes)
    queue: deque[int] = deque()
    for s in world.settlements:
        owner[s.hex] = s.region
        queue.append(s.hex)
    while queue:
        h = queue.popleft()
        for nb in world.neighbours[h]:
            if owner[nb] is None:
                owner[nb] = owner[h]
                queue.append(nb)
    return owner


def describe_board(world: World, state: GameState | None = None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The board of `world` as `state` has it (or at the start), with place names in `lang`."""
    centres = [centre(h.q, h.r) for h in world.hexes]
    region_of = territories(world)
    half_w = HEX_SIZE * _SQRT3 / 2
    xs, ys = [c[0] for c in centres], [c[1] for c in centres]
    box = (min(xs) - half_w - 4, min(ys) - HEX_SIZE - 4, max(xs) - min(xs) + 2 * half_w + 8)
    viewbox = [round(box[0], 1), round(box[1], 1), round(box[2], 1), round(max(ys) - min(ys) + 2 * HEX_SIZE + 8, 1)]

    landed: dict[str, list[str]] = {}
    sealed_terrain: set[str] = set()
    if state is not None:
        for event in state.events_landed:
            landed.setdefault(event.terrain, []).append(event.card)
            if event.card == "sandstorm":
                sealed_terrain.add(event.terrain)

    hexes = []
    for h, (x, y) in zip(world.hexes, centres):
        hexes.append(
            {
                "index": h.index,
                "q": h.q,
                "r": h.r,
                "x": round(x, 1),
                "y": round(y, 1),
                "points": corners(x, y),
                "terrain": h.terrain,
                "region": region_of[h.index],
                "settlement": h.settlement,
                "events": landed.get(h.terrain, []),
                "sealed": h.terrain in sealed_terrain,
            }
        )

    regions = []
    for region in world.regions:
        own = [h for h in world.hexes if region_of[h.index] == region.index]
        segments = []
        for h in own:
            pts = corners(*centres[h.index])
            for edge, (dq, dr) in enumerate(_EDGE_DIRECTION):
                nb = world.hex_at.get((h.q + dq, h.r + dr))
                if nb is None or region_of[nb] != region.index:
                    (x1, y1), (x2, y2) = pts[edge], pts[(edge + 1) % 6]
                    segments.append([x1, y1, x2, y2])
        # The label sits on the region's hex nearest its middle that has no settlement.
        mx = sum(centres[h.index][0] for h in own) / len(own)
        my = sum(centres[h.index][1] for h in own) / len(own)
        free = [h for h in own if h.settlement is None and h.index != world.tabernacle_hex] or own
        spot = min(free, key=lambda h: (centres[h.index][0] - mx) ** 2 + (centres[h.index][1] - my) ** 2)
        title = state.titles[region.index] if state is not None and region.index < len(state.titles) else None
        holder = title.holder if title is not None else None
        regions.append(
            {
                "index": region.index,
                "name": region.name,
                "label": place_name(lang, region.name),
                "kingdom": region.kingdom,
                "colour": REGION_COLOURS[region.index % len(REGION_COLOURS)],
                "hexes": [h.index for h in own],
                "outline": segments,
                "label_x": round(centres[spot.index][0], 1),
                "label_y": round(centres[spot.index][1], 1),
                "judge": holder,
                "judge_seat": state.generals[holder].owner if state is not None and holder is not None else None,
                "in_play": title.in_play if title is not None else True,
            }
        )

    besieged = besieged_settlements(state) if state is not None else set()
    settlements = []
    for s in world.settlements:
        x, y = centres[s.hex]
        st = state.settlements[s.index] if state is not None else None
        owner = st.owner if st is not None else (CANAANITES if s.canaanite_start else None)
        settlements.append(
            {
                "index": s.index,
                "name": s.name,
                "label": place_name(lang, s.name),
                "hex": s.hex,
                "region": s.region,
                "x": round(x, 1),
                "y": round(y, 1),
                "city": s.is_city,
                "owner": owner,
                "troops": st.troops if st is not None else 0,
                "walls": st.walls if st is not None else False,
                "developments": st.developments if st is not None else 0,
                "razed": st.razed if st is not None else False,
                "besieged": s.index in besieged,
            }
        )

    ark_hex = world.ark_start_hex if state is None else state.ark_hex
    invaders = []
    if state is not None:
        for pair in state.invaders:
            if pair.at < 0:
                continue
            here = world.settlements[pair.at]
            there = world.settlements[world.ring_next(pair.at, pair.direction)]
            (x, y), (nx, ny) = centres[here.hex], centres[there.hex]
            invaders.append(
                {
                    "id": pair.id,
                    "settlement": pair.at,
                    "x": round(x, 1),
                    "y": round(y, 1),
                    "direction": pair.direction,
                    "toward": there.index,
                    "angle": round(math.degrees(math.atan2(ny - y, nx - x)), 1),
                    "wave": pair.wave,
                }
            )

    generals = []
    if state is not None:
        by_hex: dict[int, list[int]] = {}
        for g in sorted(state.generals.values(), key=lambda g: g.id):
            by_hex.setdefault(g.hex, []).append(g.id)
        judges: dict[int, list[int]] = {}  # a general may hold several Judge titles (§ 10)
        for i, t in enumerate(state.titles):
            if t.holder is not None:
                judges.setdefault(t.holder, []).append(i)
        for at, ids in by_hex.items():
            x, y = centres[at]
            for k, gid in enumerate(ids):
                g = state.generals[gid]
                # side by side under the settlement (its name is above it), more rows below when
                # a hex is crowded; the screen spreads them out as it enlarges the tokens
                row, col = divmod(k, 3)
                per_row = min(3, len(ids) - 3 * row)
                gx = x + (col - (per_row - 1) / 2) * GENERAL_SPACING
                gy = y + GENERAL_ROW + row * GENERAL_SPACING
                titles = []
                if state.king == gid:
                    titles.append("crown")
                if gid in judges:
                    titles.append("seal")
                if g.prophet:
                    titles.append("prophet")
                if g.anointed:
                    titles.append("anointed")
                if g.ark:
                    titles.append("ark")
                generals.append(
                    {
                        "id": gid,
                        "owner": g.owner,
                        "colour": SEAT_COLOURS[g.owner % len(SEAT_COLOURS)],
                        "hex": at,
                        "x": round(gx, 1),
                        "y": round(gy, 1),
                        "anchor": [round(x, 1), round(y, 1)],
                        "army": g.army,
                        "captor": g.captor,
                        "marks": titles,
                        "judge_of": judges.get(gid, []),
                    }
                )

    tx, ty = centres[world.tabernacle_hex]
    return {
        "map": world.name,
        "hex_size": HEX_SIZE,
        "viewbox": viewbox,
        "hexes": hexes,
        "regions": regions,
        "settlements": settlements,
        "tabernacle": {"hex": world.tabernacle_hex, "x": round(tx, 1), "y": round(ty, 1)},
        "ark": None
        if ark_hex is None
        else {"hex": ark_hex, "x": round(centres[ark_hex][0], 1), "y": round(centres[ark_hex][1], 1)},
        "invaders": invaders,
        "generals": generals,
        "events": [{"card": e.card, "terrain": e.terrain} for e in state.events_landed] if state is not None else [],
        "seat_colours": list(SEAT_COLOURS),
    }
