"""The host cannot take a seat's secrets. Re-inviting a seat once handed the
host a fresh invitation he could claim himself, and with it the seat's private conversations;
a seat he invited could be taken from the lobby by a stranger. Each test here reproduces one
attack (it failed on the code before the fix) and the table's view of what happened."""

from __future__ import annotations

import time

import pytest

from judges import i18n
from judges.server.community import chat
from seats_support import THREE_HUMANS, app_clients, invitation_code, new_table

OPEN_TABLE = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture
def make_client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with app_clients(f"sqlite:///{tmp_path / 'games.db'}") as make:
        yield make


@pytest.fixture
def client(make_client):
    return make_client()


def table(client, game, seats=THREE_HUMANS) -> tuple[str, list[str | None]]:
    return new_table(client, seats, game, takeover_bot="greedy")


def as_seat(token: str | None) -> dict[str, str]:
    return {"X-Seat-Token": token or ""}


def say(client, gid, token, text, to=()):
    body = {"channel": "private" if to else "table", "to": list(to), "text": text}
    response = client.post(f"/api/games/{gid}/chat", json=body, headers=as_seat(token))
    assert response.status_code == 200, response.text


def chat_texts(client, gid, token) -> list[str]:
    response = client.get(f"/api/games/{gid}/chat", headers=as_seat(token))
    assert response.status_code == 200, response.text
    return [m["text"] for m in response.json()["messages"]]


def socket_history(client, gid, token) -> list[str]:
    with client.websocket_connect(f"/ws/games/{gid}?chat=1", headers=as_seat(token)) as ws:
        for _ in range(50):
            message = ws.receive_json()
            if message["type"] == "chat":
                assert message["history"] is True
                return [m["text"] for m in message["messages"]]
    raise AssertionError("no chat history")


def host_move(client, gid, host, seat, move):
    return client.post(f"/api/games/{gid}/seats/{seat}/{move}", headers=as_seat(host))


def claim(client, gid, link, token=None):
    response = client.post(
        f"/api/games/{gid}/claim", json={"invitation": invitation_code(link)}, headers=as_seat(token) if token else {}
    )
    client.cookies.clear()
    return response


# --- a present player keeps their seat ---------------------------------------------------------


def test_the_host_cannot_take_the_seat_of_a_player_who_is_at_the_table(client, game):
    """Bo is at the table (his socket is open): the host may neither revoke his seat nor re-invite
    it, and Bo keeps playing it."""
    gid, (host, bo, _) = table(client, game)
    with client.websocket_connect(f"/ws/games/{gid}", headers=as_seat(bo)) as ws:
        assert ws.receive_json()["type"] == "full"
        for move in ("invitation", "revoke"):
            refused = host_move(client, gid, host, 1, move)
            assert refused.status_code == 409, refused.text
            body = refused.json()
            assert body["key"] == "error.seat_present" and "invitation" not in body
            assert body["text"] and body["text"] != body["key"]
    view = client.get(f"/api/games/{gid}/view", headers=as_seat(bo))
    assert view.status_code == 200 and view.json()["seats"][1]["away"] is False


def test_a_seat_whose_player_left_or_is_gone_may_be_handed_over(make_client, game):
    """Absence is what the server stored: the player left the seat (or ran out of time), or no
    socket or request of theirs came for `absent_after` seconds."""
    client = make_client(absent_after=2.0)
    gid, (host, bo, cy) = table(client, game)
    assert host_move(client, gid, host, 1, "invitation").status_code == 409  # Bo just took his seat
    assert client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo)).status_code == 200
    assert host_move(client, gid, host, 1, "invitation").status_code == 200  # Bo left it
    assert host_move(client, gid, host, 2, "revoke").status_code == 409  # Cy is here
    time.sleep(2.3)  # Cy neither connected nor asked anything since
    assert host_move(client, gid, host, 2, "revoke").status_code == 200


def test_an_open_socket_keeps_its_player_present_and_its_close_starts_the_clock(make_client, monkeypatch, game):
    monkeypatch.setenv("JUDGES_WATCH_SECONDS", "0.1")
    client = make_client(absent_after=2.0)
    gid, (host, bo, _) = table(client, game)
    with client.websocket_connect(f"/ws/games/{gid}", headers=as_seat(bo)) as ws:
        assert ws.receive_json()["type"] == "full"
        time.sleep(3.0)  # no request of Bo's: only his socket says he is here
        assert host_move(client, gid, host, 1, "revoke").json()["key"] == "error.seat_present"
    time.sleep(0.5)
    assert host_move(client, gid, host, 1, "revoke").status_code == 409  # he left half a second ago
    time.sleep(2.0)
    assert host_move(client, gid, host, 1, "revoke").status_code == 200


