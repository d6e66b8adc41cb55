"""Games over days and abandoned games (docs/accounts.md "Paces and notices"): a
24-hour pace's decision owed is told by e-mail through a real local SMTP server (aiosmtpd,
started here), one digest a player, with links that sign the player in to the seat; past the
deadline the takeover bot plays the turn and the seat's record counts the missed deadline; a
forgotten password by e-mail; an idle game ends as abandoned."""

from __future__ import annotations

import time
from contextlib import ExitStack
from datetime import UTC
from email.message import Message

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from judges.i18n import gettext
from judges.rome.i18n import text as rome_text
from judges.server.app import create_app
from judges.server.community.paces import step
from judges.server.community.rating_tables import account_links_table, rated_games_table
from mail_support import links_in as mail_links
from mail_support import smtp_server
from postgres_support import postgres_schema
from seats_support import invitation_code

HOUR = 3600.0


@pytest.fixture
def mailbox(monkeypatch):
    with smtp_server() as box:
        monkeypatch.setenv("JUDGES_SMTP_URL", box.url)
        yield box


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request, tmp_path, monkeypatch, mailbox):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    monkeypatch.setenv("JUDGES_UPKEEP_SECONDS", "3600")  # the tests run the rounds themselves
    monkeypatch.setenv("JUDGES_PUBLIC_URL", "http://testserver")
    with ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'games.db'}"
        if request.param == "postgresql":
            url = stack.enter_context(postgres_schema("judges_paces"))[2]
        client = stack.enter_context(TestClient(create_app(url, allow_seeds=True)))
        client.app.state.test_mailbox = mailbox
        yield client


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client):
    c = Clock()
    client.app.state.upkeep.clock = c
    return c


def upkeep(client, scan: bool = False) -> None:
    client.portal.call(client.app.state.upkeep.round, scan)


def sign_up(client, name, email=None, confirm=True):
    """A new account, signed in; its address (if any) confirmed by the link mailed to it, and
    that mail taken out of the mailbox."""
    client.cookies.clear()
    body = {"name": name, "password": "a long secret"}
    if email:
        body["email"] = email
    assert client.post("/api/accounts", json=body).status_code == 201
    if email and confirm:
        mailbox = client.app.state.test_mailbox
        (mail,) = wait_for(lambda: mailbox.to(email))
        mailbox.messages.remove(mail)
        (link,) = links_in(mail)
        assert client.post(link, follow_redirects=False).status_code == 303
        assert client.get("/api/me").json()["account"]["email_verified"] is True


def view_of(client, gid, token):
    return client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json()


def wait_for(predicate, deadline=60.0):
    stop = time.time() + deadline
    while time.time() < stop:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("never happened")


def paced_game(client, game, seats, **extra):
    """Ada (with an e-mail address) creates a 24-hour-pace game of `game` (its light bot takes
    over a late seat); answers its creation."""
    sign_up(client, "ada", "ada@example.org")
    body = game.body(seats, seed=11, pace={"hours": 24}, takeover_bot=game.bot, **extra)
    data = client.post("/api/games", json=body)
    assert data.status_code == 201, data.text
    return data.json()


def ada_and_bots(game):
    """Ada and the game's light bots, as few as the game seats."""
    return game.seats(humans=1, bots=max(1, game.min_players - 1))


def links_in(message: Message) -> list[str]:
    return [link.removeprefix("http://testserver") for link in mail_links(message, "http://testserver")]


