"""Republic of Rome tables on the server (docs/decisions/0027-the-server-reaches-a-game-through-
its-plug-in.md): created with `"game": "rome"`, its rules and its bots; refused for a game, rules
or a bot the server cannot seat; each seat's view hiding the others' hands and treasuries (VG
1.04.9, 1.06.31), a spectator's every one; an illegal action refused with its rule and nothing
changed (R1); a table surviving a restart on SQLite and PostgreSQL; the capabilities Rome lacks
refused with `error.not_in_game`."""

from __future__ import annotations

import html
import time

import msgspec
import pytest
from fastapi.testclient import TestClient

from judges.games.registry import SERVED
from judges.server.app import create_app
from judges.server.table import actor as actor_module
from judges.server.table.updates import apply_update
from seats_support import with_tokens

ROME_SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "neutral"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_seeds=True, allow_scenarios=True)) as c:
        yield c


def create(client, seats=ROME_SEATS, lang=None, **extra) -> dict:
    query = f"?lang={lang}" if lang else ""
    response = client.post(f"/api/games{query}", json={"game": "rome", "seats": seats, "seed": 11, **extra})
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def view(client, game_id, token, **params) -> dict:
    response = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def wait_for_seat(client, game_id, token, seat=0, timeout=30.0) -> dict:
    """The bots play in the background: the view once `seat` owes a decision (or the game ended)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        data = view(client, game_id, token)
        if seat in data["waiting_for"] or data["ending"]:
            return data
        time.sleep(0.02)
    raise AssertionError("the bots never handed the game back")


def act(client, game_id, token, action) -> dict:
    response = client.post(f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": action})
    assert response.status_code == 200, response.text
    return response.json()


def play(client, game_id, token, seat=0, actions=10) -> dict:
    """The seat answers its decisions with its first legal action, `actions` times."""
    for _ in range(actions):
        data = wait_for_seat(client, game_id, token, seat)
        if data["ending"]:
            return data
        act(client, game_id, token, data["legal_actions"][0])
    return wait_for_seat(client, game_id, token, seat)


# --- creation --------------------------------------------------------------------------------


def test_a_rome_table_is_created_with_its_rules_and_bots(client):
    data = create(client, rules={"hand_limit": 6})
    assert data["game"] == "rome"
    assert [s["bot"] for s in data["seats"]] == [None, "neutral", "random"]
    stored = client.app.state.service.store.load(data["id"])
    assert stored.options["game"] == "rome"
    assert stored.options["rules"]["hand_limit"] == 6
    # the commitment published at creation is the dice's: the same seed gives the same one
    served = SERVED["rome"]
    twin = served.new_table(3, 11, None, served.parse_rules({"hand_limit": 6}))
    assert data["dice"] == {"generator": "splitmix64", "commitment": served.commitment(twin)}
    first = view(client, data["id"], data["seats"][0]["token"])
    assert first["game"] == "rome" and first["dice"]["commitment"] == data["dice"]["commitment"]
    assert first["state"]["options"]["rules"]["hand_limit"] == 6


def test_an_unnamed_rome_seat_is_a_numbered_faction_in_its_creators_words(client):
    """docs/rome/rules-reference.md "Seats and factions": a seat left unnamed is "Faction N" in the
    creator's language, or the seat's own; a named seat keeps its player's name; Judges & Kings'
    unnamed seats keep their tribes."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "neutral"}, {"kind": "bot", "bot": "random"}]
    expected = {"en": "Faction", "es": "Facción", "pt_BR": "Facção"}
    for lang, word in expected.items():
        data = create(client, seats=[*seats, {"kind": "bot", "bot": "neutral", "language": "pt"}], lang=lang)
        names = [s["name"] for s in data["seats"]]
        assert names == ["Ada", f"{word} 2", f"{word} 3", "Facção 4"], (lang, names)
    unnamed_bots = [{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}]
    judges = client.post("/api/games?lang=es", json={"seats": unnamed_bots}).json()
    assert [s["name"] for s in judges["seats"]] == ["Ada", "Simeon", "Levi"]


def test_a_table_without_a_game_is_judges_and_kings_as_before(client):
    response = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
    assert response.status_code == 201
    assert "game" not in response.json()
    stored = client.app.state.service.store.load(response.json()["id"])
    assert "game" not in stored.options


