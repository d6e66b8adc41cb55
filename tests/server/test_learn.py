"""The guided first game's script (server/advice/learn.py). Each table's lessons are
played in the engine as the guide asks (the greedy bots answering between the steps, as on the
server): every action the guide asks for is legal when it is asked, every step's condition then
holds, and the course passes through every phase of a round, a Judgment, invaders, an event, a
King's election and the Victory Check. The words exist in the three catalogs, the chapters in
the manual; the routes answer the lessons and make the tables."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from judges.bots import make_bot
from judges.engine import action_from_dict, action_to_dict
from judges.engine.state import PHASES
from judges.i18n import LANGUAGES, gettext
from judges.manual import chapter_path
from judges.server.advice.learn import GAMES, LESSONS, TEXTS, lessons_payload
from judges.server.app import create_app
from judges.verify import new_game


def holds(game, done: dict) -> bool:
    """The guide's condition (web/static/js/learnguide.js, `holds`) on the seat's view."""
    state, world = game.view(0, notifications=False).state, game.world
    settlement = lambda name: world.settlement_by_name[name]  # noqa: E731
    if done.get("over"):
        return state.ending is not None
    if "past" in done:
        return state.ending is not None or PHASES.index(game.phase_name) > PHASES.index(done["past"])
    if done.get("invaders"):
        return any(p.at >= 0 for p in state.invaders)
    if done.get("king"):
        return state.king is not None
    if done.get("landed"):
        return bool(state.events_landed)
    if "taxed" in done:
        region = next(r.index for r in world.regions if r.name == done["taxed"])
        return state.taxes.get(region) == 0
    if "walls" in done:
        return state.settlements[settlement(done["walls"])].walls
    if "judge" in done:
        region = next(r.index for r in world.regions if r.name == done["judge"][0])
        return state.titles[region].holder == done["judge"][1]
    if "discarded" in done:
        return done["discarded"] in state.discard
    if "gone" in done:
        return done["gone"] not in state.generals
    if "ark" in done:
        general = state.generals.get(done["ark"])
        return general is not None and general.ark
    if "at" in done:
        general = state.generals.get(done["at"][0])
        return general is not None and general.hex == world.settlements[settlement(done["at"][1])].hex
    raise AssertionError(f"an unknown condition {done}")


def play_the_script(key: str) -> list[tuple[str, str]]:
    """Plays the lessons of table `key` as the guide asks; (step, phase at the step) in order."""
    spec = GAMES[key]
    game = new_game({"players": 3, "seed": spec["seed"], "round_limit": spec["round_limit"]}, spec["position"])
    bots = {seat: make_bot("greedy", seat) for seat in (1, 2)}

    def bots_play() -> None:
        for _ in range(500):
            waiting = game.waiting_for()
            if game.is_over or not waiting or 0 in waiting:
                return
            seat = waiting[0]
            game.apply(bots[seat].choose(seat, list(game.legal_actions(seat)), lambda: game.view(seat)))

    seen = []
    for lesson in (lesson for lesson in LESSONS if lesson["game"] == key):
        for step in lesson["steps"]:
            bots_play()
            seen.append((step["key"], game.phase_name))
            if step["action"] is not None:
                action = action_from_dict({**step["action"], "player": 0})
                legal = [action_to_dict(a) for a in game.legal_actions(0)]
                assert action_to_dict(action) in legal, (step["key"], legal[:10])
                game.apply(action)
                bots_play()
            if step["done"] is not None:
                assert holds(game, step["done"]), step["key"]
    if key == "announcements":
        state = game.state
        assert state.judgments >= 1 and state.king == 10 and state.events_landed and state.invaders
    else:
        assert game.is_over
    if key == "court":  # King, Judge and Tabernacle: the three points that win
        assert game.state.winners == [0], game.state.winners
    return seen


def test_every_step_asks_a_legal_action_and_its_condition_then_holds():
    steps = [step for key in GAMES for step in play_the_script(key)]
    # every phase a player acts in or watches; the Income runs by itself, between the Intrigue's
    # last step and the step that shows it (in the Acquisitions, where the game waits next)
    assert set(PHASES) - {"income"} <= {phase for _, phase in steps}
    keys = [key for key, _ in steps]
    assert keys.index("learn.income.coins") == keys.index("learn.intrigue.end") + 1
    assert LESSONS[-1]["steps"][-1]["done"] == {"over": True}  # the Victory Check ends the table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_course_speaks_every_language_and_links_the_manual(lang):
    for key in TEXTS:
        assert gettext(lang, key, strict=True, n=1, total=8, title="x")
    payload = lessons_payload(lang)
    for lesson in payload["lessons"]:
        assert gettext(lang, f"learn.{lesson['id']}.title", strict=True)
        assert all(step["text"] == gettext(lang, step["key"], strict=True) for step in lesson["steps"])
        slug = lesson["manual"].rsplit("/", 1)[1]
        assert lesson["manual"] == f"/manual/{lang}/{slug}" and chapter_path(lang, slug).is_file()


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as c:
        yield c


def test_the_routes_serve_the_course_and_make_its_tables(client):
    page = client.get("/learn?lang=pt_BR")
    assert page.status_code == 200 and gettext("pt_BR", "learn.title") in page.text
    lessons = client.get("/api/learn?lang=es").json()["lessons"]
    assert [lesson["id"] for lesson in lessons] == [lesson["id"] for lesson in LESSONS]
    made = client.post("/api/learn/games/round")  # a server without scenarios still makes the course's
    assert made.status_code == 201, made.text
    view = client.get(f"/api/games/{made.json()['id']}/view").json()  # the seat's cookie came with it
    assert view["phase_name"] == "intrigue" and [s["kind"] for s in view["seats"]] == ["human", "bot", "bot"]
    unknown = client.post("/api/learn/games/nothing")
    assert unknown.status_code == 404 and unknown.json()["key"] == "error.no_lesson"
