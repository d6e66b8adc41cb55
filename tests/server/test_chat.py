"""Table talk (server/community/chat.py): the table's chat, the spectators' channel and private
conversations; stored before acknowledged, delivered to exactly the sockets that may read them,
replayed to a socket that opens; cleaned, limited, closable by the host; never a bot's input."""

from __future__ import annotations

import msgspec
import pytest

from judges.server.community.chat import can_read, parties, private_channel
from judges.server.limits import clean_text
from judges.server.store import GameStore
from seats_support import THREE_HUMANS, app_clients, new_table

WITH_A_BOT = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def make_client(db_url, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with app_clients(db_url) as make:
        yield make


@pytest.fixture
def client(make_client):
    return make_client()


def table(client, game, seats=THREE_HUMANS) -> tuple[str, list[str | None]]:
    return new_table(client, seats, game)


def say(client, gid, token, text, channel="table", to=(), cid=None, lang="en"):
    body = {"channel": channel, "to": list(to), "text": text}
    if cid:
        body["client_message_id"] = cid
    return client.post(f"/api/games/{gid}/chat?lang={lang}", json=body, headers={"X-Seat-Token": token})


def next_chat(ws) -> dict:
    """The socket's next chat message (views and deltas in between are skipped)."""
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == "chat":
            return message
    raise AssertionError("no chat message")


def seat_socket(client, gid, token):
    return client.websocket_connect(f"/ws/games/{gid}?chat=1", headers={"X-Seat-Token": token})


def texts(message: dict) -> list[str]:
    return [m["text"] for m in message["messages"]]


# --- channels ------------------------------------------------------------------------------------


def test_a_private_channel_is_the_sorted_set_of_its_seats():
    assert private_channel([2, 0]) == private_channel([0, 2, 2]) == "seats:0.2"
    assert parties("seats:0.2") == (0, 2) and parties("table") is None
    assert can_read("seats:0.2", 0) and can_read("seats:0.2", 2)
    assert not can_read("seats:0.2", 1) and not can_read("seats:0.2", -1)
    assert can_read("table", -1) and can_read("spectators", 1)


# --- delivery ------------------------------------------------------------------------------------


def test_a_socket_that_did_not_ask_for_the_chat_gets_views_only(client, game):
    gid, tokens = table(client, game)
    with client.websocket_connect(f"/ws/games/{gid}", headers={"X-Seat-Token": tokens[0]}) as plain:
        assert plain.receive_json()["type"] == "full"
        assert say(client, gid, tokens[1], "hello").status_code == 200
        client.post(f"/api/games/{gid}/seat/away", headers={"X-Seat-Token": tokens[2]})
        assert plain.receive_json()["type"] == "delta"  # the seat change, and no chat before it


def test_a_table_message_reaches_every_seat_and_the_spectators(client, game):
    gid, tokens = table(client, game)
    with (
        seat_socket(client, gid, tokens[0]) as a,
        seat_socket(client, gid, tokens[1]) as b,
        client.websocket_connect(f"/ws/games/{gid}/spectate?chat=1") as watcher,
    ):
        for ws in (a, b, watcher):
            history = next_chat(ws)
            assert history["history"] is True and history["messages"] == []
        answer = say(client, gid, tokens[0], "Vote for my judge in Judah?", cid="c1")
        assert answer.status_code == 200 and answer.json() == {"id": 1, "duplicate": False}
        for ws in (a, b, watcher):
            got = next_chat(ws)
            assert got["history"] is False
            [message] = got["messages"]
            assert message["text"] == "Vote for my judge in Judah?" and message["channel"] == "table"
            assert message["sender"] == 0 and message["name"] == "Ada" and message["id"] == 1


def test_a_private_message_reaches_its_parties_only(client, game):
    gid, tokens = table(client, game)
    with (
        seat_socket(client, gid, tokens[0]) as a,
        seat_socket(client, gid, tokens[1]) as b,
        seat_socket(client, gid, tokens[2]) as c,
        client.websocket_connect(f"/ws/games/{gid}/spectate?chat=1") as watcher,
    ):
        for ws in (a, b, c, watcher):
            next_chat(ws)
        private = say(client, gid, tokens[0], "I will grant you Ephraim", channel="private", to=[1])
        assert private.status_code == 200, private.text
        public = say(client, gid, tokens[2], "Hello all")
        assert public.status_code == 200
        for ws in (a, b):
            assert texts(next_chat(ws)) == ["I will grant you Ephraim"]
            assert next_chat(ws)["messages"][0]["channel"] == "table"
        # the others' next message is the public one: the private one never came
        for ws in (c, watcher):
            assert texts(next_chat(ws)) == ["Hello all"]
    [stored] = [
        m
        for m in client.get(f"/api/games/{gid}/chat", headers={"X-Seat-Token": tokens[1]}).json()["messages"]
        if m["channel"] != "table"
    ]
    assert stored["channel"] == "seats:0.1" and stored["sender"] == 0
    outsider = client.get(f"/api/games/{gid}/chat", headers={"X-Seat-Token": tokens[2]}).json()["messages"]
    assert texts({"messages": outsider}) == ["Hello all"]
    public_history = client.get(f"/api/games/{gid}/chat/public").json()["messages"]
    assert texts({"messages": public_history}) == ["Hello all"]


def test_a_socket_that_opens_gets_the_history_it_may_read(client, game):
    gid, tokens = table(client, game)
    assert say(client, gid, tokens[0], "one").status_code == 200
    assert say(client, gid, tokens[1], "two, for Ada", channel="private", to=[0]).status_code == 200
    assert say(client, gid, tokens[2], "three, for Bo", channel="private", to=[1]).status_code == 200
    with seat_socket(client, gid, tokens[0]) as a:
        history = next_chat(a)
        assert history["history"] and texts(history) == ["one", "two, for Ada"]
    with seat_socket(client, gid, tokens[1]) as b:
        assert texts(next_chat(b)) == ["one", "two, for Ada", "three, for Bo"]
    with client.websocket_connect(f"/ws/games/{gid}/spectate?chat=1") as watcher:
        assert texts(next_chat(watcher)) == ["one"]


def test_messages_outlive_the_server(make_client, db_url, game):
    first = make_client()
    gid, tokens = table(first, game)
    assert say(first, gid, tokens[0], "before the restart").status_code == 200
    assert say(first, gid, tokens[1], "a secret", channel="private", to=[0]).status_code == 200
    first.__exit__(None, None, None)
    second = make_client()  # a new process on the same database
    with seat_socket(second, gid, tokens[0]) as a:
        assert texts(next_chat(a)) == ["before the restart", "a secret"]
    with GameStore(db_url) as store:
        assert [m["id"] for m in store.list_chat(gid)] == [1, 2]
    assert say(second, gid, tokens[2], "after it").json()["id"] == 3


def test_a_retried_message_is_stored_once(client, db_url, game):
    gid, tokens = table(client, game)
    first = say(client, gid, tokens[0], "once", cid="same")
    again = say(client, gid, tokens[0], "once", cid="same")
    assert first.json() == {"id": 1, "duplicate": False}
    assert again.json() == {"id": 1, "duplicate": True}
    # another seat's id of the same value is its own message
    assert say(client, gid, tokens[1], "mine", cid="same").json() == {"id": 2, "duplicate": False}
    with GameStore(db_url) as store:
        assert [m["text"] for m in store.list_chat(gid)] == ["once", "mine"]


def test_spectators_write_in_their_own_channel(client, game):
    gid, tokens = table(client, game)
    body = {"text": "Go Bo!", "key": "a-secret-of-my-browser"}
    answer = client.post(f"/api/games/{gid}/chat/spectate", json=body)
    assert answer.status_code == 200, answer.text
    [message] = client.get(f"/api/games/{gid}/chat/public").json()["messages"]
    assert message["channel"] == "spectators" and message["sender"] == -1
    assert message["name"] and message["name"] not in body["key"]
    # a spectator has no seat: the table is not theirs to write in
    client.cookies.clear()
    refused = client.post(f"/api/games/{gid}/chat", json={"text": "hi"})
    assert refused.status_code == 401
    # seats read it, and may answer in it
    assert say(client, gid, tokens[0], "thanks", channel="spectators").status_code == 200


# --- safety --------------------------------------------------------------------------------------


def test_text_is_cleaned_of_control_and_bidi_characters():
    assert clean_text("\u202eevil\u202c  text\u200b\x07") == "evil text"
    assert clean_text("  \nfirst\r\nsecond  line\n\n") == "first\nsecond line"
    assert clean_text("<script>alert(1)</script>") == "<script>alert(1)</script>"  # text, shown as text
    assert clean_text("\u2066\u2067\u2068\u2069\u200f") == ""


def test_a_stored_message_is_the_cleaned_text(client, game):
    gid, tokens = table(client, game)
    assert say(client, gid, tokens[0], "\u202egnp.exe <b>hi</b>").status_code == 200
    [message] = client.get(f"/api/games/{gid}/chat", headers={"X-Seat-Token": tokens[0]}).json()["messages"]
    assert message["text"] == "gnp.exe <b>hi</b>"


def test_empty_long_and_misaddressed_messages_are_refused_clearly(client, game):
    gid, tokens = table(client, game)
    empty = say(client, gid, tokens[0], " \u202e\u200b ", lang="es")
    assert empty.status_code == 422 and empty.json()["key"] == "error.chat_empty"
    assert empty.json()["text"] == "Un mensaje necesita algo de texto."
    long = say(client, gid, tokens[0], "x" * 501, lang="pt")
    assert long.status_code == 422 and long.json()["key"] == "error.chat_too_long"
    assert "500" in long.json()["text"] and "caracteres" in long.json()["text"]
    lines = say(client, gid, tokens[0], "a\n" * 12 + "b")
    assert lines.status_code == 422 and lines.json()["key"] == "error.chat_too_long"
    assert say(client, gid, tokens[0], "x" * 500).status_code == 200
    for to in ([], [0], [7], [-1]):
        wrong = say(client, gid, tokens[0], "psst", channel="private", to=to)
        assert wrong.status_code == 422 and wrong.json()["key"] == "error.chat_channel", to
    odd = say(client, gid, tokens[0], "hi", channel="everyone")
    assert odd.status_code == 422 and odd.json()["key"] == "error.request"
    huge = client.post(f"/api/games/{gid}/chat", json={"text": "x" * 5000}, headers={"X-Seat-Token": tokens[0]})
    assert huge.status_code == 422


def test_the_rate_limit_answers_clearly(make_client, game):
    client = make_client(chat_burst=3, chat_per_minute=1)
    gid, tokens = table(client, game)
    for i in range(3):
        assert say(client, gid, tokens[0], f"message {i}").status_code == 200
    refused = say(client, gid, tokens[0], "one too many", lang="es")
    assert refused.status_code == 429
    body = refused.json()
    assert body["key"] == "error.rate_chat" and int(refused.headers["retry-after"]) >= 1
    assert body["text"].startswith("Demasiados mensajes") and str(body["params"]["retry_after"]) in body["text"]
    assert say(client, gid, tokens[1], "another seat's own bucket").status_code == 200
    # spectators, by address
    for i in range(3):
        client.post(f"/api/games/{gid}/chat/spectate", json={"text": f"s{i}", "key": "spectator-key-1"})
    assert (
        client.post(f"/api/games/{gid}/chat/spectate", json={"text": "s", "key": "spectator-key-2"}).status_code == 429
    )


def test_the_host_closes_and_reopens_a_seats_chat(client, game):
    gid, tokens = table(client, game)
    host, other = tokens[0], tokens[1]
    refused = client.post(f"/api/games/{gid}/chat/seats/0/close", headers={"X-Seat-Token": other})
    assert refused.status_code == 403 and refused.json()["key"] == "error.not_host"
    own = client.post(f"/api/games/{gid}/chat/seats/0/close", headers={"X-Seat-Token": host})
    assert own.status_code == 422 and own.json()["key"] == "error.chat_target"
    closed = client.post(f"/api/games/{gid}/chat/seats/1/close", headers={"X-Seat-Token": host})
    assert closed.status_code == 200 and closed.json() == {"seat": 1, "chat_closed": True}
    view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": other}).json()
    assert view["seats"][1]["chat_closed"] is True and view["seats"][0]["host"] is True
    for channel, to in (("table", []), ("private", [0]), ("spectators", [])):
        silenced = say(client, gid, other, "let me speak", channel=channel, to=to, lang="pt")
        assert silenced.status_code == 403 and silenced.json()["key"] == "error.chat_closed"
        assert silenced.json()["text"] == "O anfitrião fechou a conversa para o seu lugar."
    # a closed seat still reads
    assert say(client, gid, host, "quiet, Bo").status_code == 200
    assert texts(client.get(f"/api/games/{gid}/chat", headers={"X-Seat-Token": other}).json()) == ["quiet, Bo"]
    assert client.post(f"/api/games/{gid}/chat/seats/1/open", headers={"X-Seat-Token": host}).status_code == 200
    assert say(client, gid, other, "thank you").status_code == 200


def test_no_error_of_the_chat_is_a_500(client, game):
    gid, tokens = table(client, game)
    for body in ({}, {"text": None}, {"text": 3}, {"text": "x", "to": "1"}, {"text": "x", "to": [1.5]}, []):
        response = client.post(f"/api/games/{gid}/chat", json=body, headers={"X-Seat-Token": tokens[0]})
        assert 400 <= response.status_code < 500, (body, response.status_code)
    assert client.post("/api/games/nope/chat", json={"text": "x"}).status_code == 404
    assert client.get(f"/api/games/{gid}/chat?after=x", headers={"X-Seat-Token": tokens[0]}).status_code == 422


# --- bots ----------------------------------------------------------------------------------------


def test_bots_read_no_chat_and_write_none(client, db_url, game):
    gid, tokens = table(client, game, WITH_A_BOT)
    secret = "the bot must never see this"
    assert say(client, gid, tokens[0], secret, channel="private", to=[2]).status_code == 200
    assert say(client, gid, tokens[0], secret + " either").status_code == 200
    service = client.app.state.service
    live = client.portal.call(service.get, gid)
    # what a bot is given to choose: the game's view of its seat and its legal actions
    played = game.wrap(live.game)
    bot_input = msgspec.json.encode([played.view(2), played.legal_actions(2)])
    assert b"never see" not in bot_input
    with GameStore(db_url) as store:
        assert all(m["sender"] != 2 for m in store.list_chat(gid))
    for source in game.bot_sources():
        assert "chat" not in source.read_text(), source


def test_a_cookie_from_another_site_cannot_write(client, game):
    response = client.post("/api/games", json=game.body(game.with_game(THREE_HUMANS), seed=7))
    gid = response.json()["id"]  # the client holds the host's cookie
    forged = client.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers={"Origin": "https://evil.example"})
    assert forged.status_code == 403 and forged.json()["key"] == "error.cross_origin"
    assert client.post(f"/api/games/{gid}/chat", json={"text": "hi"}).status_code == 200