def test_an_unknown_game_is_refused_in_each_language(client):
    texts = set()
    for lang in ("en", "es", "pt_BR"):
        response = client.post(
            "/api/games", json={"game": "chess", "seats": ROME_SEATS}, headers={"Accept-Language": lang}
        )
        assert response.status_code == 422
        body = response.json()
        assert body["key"] == "error.unknown_game" and body["params"]["game"] == "chess"
        assert "chess" in body["text"]
        texts.add(body["text"])
    assert len(texts) == 3


@pytest.mark.parametrize(
    "rules,rule",
    [
        ({"mortality_draws": 10**9}, "mortality_draws"),
        ({"deck": "../../etc/passwd"}, "deck"),
        ({"no_such_rule": 1}, "no_such_rule"),
        ({"hand_limit": "six"}, "hand_limit"),
        ({"illness": True}, "illness"),  # an optional rule the engine does not play
    ],
)
def test_hostile_rules_are_refused_naming_the_rule(client, rules, rule):
    response = client.post("/api/games", json={"game": "rome", "seats": ROME_SEATS, "rules": rules})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["key"] == "rome.error.rules_invalid" and body["params"]["rule"] == rule
    assert rule in body["text"]


@pytest.mark.parametrize("bot", ["greedy", "oracle", "mcts:100000", "neutral:3"])
def test_a_bot_rome_cannot_seat_is_refused(client, bot):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}, {"kind": "bot", "bot": "neutral"}]
    response = client.post("/api/games", json={"game": "rome", "seats": seats})
    assert response.status_code == 422, response.text
    assert response.json()["key"] == "error.bot"
    takeover = client.post("/api/games", json={"game": "rome", "seats": ROME_SEATS, "takeover_bot": bot})
    assert takeover.status_code == 422 and takeover.json()["key"] == "error.bot"


@pytest.mark.parametrize(
    "option,capability",
    [
        ({"hints": True}, "hints"),
        ({"round_limit": 3}, "round_limit"),
        ({"wave_pairs": 2}, "wave_pairs"),
        ({"position": {"round": 1}}, "scenarios"),
    ],
)
def test_a_rome_table_refuses_the_options_it_has_not(client, option, capability):
    response = client.post("/api/games", json={"game": "rome", "seats": ROME_SEATS, **option})
    assert response.status_code == 422, response.text
    assert response.json()["key"] == "error.not_in_game"
    assert response.json()["params"] == {"game": "rome", "capability": capability}


def test_the_routes_rome_has_not_answer_not_in_game(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    headers = {"X-Seat-Token": token}
    wait_for_seat(client, game_id, token)
    answers = {
        "hints": client.post(f"/api/games/{game_id}/hint", headers=headers),
        "review": client.get(f"/api/games/{game_id}/review", headers=headers),
        "world_map": client.get(f"/api/games/{game_id}/board.svg"),
        "world_map ": client.get(f"/api/games/{game_id}/world"),
        "undo": client.post(
            f"/api/games/{game_id}/actions", headers=headers, json={"action": {"type": "undo", "player": 0}}
        ),
    }
    for capability, response in answers.items():
        assert response.status_code == 422, (capability, response.text)
        assert response.json()["key"] == "error.not_in_game"
        assert response.json()["params"]["capability"] == capability.strip()
        assert response.json()["text"]


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_the_screen_pages_of_a_rome_table_say_it_is_played_through_the_api(client, lang):
    """Rome has no screen here (no capability `screen`): the table's page (a seat's), the watch
    page and an invitation's answer a page (200: the site's own links lead there) in the reader's
    language naming the game and the table's API routes, never J&K's screen; an invitation's
    page shows its claim instead of a button. (The replay page: the finished table's test.)"""
    from judges import i18n
    from judges.rome.i18n import text as rome_text

    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "neutral"}]
    data = client.post("/api/games", json={"game": "rome", "seats": seats, "seed": 11}).json()  # Bo's seat invited
    game_id, ada = data["id"], {"X-Seat-Token": data["token"]}
    client.cookies.clear()  # a guest's browser, not the host's (who holds a seat)
    title = rome_text(lang, "rome.title")
    invitation = data["seats"][1]["invitation"].split("/join/", 1)[1]
    pages = {
        f"/games/{game_id}": client.get(f"/games/{game_id}", params={"lang": lang}, headers=ada),
        f"/games/{game_id}/watch": client.get(f"/games/{game_id}/watch", params={"lang": lang}),
        f"/join/{invitation}": client.get(f"/join/{invitation}", params={"lang": lang}),
    }
    for path, response in pages.items():
        assert response.status_code == 200, (path, response.text[:300])
        assert response.headers["content-type"].startswith("text/html")
        text = response.text
        assert 'data-error="error.no_screen"' in text and 'id="board"' not in text and "main.js" not in text
        assert f'lang="{lang.replace("_", "-")}"' in text and f"<h2>{title}</h2>" in text
        assert i18n.gettext(lang, "error.no_screen", game=title) in text
        assert f'href="/api/games/{game_id}/spectate?lang={lang}"' in text and 'href="/docs"' in text
        assert f'href="/?lang={lang}"' in text and f"/api/games/{game_id}/replay" not in text  # not over
    seat_page = html.unescape(pages[f"/games/{game_id}"].text)
    assert 'data-seat="0"' in seat_page and i18n.gettext(lang, "ui.api_seat_held", name="Ada") in seat_page
    assert data["token"] not in seat_page
    assert client.get(f"/games/{game_id}").status_code == 401  # no seat: as any game's table page
    code = invitation.split("/", 1)[1]
    join = html.unescape(pages[f"/join/{invitation}"].text)
    assert f'POST /api/games/{game_id}/claim {{"invitation": "{code}"}}' in join and 'method="post"' not in join
    # the invitation's code is claimed through the API as the page says
    claimed = client.post(f"/api/games/{game_id}/claim", json={"invitation": code})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1


