"""Render the board as a standalone SVG document (standard library only).

``render_board_svg(world)`` draws the static board: pointy-top hexes coloured by terrain, region
territories (each hex is shaded towards the region of its nearest settlement, with borders
between territories), settlements (cities bigger than villages) with their names, the starting
Canaanite-held settlements, the Tabernacle, where the Ark starts, and a legend.
"""

from __future__ import annotations

import math
from collections import deque
from xml.sax.saxutils import escape, quoteattr

from judges.world import World

__all__ = ["render_board_svg", "TERRAIN_COLOURS", "REGION_COLOURS"]

HEX_SIZE = 30.0  # centre to corner, px
MARGIN = 30.0
LEGEND_WIDTH = 250.0
TITLE_HEIGHT = 40.0

TERRAIN_COLOURS = {
    "plain": "#c9e4a4",
    "mountains": "#a89c8e",
    "desert": "#ecd6a0",
}
TERRAIN_LABELS = {"plain": "Plain", "mountains": "Mountains", "desert": "Desert"}
UNKNOWN_TERRAIN_COLOUR = "#dddddd"

REGION_COLOURS = (
    "#1f77b4",  # blue
    "#17becf",  # cyan
    "#2ca02c",  # green
    "#9467bd",  # purple
    "#ff7f0e",  # orange
    "#8c564b",  # brown
    "#e377c2",  # pink
    "#d62728",  # red
    "#bcbd22",  # olive
    "#7f7f7f",  # grey
    "#393b79",
    "#637939",
)
KINGDOM_LABELS = {"israel": "Israel", "judah": "Judah", "foreign": "foreign"}

CANAANITE_COLOUR = "#7a0019"
SACRED_COLOUR = "#c8a000"
BORDER_COLOUR = "#3a3a3a"
BACKGROUND = "#eef3f7"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

_SQRT3 = math.sqrt(3.0)


def _centre(q: int, r: int) -> tuple[float, float]:
    return HEX_SIZE * _SQRT3 * (q + r / 2.0), HEX_SIZE * 1.5 * r


