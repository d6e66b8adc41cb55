"""The game server's API: tokens, refusals that change nothing, duplicates, bots, restarts."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.server.limits import Limits
from judges.server.table.updates import apply_update
from seats_support import with_tokens

THREE_SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    # a turn timer shorter than the server's floor, so that the timer's test runs quickly
    with TestClient(create_app(db_url, allow_scenarios=True, allow_seeds=True, limits=Limits(min_turn_timer=0.5))) as c:
        yield c


def create(client, seats=THREE_SEATS, game=None, **extra) -> dict:
    """A table of seed 7 (`game`: the game's driver, tests/games_support.py; None: J&K's)."""
    body = {"seats": seats, "seed": 7, **extra} if game is None else game.body(game.with_game(seats), seed=7, **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return with_tokens(client, response.json())


def view(client, game_id, token, **params):
    return client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token}, params=params)


def wait_for_human(client, game_id, token, seat=0, timeout=20.0) -> dict:
    """Bots play in the background: waits until the human seat (or one of the seats `seat`)
    owes a decision."""
    seats = {seat} if isinstance(seat, int) else set(seat)
    deadline = time.time() + timeout
    while time.time() < deadline:
        data = view(client, game_id, token).json()
        if seats & set(data["waiting_for"]) or data["ending"]:
            return data
        time.sleep(0.05)
    raise AssertionError("the bots never handed the game back")


@pytest.mark.parametrize(
    "seats,status",
    [
        ([{"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}], 422),  # nobody to play
        ([{"kind": "human"}], 422),  # too few seats
        ([{"kind": "human"}, {"kind": "bot", "bot": "oracle"}, {"kind": "bot"}], 422),
    ],
)
def test_bad_game_specs_are_refused_clearly(client, seats, status, game):
    response = client.post("/api/games", json=game.body(seats))
    assert response.status_code == status
    assert response.json()["message"]


def test_a_view_needs_the_seats_token(client, game):
    data = create(client, game=game)
    game_id = data["id"]
    assert client.get(f"/api/games/{game_id}/view").status_code == 401
    assert view(client, game_id, "not-a-token").status_code == 403
    assert view(client, "no-such-game", data["seats"][0]["token"]).status_code == 404
    ok = view(client, game_id, data["seats"][0]["token"])
    assert ok.status_code == 200
    assert ok.json()["seat"] == 0


def test_a_view_hides_other_hands_the_deck_and_the_dice(client, game):
    data = create(client, game=game)
    v = view(client, data["id"], data["seats"][0]["token"]).json()
    live = client.app.state.service.games[data["id"]]
    assert game.leaks(v, 0) == [] and game.own_secrets_shown(v, 0, live.game)
    if game.name != "judges":
        return
    real = live.game.state
    assert v["state"]["rng"] == 0 and v["state"]["options"]["seed"] == 0
    assert v["state"]["deck"] == [] and v["deck_size"] == len(real.deck) > 0
    assert v["state"]["players"][0]["hand"] == real.players[0].hand
    assert v["state"]["players"][1]["hand"] == [] and v["hand_sizes"][1] == len(real.players[1].hand) > 0
    assert v["hand_sizes"] == [len(p.hand) for p in real.players]


def test_refused_actions_name_the_rule_and_change_nothing(client, game):
    data = create(client, game=game)
    game_id, token = data["id"], data["seats"][0]["token"]
    before = wait_for_human(client, game_id, token)
    bad = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        json={"action": game.illegal()},
    )
    assert bad.status_code == 422
    body = bad.json()
    assert body["rule"] and body["key"] and body["message"] and body["text"]
    malformed = client.post(
        f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": {"type": "teleport"}}
    )
    assert malformed.status_code == 422
    wrong_seat = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        json={"action": {**game.hurried(before), "player": 1}},
    )
    assert wrong_seat.status_code == 403
    no_token = client.post(f"/api/games/{game_id}/actions", json={"action": game.hurried(before)})
    assert no_token.status_code == 401
    after = view(client, game_id, token).json()
    assert after["seq"] == before["seq"] and after["state"] == before["state"]


def test_the_same_client_action_id_is_applied_once(client, game):
    data = create(client, game=game)
    game_id, token = data["id"], data["seats"][0]["token"]
    start = wait_for_human(client, game_id, token)
    action = game.hurried(start)
    first = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        json={"action": action, "client_action_id": "abc-1"},
    )
    again = client.post(
        f"/api/games/{game_id}/actions",
        headers={"X-Seat-Token": token},
        json={"action": action, "client_action_id": "abc-1"},
    )
    assert first.status_code == 200 and again.status_code == 200
    assert first.json() == {"seq": start["seq"] + 1, "duplicate": False}
    assert again.json() == {"seq": start["seq"] + 1, "duplicate": True}


def test_bots_play_their_seats_by_themselves(client, game):
    data = create(client, game=game)
    game_id, token = data["id"], data["seats"][0]["token"]
    for _ in range(6):  # the human only ever ends turns and answers decisions
        v = wait_for_human(client, game_id, token)
        if v["ending"]:
            break
        action = game.hurried(v)
        assert (
            client.post(
                f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": action}
            ).status_code
            == 200
        )
    v = wait_for_human(client, game_id, token)
    assert v["seq"] > 6  # the bots acted too


def test_a_restarted_server_resumes_every_game_exactly(db_url, monkeypatch, game):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_seeds=True)) as first:
        data = create(first, game=game)
        game_id, token = data["id"], data["seats"][0]["token"]
        for _ in range(5):
            v = wait_for_human(first, game_id, token)
            action = game.hurried(v)
            first.post(f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": action})
        before = wait_for_human(first, game_id, token)
    with TestClient(create_app(db_url, allow_seeds=True)) as second:
        after = view(second, game_id, token).json()
    assert after["seq"] == before["seq"]
    assert after["state"] == before["state"]
    assert [n["id"] for n in after["notifications"]] == [n["id"] for n in before["notifications"]]


def test_notifications_are_rendered_in_the_readers_language(client, game):
    data = create(client, game=game)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_human(client, game_id, token)
    en = view(client, game_id, token, lang="en").json()["notifications"]
    es = view(client, game_id, token, lang="es").json()["notifications"]
    pt = view(client, game_id, token, lang="pt_BR").json()["notifications"]
    assert en and len(en) == len(es) == len(pt)
    text = game.note_text
    assert text(en[0]) != text(es[0]) and text(es[0]) != text(pt[0])


def test_websocket_pushes_every_move_to_each_connected_seat(client, game):
    data = create(client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}], game=game)
    game_id = data["id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": t1}) as ws:
        first = ws.receive_json()
        assert first["type"] == "full" and first["view"]["seat"] == 1
        current = first["view"]
        v0 = wait_for_human(client, game_id, t0, seat=(0, 1))
        mover = t0 if 0 in v0["waiting_for"] else t1  # the human seat owing a decision acts
        mine = view(client, game_id, mover).json()
        client.post(
            f"/api/games/{game_id}/actions", headers={"X-Seat-Token": mover}, json={"action": game.hurried(mine)}
        )
        while current["seq"] < v0["seq"] + 1:
            update = ws.receive_json()
            assert update["type"] == "delta" and "seat" not in update.get("set", {})
            current = apply_update(current, update)
        assert current["seq"] == v0["seq"] + 1


def test_a_websocket_with_a_wrong_token_is_refused(client, game):
    data = create(client, game=game)
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/games/{data['id']}", headers={"X-Seat-Token": "nope"}) as ws:
            ws.receive_json()


def test_scenario_positions_only_when_the_server_allows_them(db_url):
    with TestClient(create_app(db_url, allow_scenarios=False, allow_seeds=True)) as c:
        response = c.post("/api/games", json={"seats": THREE_SEATS, "position": {"wrath": 5}})
        assert response.status_code == 403


def test_the_api_is_documented_by_its_openapi_schema(client):
    schema = client.get("/openapi.json").json()
    assert "/api/games" in schema["paths"] and "/api/games/{game_id}/actions" in schema["paths"]


def test_a_player_can_hand_the_seat_to_a_bot_and_take_it_back(client, game):
    data = create(client, game=game)
    game_id, token = data["id"], data["seats"][0]["token"]
    start = wait_for_human(client, game_id, token)
    away = client.post(f"/api/games/{game_id}/seat/away", headers={"X-Seat-Token": token})
    assert away.json() == {"seat": 0, "away": True}
    # The bot plays the seat: the game moves on without the human.
    deadline = time.time() + 20
    while time.time() < deadline:
        v = view(client, game_id, token).json()
        if v["seq"] > start["seq"] + 3:
            break
        time.sleep(0.05)
    assert v["seq"] > start["seq"] + 3
    assert any(n["key"] == "notification.seat_bot" for n in v["seat_events"])
    refused = client.post(
        f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json={"action": game.hurried(start)}
    )
    assert refused.status_code == 409
    back = client.post(f"/api/games/{game_id}/seat/back", headers={"X-Seat-Token": token})
    assert back.json() == {"seat": 0, "away": False}
    v = wait_for_human(client, game_id, token)
    assert v["seats"][0]["away"] is False
    assert any(n["key"] == "notification.seat_back" for n in v["seat_events"])


def test_the_turn_timer_hands_an_idle_seat_to_a_bot(client, game):
    data = create(client, game=game, turn_timer=0.5)
    game_id, token = data["id"], data["seats"][0]["token"]
    wait_for_human(client, game_id, token)
    deadline = time.time() + 10
    while time.time() < deadline:
        v = view(client, game_id, token).json()
        if v["seats"][0]["away"]:
            break
        time.sleep(0.1)
    assert v["seats"][0]["away"] is True
    note = next(n for n in v["seat_events"] if n["key"] == "notification.seat_bot")
    assert note["params"]["reason"] == "timer"


def test_seat_takeovers_survive_a_restart(db_url, monkeypatch, game):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_seeds=True)) as first:
        data = create(first, game=game)
        game_id, token = data["id"], data["seats"][0]["token"]
        wait_for_human(first, game_id, token)
        first.post(f"/api/games/{game_id}/seat/away", headers={"X-Seat-Token": token})
        first.post(f"/api/games/{game_id}/seat/back", headers={"X-Seat-Token": token})
    with TestClient(create_app(db_url, allow_seeds=True)) as second:
        v = view(second, game_id, token).json()
    keys = [n["key"] for n in v["seat_events"] if n["key"].startswith("notification.seat")]
    assert keys == ["notification.seat_bot", "notification.seat_back"]


def test_the_takeover_bot_is_a_game_option_kept_across_restarts(db_url, monkeypatch, game):
    """A seat whose player is away is played by the game's takeover bot (J&K: the MCTS bot;
    Rome: its neutral bot) unless the table chose another; a bot the server cannot play, or a
    bot of another game, is refused at creation."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_seeds=True)) as first:
        default = create(first, game=game)
        chosen = create(first, game=game, takeover_bot="random")
        for bad in ("nobot", "mcts:0", "mcts:100000:9", game.foreign_bot):
            response = first.post("/api/games", json=game.body(game.with_game(THREE_SEATS), seed=7, takeover_bot=bad))
            assert response.status_code == 422, bad
            assert response.json()["key"] == "error.bot"
        service = first.app.state.service
        assert service.games[default["id"]].takeover_bot == game.takeover_bot
        assert service.games[chosen["id"]].takeover_bot == "random"
    with TestClient(create_app(db_url, allow_seeds=True)) as second:
        for data, bot in ((default, game.takeover_bot), (chosen, "random")):
            token = data["seats"][0]["token"]
            wait_for_human(second, data["id"], token)
            second.post(f"/api/games/{data['id']}/seat/away", headers={"X-Seat-Token": token})
            deadline = time.time() + 20
            while time.time() < deadline and 0 not in second.app.state.service.games[data["id"]].bots:
                time.sleep(0.05)
            assert second.app.state.service.games[data["id"]].bots[0].name == bot


