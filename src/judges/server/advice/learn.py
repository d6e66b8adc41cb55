"""The guided first game: `/learn`, a course of lessons played on real tables.

Each lesson is a few steps of a short scripted game started from a scenario position
(docs/scenarios.md) with a fixed seed, so that the dice and the bots' answers are the ones the
script expects: the player acts at each step while the game screen points at what to click
(`web/static/js/learn-guide.js`, `point`: CSS selectors of the screen, the first one shown wins;
`action`: the legal action whose button to light) and says why (``learn.*`` message keys). A step
is done when its condition (`done`) holds in the seat's view; a step without one waits for the
player's "Next". Three games carry the course: the Announcements of a round with a Judgment, a
King's election and an event (`announcements`); one whole round from the Intrigue to the
Victory Check (`round`, a one-round game); a round at court (`court`): a King's succession, a
vacant Judge title appointed, a discard down to the hand limit, a captive executed, the Ark
carried to the Tabernacle, and the three points that win. After the last lesson the player
starts a real game against easy (greedy) bots.

Routes: `GET /learn` (the course's page), `GET /api/learn` (the lessons in the reader's
language), `POST /api/learn/games/{key}` (a lesson's table; the seat's cookie comes with it). The
progress is the browser's (localStorage): a player leaves and resumes where they were.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ...i18n import LANGUAGES, catalog, gettext, request_language
from ..deps import rate_limited
from ..table import seats as seat_keys
from ..table.service import GameService, ServiceError

WEB = Path(__file__).resolve().parents[2] / "web"  # src/judges/web
_templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))

_HOLDINGS = {
    "Hazor": {"owner": 0, "troops": 2},
    "Hebron": {"owner": 1, "troops": 2},
    "Shechem": {"owner": 2, "troops": 2},
}
_BOTS = [{"id": 11, "owner": 1, "at": "Hebron"}, {"id": 12, "owner": 2, "at": "Shechem"}]
_NO_CARDS = [{"seat": 1, "hand": []}, {"seat": 2, "hand": []}]

#: The course's tables: a scenario position, the seed of its dice and bots, a round limit.
GAMES: dict[str, dict[str, Any]] = {
    # The Wrath meter one short of a Judgment: it strikes at once, invaders enter and the
    # player's prophet foresees where; two judges stand for King; a famine waits to land.
    "announcements": {
        "seed": 1,
        "round_limit": None,
        "position": {
            "clear_board": True,
            "settlements": {**_HOLDINGS, "Kedesh": {"owner": 0, "troops": 1}},
            "generals": [{"id": 10, "owner": 0, "at": "Hazor", "prophet": True}, *_BOTS],
            "titles": {"Naphtali": {"holder": 10}, "Judah": {"holder": 11}},
            "wrath": 12,
            "wrath_registered": 1,
            "events_area": ["famine"],
            "players": [{"seat": 0, "hand": []}, *_NO_CARDS],
        },
    },
    # One round from the Intrigue: a Tax card, the income of a developed Hazor, a wall, an army
    # of four beside Merom (one Canaanite troop), the battle, the Victory Check that ends it.
    "round": {
        "seed": 1,
        "round_limit": 1,
        "position": {
            "phase": "intrigue",
            "clear_board": True,
            "settlements": {
                **_HOLDINGS,
                "Hazor": {"owner": 0, "troops": 2, "developments": 1},
                "Merom": {"owner": "canaanites", "troops": 1},
            },
            "generals": [{"id": 10, "owner": 0, "at": "Hazor", "army": 4}, *_BOTS],
            "players": [{"seat": 0, "hand": ["tax"], "coins": 3}, *_NO_CARDS],
        },
    },
    # A second round at court: the player's King fell last round (a succession is owed) and the
    # Judge title of Naphtali is vacant (the new King fills it); the player's hand is full, so
    # the Intrigue's free draw asks for a discard; a rival's general is the player's captive at
    # Hazor; the Ark lies at Succoth, a desert and a mountain from the Tabernacle at Shiloh. King, Judge and
    # Tabernacle are the three points that win.
    "court": {
        "seed": 1,
        "round_limit": 1,
        "position": {
            "clear_board": True,
            "settlements": {
                "Hazor": {"owner": 0, "troops": 2},
                "Kedesh": {"owner": 0, "troops": 1},
                "Succoth": {"owner": 0, "troops": 1},
                "Hebron": {"owner": 1, "troops": 2},
                "Beersheba": {"owner": 2, "troops": 2},
            },
            "generals": [
                {"id": 20, "owner": 0, "at": "Hazor"},
                {"id": 21, "owner": 0, "at": "Kedesh"},
                {"id": 22, "owner": 0, "at": "Succoth"},
                {"id": 31, "owner": 1, "at": "Hazor", "captor": 0},
                {"id": 11, "owner": 1, "at": "Hebron"},
                {"id": 12, "owner": 2, "at": "Beersheba"},
            ],
            "titles": {"Naphtali": {"owner": 0}},
            "succession_owner": 0,
            "ark": "Succoth",
            "deck": ["plague", "abundance", "sandstorm"],  # the top card last: the player draws a Sandstorm
            "players": [{"seat": 0, "hand": ["tax", "prophet", "famine", "revolt", "assassin"]}, *_NO_CARDS],
        },
    },
}

END_TURN = ["#actions:not([hidden]) .end-turn"]


def _step(
    key: str, point: list[str] | None = None, action: dict | None = None, done: dict | None = None, next: bool = False
) -> dict:
    """A step: its words, what it points at, the action it asks for, when it is done; a step
    without a condition (or with `next`) waits for the player's "Next" once its condition holds."""
    return {"key": key, "point": point or [], "action": action, "done": done, "next": next or done is None}