def test_a_rome_tables_log_is_its_report_in_the_readers_words(client):
    """`GET /log` (capability action_log): the report's lines after `since`, numbered from 0, in
    the reader's language; an unnamed seat ("Faction 2", named in English) in the reader's words."""
    data = create(client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"}])
    game_id = data["id"]  # three humans: nothing moves while the log is read
    report = list(client.app.state.service.games[game_id].game.state.report)
    en = client.get(f"/api/games/{game_id}/log", params={"lang": "en"}).json()
    es = client.get(f"/api/games/{game_id}/log", params={"lang": "es"}).json()
    assert len(report) > 3 and en["seq"] == len(report)
    assert [e["key"] for e in en["entries"]] == [e.key for e in report] == [e["key"] for e in es["entries"]]
    assert [e["seq"] for e in es["entries"]] == list(range(len(report)))
    assert [e["text"] for e in en["entries"]] != [e["text"] for e in es["entries"]]
    second = [i for i, e in enumerate(report) if e.params.get("faction") == 1]
    assert second and all("Facción 2" in es["entries"][i]["text"] for i in second)
    assert all("Faction 2" in en["entries"][i]["text"] for i in second)
    assert any("Ada" in e["text"] for e in en["entries"])
    later = client.get(f"/api/games/{game_id}/log", params={"since": len(report) - 2}).json()
    assert [e["seq"] for e in later["entries"]] == [len(report) - 1]


# --- views -----------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_treasury_and_none_of_the_others(client):
    """VG 1.04.9, 1.06.31: a faction's hand and treasury are its own; the others' hands are
    counted, never shown; the deck is only its size."""
    data = create(client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "neutral"}])
    game_id = data["id"]
    tokens = [data["seats"][0]["token"], data["seats"][1]["token"]]
    engine = client.app.state.service.games[game_id].game
    for seat, token in enumerate(tokens):
        seen = view(client, game_id, token)
        assert seen["seat"] == seat
        for faction in seen["state"]["factions"]:
            truth = engine.state.factions[faction["seat"]]
            if faction["seat"] == seat:
                assert faction["hand"] == truth.hand and faction["treasury"] == truth.treasury
            else:
                assert faction["hand"] == len(truth.hand) and faction["treasury"] is None
        assert seen["state"]["deck"] == len(engine.state.deck)
        assert seen["state"]["rng"] == 0 and seen["state"]["options"]["seed"] == 0
    watched = client.get(f"/api/games/{game_id}/spectate").json()
    with client.websocket_connect(f"/ws/games/{game_id}/spectate") as ws:
        live = ws.receive_json()["view"]
    for seen in (watched, live):
        assert seen["seat"] is None and seen["legal_actions"] == [] and seen["my_decisions"] == []
        assert all(isinstance(f["hand"], int) and f["treasury"] is None for f in seen["state"]["factions"])
        assert seen["state"]["options"]["seed"] == 0 and seen["state"]["options"]["key"] is None