def test_a_24_hour_pace_game_whose_turn_passes_mails_a_link_that_opens_the_seat(client, clock, mailbox, game):
    data = paced_game(client, game, game.seats(humans=2, bots=max(0, game.min_players - 2)))
    gid, ada = data["id"], data["token"]
    sign_up(client, "bo", "bo@example.org")
    code = invitation_code(data["seats"][1]["invitation"])
    bo = client.post(f"/api/games/{gid}/claim", json={"invitation": code}).json()["token"]
    client.cookies.clear()
    tokens = {0: ada, 1: bo}
    # the players act until the decision is Bo's alone (a bot's seat plays its own)
    stop = time.time() + 60
    while True:
        assert time.time() < stop, "the decision never passed to Bo alone"
        waiting = view_of(client, gid, ada)["waiting_for"]
        if waiting == [1]:
            break
        humans = [seat for seat in waiting if seat in tokens]
        if not humans:
            time.sleep(0.02)
            continue
        seat = humans[0]
        action = game.hurried(view_of(client, gid, tokens[seat]))
        client.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": tokens[seat]})
    upkeep(client, scan=True)  # Bo's decision is owed from now
    clock.now += 5 * 60
    upkeep(client)
    assert mailbox.messages == []  # not at once: the player may be deciding
    clock.now += 6 * 60  # past JUDGES_NOTICE_DELAY_MINUTES (10), the player away
    upkeep(client)
    (mail,) = mailbox.to("bo@example.org")
    assert mailbox.to("ada@example.org") == []  # not her decision
    assert "Judges & Kings" in mail["Subject"]  # the site's name
    # where the game is, in its own words: its round (Rome: turn) and phase, no key left raw
    live = client.portal.call(client.app.state.service.get, gid)
    body = mail.get_payload(decode=True).decode()
    assert f": {live.kit.where(live.game, 'en')};" in body and "phase." not in body
    assert f" {live.played.progress}, " in body
    (link,) = links_in(mail)
    upkeep(client)
    clock.now += HOUR
    upkeep(client)
    assert len(mailbox.messages) == 1  # told once for the decision
    # a browser of Bo's with no cookie at all: the link signs him in and opens his seat
    client.cookies.clear()
    page = client.get(link)
    assert page.status_code == 200 and 'id="use-link"' in page.text  # a preview takes nothing
    opened = client.post(link, follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/games/{gid}"
    assert client.get("/api/me").json()["account"]["name"] == "bo"
    assert client.get(f"/api/games/{gid}/view").json()["seat"] == 1
    assert client.get(f"/games/{gid}").status_code == 200


def test_a_player_owed_decisions_in_two_games_gets_one_digest(client, clock, mailbox, game):
    first = paced_game(client, game, ada_and_bots(game))
    client.post("/api/session", json={"name": "ada", "password": "a long secret"})
    second = client.post(
        "/api/games", json=game.body(ada_and_bots(game), seed=12, pace={"days": 1}, takeover_bot=game.bot)
    ).json()
    client.cookies.clear()
    for data in (first, second):
        wait_for(lambda data=data: 0 in view_of(client, data["id"], data["token"])["waiting_for"])
    upkeep(client, scan=True)
    owed_from = clock.now
    client.post("/api/session", json={"name": "ada", "password": "a long secret"})
    running = client.get("/api/me/games").json()["running"]
    assert [g["deadline"] for g in running] == [round(owed_from + 24 * HOUR)] * 2  # shown in My games
    client.cookies.clear()
    clock.now += 11 * 60
    upkeep(client)
    (mail,) = mailbox.messages
    assert mail["To"] == "ada@example.org" and len(links_in(mail)) == 2


def test_a_digest_names_a_rome_tables_unnamed_seats_in_the_readers_words(client, clock, mailbox):
    """A Republic of Rome table created in English, its unnamed seats "Faction 2", "Faction 3":
    a mail to a player whose seat speaks Spanish names them "Facción 2", "Facción 3"."""
    sign_up(client, "ada", "ada@example.org")
    seats = [{"kind": "human", "name": "Ada", "language": "es"}, *[{"kind": "bot", "bot": "neutral"}] * 2]
    body = {"game": "rome", "seats": seats, "seed": 12, "pace": {"days": 1}, "takeover_bot": "neutral"}
    rome = client.post("/api/games?lang=en", json=body).json()
    assert [s["name"] for s in rome["seats"]][1:] == ["Faction 2", "Faction 3"]
    client.cookies.clear()
    wait_for(lambda: 0 in view_of(client, rome["id"], rome["token"])["waiting_for"])
    upkeep(client, scan=True)
    clock.now += 11 * 60
    upkeep(client)
    (mail,) = mailbox.messages
    text = mail.get_payload(decode=True).decode()
    assert "ada, Facción 2, Facción 3: turno " in text and "Faction" not in text


def test_a_digest_names_the_game_of_each_table(client, clock, mailbox):
    """A player owed decisions at a Judges & Kings table and a Republic of Rome table: each line
    of the digest names its table's game in the reader's words (both say "turno 0" in Spanish)."""
    sign_up(client, "ada", "ada@example.org")
    ada = {"kind": "human", "name": "Ada", "language": "es"}
    judges = client.post(
        "/api/games", json={"seats": [ada, {"kind": "bot", "bot": "greedy"}], "seed": 11, "pace": {"days": 1}}
    ).json()
    client.post("/api/session", json={"name": "ada", "password": "a long secret"})
    seats = [ada, *[{"kind": "bot", "bot": "neutral"}] * 2]
    body = {"game": "rome", "seats": seats, "seed": 12, "pace": {"days": 1}, "takeover_bot": "neutral"}
    rome = client.post("/api/games", json=body).json()
    client.cookies.clear()
    for data in (judges, rome):
        wait_for(lambda data=data: 0 in view_of(client, data["id"], data["token"])["waiting_for"])
    upkeep(client, scan=True)
    clock.now += 11 * 60
    upkeep(client)
    (mail,) = mailbox.messages
    lines = [line for line in mail.get_payload(decode=True).decode().splitlines() if "UTC" in line]
    assert len(lines) == 2
    titles = {f"{gettext('es', 'ui.title')} — ", f"{rome_text('es', 'rome.title')} — "}  # Jueces y Reyes, ...
    assert {title for title in titles for line in lines if line.startswith(title)} == titles


def test_past_the_deadline_the_bot_plays_the_turn_and_the_record_counts_it(client, clock, mailbox, game):
    data = paced_game(client, game, ada_and_bots(game))
    gid, ada = data["id"], data["token"]
    wait_for(lambda: 0 in view_of(client, gid, ada)["waiting_for"])
    upkeep(client, scan=True)
    clock.now += 24 * HOUR - 1
    upkeep(client)
    live = client.portal.call(client.app.state.service.get, gid)
    assert not live.seats[0].get("away") and "missed" not in live.seats[0]
    clock.now += 2
    upkeep(client)  # past the deadline: the takeover bot plays Ada's turn
    seat = live.seats[0]
    assert seat["missed"] == 1 and seat["missed_row"] == 1 and seat["away"]
    wait_for(lambda: 0 not in view_of(client, gid, ada)["waiting_for"] or not live.seats[0].get("away"))
    wait_for(lambda: (upkeep(client), not live.seats[0].get("away"))[1])  # then the seat is hers again
    assert live.seats[0]["missed_row"] == 1
    # she decides herself the next time (a turn is answered by its end, not by a move): the row
    # ends, the total stays
    wait_for(lambda: 0 in view_of(client, gid, ada)["waiting_for"])
    upkeep(client)
    action = game.hurried(view_of(client, gid, ada))
    assert client.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": ada}).is_success
    upkeep(client)
    assert live.seats[0]["missed_row"] == 0 and live.seats[0]["missed"] == 1 and live.seats[0]["missed_most"] == 1
    assert client.get("/api/players/ada").json()["missed"] == 1
    page = client.get("/players/ada")
    assert page.status_code == 200 and 'id="player-missed"' in page.text


def test_missed_deadlines_in_a_row_are_counted_per_seat():
    info: dict = {}
    turn, vote = ["1.5.3.turn.None"], ["2.1.4.vote.2"]
    assert step(info, turn, 0.0, 10.0) == "owed"
    assert step(info, turn, 5.0, 10.0) is None
    assert step(info, turn, 10.0, 10.0) == "late" and info["missed_row"] == 1
    info["away"] = True  # the caller hands the seat to the bot, which plays the turn
    assert step(info, turn, 11.0, 10.0) is None
    assert step(info, [], 12.0, 10.0) == "back" and "owed" not in info
    info["away"] = False
    assert step(info, vote, 13.0, 10.0) == "owed"
    assert step(info, vote, 23.0, 10.0) == "late" and info["missed_row"] == 2 and info["missed_most"] == 2
    info["away"] = False  # taken back before the bot played
    assert step(info, vote, 24.0, 10.0) == "owed"
    assert step(info, [], 25.0, 10.0) == "done" and info["missed_row"] == 0 and info["missed"] == 2


def test_a_deadline_holds_while_any_decision_it_was_set_for_is_owed():
    info: dict = {}
    assert step(info, ["v.1", "v.2"], 0.0, 10.0) == "owed"
    assert step(info, ["v.2"], 6.0, 10.0) is None  # one vote answered: the other's deadline holds
    assert step(info, ["v.2"], 10.0, 10.0) == "late" and info["missed_row"] == 1
    info["away"] = False
    assert step(info, ["t.1"], 11.0, 10.0) == "owed"
    assert step(info, ["t.2"], 12.0, 10.0) == "owed" and info["missed_row"] == 0  # answered himself


MOVEMENT = {  # round 1's Movement: Ada plays first
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Shunem": {"owner": 0, "troops": 3},
        "Hebron": {"owner": 1, "troops": 2},
        "Shechem": {"owner": 2, "troops": 2},
    },
    "generals": [{"id": 10, "owner": 0, "at": "Shunem"}, {"id": 11, "owner": 1, "at": "Hebron"}],
}


