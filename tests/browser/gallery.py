"""The documentation's gallery: every moment of a game at 1400x900 (3 players),
1280x720 (5 players) and on a phone (390x844, touch), in docs/screenshots/<profile>-<moment>.png
with an index, docs/screenshots/README.md.

    bash scripts/screenshots.sh                          # the whole gallery
    PYTHONPATH=src:tests python -m browser.gallery OUT [--profile P] [--moment M]

Each moment starts its own game (most from a scenario position, tests/browser/positions.py;
the server runs with --allow-scenarios) and is reached as a player reaches it: by clicking, or
tapping on the phone. Only the README's picture is kept in git (.gitignore)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from browser.controls import press, push
from browser.play import HTTP_TIMEOUT, TIMEOUT, new_game, open_host_seat, open_page
from browser.positions import APPOINT, BATTLE, ELECTION, ELIMINATION, FORESEE, HOLDINGS
from browser.support import CHROMIUM, CHROMIUM_ARGS, DOCS_SCREENSHOTS, serve

PROFILES = {
    "desktop": ("1400×900, 3 players", {"viewport": {"width": 1400, "height": 900}}, 3),
    "laptop": ("1280×720, 5 players", {"viewport": {"width": 1280, "height": 720}}, 5),
    "phone": (
        "390×844 phone (touch), 3 players",
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
        3,
    ),
}

# In a 5-player game seats 3 and 4 hold a settlement and a general too.
EXTRA_SEATS = {"settlements": {"Megiddo": {"owner": 3, "troops": 2}, "Beersheba": {"owner": 4, "troops": 2}}}
EXTRA_GENERALS = [{"owner": 3, "at": "Megiddo"}, {"owner": 4, "at": "Beersheba"}]

G10 = {"id": 10, "owner": 0, "at": "Hazor"}
BOTS = [{"id": 11, "owner": 1, "at": "Hebron"}, {"id": 12, "owner": 2, "at": "Shechem"}]

MOVEMENT = {  # seat 0 moves first; his general 10 and its army of 3 wait to be sent
    "phase": "movement",
    "clear_board": True,
    "settlements": {**HOLDINGS, "Kedesh": {"owner": 0, "troops": 1}},
    "generals": [{**G10, "army": 3}, {"id": 13, "owner": 0, "at": "Kedesh"}, *BOTS],
}
ACQUISITIONS = {
    "phase": "acquisitions",
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{**G10, "army": 1}, *BOTS],
    "players": [{"seat": 0, "coins": 12}],
}
WINDOWS = {  # a window: the position that opens it
    "vote": ELECTION,
    "appoint_judge": APPOINT,
    "foresee_events": FORESEE,
    "foresee_invasion": {  # a judgment at these Announcements: a wave enters where the prophet says
        "clear_board": True,
        "settlements": HOLDINGS,
        "wrath": 12,
        "wrath_registered": 1,
        "generals": [{**G10, "prophet": True}, *BOTS],
    },
    "succession": {
        "clear_board": True,
        "settlements": HOLDINGS,
        "king": None,
        "succession_owner": 0,
        "generals": [G10, {"id": 13, "owner": 0, "at": "Hazor"}, *BOTS],
    },
    "discard": {
        "phase": "intrigue",
        "clear_board": True,
        "settlements": HOLDINGS,
        "generals": [G10, *BOTS],
        "players": [{"seat": 0, "hand": ["tax", "plague", "assassin", "revolt", "famine", "abundance"]}],
        "deck": ["prophet"],
    },
    "plunder": {
        "phase": "combat",
        "clear_board": True,
        "settlements": {**HOLDINGS, "Kedesh": {"owner": 1, "troops": 1}},
        "generals": [{"id": 10, "owner": 0, "at": "Kedesh", "army": 8}, *BOTS],
    },
    "claim_judge": {  # seat 0 holds all Naphtali, whose title seat 1 owns: two generals may be its Judge
        "phase": "combat",
        "clear_board": True,
        "settlements": {
            **HOLDINGS,
            **{name: {"owner": 0, "troops": 1} for name in ("Kedesh", "Merom", "Chinnereth", "Hammath")},
        },
        "generals": [G10, {"id": 13, "owner": 0, "at": "Hazor"}, *BOTS],
        "titles": {"Naphtali": {"owner": 1}},
    },
}


def with_seats(position: dict | None, players: int) -> dict | None:
    """The position for `players` seats (seats 3 and 4 hold something too)."""
    if position is None or players < 5:
        return position
    return {
        **position,
        "settlements": {**position.get("settlements", {}), **EXTRA_SEATS["settlements"]},
        "generals": [*position.get("generals", []), *EXTRA_GENERALS],
    }


class Moment:
    """One game opened on one profile, the player's page at hand."""

    def __init__(self, browser, server: str, profile: str, lang: str = "en") -> None:
        self.browser, self.server, self.profile, self.lang = browser, server, profile, lang
        _, self.options, self.players = PROFILES[profile]
        self.touch = self.options.get("has_touch", False)
        self.page = None

    def seats(self) -> list[dict]:
        return [{"kind": "human", "name": "Deborah"}] + [{"kind": "bot", "bot": "greedy"}] * (self.players - 1)

    def open(self, position: dict | None = None, seed: int = 3, **extra) -> dict:
        data = new_game(
            self.server, seats=self.seats(), seed=seed, position=with_seats(position, self.players), **extra
        )
        self.page = open_page(self.browser, **self.options)
        open_host_seat(self.page, self.server, data, f"?lang={self.lang}")
        self.page.wait_for_function("() => document.body.dataset.seq !== undefined")
        self.page.locator("#board svg [data-settlement='Hazor']").wait_for()
        return data

    def finished(self) -> dict:
        """A one-round game the bots played to its end (the human's seat handed to a bot)."""
        data = new_game(self.server, seats=self.seats(), seed=9, round_limit=1)
        headers = {"X-Seat-Token": data["token"]}
        base = f"{self.server}/api/games/{data['id']}"
        httpx.post(f"{base}/seat/away", headers=headers, timeout=HTTP_TIMEOUT)
        deadline = time.monotonic() + TIMEOUT / 1000 * 2
        while time.monotonic() < deadline:
            if httpx.get(f"{base}/view", headers=headers, timeout=HTTP_TIMEOUT).json()["ending"]:
                return data
            time.sleep(0.3)
        raise AssertionError("the bots did not finish the game")

    def press(self, selector: str) -> None:
        press(self.page, self.page.locator(selector), self.touch)

    def push(self, selector: str) -> None:
        push(self.page, self.page.locator(selector).first, self.touch)