#: The lessons in the order of a round; `chapter` is the manual's (served at /manual/{lang}/...).
LESSONS: list[dict[str, Any]] = [
    {
        "id": "wrath",
        "game": "announcements",
        "chapter": "wrath-and-invaders",
        "steps": [
            _step("learn.wrath.meter", ["#wrath"]),
            _step(
                "learn.wrath.foresee",
                ["#modal:not([hidden]) .options", "#board [data-settlement='Hebron']"],  # chosen on the map
                {"type": "foresee_invasion", "settlement": "Hebron"},
                {"invaders": True},
            ),
            _step("learn.wrath.invaders", ["#board [data-invaders]"]),
        ],
    },
    {
        "id": "election",
        "game": "announcements",
        "chapter": "judges-and-kings",
        "steps": [
            _step(
                "learn.election.vote",
                ["#modal:not([hidden]) .options"],
                {"type": "vote", "candidate": 10},
                {"king": True},
            ),
            _step("learn.election.king", ["#players .player-board[data-seat='0']"]),
        ],
    },
    {
        "id": "events",
        "game": "announcements",
        "chapter": "events",
        "steps": [
            _step(
                "learn.events.foresee",
                ["#modal:not([hidden]) .foresee-row.current [data-terrain='desert']"],
                {"type": "foresee_events", "terrains": ["desert"]},
                {"landed": True},
            ),
            _step("learn.events.landed", ["#events"]),
        ],
    },
    {
        "id": "intrigue",
        "game": "round",
        "chapter": "intrigue",
        "steps": [
            _step(
                "learn.intrigue.tax",
                ["#board [data-settlement='Hazor']"],
                {"type": "play_tax", "region": "Naphtali"},
                {"taxed": "Naphtali"},
            ),
            _step("learn.intrigue.end", END_TURN, {"type": "end_turn"}, {"past": "intrigue"}),
        ],
    },
    {
        "id": "income",
        "game": "round",
        "chapter": "income-and-victory",
        "steps": [_step("learn.income.coins", ["#me .coins"], done={"past": "income"}, next=True)],
    },
    {
        "id": "acquisitions",
        "game": "round",
        "chapter": "acquisitions",
        "steps": [
            _step(
                "learn.acquisitions.wall",
                ["#board [data-settlement='Hazor']"],
                {"type": "buy", "item": "wall", "settlement": "Hazor"},
                {"walls": "Hazor"},
            ),
            _step("learn.acquisitions.end", END_TURN, {"type": "end_turn"}, {"past": "acquisitions"}),
        ],
    },
    {
        "id": "movement",
        "game": "round",
        "chapter": "movement-and-combat",
        "steps": [
            _step(
                "learn.movement.move",
                ["#board [data-settlement='Merom'].reachable", "#board [data-general='10']"],
                {"type": "move", "general": 10, "q": 8, "r": 2},  # Merom
                {"at": [10, "Merom"]},
            ),
            _step("learn.movement.end", END_TURN, {"type": "end_turn"}, {"past": "movement"}),
            _step(
                "learn.combat.hold",
                ["#modal:not([hidden]) .options"],
                {"type": "plunder", "settlement": "Merom", "plunder": False},
                {"past": "combat"},
            ),
        ],
    },
    {
        "id": "victory",
        "game": "round",
        "chapter": "income-and-victory",
        "steps": [_step("learn.victory.table", ["[data-panel='final']"], done={"over": True}, next=True)],
    },
    {
        "id": "succession",
        "game": "court",
        "chapter": "judges-and-kings",
        "steps": [
            _step(
                "learn.succession.choose",
                ["#modal:not([hidden]) .options"],
                {"type": "choose_successor", "general": 20},
                {"king": True},
            ),
        ],
    },
    {
        "id": "appoint",
        "game": "court",
        "chapter": "judges-and-kings",
        "steps": [
            _step(
                "learn.appoint.judge",
                ["#modal:not([hidden]) .options"],
                {"type": "appoint_judge", "region": "Naphtali", "general": 21},
                {"judge": ["Naphtali", 21]},
            ),
            _step("learn.appoint.titles", ["#players .player-board[data-seat='0']"]),
        ],
    },
    {
        "id": "discard",
        "game": "court",
        "chapter": "intrigue",
        "steps": [
            _step(
                "learn.discard.card",
                ["#modal:not([hidden]) .options"],
                {"type": "discard", "card": "sandstorm"},
                {"discarded": "sandstorm"},
            ),
        ],
    },
    {
        "id": "captives",
        "game": "court",
        "chapter": "intrigue",
        "steps": [
            _step(
                "learn.captives.execute",
                ["#board [data-general='31']", "#board [data-settlement='Hazor']"],
                {"type": "execute", "general": 31},
                {"gone": 31},
            ),
            _step("learn.captives.end", END_TURN, {"type": "end_turn"}, {"past": "intrigue"}),
        ],
    },
    {
        "id": "ark",
        "game": "court",
        "chapter": "movement-and-combat",
        "steps": [
            _step("learn.ark.shop", END_TURN, {"type": "end_turn"}, {"past": "acquisitions"}),
            _step(
                "learn.ark.pick_up",
                ["#board [data-general='22']"],
                {"type": "pick_up_ark", "general": 22},
                {"ark": 22},
            ),
            _step(
                "learn.ark.carry",
                ["#board [data-settlement='Shiloh'].reachable", "#board [data-general='22']"],
                {"type": "move", "general": 22, "q": 4, "r": 10},  # Shiloh
                {"at": [22, "Shiloh"]},
            ),
            _step("learn.ark.end", END_TURN, {"type": "end_turn"}, {"past": "movement"}),
            _step("learn.ark.points", ["[data-panel='final']"], done={"over": True}, next=True),
        ],
    },
]