def test_a_move_and_its_undo_do_not_push_the_deadline_back_and_the_missed_deadline_counts(tmp_path, monkeypatch):
    """A player who moves and takes the move back before each deadline kept his seat for ever,
    and so the game was never abandoned: the deadline belongs to the decision, which a free step
    and its Undo do not answer."""
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setenv("JUDGES_UPKEEP_SECONDS", "3600")
    monkeypatch.setenv("JUDGES_ABANDON_MISSED", "1")  # one missed deadline of every human: abandoned
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, allow_scenarios=True)) as c:
        clock = Clock()
        c.app.state.upkeep.clock = clock
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
        body = {"seats": seats, "seed": 7, "position": MOVEMENT, "pace": {"hours": 24}, "takeover_bot": "greedy"}
        data = c.post("/api/games", json=body).json()
        gid, ada = data["id"], data["token"]
        assert view_of(c, gid, ada)["waiting_for"] == [0]
        upkeep(c, scan=True)  # Ada's turn is owed from now
        live = c.portal.call(c.app.state.service.get, gid)
        since = live.seats[0]["owed"]["since"]
        for _ in range(3):  # before each deadline, a move and its Undo
            clock.now += 20 * HOUR
            move = next(a for a in view_of(c, gid, ada)["legal_actions"] if a["type"] == "move")
            for action in (move, {"type": "undo"}):
                answer = c.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": ada})
                assert answer.status_code == 200, answer.text
            upkeep(c)
            if live.seats[0].get("missed"):
                break
            assert live.seats[0]["owed"]["since"] == since  # the same deadline
        seat = live.seats[0]
        assert seat["missed"] == 1 and seat["missed_row"] == 1 and seat["away"]
        upkeep(c, scan=True)
        assert live.seats[0].get("abandoned")  # every human seat missed its deadline: abandoned