def _corners(cx: float, cy: float, size: float = HEX_SIZE) -> list[tuple[float, float]]:
    # pointy-top: corners at 30°, 90°, ... (SVG y axis points down)
    return [
        (cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def _points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


# Edge i of a pointy-top hex (between corners i and i+1) faces this axial direction.
# Corner i sits at angle 60*i-30 degrees with the SVG y axis pointing down: corner 0 is
# upper right, corner 1 lower right, corner 2 bottom, ..., corner 5 top.
_EDGE_DIRECTION = {
    0: (1, 0),  # corners 0-1: east
    1: (0, 1),  # corners 1-2: south-east
    2: (-1, 1),  # corners 2-3: south-west
    3: (-1, 0),  # corners 3-4: west
    4: (0, -1),  # corners 4-5: north-west
    5: (1, -1),  # corners 5-0: north-east
}


def _mix(colour: str, other: str, t: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _territories(world: World) -> list[int | None]:
    """Region of the nearest settlement for every hex (multi-source BFS over the land)."""
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


def render_board_svg(world: World) -> str:
    """Return the board as an SVG document (a string)."""
    centres = [_centre(h.q, h.r) for h in world.hexes]
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    half_w = HEX_SIZE * _SQRT3 / 2
    min_x, max_x = min(xs) - half_w, max(xs) + half_w
    min_y, max_y = min(ys) - HEX_SIZE, max(ys) + HEX_SIZE
    ox = MARGIN - min_x
    oy = MARGIN + TITLE_HEIGHT - min_y
    map_w = max_x - min_x
    map_h = max_y - min_y
    legend_rows = 9 + len(world.regions)
    legend_h = 40 + legend_rows * 24
    width = map_w + 2 * MARGIN + LEGEND_WIDTH
    height = max(map_h, legend_h) + 2 * MARGIN + TITLE_HEIGHT

    region_colour = [REGION_COLOURS[i % len(REGION_COLOURS)] for i in range(len(world.regions))]
    owner = _territories(world)

    out: list[str] = []
    add = out.append
    add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family={quoteattr(FONT)}>'
    )
    add(f"<title>{escape(world.name)}</title>")
    add(f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="{BACKGROUND}"/>')
    add(
        f'<text x="{MARGIN:.0f}" y="{MARGIN + 12:.0f}" font-size="24" font-weight="bold" '
        f'fill="#333">{escape(world.name)}</text>'
    )

    # ---- terrain, tinted towards the territory's region colour -----------------------------
    add('<g id="hexes" stroke="#ffffff" stroke-width="0.8" stroke-opacity="0.7">')
    for h, (cx, cy) in zip(world.hexes, centres):
        base = TERRAIN_COLOURS.get(h.terrain, UNKNOWN_TERRAIN_COLOUR)
        owning = owner[h.index]
        fill = base if owning is None else _mix(base, region_colour[owning], 0.12)
        add(
            f'<polygon points="{_points(_corners(cx + ox, cy + oy))}" fill="{fill}">'
            f"<title>({h.q}, {h.r}) {escape(h.terrain)}</title></polygon>"
        )
    add("</g>")

    # ---- terrain texture marks (mountains: peaks, desert: dots) ----------------------------
    add('<g id="terrain-marks" fill="none" stroke-linecap="round">')
    for h, (cx, cy) in zip(world.hexes, centres):
        if h.settlement is not None:
            continue
        x, y = cx + ox, cy + oy
        if h.terrain == "mountains":
            add(
                f'<path d="M{x - 11:.1f},{y + 6:.1f} L{x - 4:.1f},{y - 5:.1f} L{x + 1:.1f},{y + 2:.1f} '
                f'L{x + 5:.1f},{y - 3:.1f} L{x + 11:.1f},{y + 6:.1f}" stroke="#6d6357" stroke-width="1.6"/>'
            )
        elif h.terrain == "desert":
            for dx, dy in ((-7, -3), (3, -6), (7, 4), (-3, 6), (0, 0)):
                add(f'<circle cx="{x + dx:.1f}" cy="{y + dy:.1f}" r="1.2" fill="#b89a5a"/>')
        elif h.terrain == "plain":
            add(
                f'<path d="M{x - 8:.1f},{y + 3:.1f} q3,-4 6,0 M{x + 2:.1f},{y - 2:.1f} q3,-4 6,0" '
                f'stroke="#89b463" stroke-width="1.3"/>'
            )
    add("</g>")

    # ---- territory borders and the edge of the land ----------------------------------------
    add(f'<g id="borders" stroke="{BORDER_COLOUR}" stroke-linecap="round">')
    for h, (cx, cy) in zip(world.hexes, centres):
        corners = _corners(cx + ox, cy + oy)
        for edge, (dq, dr) in _EDGE_DIRECTION.items():
            nb = world.hex_at.get((h.q + dq, h.r + dr))
            (x1, y1), (x2, y2) = corners[edge], corners[(edge + 1) % 6]
            if nb is None:
                add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke-width="2.2"/>')
            elif nb > h.index and owner[nb] != owner[h.index]:
                add(
                    f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                    f'stroke-width="1.4" stroke-dasharray="5 3" stroke-opacity="0.75"/>'
                )
    add("</g>")

    # ---- settlements ------------------------------------------------------------------------
    add('<g id="settlements">')
    for s in world.settlements:
        cx, cy = centres[s.hex]
        x, y = cx + ox, cy + oy
        colour = region_colour[s.region]
        add(f'<g class="settlement" id={quoteattr("settlement-" + str(s.index))}>')
        add(
            f'<polygon points="{_points(_corners(x, y, HEX_SIZE - 2.5))}" fill="none" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
        if s.is_city:
            add(f'<circle cx="{x:.1f}" cy="{y - 4:.1f}" r="10" fill="{colour}" stroke="#111" stroke-width="2"/>')
            add(f'<circle cx="{x:.1f}" cy="{y - 4:.1f}" r="4" fill="#fff" stroke="#111" stroke-width="1"/>')
        else:
            add(f'<circle cx="{x:.1f}" cy="{y - 4:.1f}" r="6" fill="{colour}" stroke="#111" stroke-width="1.5"/>')
        if s.canaanite_start:
            add(
                f'<circle cx="{x + 13:.1f}" cy="{y - 13:.1f}" r="6.5" fill="{CANAANITE_COLOUR}" '
                f'stroke="#fff" stroke-width="1"/>'
                f'<text x="{x + 13:.1f}" y="{y - 9.8:.1f}" font-size="9" font-weight="bold" '
                f'fill="#fff" text-anchor="middle">C</text>'
            )
        add(
            f'<text x="{x:.1f}" y="{y + 17:.1f}" font-size="{10 if s.is_city else 9}" '
            f'font-weight="{"bold" if s.is_city else "normal"}" text-anchor="middle" fill="#111" '
            f'stroke="#fff" stroke-width="2.6" stroke-opacity="0.85" paint-order="stroke">'
            f"{escape(s.name)}</text>"
        )
        add("</g>")
    add("</g>")

    # ---- Tabernacle and Ark -----------------------------------------------------------------
    tx, ty = centres[world.tabernacle_hex]
    add(_tabernacle_icon(tx + ox - 14, ty + oy - 12, "tabernacle"))
    ax, ay = centres[world.ark_start_hex]
    add(_ark_icon(ax + ox - 14, ay + oy - 12, "ark-start"))

    # ---- legend -----------------------------------------------------------------------------
    lx = map_w + 2 * MARGIN + 10
    ly = MARGIN + TITLE_HEIGHT
    add('<g id="legend" font-size="12" fill="#222">')
    add(
        f'<rect x="{lx - 10:.0f}" y="{ly - 24:.0f}" width="{LEGEND_WIDTH - 20:.0f}" '
        f'height="{legend_h:.0f}" rx="6" fill="#ffffff" fill-opacity="0.85" stroke="#999"/>'
    )
    add(f'<text x="{lx:.0f}" y="{ly:.0f}" font-size="14" font-weight="bold">Legend</text>')
    row = ly + 24
    for terrain in ("plain", "mountains", "desert"):
        add(
            f'<polygon points="{_points(_corners(lx + 9, row - 4, 9))}" '
            f'fill="{TERRAIN_COLOURS[terrain]}" stroke="#666"/>'
            f'<text x="{lx + 26:.0f}" y="{row:.0f}">{TERRAIN_LABELS[terrain]}</text>'
        )
        row += 24
    add(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="9" fill="#bbb" stroke="#111" stroke-width="2"/>'
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="3.5" fill="#fff" stroke="#111"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">City (seat of the judge)</text>'
    )
    row += 24
    add(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="6" fill="#bbb" stroke="#111" stroke-width="1.5"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">Village</text>'
    )
    row += 24
    add(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="6.5" fill="{CANAANITE_COLOUR}"/>'
        f'<text x="{lx + 9:.0f}" y="{row - 0.8:.1f}" font-size="9" font-weight="bold" fill="#fff" '
        f'text-anchor="middle">C</text>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">Canaanite-held at start</text>'
    )
    row += 24
    add(_tabernacle_icon(lx + 9, row - 4, None))
    add(f'<text x="{lx + 26:.0f}" y="{row:.0f}">Tabernacle</text>')
    row += 24
    add(_ark_icon(lx + 9, row - 4, None))
    add(f'<text x="{lx + 26:.0f}" y="{row:.0f}">Ark (start)</text>')
    row += 24
    add(
        f'<line x1="{lx:.0f}" y1="{row - 4:.0f}" x2="{lx + 18:.0f}" y2="{row - 4:.0f}" '
        f'stroke="{BORDER_COLOUR}" stroke-width="1.4" stroke-dasharray="5 3"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">Region border (nearest town)</text>'
    )
    row += 30
    add(f'<text x="{lx:.0f}" y="{row:.0f}" font-size="13" font-weight="bold">Regions</text>')
    row += 22
    for region in world.regions:
        kingdom = KINGDOM_LABELS.get(region.kingdom, region.kingdom)
        add(
            f'<rect x="{lx:.0f}" y="{row - 12:.0f}" width="18" height="14" rx="2" '
            f'fill="{region_colour[region.index]}" stroke="#333"/>'
            f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(region.name)} '
            f'<tspan fill="#666">({escape(kingdom)})</tspan></text>'
        )
        row += 22
    add("</g>")
    add("</svg>")
    return "\n".join(out) + "\n"


def _tabernacle_icon(x: float, y: float, element_id: str | None) -> str:
    ident = f' id="{element_id}"' if element_id else ""
    return (
        f"<g{ident}><title>Tabernacle</title>"
        f'<path d="M{x - 10:.1f},{y + 7:.1f} L{x:.1f},{y - 9:.1f} L{x + 10:.1f},{y + 7:.1f} Z" '
        f'fill="#f4e3a1" stroke="{SACRED_COLOUR}" stroke-width="2.2" stroke-linejoin="round"/>'
        f'<path d="M{x - 3:.1f},{y + 7:.1f} L{x:.1f},{y + 1:.1f} L{x + 3:.1f},{y + 7:.1f} Z" '
        f'fill="{SACRED_COLOUR}"/></g>'
    )


def _ark_icon(x: float, y: float, element_id: str | None) -> str:
    ident = f' id="{element_id}"' if element_id else ""
    return (
        f"<g{ident}><title>Ark (start)</title>"
        f'<rect x="{x - 9:.1f}" y="{y - 6:.1f}" width="18" height="12" rx="1.5" fill="{SACRED_COLOUR}" '
        f'stroke="#6b5200" stroke-width="1.2"/>'
        f'<line x1="{x - 13:.1f}" y1="{y + 2:.1f}" x2="{x + 13:.1f}" y2="{y + 2:.1f}" stroke="#6b5200" '
        f'stroke-width="1.8" stroke-linecap="round"/>'
        f'<path d="M{x - 7:.1f},{y - 6:.1f} l3,-4 M{x + 7:.1f},{y - 6:.1f} l-3,-4" stroke="#6b5200" '
        f'stroke-width="1.4" fill="none"/></g>'
    )