def test_the_views_notifications_are_the_report_in_the_readers_language(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_seat(client, game_id, token)
    en = view(client, game_id, token, lang="en")["notifications"]
    es = view(client, game_id, token, lang="es")["notifications"]
    assert en and [n["key"] for n in en] == [n["key"] for n in es]
    assert [n["text"] for n in en] != [n["text"] for n in es]
    assert "report" not in view(client, game_id, token)["state"]


def test_the_views_notifications_name_each_faction_as_the_log_does(client):
    """A faction by its seat's name: a player's own ("Ada"), an unnamed seat's in the reader's
    words ("Facción 2"), for a seat and a spectator alike; the same lines as the log's."""
    data = create(client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"}])
    game_id, token = data["id"], data["seats"][0]["token"]  # three humans: nothing moves
    seen = view(client, game_id, token, lang="es")["notifications"]
    watched = client.get(f"/api/games/{game_id}/spectate", params={"lang": "es"}).json()["notifications"]
    log = client.get(f"/api/games/{game_id}/log", params={"lang": "es"}).json()["entries"]
    assert seen == watched and [n["text"] for n in seen] == [e["text"] for e in log[-len(seen) :]]
    by_faction = {n["params"]["faction"]: n["text"] for n in seen if "faction" in n["params"]}
    assert "Ada" in by_faction[0] and "Facción 2" in by_faction[1] and "Facción 3" in by_faction[2]


def test_a_seats_socket_gets_a_full_view_then_deltas_that_rebuild_it(client):
    """Three humans: nothing moves but the actions sent here. After each, the socket's deltas
    applied to what it holds give the seat's whole view, byte for byte as JSON decodes it."""
    humans = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    data = create(client, seats=humans)
    game_id = data["id"]
    tokens = [s["token"] for s in data["seats"]]
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": tokens[0]}) as ws:
        held = apply_update(None, ws.receive_json())
        assert held is not None and held["game"] == "rome"
        deltas = 0
        for _ in range(8):
            owing = held["waiting_for"][0]
            legal = view(client, game_id, tokens[owing])["legal_actions"]
            act(client, game_id, tokens[owing], legal[0])
            fresh = view(client, game_id, tokens[0])
            while held["version"] < fresh["version"]:
                message = ws.receive_json()
                deltas += message["type"] == "delta"
                held = apply_update(held, message)
                assert held is not None
            assert {k: v for k, v in held.items() if k != "server_time"} == {
                k: v for k, v in fresh.items() if k != "server_time"
            }
        assert deltas == 8


# --- actions ---------------------------------------------------------------------------------


def test_an_illegal_action_is_refused_naming_its_rule_and_changes_nothing(client):
    """R1: an action answers a decision the faction owes; anything else is refused whole."""
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    before = wait_for_seat(client, game_id, token)
    legal = before["legal_actions"]
    wrong = next({"type": t, "player": 0} for t in ("done", "skip", "roll") if {"type": t, "player": 0} not in legal)
    for action in (wrong, {"type": "persuade", "player": 0}, {"type": "no_such_action", "player": 0}):
        response = client.post(
            f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": action}
        )
        assert response.status_code == 422, response.text
        body = response.json()
        assert body["key"].startswith("rome.error.") and body["rule"] and body["text"]
        after = view(client, game_id, token)
        assert after["seq"] == before["seq"] and after["state"] == before["state"]
    response = client.post(
        f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": {**legal[0], "player": 1}}
    )
    assert response.status_code == 403 and response.json()["key"] == "error.wrong_seat"


def test_a_seat_plays_its_decisions_and_the_bots_theirs(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    seen = play(client, game_id, token, actions=15)
    live = client.app.state.service.games[game_id]
    players = {a.player for a in live.game.log}
    assert {0, 1, 2} <= players or seen["ending"]
    assert seen["seq"] <= len(live.game.log)  # the bots may have moved on since the view


# --- persistence -----------------------------------------------------------------------------


def restart_keeps_the_table(url: str, monkeypatch, snapshots: bool = False) -> None:
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(url, allow_seeds=True)) as first:
        data = create(first)
        game_id, token = data["id"], data["seats"][0]["token"]
        before = play(first, game_id, token, actions=12)
        stored = first.app.state.service.store.load(game_id, all_actions=True)
        log = [dict(r["action"]) for r in stored.all_actions]
    if snapshots:  # the table is loaded from its latest snapshot and the actions after it
        assert stored.snapshot is not None and 0 < stored.snapshot.seq <= len(log)
    with TestClient(create_app(url, allow_seeds=True)) as second:
        after = view(second, game_id, token)
        assert after["seq"] == before["seq"] and after["state"] == before["state"]
        assert after["legal_actions"] == before["legal_actions"]
        assert [n["id"] for n in after["notifications"]] == [n["id"] for n in before["notifications"]]
        # the stored log replays to the same game, and the table plays on
        assert SERVED["rome"] is second.app.state.service.games[game_id].served
        replayed = [
            second.app.state.service.games[game_id].kit.action_to_dict(a)
            for a in second.app.state.service.games[game_id].game.log
        ]
        assert replayed == log
        play(second, game_id, token, actions=3)


def test_a_rome_table_survives_a_restart_on_sqlite(db_url, monkeypatch):
    restart_keeps_the_table(db_url, monkeypatch)


def test_a_rome_table_survives_a_restart_from_its_snapshot(db_url, monkeypatch):
    monkeypatch.setattr(actor_module, "SNAPSHOT_EVERY", 5)
    restart_keeps_the_table(db_url, monkeypatch, snapshots=True)


def test_a_rome_table_survives_a_restart_on_postgresql(monkeypatch):
    from postgres_support import postgres_schema

    with postgres_schema("rome_tables") as (_, _, url):
        restart_keeps_the_table(url, monkeypatch)


def test_the_lobby_says_where_a_rome_table_is_in_the_readers_words(client):
    """A lobby row's `where` is its game's: a Rome table's turn and phase ("turn 1, Senate
    phase", "turno 1, fase de Senado"), never Judges & Kings' round; a Judges & Kings row's
    its round and phase, in the same words as My games."""
    humans = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    rome = create(client, seats=humans)["id"]
    judges = client.post("/api/games", json={"seats": humans, "seed": 11}).json()["id"]
    for lang in ("en", "es", "pt_BR"):
        rows = {g["id"]: g for g in client.get("/api/lobby", params={"lang": lang}).json()["running"]}
        for game_id in (rome, judges):
            live = client.app.state.service.games[game_id]
            assert rows[game_id]["where"] == live.kit.where(live.game, lang)
        turn = client.app.state.service.games[rome].game.state.turn
        assert rows[rome]["where"].startswith({"en": f"turn {turn}, ", "es": f"turno {turn}, "}.get(lang, "turno"))
        assert rows[judges]["where"].startswith({"en": "round 1, ", "es": "ronda 1, "}.get(lang, "rodada 1, "))


def test_the_lobby_names_an_unnamed_rome_seat_in_the_readers_words(client):
    """An unnamed Rome seat is "Faction N" in the lobby's reader's words ("Facción 2" to a
    Spanish reader, "Facção 2" to a Portuguese one), a player's own name as it is typed."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"}]
    rome = create(client, seats=seats)["id"]
    expected = {"en": "Faction 2", "es": "Facción 2", "pt_BR": "Facção 2"}
    for lang, second in expected.items():
        rows = {g["id"]: g for g in client.get("/api/lobby", params={"lang": lang}).json()["running"]}
        names = [seat["name"] for seat in rows[rome]["seats"]]
        assert names[0] == "Ada"
        assert names[1] == second


def test_a_ballot_is_secret_until_the_tally(client):
    """The Senate's vote (R90, the review's secret ballots): while a vote is open, a faction sees
    its own ballot and of the others only that they voted; a spectator sees no ballot."""
    data = create(client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    game_id = data["id"]
    tokens = [s["token"] for s in data["seats"]]
    engine = client.app.state.service.games[game_id].game
    for _ in range(600):
        sitting = engine.state.scratch.get("senate") or {}
        ballots = sitting.get("ballots") or {}
        if ballots and "veto" not in ballots:
            break
        owing = view(client, game_id, tokens[0])["waiting_for"][0]
        act(client, game_id, tokens[owing], view(client, game_id, tokens[owing])["legal_actions"][0])
    else:
        raise AssertionError("no open vote in 600 actions")
    truth = dict(ballots)
    for seat, token in enumerate(tokens):
        seen = view(client, game_id, token)["state"]["scratch"]["senate"]["ballots"]
        assert set(seen) == set(truth)
        for voter, ballot in seen.items():
            assert ballot == (truth[voter] if voter == str(seat) else "voted")
    watched = client.get(f"/api/games/{game_id}/spectate").json()["state"]["scratch"]["senate"]["ballots"]
    assert set(watched.values()) == {"voted"}


def test_a_seat_left_to_the_takeover_bot_is_played_by_romes_neutral_bot(client):
    """A player who leaves hands the seat to the table's takeover bot (Rome's default: neutral),
    which answers the seat's decisions until the player takes it back; the seats' events say so."""
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    headers = {"X-Seat-Token": token}
    before = wait_for_seat(client, game_id, token)
    live = client.app.state.service.games[game_id]
    assert live.takeover_bot == "neutral"
    away = client.post(f"/api/games/{game_id}/seat/away", headers=headers)
    assert away.status_code == 200 and away.json()["away"] is True
    deadline = time.time() + 30
    while not any(a.player == 0 for a in live.game.log[before["seq"] :]) and not live.played.is_over:
        assert time.time() < deadline, "the takeover bot never played the seat"
        time.sleep(0.02)
    refused = client.post(
        f"/api/games/{game_id}/actions", headers=headers, json={"action": {"type": "done", "player": 0}}
    )
    assert refused.status_code == 409 and refused.json()["key"] == "error.seat_away"
    back = client.post(f"/api/games/{game_id}/seat/back", headers=headers)
    assert back.status_code == 200 and back.json()["away"] is False
    seen = view(client, game_id, token)
    assert seen["seats"][0]["away"] is False
    assert [e["key"] for e in seen["seat_events"]][-2:] == ["notification.seat_bot", "notification.seat_back"]
    assert all(e["title"] for e in seen["seat_events"])


def test_a_finished_rome_table_is_replayed_from_its_seed_and_actions_every_hand_shown(client):
    """`GET /replay` (capability replay): refused while the game runs; once over, the game after
    any step as its options (the seed) and its first actions rebuild it, every faction's hand and
    treasury shown, the log the report up to there, the steps where each turn and phase begins."""
    from judges.rome.engine.actions import action_to_dict
    from judges.rome.engine.game import RomeGame
    from judges.rome.engine.state import RomeOptions

    data = create(client, rules={"wars_lose_game": 1})
    game_id, token = data["id"], data["seats"][0]["token"]
    running = client.get(f"/api/games/{game_id}/replay")
    assert running.status_code == 409 and running.json()["key"] == "error.not_over"
    assert client.get(f"/games/{game_id}/replay").status_code == 409  # the page says so, as any game's
    assert client.post(f"/api/games/{game_id}/seat/away", headers={"X-Seat-Token": token}).status_code == 200
    end = wait_for_seat(client, game_id, token, seat=-1, timeout=60)
    engine = client.app.state.service.games[game_id].game
    actions = [action_to_dict(a) for a in engine.log]
    page = client.get(f"/games/{game_id}/replay")  # no screen: the page leads to the API's replay
    assert page.status_code == 200 and 'data-error="error.no_screen"' in page.text and "main.js" not in page.text
    assert f'href="/api/games/{game_id}/replay?lang=en"' in page.text
    whole = client.get(f"/api/games/{game_id}/replay", params={"lang": "es"}).json()
    assert whole["replay"]["step"] == whole["replay"]["steps"] == len(actions) == end["seq"] > 10
    assert whole["ending"] == end["ending"] and [s["name"] for s in whole["seats"]] == ["Ada", "Facción 2", "Facción 3"]
    assert len(whole["log"]) == len(engine.state.report)
    phases = whole["replay"]["phases"]
    assert phases[0] == 0 and phases == sorted(set(phases)) and len(phases) > 3
    assert whole["replay"]["rounds"]["1"] in phases
    options = msgspec.convert(client.app.state.service.store.load(game_id).options, RomeOptions)
    for step in (0, 7, len(actions) // 2, len(actions)):
        replayed = RomeGame.replay(options, actions[:step]).state
        at = client.get(f"/api/games/{game_id}/replay", params={"step": step}).json()
        assert at["replay"]["step"] == step
        assert at["state"]["factions"] == msgspec.to_builtins(replayed.factions)  # every hand shown
        assert (at["state"]["turn"], at["state"]["phase"]) == (replayed.turn, replayed.phase)
        assert [e["key"] for e in at["log"]] == [e.key for e in replayed.report]
        assert at["state"]["deck"] == len(replayed.deck) and "report" not in at["state"]


def test_a_finished_rome_table_is_exported_verified_and_considered_for_rating(client):
    """R232: four active wars end the game (one here: `wars_lose_game`); the export reveals the
    seed that hashes to the commitment published at creation, `judges verify` replays it; the
    finished table is considered for rating, and recorded unrated: its seats are guests'."""
    from sqlalchemy import select

    from judges.server.community.rating_tables import rated_games_table
    from judges.verify import verify_export

    data = create(client, rules={"wars_lose_game": 1})
    game_id, token = data["id"], data["seats"][0]["token"]
    headers = {"X-Seat-Token": token}
    assert client.get(f"/api/games/{game_id}/export", headers=headers).status_code == 409
    assert client.post(f"/api/games/{game_id}/seat/away", headers=headers).status_code == 200
    end = wait_for_seat(client, game_id, token, seat=-1, timeout=60)
    assert end["ending"] and end["dice"]["seed"] and end["legal_actions"] == []
    export = client.get(f"/api/games/{game_id}/export", headers=headers)
    assert export.status_code == 200
    verified = verify_export(export.json(), data["dice"]["commitment"])
    assert verified.ending == end["ending"] and verified.actions == end["seq"]
    store = client.app.state.service.store
    deadline = time.time() + 30
    row = None
    while row is None and time.time() < deadline:
        with store.engine.connect() as conn:
            row = conn.execute(select(rated_games_table).where(rated_games_table.c.game_id == game_id)).first()
        time.sleep(0.05)
    assert row is not None and not row.rated and row.reason == "guest"


