"""§ 15 What the player sees — a board read without zooming:

- the map fills the width of its frame (which scrolls up and down), no empty band beside it, and
  takes 55 % of a 1400-px window or more, every panel a player needs still in sight;
- a village's name reads at 11 CSS px or more, a general's army size at 12 px or more and larger
  than any other number of his token;
- a general never lies on a settlement's name;
- the Tabernacle is drawn as a tent in its court, not as a warning sign;

at 1400×900 with three players and at 1280×720 with five and six, in English, Spanish and
Portuguese. Sizes are measured as the browser draws them (the text's font size times the
screen's scale of its drawing, bounding boxes in CSS px)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, open_host_seat, open_page, watch_console
from browser.support import shot
from judges.render.svg import ICONS

# Five generals crowd Hazor (three of them the King, a Judge and a prophet), others stand on the
# hexes beside long names (Timnath-serah, Kiriath-jearim, Ramoth-gilead), where a neighbour's name
# reaches: none of them may cover a name.
CROWDED = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Hazor": {"owner": 0, "troops": 3},
        "Kiriath-jearim": {"owner": 0, "troops": 2},
        "Timnath-serah": {"owner": 1, "troops": 2},
        "Ramoth-gilead": {"owner": 2, "troops": 2},
    },
    "generals": [
        {"id": 10, "owner": 0, "at": "Hazor", "army": 12},
        {"id": 13, "owner": 0, "at": "Hazor", "army": 3, "prophet": True},
        {"id": 14, "owner": 0, "at": "Hazor", "army": 1},
        {"id": 15, "owner": 1, "at": "Hazor", "army": 2},
        {"id": 16, "owner": 2, "at": "Hazor"},
        {"id": 11, "owner": 1, "at": "Timnath-serah", "army": 4},
        {"id": 12, "owner": 2, "at": "Ramoth-gilead", "army": 10},
        {"id": 17, "owner": 1, "at": "Kiriath-jearim"},
        {"id": 18, "owner": 0, "at": "Gibeon", "army": 2},
        {"id": 19, "owner": 2, "at": "Beth-horon", "army": 2},
    ],
    "titles": {"Naphtali": {"holder": 10}},
    "king": 13,
}

CASES = [
    pytest.param(1400, 900, 3, "en", None, id="1400x900-3p-en"),
    pytest.param(1400, 900, 3, "pt_BR", CROWDED, id="1400x900-crowded-pt_BR"),
    pytest.param(1280, 720, 5, "es", None, id="1280x720-5p-es"),
    pytest.param(1280, 720, 6, "pt_BR", None, id="1280x720-6p-pt_BR"),
    pytest.param(1280, 720, 5, "en", CROWDED, id="1280x720-crowded-en"),
]


def start(server, browser, width, height, players, lang, position):
    seats = [{"kind": "human", "name": "Deborah"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    spec = {"seats": seats, "seed": 11}
    if position is not None:
        spec["position"] = position
    data = httpx.post(server + "/api/games", json=spec, timeout=HTTP_TIMEOUT).json()
    page = open_page(browser, viewport={"width": width, "height": height})
    errors = watch_console(page)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#board svg [data-general]").first.wait_for()
    page.locator("#actions .end-turn").wait_for()
    return page, errors


MEASURE = """() => {
  const svg = document.querySelector('#board svg');
  const shown = (n) => { const r = n.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  // the size a text is drawn at on the screen: its font size in its drawing's units, times the
  // screen's scale of its drawing there (every transform above it, the screen's enlargement too)
  const px = (n) => n ? parseFloat(getComputedStyle(n).fontSize) * n.getScreenCTM().a : null;
  const rect = (n) => { const r = n.getBoundingClientRect();
                        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const labels = [...svg.querySelectorAll('text.label')].filter(shown);
  const generals = [...svg.querySelectorAll('[data-general]')].map((g) => ({
    id: g.dataset.general,
    troops: px(g.querySelector('[data-troops]')),
    others: [...g.querySelectorAll('text:not([data-troops])')].map(px),
    parts: [...g.querySelectorAll('.token, .general-id, .mark')].map(rect),
  }));
  return {
    villages: labels.filter((n) => !n.closest('.city')).map((n) => [n.textContent, px(n)]),
    cities: labels.filter((n) => n.closest('.city')).map((n) => [n.textContent, px(n)]),
    labels: labels.map((n) => [n.textContent, rect(n)]),
    generals,
    villageCount: svg.querySelectorAll('.settlement:not(.city)').length,
  };
}"""


def overlap(a: dict, b: dict) -> float:
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return w * h if w > 0.5 and h > 0.5 else 0.0


@pytest.mark.parametrize("width, height, players, lang, position", CASES)
def test_the_map_fills_the_room_the_panels_leave(server, browser, width, height, players, lang, position):
    page, errors = start(server, browser, width, height, players, lang, position)
    room = page.evaluate(
        """() => {
      const box = (n) => { const r = n.getBoundingClientRect();
                           return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                                   width: r.width, height: r.height}; };
      const svg = document.querySelector('#board svg');
      const wrap = box(document.querySelector('#board-wrap'));
      const panels = [...document.querySelectorAll('aside')].map(box);
      const bars = [...document.querySelectorAll('header, [data-panel=status]')].map(box);
      // the panels a player needs while playing: the players, your hand, your actions, the log
      const needed = ['#players', '#me', '#actions', '#log'].map((id) => [id, box(document.querySelector(id))]);
      return {wrap, map: box(svg), panels, needed,
              top: Math.max(...bars.map((b) => b.bottom)), viewport: {width: innerWidth, height: innerHeight}};
    }"""
    )
    wrap, drawn, panels, width = room["wrap"], room["map"], room["panels"], room["viewport"]["width"]
    # the map fills its frame's width, no empty band beside it; it is as tall as the frame or
    # taller (the frame scrolls up and down)
    assert abs(drawn["width"] - wrap["width"]) <= 2 and drawn["height"] >= wrap["height"] - 2, room
    # the map has the room: 55 % of a 1400-px window's width or more (a frame 1.4 times as wide
    # as the whole map at the window's height; lower windows keep more of the map in sight)
    if width >= 1400:
        assert drawn["width"] >= 0.55 * width, room
    # ... and every panel a player needs is still on the screen, whole in width, from its top
    for name, panel in room["needed"]:
        assert panel["width"] >= 200 and panel["height"] > 0, (name, room)
        assert panel["left"] >= 0 and panel["right"] <= width + 1, (name, room)
        assert 0 <= panel["top"] < room["viewport"]["height"] - 40, (name, room)
    # the frame runs from the bar on top to the window's bottom ...
    assert abs(wrap["top"] - room["top"]) <= 2 and abs(wrap["bottom"] - room["viewport"]["height"]) <= 2, room
    # ... and from the panels on its left (or the window's edge) to those on its right: the panels
    # take the rest of the width
    left = max([p["right"] for p in panels if p["right"] <= wrap["left"] + 2], default=0)
    right = min([p["left"] for p in panels if p["left"] >= wrap["right"] - 2], default=width)
    assert abs(wrap["left"] - left) <= 2 and abs(wrap["right"] - right) <= 2, room
    assert min(p["left"] for p in panels + [wrap]) <= 1 and max(p["right"] for p in panels + [wrap]) >= width - 1, room
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("width, height, players, lang, position", CASES)
def test_names_and_army_sizes_read_without_zooming(server, browser, width, height, players, lang, position):
    page, errors = start(server, browser, width, height, players, lang, position)
    seen = page.evaluate(MEASURE)
    # every village is named on the board, each name at 11 px or more; the cities' names too
    small = [(name, round(size, 1)) for name, size in seen["villages"] + seen["cities"] if size < 11]
    assert not small, f"names drawn under 11 px: {small}"
    assert len(seen["villages"]) == seen["villageCount"]
    # a general's army size: 12 px or more, the largest number of his token
    for g in seen["generals"]:
        assert g["troops"] is not None, f"general {g['id']}: no army size on his token"
        assert g["troops"] >= 12, f"general {g['id']}: army size drawn at {g['troops']:.1f} px"
        assert all(g["troops"] > other for other in g["others"]), g
    shot(page, f"readable-board-{width}x{height}-{players}p-{lang}" + ("-crowded" if position else ""))
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("width, height, players, lang, position", CASES)
def test_a_general_never_hides_a_settlements_name(server, browser, width, height, players, lang, position):
    page, errors = start(server, browser, width, height, players, lang, position)
    seen = page.evaluate(MEASURE)
    covered = [
        (g["id"], name)
        for g in seen["generals"]
        for part in g["parts"]
        for name, box in seen["labels"]
        if overlap(part, box)
    ]
    assert not covered, f"generals lying on names: {sorted(set(covered))}"
    # and the names are drawn after (above) every piece
    order = page.evaluate(
        """() => { const svg = document.querySelector('#board svg');
      const last = [...svg.querySelectorAll('[data-general]')].pop(), first = svg.querySelector('text.label');
      return !!(last.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING); }"""
    )
    assert order, "a settlement's name is drawn under the generals"
    assert errors == []
    page.context.close()


TRIANGLE = re.compile(r"^M\s*[\d.]+[ ,][\d.]+\s*L\s*[\d.]+[ ,][\d.]+\s*L\s*[\d.]+[ ,][\d.]+\s*Z$")


def test_the_tabernacle_is_no_warning_sign(server, browser):
    # A warning sign is a triangle: the Tabernacle's drawing holds no triangle as large as half of it.
    root = ET.fromstring(ICONS.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    symbol = next(s for s in root.iter(ns + "symbol") if s.get("id") == "tabernacle")
    for shape in symbol.iter(ns + "path"):
        d = shape.get("d", "").strip()
        if TRIANGLE.match(d):
            xs = [float(n) for n in re.findall(r"[\d.]+", d)][0::2]
            ys = [float(n) for n in re.findall(r"[\d.]+", d)][1::2]
            assert (max(xs) - min(xs)) * (max(ys) - min(ys)) < 0.5 * 24 * 24, f"a triangle sign: {d}"
    # on the board it is drawn large enough to see (16 px or more), beside Shiloh's holder, not on it
    page = open_page(browser, viewport={"width": 1280, "height": 720})
    errors = watch_console(page)
    data = httpx.post(
        server + "/api/games",
        json={"seats": [{"kind": "human", "name": "Deborah"}, {"kind": "bot"}, {"kind": "bot"}], "seed": 2},
        timeout=HTTP_TIMEOUT,
    ).json()
    open_host_seat(page, server, data, "?lang=es")
    tent = page.locator("#board svg .tabernacle use")
    tent.wait_for()
    box = tent.bounding_box()
    assert box["width"] >= 16 and box["height"] >= 16, box
    holder = page.locator("#board svg .settlement[data-hex] .holder").evaluate_all(
        """(ns) => ns.map((n) => { const r = n.getBoundingClientRect();
                                   return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })"""
    )
    tent_box = {"left": box["x"], "top": box["y"], "right": box["x"] + box["width"], "bottom": box["y"] + box["height"]}
    assert not any(overlap(tent_box, h) for h in holder)
    assert errors == []
    page.context.close()