def start(m: Moment) -> None:
    m.open(seed=7)


def movement(m: Moment) -> None:
    m.open(MOVEMENT)
    m.page.locator("#actions .end-turn").wait_for()
    m.press("#board [data-general='10']")
    m.page.locator("#board [data-general='10'].selected").wait_for()
    m.page.locator("#board [data-settlement].reachable").first.wait_for()


def acquisitions(m: Moment) -> None:
    m.open(ACQUISITIONS)
    m.page.locator("#actions .end-turn").wait_for()
    m.press("#board [data-settlement='Hazor']")
    m.page.locator("#chooser:not([hidden]) .choice[data-type='buy']").first.wait_for()


def battle(m: Moment) -> None:
    m.open(BATTLE)
    m.push("#actions:not([hidden]) .end-turn")
    m.page.locator(".battle-overlay").wait_for()


ON_MAP = ("foresee_invasion",)  # decisions chosen on the map: its targets lit, no window


def window(kind: str) -> Callable[[Moment], None]:
    def shown(m: Moment) -> None:
        m.open(WINDOWS[kind])
        if kind in ON_MAP:
            m.page.locator(f"#actions .on-map[data-kind='{kind}']").wait_for()
            m.page.locator("#board [data-settlement].target").first.wait_for()
            return
        m.page.locator(f"#modal:not([hidden]) h3[data-kind='{kind}']").wait_for()

    return shown