def test_the_screen_links_the_manual_chapter_of_the_current_phase(client):
    data = create(client)
    game_id, token = data["id"], data["seats"][0]["token"]
    v = wait_for_human(client, game_id, token)
    chapter = v["manual"]["phase"]
    assert chapter
    for lang in ("en", "es", "pt_BR"):
        page = client.get(f"/manual/{lang}/{chapter}")
        assert page.status_code == 200
        assert f'href="/manual/{lang}"' in page.text  # the link back to the index
    assert all("chapter" in n for n in v["notifications"])


# --- a game's rules and map ----------------------------------------------------------------------


def test_a_game_keeps_its_own_rules_across_a_restart(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(db_url, allow_seeds=True)) as first:
        data = create(first, rules={"wrath_threshold": 5, "dowry": 2})
        plain = create(first)
        game_id, token = data["id"], data["seats"][0]["token"]
        before = wait_for_human(first, game_id, token)
        assert before["state"]["options"]["rules"]["wrath_threshold"] == 5
        assert (
            view(first, plain["id"], plain["seats"][0]["token"]).json()["state"]["options"]["rules"]["wrath_threshold"]
            == 13
        )
    with TestClient(create_app(db_url, allow_seeds=True)) as second:
        after = view(second, game_id, token).json()
        world = second.get(f"/api/games/{game_id}/world").json()
    assert after["state"] == before["state"]
    assert after["state"]["options"]["rules"]["dowry"] == 2
    assert world["wrath_threshold"] == 5 and world["name"] == "Canaan" and world["hexes"]