def test_a_forgotten_password_by_e_mail(client, mailbox):
    sign_up(client, "ada", "ada@example.org")
    elsewhere = client.cookies.get("jk_session")  # a browser left signed in somewhere
    client.cookies.clear()
    assert client.post("/api/password-reset", json={"name": "ADA"}).status_code == 202
    unknown = client.post("/api/password-reset", json={"name": "nobody"})
    assert unknown.status_code == 202 and unknown.json() == {"sent": True}  # the same answer
    (mail,) = wait_for(lambda: mailbox.to("ada@example.org"))
    (link,) = links_in(mail)
    assert client.get(link).status_code == 200
    assert (
        client.post(
            link, content="password=short", headers={"Content-Type": "application/x-www-form-urlencoded"}
        ).status_code
        == 422
    )
    done = client.post(
        link,
        content="password=a+new+secret",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert done.status_code == 303 and client.get("/api/me").json()["account"]["name"] == "ada"
    client.cookies.clear()
    client.cookies.set("jk_session", elsewhere)
    assert client.get("/api/me").json() == {"account": None}  # a new password signs every browser out
    client.cookies.clear()
    assert client.post("/api/session", json={"name": "ada", "password": "a long secret"}).status_code == 401
    assert client.post("/api/session", json={"name": "ada", "password": "a new secret"}).status_code == 200
    assert client.get(link).status_code == 404  # spent
    assert len(mailbox.messages) == 1


def seat_link_of_ada(client, clock, mailbox, game) -> tuple[str, str]:
    """A paced game where Ada's decision waits: the game and the link of her notice."""
    data = paced_game(client, game, ada_and_bots(game))
    client.cookies.clear()
    wait_for(lambda: 0 in view_of(client, data["id"], data["token"])["waiting_for"])
    upkeep(client, scan=True)
    clock.now += 11 * 60
    upkeep(client)
    (mail,) = mailbox.to("ada@example.org")
    (link,) = links_in(mail)
    return data["id"], link


def test_a_seat_link_opens_the_seat_once_and_lives_a_day(client, clock, mailbox, game):
    gid, link = seat_link_of_ada(client, clock, mailbox, game)
    with client.app.state.service.store.engine.connect() as conn:
        (expires,) = conn.execute(select(account_links_table.c.expires_at)).one()
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    assert expires.timestamp() <= time.time() + 24 * HOUR + 60  # not a week
    opened = client.post(link, follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == f"/games/{gid}"
    client.cookies.clear()  # the same link again (a forwarded mail, a copy in the history)
    assert client.get(link).status_code == 404
    again = client.post(link, follow_redirects=False)
    assert again.status_code == 404 and client.get("/api/me").json() == {"account": None}


def test_a_new_password_spends_every_link_of_the_account(client, clock, mailbox, game):
    gid, seat_link = seat_link_of_ada(client, clock, mailbox, game)
    client.cookies.clear()
    assert client.post("/api/password-reset", json={"name": "ada"}).status_code == 202
    (reset,) = wait_for(lambda: mailbox.to("ada@example.org")[1:])  # after the notice
    (reset_link,) = links_in(reset)
    done = client.post(
        reset_link,
        content="password=a+new+secret",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert done.status_code == 303
    client.cookies.clear()
    assert client.post(seat_link, follow_redirects=False).status_code == 404  # the notice's link is dead too
    assert client.get("/api/me").json() == {"account": None}


def test_an_idle_game_ends_as_abandoned_and_frees_the_lobby(client, clock, game):
    sign_up(client, "ada")
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": game.bot}]
    data = client.post("/api/games", json=game.body(seats, seed=11)).json()
    gid = data["id"]
    assert gid in [g["id"] for g in client.get("/api/lobby").json()["open"]]
    upkeep(client, scan=True)
    assert gid in [g["id"] for g in client.get("/api/lobby").json()["open"]]  # not idle yet
    clock.now += 25 * HOUR  # JUDGES_ABANDON_HOURS: 24 by default
    upkeep(client, scan=True)
    lobby = client.get("/api/lobby").json()
    assert gid not in [g["id"] for g in lobby["open"] + lobby["running"]]
    (entry,) = [g for g in lobby["finished"] if g["id"] == gid]
    assert entry["ending"] == "abandoned"
    view = view_of(client, gid, data["token"])
    action = {"type": game.progress[0], "player": 0}
    refused = client.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": data["token"]})
    assert refused.status_code == 409 and refused.json()["key"] == "error.game_abandoned"
    assert any(n["key"] == "notification.game_abandoned" for n in view["seat_events"])
    # the seat's view says the game is over, abandoned: nothing owed, nothing to play
    assert view["ending"] == "abandoned" and view.get("final") is None  # (J&K's final table)
    assert view["legal_actions"] == [] and view["my_decisions"] == [] and view["waiting_for"] == []
    client.post("/api/session", json={"name": "ada", "password": "a long secret"})
    (mine,) = client.get("/api/me/games").json()["finished"]
    assert mine["ending"] == "abandoned"
    store = client.app.state.service.store
    with store.engine.connect() as conn:
        row = conn.execute(select(rated_games_table).where(rated_games_table.c.game_id == gid)).one()
    # not rated (a game without ratings says so first)
    assert not row.rated and row.reason == ("abandoned" if "ratings" in game.served.capabilities else "game")


@pytest.mark.parametrize(
    "extra,key",
    [
        ({"pace": {"hours": 24}, "turn_timer": 60}, "error.pace_timer"),
        ({"pace": {"hours": 0.5}}, "error.request"),
        ({"pace": {"hours": 24, "days": 1}}, "error.request"),
        ({"pace": {}}, "error.request"),
    ],
)
def test_a_bad_pace_is_refused(client, extra, key, game):
    response = client.post("/api/games", json=game.body(ada_and_bots(game), **extra))
    assert response.status_code == 422 and response.json()["key"] == key


def test_a_pace_is_stored_with_the_game(client, game):
    data = paced_game(client, game, ada_and_bots(game))
    stored = client.app.state.service.store.load(data["id"])
    assert stored.options["pace"] == {"hours": 24.0}
    assert client.app.state.upkeep.paces.paced[data["id"]] == 24.0


def test_without_a_mail_server_a_forgotten_password_is_refused_plainly(tmp_path, monkeypatch):
    monkeypatch.delenv("JUDGES_SMTP_URL", raising=False)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as c:
        refused = c.post("/api/password-reset", json={"name": "ada"})
    assert refused.status_code == 409 and refused.json()["key"] == "error.no_mail"  # not a server error


# --- e-mail addresses: one, confirmed, and a cap per recipient ----------------------------------------


@pytest.mark.parametrize(
    "email",
    [
        "ruth@example.org, boaz@example.org",
        "ruth@example.org,boaz@example.org",
        "ruth@example.org;boaz@example.org",
        "Ruth <ruth@example.org>",
        "ruth@example.org boaz@example.org",
        '"ruth,boaz"@example.org',
        "ruth@example.org\nBcc: boaz@example.org",
        "ruth@localhost",
        "ruth@@example.org",
    ],
)
def test_the_address_field_takes_exactly_one_address(client, email):
    client.cookies.clear()
    refused = client.post("/api/accounts", json={"name": "ruth", "password": "a long secret", "email": email})
    assert refused.status_code == 422 and refused.json()["key"] == "error.email"


def test_an_address_is_kept_as_one_mailbox_with_its_domain_in_lower_case(client, mailbox):
    client.cookies.clear()
    made = client.post(
        "/api/accounts", json={"name": "ruth", "password": "a long secret", "email": " Ruth.B+jk@Example.ORG "}
    )
    assert made.status_code == 201
    assert made.json()["account"]["email"] == "Ruth.B+jk@example.org"
    assert made.json()["account"]["email_verified"] is False


def test_the_mailer_sends_to_one_recipient_only(mailbox):
    from judges.server.community.mailer import Mailer, MailError

    mailer = Mailer.from_url(__import__("os").environ["JUDGES_SMTP_URL"])
    with pytest.raises(MailError):
        mailer.send("ruth@example.org, boaz@example.org", "subject", "body")
    mailer.send("ruth@example.org", "subject", "body")
    assert mailbox.recipients == ["ruth@example.org"]


def test_nothing_but_its_confirmation_is_mailed_to_an_unconfirmed_address(client, mailbox):
    sign_up(client, "ruth", "ruth@example.org", confirm=False)
    (confirm,) = wait_for(lambda: mailbox.to("ruth@example.org"))
    assert "/links/" in confirm.get_payload(decode=True).decode()
    client.cookies.clear()
    assert client.post("/api/password-reset", json={"name": "ruth"}).status_code == 202
    time.sleep(0.5)
    assert len(mailbox.to("ruth@example.org")) == 1  # no reset link: the address is not confirmed
    (link,) = links_in(confirm)
    page = client.get(link)
    assert page.status_code == 200 and "ruth@example.org" in page.text  # a preview confirms nothing
    assert client.post(link, follow_redirects=False).status_code == 303
    assert client.get("/api/me").json() == {"account": None}  # confirming signs nobody in
    assert client.post(link, follow_redirects=False).status_code == 404  # once
    assert client.post("/api/password-reset", json={"name": "ruth"}).status_code == 202
    wait_for(lambda: len(mailbox.to("ruth@example.org")) == 2)


def test_one_address_given_for_many_accounts_gets_the_days_cap_of_mails(client, mailbox):
    """Accounts made with someone else's address, and their forgotten passwords asked for: the
    address gets the few confirmation mails of the day's cap, and nothing else."""
    victim = "someone@example.net"
    for i in range(5):
        sign_up(client, f"name{i}", victim, confirm=False)
        client.cookies.clear()
        assert client.post("/api/password-reset", json={"name": f"name{i}"}).status_code == 202
    wait_for(lambda: len(mailbox.to(victim)) >= 3)
    time.sleep(0.5)  # the last of the background mails
    got = mailbox.to(victim)
    assert len(got) == client.app.state.service.settings.verify_mails_per_day == 3
    assert all("confirm" in m["Subject"] for m in got)
    client.post("/api/session", json={"name": "name0", "password": "a long secret"})
    again = client.post("/api/me/email")
    assert again.status_code == 202 and again.json() == {"sent": True}
    time.sleep(0.3)
    assert len(mailbox.to(victim)) == 3  # asked again: the day's cap holds


def test_every_mail_counts_against_the_recipients_day(client, mailbox):
    notices = client.app.state.upkeep.notices
    notices.per_day = 2
    sent = [client.portal.call(notices.send, "ruth@example.org", "s", "b", "notice") for _ in range(3)]
    assert sent == [True, True, False] and len(mailbox.to("ruth@example.org")) == 2