def elimination(m: Moment) -> None:
    m.open(ELIMINATION, seed=8)
    m.page.locator("[data-eliminated='true']").wait_for()


def final(m: Moment) -> None:
    data = m.finished()
    m.page = open_page(m.browser, **m.options)
    open_host_seat(m.page, m.server, data, f"?lang={m.lang}")
    table = m.page.locator("[data-panel='final']")
    table.wait_for()
    table.scroll_into_view_if_needed()


def replay(m: Moment) -> None:
    """The replay at its step 0 (its first-step control pressed, wherever it opens)."""
    data = m.finished()
    m.page = open_page(m.browser, **m.options)
    m.page.goto(f"{m.server}/games/{data['id']}/replay?lang={m.lang}")
    m.page.locator(".replay-where").wait_for()
    m.push("#replay-first")
    m.page.locator(".replay-where[data-step='0']").wait_for()
    m.page.locator("#board svg [data-settlement='Hazor']").wait_for()


# moment -> (what it shows, how it is reached)
MOMENTS: dict[str, tuple[str, Callable[[Moment], None]]] = {
    "start": ("a new game, round 1", start),
    "movement": ("Movement: a general selected, the places he can reach lit", movement),
    "acquisitions": ("Acquisitions: a settlement's menu of purchases", acquisitions),
    "battle": ("a battle with its dice", battle),
    **{f"window-{kind}": (f"the {kind.replace('_', ' ')} window", window(kind)) for kind in WINDOWS},
    "elimination": ("an eliminated player watching", elimination),
    "final": ("the final table", final),
    "replay": ("a finished game's replay at step 0", replay),
}


def file_name(profile: str, moment: str, lang: str = "en") -> str:
    """English pictures keep their plain names; another language's carry it ("-es")."""
    return f"{profile}-{moment}.png" if lang == "en" else f"{profile}-{moment}-{lang}.png"


def index() -> str:
    """docs/screenshots/README.md: every picture the gallery makes."""
    lines = [
        "# Screenshots",
        "",
        "Made by `bash scripts/screenshots.sh` (tests/browser/gallery.py); only "
        f"[{README_PICTURE}]({README_PICTURE}), the README's picture, is kept in git.",
        "",
        "| moment | " + " | ".join(label for label, _, _ in PROFILES.values()) + " |",
        "|---|" + "---|" * len(PROFILES),
    ]
    for moment, (what, _) in MOMENTS.items():
        # (names, not links: the pictures are made here, not kept in git)
        cells = [f"`{file_name(p, moment)}`" for p in PROFILES]
        lines.append(f"| {what} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


README_PICTURE = file_name("desktop", "movement")


def optimise(path: Path) -> None:
    """The README's picture, kept in git: 256 colours without dithering, written small."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def take(browser, server: str, profile: str, moment: str, folder: Path, lang: str = "en") -> Path:
    """One picture: the moment reached on the profile in `lang`, saved in `folder`."""
    m = Moment(browser, server, profile, lang)
    try:
        MOMENTS[moment][1](m)
        m.page.wait_for_timeout(400)  # the last animation (a move, a fade) ends
        path = folder / file_name(profile, moment, lang)
        m.page.screenshot(path=str(path))
        if path.name == README_PICTURE:
            optimise(path)
        return path
    finally:
        if m.page is not None:
            m.page.context.close()


def make(browser, server: str, folder: Path, profiles=None, moments=None, langs=None) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for lang in langs or ["en"]:
        for profile in profiles or PROFILES:
            for moment in moments or MOMENTS:
                made.append(take(browser, server, profile, moment, folder, lang))
                print(made[-1].name, flush=True)
    (folder / "README.md").write_text(index())
    return made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=DOCS_SCREENSHOTS)
    parser.add_argument("--profile", action="append", choices=list(PROFILES))
    parser.add_argument("--moment", action="append", choices=list(MOMENTS))
    parser.add_argument("--lang", action="append", choices=["en", "es", "pt_BR"], help="default: en")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as db, serve(Path(db)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            make(browser, server, args.folder, args.profile, args.moment, args.lang)
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