def test_a_game_stored_with_old_options_loads_on_the_default_map(db_url):
    from judges.server.store import GameStore
    from judges.server.table.service import GameService

    store = GameStore(db_url)
    store.migrate()
    seats = [
        {"kind": "human", "bot": None, "name": "Ada", "language": "en", "token_hash": "x"},
        {"kind": "bot", "bot": "random", "name": "Dan", "language": "en", "token_hash": None},
    ]
    store.create_game(
        "old",
        {"players": 2, "seed": 3, "wave_pairs": 1, "round_limit": None, "map": "canaan", "takeover_bot": "greedy"},
        3,
        1,
        seats,
    )
    game = GameService(store).actor.load_copy("old").game
    assert game.state.options.rules.map == "canaan" and game.state.options.players == 2


def test_the_world_of_a_map_and_of_a_game(client):
    default = client.get("/api/world").json()
    assert client.get("/api/world", params={"map": "canaan"}).json() == default
    assert default["wrath_threshold"] == 13 and "costs" not in default  # the costs: the protocol's items
    missing = client.get("/api/world", params={"map": "atlantis"})
    assert missing.status_code == 404 and missing.json()["key"] == "error.no_map"
    data = create(client, rules={"wrath_threshold": 10})
    world = client.get(f"/api/games/{data['id']}/world").json()
    assert world["wrath_threshold"] == 10 and world["hexes"] == default["hexes"]
    assert client.get("/api/games/nope/world").status_code == 404