def test_the_other_players_present_may_agree_to_hand_a_seat_over(client, game):
    gid, (host, bo, cy) = table(client, game)
    # the host cannot agree in their place, nor may a player agree to lose their own seat
    assert host_move(client, gid, bo, 1, "consent").json()["key"] == "error.consent_target"
    assert host_move(client, gid, host, 1, "invitation").status_code == 409
    agreed = host_move(client, gid, cy, 1, "consent")
    assert agreed.status_code == 200 and agreed.json() == {"seat": 1, "consent": True}
    withdrawn = host_move(client, gid, cy, 1, "withhold")
    assert withdrawn.status_code == 200 and withdrawn.json() == {"seat": 1, "consent": False}
    assert host_move(client, gid, host, 1, "invitation").status_code == 409
    assert host_move(client, gid, cy, 1, "consent").status_code == 200
    assert host_move(client, gid, host, 1, "invitation").status_code == 200
    assert client.get(f"/api/games/{gid}/view", headers=as_seat(bo)).status_code == 403


def test_every_other_player_present_must_agree_and_only_they(client, game):
    four = [*THREE_HUMANS, {"kind": "human", "name": "Di"}]
    gid, (host, bo, cy, di) = table(client, game, four)
    assert host_move(client, gid, cy, 1, "consent").status_code == 200
    assert host_move(client, gid, host, 1, "revoke").json()["key"] == "error.seat_present"  # Di did not agree
    assert client.post(f"/api/games/{gid}/seat/away", headers=as_seat(di)).status_code == 200
    assert host_move(client, gid, host, 1, "revoke").status_code == 200  # Di left: Cy is the table


def test_alone_with_the_player_the_host_cannot_agree_for_the_table(client, game):
    """Two humans and a bot: nobody else is there to agree, so a present player keeps the seat."""
    gid, (host, bo, _) = table(client, game, [*THREE_HUMANS[:2], {"kind": "bot", "bot": "greedy"}])
    assert host_move(client, gid, host, 1, "revoke").json()["key"] == "error.seat_present"


# --- the host cannot claim a seat himself ------------------------------------------------------


def test_the_hosts_own_credential_cannot_claim_another_seats_invitation(client, game):
    gid, (host, bo, _) = table(client, game)
    assert client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo)).status_code == 200
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    for headers in ({"X-Seat-Token": host}, {}):
        if not headers:  # the browser's way: the host's cookie rides along
            client.cookies.set(f"jk_seat_{gid}", host)
        taken = client.post(f"/api/games/{gid}/claim", json={"invitation": invitation_code(link)}, headers=headers)
        assert taken.status_code == 409 and taken.json()["key"] == "error.seat_held", taken.text
        page = client.post(f"/join/{gid}/{invitation_code(link)}", headers=headers, follow_redirects=False)
        assert page.status_code == 409
        shown = client.get(f"/join/{gid}/{invitation_code(link)}", headers=headers)
        assert shown.status_code == 409 and i18n.gettext("en", "error.seat_held") in shown.text
        client.cookies.clear()
    # the invitation is still open for the player it was meant for
    newcomer = claim(client, gid, link)
    assert newcomer.status_code == 200 and newcomer.json()["seat"] == 1


def test_a_revoked_players_old_credential_does_not_stop_them_taking_a_new_invitation(client, game):
    gid, (host, bo, _) = table(client, game)
    client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo))
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    again = claim(client, gid, link, token=bo)  # Bo's browser still sends his revoked credential
    assert again.status_code == 200 and again.json()["seat"] == 1


# --- a revoked seat's private talk stays with its old player ---------------------------------------


def test_a_seat_reads_private_messages_from_its_current_players_start_only():
    may_read = chat.may_read
    private, public = {"id": 3, "channel": "seats:1.2"}, {"id": 3, "channel": "table"}
    assert may_read(private, 1, 0) and may_read(private, 2, 0) and not may_read(private, 0, 0)
    assert not may_read(private, 1, 3) and may_read({**private, "id": 4}, 1, 3)
    assert may_read(public, 1, 3) and may_read({"id": 1, "channel": "spectators"}, 1, 3)