def test_a_secret_choice_made_at_once_reaches_no_other_seat_nor_a_spectator():
    """R25's grain choice, made at once (docs/rome/rules-reference.md, "Choices made at once"):
    after faction 0 chose, the parts the server sends faction 1 (still to choose), faction 2 and
    a spectator differ from those before only in who still owes (and the version); faction 0's
    own view shows its choice."""
    import json

    from judges.rome.cards import load_deck
    from judges.rome.engine.actions import Grain
    from judges.rome.engine.effects import senator_from_card
    from judges.rome.engine.game import RomeGame
    from judges.rome.engine.state import PHASES, Faction, RomeOptions, RomeState
    from judges.server.games.judges import wire
    from judges.server.games.rome import wire as served_wire
    from judges.server.table.tables import LiveGame

    deck = load_deck()
    state = RomeState(options=RomeOptions(players=3, seed=1), treasury=100, turn=1)
    state.factions = [Faction(seat=i) for i in range(3)]
    for card, seat, concessions in (("1", 0, ["sicilian_grain"]), ("3", 1, ["aegyptian_grain"]), ("5", 2, [])):
        state.senators[card] = senator_from_card(deck, card, seat)
        state.senators[card].concessions = concessions
    state.events["drought"] = 1
    state.phase, state.step = PHASES.index("revenue"), 0
    game = RomeGame(state)
    game.advance()
    assert sorted((d.player, d.kind) for d in state.pending) == [(0, "grain"), (1, "grain")]
    seats = [{"name": n, "kind": "human", "bot": None} for n in ("Ada", "Bo", "Cy")]
    live = LiveGame(id="g", game=game, seats=seats, kind="rome")
    table = wire.Table(turn_timer=None, takeover_bot="neutral", hints=False)
    moving = {"seq", "server_time", "waiting_for", "pending", "my_decisions", "legal_actions", "state.pending"}

    def sent(seat):
        public = served_wire.public(live, table, 50, {}, 0.0)
        parts = served_wire.parts(live, public, seat, "en")
        return {name: json.loads(data) for name, data in parts.items() if name not in moving}

    before = {seat: sent(seat) for seat in (1, 2, None)}
    game.apply(Grain(player=0, cards=["sicilian_grain"]))
    for seat, parts in before.items():
        after = sent(seat)
        assert after.pop("state.scratch") == {"grain": {"0": "answered"}}
        assert parts.pop("state.scratch") == {"grain": {}}
        assert after == parts, seat
    assert sent(0)["state.scratch"] == {"grain": {"0": ["sicilian_grain"]}}