#: The guide's own words (buttons, the course's page).
TEXTS = (
    "learn.title",
    "learn.intro",
    "learn.start",
    "learn.resume",
    "learn.restart_course",
    "learn.next",
    "learn.next_lesson",
    "learn.done",
    "learn.lesson_n",
    "learn.step_n",
    "learn.read_chapter",
    "learn.course",
    "learn.finish",
    "learn.play_real",
)


def lessons_payload(lang: str) -> dict[str, Any]:
    """The lessons with their words in `lang` and their manual chapters' addresses."""
    lessons = []
    for lesson in LESSONS:
        lessons.append(
            {
                "id": lesson["id"],
                "game": lesson["game"],
                "title": gettext(lang, f"learn.{lesson['id']}.title"),
                "manual": f"/manual/{lang}/{lesson['chapter']}",
                "steps": [{**step, "text": gettext(lang, step["key"])} for step in lesson["steps"]],
            }
        )
    # the guide's words as templates: the page fills their fields ({n}, {total}, {title})
    words = catalog(lang)
    return {"lessons": lessons, "texts": {key: words.get(key) or gettext(lang, key) for key in TEXTS}}


def learn_router(service: GameService) -> APIRouter:
    """The course's routes (`app.include_router(learn_router(service))`)."""
    router = APIRouter()

    @router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
    async def learn_page(request: Request, lang: str | None = None) -> HTMLResponse:
        language = request_language(request, lang)
        html = _templates.get_template("learn.html").render(
            lang=language,
            t=lambda key, **p: gettext(language, key, **p),
            languages=LANGUAGES,
            lessons=lessons_payload(language)["lessons"],
        )
        response = HTMLResponse(html)
        if lang:
            response.set_cookie("lang", language, max_age=365 * 86400, samesite="lax")
        return response

    @router.get("/api/learn")
    async def lessons(request: Request, lang: str | None = None) -> dict[str, Any]:
        """The guided first game's lessons in the reader's language: each with its manual
        chapter and its steps (what to click, why, and when the step is done)."""
        return lessons_payload(request_language(request, lang))

    @router.post("/api/learn/games/{key}", status_code=201)
    async def lesson_game(key: str, request: Request, response: Response) -> dict[str, Any]:
        """A table of the course (`announcements`, `round` or `court`): the reader's seat against two
        greedy bots, from the lesson's position; the seat's cookie is set. It counts as a new
        game (the address's allowance shared with `POST /api/games`: 429 `error.rate_create`)."""
        spec = GAMES.get(key)
        if spec is None:
            raise ServiceError(404, "error.no_lesson", f"the course has no table {key[:40]!r}")
        # a lesson's table is a new game: it takes from the address's allowance of new games
        address = request.client.host if request.client else ""
        rate_limited(request.app.state.rates.create, address, "error.rate_create", "new games")
        language = request_language(request)
        seats = [
            {"kind": "human", "name": gettext(language, "learn.you"), "language": language},
            {"kind": "bot", "bot": "greedy"},
            {"kind": "bot", "bot": "greedy"},
        ]
        live, token, _ = await service.create(
            seats,
            seed=spec["seed"],
            round_limit=spec["round_limit"],
            position=spec["position"],
            extra_options={"course": True},  # a learner's table: not listed in the lobby
        )
        seat_keys.set_seat_cookie(response, request, live.id, token)
        service.wake_bots(live)
        return {"id": live.id, "link": f"/games/{live.id}"}

    return router