def test_the_protocol_of_a_game_prices_the_items_by_its_rules(client):
    def prices(body: dict) -> dict:
        return {i["name"]: i["cost"] for i in body["items"]}

    assert prices(client.get("/api/protocol").json())["wall"] == 10  # the default rules
    data = create(
        client, rules={"costs": {"troop": 2, "mercenary": 2, "development": 4, "wall": 8, "general": 6, "card": 3}}
    )
    game = client.get(f"/api/games/{data['id']}/protocol").json()
    assert prices(game) == {"troop": 2, "mercenary": 2, "development": 4, "wall": 8, "general": 6, "card": 3}
    assert prices(client.get("/api/protocol").json())["wall"] == 10  # the default stays the default
    token = next(s["token"] for s in data["seats"] if s.get("token"))
    seen = view(client, data["id"], token).json()
    assert seen["state"]["options"]["rules"]["costs"]["wall"] == 8  # the view carries the game's rules
    assert client.get("/api/games/nope/protocol").status_code == 404


@pytest.mark.parametrize(
    "rules, words",
    [({"wrath_threshold": 0}, "wrath_threshold"), ({"map": "atlantis"}, "atlantis"), ({"costs": {"wall": 1}}, "costs")],
)
def test_a_game_under_invalid_rules_is_refused(client, rules, words):
    response = client.post("/api/games", json={"seats": THREE_SEATS, "rules": rules})
    assert response.status_code == 422 and words in response.json()["message"]
