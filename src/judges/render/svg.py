"""The board as SVG, drawn from its description (`render/board.py`): the one drawing of the board.

`board_svg(description, lang, names)` draws hexes tinted by region with terrain marks, region
borders and names, settlements (cities bigger, walls, developments, garrison, siege, razed),
the Tabernacle and the Ark, invader pairs with the direction they march, landed events on
their terrain, generals as tokens in their tribe's colour showing their army's size (their id
small in a corner badge, relics and titles above), and the settlements' names above every piece.
The icons are the symbols of `web/static/icons.svg`, embedded so that the file stands alone.

Each piece is drawn around its spot in a `.grow` group: the game screen enlarges them when the
board is drawn small, and places the generals and the names so that none lies on another
(web/static/js/board.js). The screen inserts this SVG as it is and wires its groups to clicks:
`data-hex`, `data-region`, `data-settlement`, `data-general`, `data-invaders`.
`render_board_svg(world)` is the CLI's standalone picture of the board at the start, with a legend.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..engine.state import GameState
from ..i18n import DEFAULT_LANGUAGE, gettext
from ..world import World
from .board import CANAANITE_COLOUR, HEX_SIZE, SEAT_COLOURS, corners, describe_board

__all__ = ["board_svg", "render_board_svg", "TERRAIN_COLOURS", "ICONS"]

ICONS = Path(__file__).resolve().parent.parent / "web" / "static" / "icons.svg"
TERRAIN_COLOURS = {"plain": "#c9e4a4", "mountains": "#a89c8e", "desert": "#ecd6a0"}
UNKNOWN_TERRAIN_COLOUR = "#dddddd"
BORDER_COLOUR = "#2d2d2d"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
LEGEND_WIDTH = 260.0
DASHED_WALL = ' stroke-dasharray="4 1.5"'
DASHED_CAPTIVE = ' stroke-dasharray="2 1.5"'
# The pieces' sizes, in drawing units; the screen enlarges every piece (`.grow`) when the board
# is drawn small, so that at least these read at a readable size (web/static/js/board.js).
VILLAGE_LABEL = 12.5
CITY_LABEL = 13.5
REGION_LABEL = 12.0
ARMY_SIZE = 14.0
VILLAGE_RADIUS = 8.5
CITY_RADIUS = 10.5
EMPTY_ARMY = ' fill-opacity="0.65"'  # a general with no troops: his 0 a little faded
HOLDER_Y = -4.0  # a settlement's holder sits a little above its hex's centre, its generals below


@cache
def icon_symbols() -> dict[str, str]:
    """Each symbol of the icon sprite, by id, as its SVG text."""
    text = ICONS.read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r'<symbol id="([a-z_]+)".*?</symbol>', text, re.S)}


def _mix(colour: str, other: str, t: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _points(pts: list[tuple[float, float]] | list[list[float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def _use(icon: str, x: float, y: float, size: float, cls: str = "icon") -> str:
    return (
        f'<use href="#{icon}" class="{cls}" x="{x - size / 2:.1f}" y="{y - size / 2:.1f}" '
        f'width="{size:.1f}" height="{size:.1f}"/>'
    )


def _seat_colour(owner: int | None) -> str:
    if owner is None:
        return "#ffffff"
    if owner < 0:
        return CANAANITE_COLOUR
    return SEAT_COLOURS[owner % len(SEAT_COLOURS)]


class _Words:
    """The drawing's words in one language: tooltips name seats by their players' names."""

    def __init__(self, lang: str, names: Mapping[int, str] | None) -> None:
        self.lang = lang
        self.names = names or {}

    def __call__(self, key: str, **params: Any) -> str:
        return gettext(self.lang, key, **params)

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return self("ui.free")
        if seat < 0:
            return self("ui.canaanites")
        return self.names.get(seat) or self("ui.player_n", n=seat + 1)


def board_svg(
    board: dict[str, Any], lang: str = DEFAULT_LANGUAGE, names: Mapping[int, str] | None = None, legend: bool = False
) -> str:
    """The SVG of a board description (`describe_board`), its tooltips in `lang`."""
    w = _Words(lang, names)
    vx, vy, vw, vh = board["viewbox"]
    width = vw + (LEGEND_WIDTH if legend else 0)
    out: list[str] = []
    add = out.append
    add(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="jk-board" viewBox="{vx} {vy} {width:.1f} {vh}" '
        f'width="{width:.0f}" height="{vh:.0f}" font-family={quoteattr(FONT)} data-map={quoteattr(board["map"])}>'
    )
    used = {"tabernacle", "ark", "invader", "arrow", "crown", "seal", "prophet", "anointed", "wall", "development"}
    used |= {"razed", "captive"} | {card for h in board["hexes"] for card in h["events"]}
    symbols = icon_symbols()
    add("<defs>" + "".join(symbols[i] for i in sorted(used) if i in symbols) + "</defs>")
    add(f'<rect class="sea" x="{vx}" y="{vy}" width="{width:.1f}" height="{vh}" fill="#e6eef3"/>')

    regions = {r["index"]: r for r in board["regions"]}
    # ---- territories: each region's hexes in one group, tinted towards its colour ------------
    add('<g class="hexes" stroke="#ffffff" stroke-width="0.8" stroke-opacity="0.7">')
    by_region: dict[int | None, list[dict[str, Any]]] = {}
    for h in board["hexes"]:
        by_region.setdefault(h["region"], []).append(h)
    for index, hexes in by_region.items():
        region = regions.get(index) if index is not None else None
        if region is not None:
            add(f'<g class="region" data-region={quoteattr(region["name"])}>')
            add(f"<title>{escape(region['label'])} ({escape(w('kingdom.' + region['kingdom']))})</title>")
        else:
            add("<g>")
        for h in hexes:
            base = TERRAIN_COLOURS.get(h["terrain"], UNKNOWN_TERRAIN_COLOUR)
            fill = base if region is None else _mix(base, region["colour"], 0.14)
            classes = f"hex terrain-{h['terrain']}" + (" sealed" if h["sealed"] else "")
            # a hex an event landed on names it in its tooltip (its mark on the terrain is drawn below)
            title = (
                "<title>"
                + escape(", ".join(w("card." + card) for card in h["events"]) + " → " + w("terrain." + h["terrain"]))
                + "</title>"
                if h["events"]
                else ""
            )
            add(
                f'<polygon class="{classes}" data-hex="{h["index"]}" data-q="{h["q"]}" data-r="{h["r"]}" '
                f'points="{_points(h["points"])}" fill="{fill}"' + (f">{title}</polygon>" if title else "/>")
            )
        add("</g>")
    add("</g>")

    # ---- terrain marks and the events landed on a terrain ------------------------------------
    add('<g class="terrain-marks" fill="none" stroke-linecap="round" pointer-events="none">')
    for h in board["hexes"]:
        if h["settlement"] is not None or h["index"] == board["tabernacle"]["hex"]:
            continue
        x, y = h["x"], h["y"]
        if h["events"]:
            for k, card in enumerate(h["events"][:2]):
                add(_use(card, x - 7 + 14 * k - 7 * (len(h["events"][:2]) - 1) + 7, y, 18, "icon event-mark"))
            continue
        if h["terrain"] == "mountains":
            add(
                f'<path d="M{x - 11:.1f},{y + 6:.1f} L{x - 4:.1f},{y - 5:.1f} L{x + 1:.1f},{y + 2:.1f} '
                f'L{x + 5:.1f},{y - 3:.1f} L{x + 11:.1f},{y + 6:.1f}" stroke="#6d6357" stroke-width="1.6"/>'
            )
        elif h["terrain"] == "desert":
            for dx, dy in ((-7, -3), (3, -6), (7, 4), (-3, 6), (0, 0)):
                add(f'<circle cx="{x + dx:.1f}" cy="{y + dy:.1f}" r="1.2" fill="#b89a5a"/>')
        elif h["terrain"] == "plain":
            add(
                f'<path d="M{x - 8:.1f},{y + 3:.1f} q3,-4 6,0 M{x + 2:.1f},{y - 2:.1f} q3,-4 6,0" '
                f'stroke="#89b463" stroke-width="1.3"/>'
            )
    add("</g>")

    # ---- region borders and names -------------------------------------------------------------
    add('<g class="region-borders" fill="none" stroke-linecap="round" pointer-events="none">')
    for r in board["regions"]:
        d = " ".join(f"M{x1},{y1} L{x2},{y2}" for x1, y1, x2, y2 in r["outline"])
        add(
            f'<path class="region-outline" data-region-outline={quoteattr(r["name"])} d="{d}" '
            f'stroke="{BORDER_COLOUR}" stroke-width="2.2" stroke-opacity="0.85"/>'
        )
    add("</g>")
    add('<g class="region-labels" pointer-events="none">')
    for r in board["regions"]:
        judge = r["judge_seat"]
        colour = _seat_colour(judge) if judge is not None else "#333"
        add(
            f'<g transform="translate({r["label_x"]} {r["label_y"]})"><g class="grow">'
            f'<text class="region-label" y="4" text-anchor="middle" '
            f'font-size="{REGION_LABEL}" font-weight="bold" letter-spacing="0.5" fill="{colour}" fill-opacity="0.85" '
            f'stroke="#fff" stroke-width="2.5" stroke-opacity="0.7" paint-order="stroke">'
            f"{escape(r['label'].upper())}</text></g></g>"
        )
    add("</g>")

    # ---- the Tabernacle, beside the holder of the settlement on its hex (Shiloh) ---------------
    tab = board["tabernacle"]
    add(
        f'<g class="tabernacle" pointer-events="none" transform="translate({tab["x"]} {tab["y"]})">'
        f'<title>{escape(w("ui.tabernacle"))}</title><g class="grow">{_use("tabernacle", -22, 2, 22)}</g></g>'
    )

    # ---- settlements ------------------------------------------------------------------------
    add('<g class="settlements">')
    for s in board["settlements"]:
        add(_settlement(s, w))
    add("</g>")

    # ---- the Ark, unattended ------------------------------------------------------------------
    if board["ark"] is not None:
        ark = board["ark"]
        add(
            f'<g class="ark" data-ark="{ark["hex"]}" pointer-events="none" '
            f'transform="translate({ark["x"]} {ark["y"]})"><title>{escape(w("ui.ark"))}</title>'
            f'<g class="grow">{_use("ark", -20, 3, 15)}</g></g>'
        )

    # ---- invaders -----------------------------------------------------------------------------
    add('<g class="invaders-layer">')
    names_by_index = {s["index"]: s["label"] for s in board["settlements"]}
    for p in board["invaders"]:
        tip = f"{w('ui.invader_pair')} {p['id']} → {names_by_index[p['toward']]}"
        add(
            f'<g class="invaders" data-invaders="{p["id"]}" data-at="{p["settlement"]}" '
            f'transform="translate({p["x"]} {p["y"]})">'
        )
        add(f'<title>{escape(tip)}</title><g class="grow">')
        add(_use("invader", 21, 2, 14))
        add(f'<g transform="rotate({p["angle"]} 21 2)">{_use("arrow", 33, 2, 11, "icon direction")}</g>')
        add("</g></g>")
    add("</g>")

    # ---- generals -----------------------------------------------------------------------------
    add('<g class="generals">')
    for g in board["generals"]:
        add(_general(g, w, regions))
    add("</g>")

    # ---- settlements' names, above every piece ------------------------------------------------
    add('<g class="settlement-labels" pointer-events="none">')
    for s in board["settlements"]:
        add(_label(s))
    add("</g>")

    if legend:
        add(_legend(board, w, vx + vw + 10, vy + 20))
    add("</svg>")
    return "\n".join(out) + "\n"


def _settlement(s: dict[str, Any], w: _Words) -> str:
    # drawn around the hex's centre in a group the screen enlarges when the board is small
    # (`.grow`, board.js): the holder, its garrison, walls and developments; the name is in
    # the labels' layer (`_label`)
    r = CITY_RADIUS if s["city"] else VILLAGE_RADIUS
    y = HOLDER_Y
    parts = [
        f'<g class="settlement{" city" if s["city"] else ""}{" razed" if s["razed"] else ""}'
        f'{" besieged" if s["besieged"] else ""}" data-settlement={quoteattr(s["name"])} data-hex="{s["hex"]}" '
        f'data-owner="{"" if s["owner"] is None else s["owner"]}">'
    ]
    tip = [s["label"], w("ui.city") if s["city"] else w("ui.village")]
    if s["razed"]:
        tip.append(w("ui.razed"))
    else:
        tip.append(w.seat(s["owner"]))
        if s["troops"]:
            tip.append(f"{w('ui.garrison')} {s['troops']}")
        if s["walls"]:
            tip.append(w("ui.walls"))
        if s["developments"]:
            tip.append(f"{w('ui.developments')} {s['developments']}")
        if s["besieged"]:
            tip.append(w("ui.besieged"))
    parts.append(f"<title>{escape(' · '.join(tip))}</title>")
    # the whole hex under the settlement takes the click too (the group spans it)
    parts.append(
        f'<polygon class="settlement-hex" points="{_points(corners(s["x"], s["y"], HEX_SIZE - 1))}" '
        f'fill="transparent" stroke="none"/>'
    )
    parts.append(f'<g transform="translate({s["x"]} {s["y"]})"><g class="grow">')
    if s["razed"]:
        parts.append(_use("razed", 0, y, 20))
    else:
        if s["besieged"]:
            parts.append(
                f'<circle class="siege-ring" cy="{y}" r="{r + 5:.1f}" fill="none" stroke="#b91c1c" '
                f'stroke-width="2" stroke-dasharray="3 2.5"/>'
            )
        if s["city"]:
            parts.append(f'<circle cy="{y}" r="{r + 2.5:.1f}" fill="none" stroke="#222" stroke-width="1.2"/>')
        walls = s["walls"]
        parts.append(
            f'<circle class="holder" cy="{y}" r="{r}" fill="{_seat_colour(s["owner"])}" '
            f'stroke="{"#1a1a1a" if walls else "#444"}" stroke-width="{3.5 if walls else 1.2}"'
            f"{DASHED_WALL if walls else ''}/>"
        )
        if s["troops"]:
            fill = "#111" if s["owner"] is None else "#fff"
            size = 12 if s["city"] else 11
            parts.append(
                f'<text class="troops" data-troops="{s["troops"]}" y="{y + size * 0.36:.1f}" text-anchor="middle" '
                f'font-size="{size}" font-weight="bold" fill="{fill}">{s["troops"]}</text>'
            )
        if walls:
            parts.append(_use("wall", -r - 5, y - r + 3, 10))
        if s["developments"]:
            parts.append(_use("development", r + 5, y - r + 3, 10))
            if s["developments"] > 1:
                parts.append(
                    f'<text x="{r + 10:.1f}" y="{y - r - 1:.1f}" font-size="8" font-weight="bold" fill="#333">'
                    f"{s['developments']}</text>"
                )
    parts.append("</g></g></g>")
    return "".join(parts)


def label_lines(label: str, longest: int = 9) -> list[str]:
    """A settlement's name on one line, or on two when it is long and can break (after a hyphen,
    at a space): the names stay within about a hex's width, clear of their neighbours'."""
    if len(label) <= longest:
        return [label]
    breaks = [i + 1 for i, c in enumerate(label) if c == "-"] + [i for i, c in enumerate(label) if c == " "]
    if not breaks:
        return [label]
    at = min(breaks, key=lambda i: max(len(label[:i]), len(label[i:].lstrip())))
    return [label[:at].rstrip(), label[at:].lstrip()]


def _label(s: dict[str, Any]) -> str:
    city = s["city"]
    size = CITY_LABEL if city else VILLAGE_LABEL
    r = CITY_RADIUS + 2.5 if city else VILLAGE_RADIUS
    baseline = HOLDER_Y - r - 3  # the last line's baseline, just above the holder
    lines = label_lines(s["label"])
    spans = "".join(
        f'<tspan x="0" y="{baseline - (len(lines) - 1 - i) * size * 1.08:.1f}">{escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<g transform="translate({s["x"]} {s["y"]})"><g class="grow">'
        f'<text class="label{" city" if city else ""}" data-label={quoteattr(s["name"])} data-lines="{len(lines)}" '
        f'text-anchor="middle" font-size="{size}" font-weight="{"bold" if city else "normal"}" fill="#111" '
        f'stroke="#fff" stroke-width="2.6" stroke-opacity="0.9" paint-order="stroke">{spans}</text></g></g>'
    )


_MARK_WORDS = {
    "crown": "ui.king",
    "seal": "ui.judge",
    "prophet": "ui.prophet",
    "anointed": "ui.anointed",
    "ark": "ui.ark",
}


def _general(g: dict[str, Any], w: _Words, regions: dict[int, dict[str, Any]]) -> str:
    x, y = g["x"], g["y"]
    tip = [f"{w('ui.general')} {g['id']}", w.seat(g["owner"])]
    for mark in g["marks"]:
        word = w(_MARK_WORDS[mark])
        if mark == "seal" and g["judge_of"]:
            word += f" ({', '.join(regions[r]['label'] for r in g['judge_of'])})"
        tip.append(word)
    tip.append(f"{w('ui.army')} {g['army']}")
    if g["captor"] is not None:
        tip.append(f"{w('ui.captive')} ({w.seat(g['captor'])})")
    captive = g["captor"] is not None
    ax, ay = g["anchor"]
    # the token: the army's size, the number a player reads first, large on the tribe's colour;
    # the general's id small in a corner badge; relics and titles in a row above the token
    half_w, half_h = 11.0, 10.0
    parts = [
        f'<g class="general{" captive" if captive else ""}" data-general="{g["id"]}" data-seat="{g["owner"]}" '
        f'data-hex="{g["hex"]}" data-anchor="{ax} {ay}" transform="translate({x} {y})">',
        f'<title>{escape(" · ".join(tip))}</title><g class="grow">',
        f'<rect class="token" x="{-half_w}" y="{-half_h}" width="{2 * half_w}" height="{2 * half_h}" rx="4" '
        f'fill="{g["colour"]}" stroke="{"#fff" if not captive else "#111"}" '
        f'stroke-width="1.6"{DASHED_CAPTIVE if captive else ""}/>',
        f'<text class="army" data-troops="{g["army"]}" y="{ARMY_SIZE * 0.36:.1f}" text-anchor="middle" '
        f'font-size="{ARMY_SIZE}" font-weight="bold" fill="#fff"{"" if g["army"] else EMPTY_ARMY}>'
        f"{g['army']}</text>",
        f'<g class="general-id"><circle cx="{-half_w}" cy="{-half_h + 2}" r="5.5" fill="#fff" stroke="#333" '
        f'stroke-width="0.7"/><text x="{-half_w}" y="{-half_h + 4.8:.1f}" text-anchor="middle" font-size="8" '
        f'font-weight="bold" fill="#111">{g["id"]}</text></g>',
    ]
    marks = g["marks"]
    for k, mark in enumerate(marks):
        parts.append(_use(mark, 3 + (k - (len(marks) - 1) / 2) * 10, -half_h - 5, 10, f"icon mark mark-{mark}"))
    if captive:
        parts.append(_use("captive", half_w - 1, half_h - 1, 9))
    parts.append("</g></g>")
    return "".join(parts)


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def _legend(board: dict[str, Any], w: _Words, lx: float, ly: float) -> str:
    out = ['<g class="legend" font-size="12" fill="#222">']
    height = 22 * (10 + len(board["regions"])) + 30
    out.append(
        f'<rect x="{lx - 8:.0f}" y="{ly - 18:.0f}" width="{LEGEND_WIDTH - 24:.0f}" height="{height}" '
        f'rx="6" fill="#ffffff" fill-opacity="0.9" stroke="#999"/>'
    )
    out.append(f'<text x="{lx:.0f}" y="{ly:.0f}" font-size="14" font-weight="bold">{escape(w("ui.board"))}</text>')
    row = ly + 24
    for terrain, colour in TERRAIN_COLOURS.items():
        out.append(
            f'<polygon points="{_points(corners(lx + 9, row - 4, 9))}" fill="{colour}" stroke="#666"/>'
            f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(_capital(w("terrain." + terrain)))}</text>'
        )
        row += 22
    out.append(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="8" fill="#fff" stroke="#222"/>'
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="6" fill="#fff" stroke="#444"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(w("ui.city"))}</text>'
    )
    row += 22
    out.append(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="5" fill="#fff" stroke="#444"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(w("ui.village"))}</text>'
    )
    row += 22
    out.append(
        f'<circle cx="{lx + 9:.0f}" cy="{row - 4:.0f}" r="6" fill="{CANAANITE_COLOUR}"/>'
        f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(w("ui.canaanite_held"))}</text>'
    )
    row += 22
    for icon, key in (("tabernacle", "ui.tabernacle"), ("ark", "ui.ark"), ("invader", "ui.invaders")):
        out.append(_use(icon, lx + 9, row - 4, 16) + f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(w(key))}</text>')
        row += 22
    row += 8
    out.append(f'<text x="{lx:.0f}" y="{row:.0f}" font-size="13" font-weight="bold">{escape(w("ui.region"))}</text>')
    row += 22
    for r in board["regions"]:
        out.append(
            f'<rect x="{lx:.0f}" y="{row - 12:.0f}" width="18" height="14" rx="2" fill="{r["colour"]}" stroke="#333"/>'
            f'<text x="{lx + 26:.0f}" y="{row:.0f}">{escape(r["label"])} '
            f'<tspan fill="#666">({escape(w("kingdom." + r["kingdom"]))})</tspan></text>'
        )
        row += 22
    out.append("</g>")
    return "".join(out)


def render_board_svg(
    world: World, state: GameState | None = None, lang: str = DEFAULT_LANGUAGE, names: Mapping[int, str] | None = None
) -> str:
    """The board of `world` (at the start, or as `state` has it) as a standalone SVG document
    with a legend: `judges board --svg`, the manual's figures."""
    return board_svg(describe_board(world, state, lang), lang, names, legend=True)