def test_the_next_holder_of_a_seat_does_not_read_the_previous_ones_private_talk(client, game):
    gid, (host, bo, cy) = table(client, game)
    say(client, gid, bo, "Cy, I hold two plagues", to=[2])
    say(client, gid, cy, "Bo, vote for my judge", to=[1])
    say(client, gid, host, "Bo, a word between us", to=[1])
    say(client, gid, host, "Hello table")
    assert client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo)).status_code == 200
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    say(client, gid, cy, "Bo's seat is empty now", to=[1])
    newcomer = claim(client, gid, link).json()["token"]
    say(client, gid, cy, "Welcome to the new Bo", to=[1])
    say(client, gid, newcomer, "Thanks, Cy", to=[2])
    expected = ["Hello table", "Welcome to the new Bo", "Thanks, Cy"]
    assert chat_texts(client, gid, newcomer) == expected
    assert socket_history(client, gid, newcomer) == expected
    # the other party still reads the whole conversation it took part in
    assert chat_texts(client, gid, cy) == [
        "Cy, I hold two plagues",
        "Bo, vote for my judge",
        "Hello table",
        "Bo's seat is empty now",
        "Welcome to the new Bo",
        "Thanks, Cy",
    ]


def test_a_message_sent_to_a_seat_reaches_only_its_current_holders_sockets(client, game):
    gid, (host, bo, cy) = table(client, game)
    client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo))
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    newcomer = claim(client, gid, link).json()["token"]
    with client.websocket_connect(f"/ws/games/{gid}?chat=1", headers=as_seat(newcomer)) as ws:
        say(client, gid, cy, "for the new Bo", to=[1])
        for _ in range(50):
            message = ws.receive_json()
            if message["type"] == "chat" and not message["history"]:
                assert [m["text"] for m in message["messages"]] == ["for the new Bo"]
                break
        else:
            raise AssertionError("no live message")


# --- a seat the host invited is not the lobby's --------------------------------------------------


def test_an_open_seat_the_host_invited_cannot_be_taken_from_the_lobby(client, game):
    data = client.post("/api/games", json=game.body(game.with_game(OPEN_TABLE), seed=7)).json()
    gid, host = data["id"], data["token"]
    client.cookies.clear()
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    assert all(g["id"] != gid for g in client.get("/api/lobby").json()["open"])  # reserved now
    invited = claim(client, gid, link)
    assert invited.status_code == 200 and invited.json()["seat"] == 1
    stranger = client.post(f"/api/games/{gid}/join")
    client.cookies.clear()
    assert stranger.status_code == 409 and stranger.json()["key"] == "error.no_free_seat"
    assert client.get(f"/api/games/{gid}/view", headers=as_seat(invited.json()["token"])).status_code == 200


def test_a_stranger_cannot_take_an_invited_open_seat_before_its_player_comes(client, game):
    data = client.post("/api/games", json=game.body(game.with_game(OPEN_TABLE), seed=7)).json()
    gid, host = data["id"], data["token"]
    client.cookies.clear()
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    assert client.post(f"/api/games/{gid}/join").status_code == 409
    client.cookies.clear()
    assert claim(client, gid, link).status_code == 200


def test_a_player_already_seated_cannot_take_a_second_seat_from_the_lobby(client, game):
    data = client.post("/api/games", json=game.body([*OPEN_TABLE[:2], {"kind": "human", "open": True}], seed=7)).json()
    gid, host = data["id"], data["token"]
    client.cookies.clear()
    refused = client.post(f"/api/games/{gid}/join", headers=as_seat(host))
    assert refused.status_code == 409 and refused.json()["key"] == "error.seat_held"


# --- the table sees what happened --------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_table_reads_who_handed_a_seat_over_and_that_a_new_player_took_it(client, lang, game):
    gid, (host, bo, cy) = table(client, game)
    client.post(f"/api/games/{gid}/seat/away", headers=as_seat(bo))
    link = host_move(client, gid, host, 1, "invitation").json()["invitation"]
    claim(client, gid, link)
    events = client.get(f"/api/games/{gid}/view?lang={lang}", headers=as_seat(cy)).json()["seat_events"]
    keys = [e["key"] for e in events]
    assert keys[-2:] == ["notification.seat_reinvited", "notification.seat_claimed"], keys
    reinvited, claimed = events[-2:]
    assert reinvited["params"]["by"] == 0 and reinvited["params"]["player"] == 1
    assert "Ada" in reinvited["title"] and "Bo" in reinvited["title"] and reinvited["lines"]
    assert "Bo" in claimed["title"]
    assert len({e["id"] for e in events}) == len(events)  # the screen's bell keeps them by id
    for event in (reinvited, claimed):
        for text in (event["title"], *event["lines"]):
            assert "notification." not in text and "seat_why" not in text and "{" not in text
