"""Ratings (docs/accounts.md "Ratings"): a finished game between accounts moves their
OpenSkill Plackett-Luce ratings exactly as the library computes; bots are fixed anchors; games
with a guest, a hint, a scenario or a long takeover are not rated; the leaderboard and a
player's page. The platform's tests run for both games (the `game` fixture); a game's own
places are tested from its rules (J&K's final table, Rome's "Places")."""

from __future__ import annotations

import dataclasses
import time
from contextlib import ExitStack

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import select

from judges.games.judges_game import places_of
from judges.games.registry import SERVED
from judges.server.app import create_app
from judges.server.community.rating_tables import rated_games_table, ratings_table
from judges.server.community.ratings import ANCHOR_SIGMA, check, hinted_table, took_over_too_long
from judges.server.limits import RateLimiter
from judges.server.store import accounts_table
from postgres_support import postgres_schema
from seats_support import invitation_code

THREE = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "human", "name": "Cy"}]
MIN_RATED_ROUNDS = SERVED["judges"].rating.min_progress


def rated_length(game):
    """The options of a table whose game lasts long enough to be rated, and not much longer: J&K
    the minimum of rounds; Rome its default rules (its bots' games end in turns 2 to 7)."""
    return {"round_limit": MIN_RATED_ROUNDS} if game.name == "judges" else {}


def anchor_bots(game):
    """Two bot seats of the game's anchors: its light bots where they are anchors, else its
    reference bot (Rome's `random` is not an anchor)."""
    rating = game.served.rating
    return [b if b in rating.anchors else rating.reference for b in (game.bot, game.other_bot)]


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    monkeypatch.setattr(
        "judges.server.community.accounts.PasswordHasher",
        lambda: PasswordHasher(time_cost=1, memory_cost=8, parallelism=1),
    )
    with ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'games.db'}"
        if request.param == "postgresql":
            url = stack.enter_context(postgres_schema("judges_ratings"))[2]
        yield stack.enter_context(TestClient(create_app(url, allow_seeds=True)))


def sign_up(client, name):
    client.cookies.clear()
    response = client.post("/api/accounts", json={"name": name, "password": "a long secret"})
    assert response.status_code == 201, response.text


def sign_in(client, name):
    client.cookies.clear()
    response = client.post("/api/session", json={"name": name, "password": "a long secret"})
    assert response.status_code == 200, response.text


def account_game(client, seats, names, game=None, returning=False, **options):
    """A game (`game`: its driver; J&K when none) whose human seats are each claimed by a new
    account (the first one creates it; `returning`: the first one's account exists already);
    answers its id and each human seat's credential."""
    (sign_in if returning else sign_up)(client, names[0])
    body = game.body(seats, seed=11, **options) if game else {"seats": seats, "seed": 11, **options}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    data = made.json()
    tokens = {data["seat"]: data["token"]}
    invited = [s for s in data["seats"] if "invitation" in s]
    for name, seat in zip(names[1:], invited):
        sign_up(client, name)
        claimed = client.post(
            f"/api/games/{data['id']}/claim", json={"invitation": invitation_code(seat["invitation"])}
        )
        assert claimed.status_code == 200, claimed.text
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
    client.cookies.clear()
    return data["id"], tokens


def play_to_the_end(client, gid, tokens, deadline=240, game=None):
    """Each human seat plays its first legal action (`game`: the game's driver, its hurried
    one) whenever it owes one, until the end."""
    stop = time.time() + deadline
    while time.time() < stop:
        acted = False
        for seat, token in tokens.items():
            view = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json()
            if view.get("ending"):
                return
            if seat in view["waiting_for"] and view["legal_actions"]:
                client.post(
                    f"/api/games/{gid}/actions",
                    json={"action": game.hurried(view) if game else view["legal_actions"][0]},
                    headers={"X-Seat-Token": token},
                )
                acted = True
        if not acted:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def considered(client, gid, deadline=30):
    store = client.app.state.service.store
    stop = time.time() + deadline
    while time.time() < stop:
        with store.engine.connect() as conn:
            row = conn.execute(select(rated_games_table).where(rated_games_table.c.game_id == gid)).first()
        if row is not None:
            return row
        time.sleep(0.05)
    raise AssertionError("the game was not considered for rating")


def stored_ratings(client, game=None):
    """Each account's stored (mu, sigma, games) in the game `game` (None: in any; the tests
    asking so play one game)."""
    with client.app.state.service.store.engine.connect() as conn:
        query = select(accounts_table.c.name, ratings_table.c.mu, ratings_table.c.sigma, ratings_table.c.games).join(
            ratings_table, ratings_table.c.account_id == accounts_table.c.id
        )
        rows = conn.execute(query if game is None else query.where(ratings_table.c.game == game)).all()
    return {r.name: (r.mu, r.sigma, r.games) for r in rows}


def final_ranks(client, gid):
    """Each seat's place in the finished game, by its game's rules (`ServedGame.placements`)."""
    live = client.portal.call(client.app.state.service.get, gid)
    return live.served.placements(live.played)


def all_anchors():
    return {(name, bot): mu for name, sg in SERVED.items() if sg.rating for bot, mu in sg.rating.anchors.items()}


def test_a_three_account_game_moves_the_ratings_as_the_library_computes(client, game):
    gid, tokens = account_game(client, THREE, ["ada", "bo", "cy"], game, **rated_length(game))
    play_to_the_end(client, gid, tokens, game=game)
    row = considered(client, gid)
    assert row.rated and row.reason is None
    ranks = final_ranks(client, gid)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[ranks[0], ranks[1], ranks[2]])
    got = stored_ratings(client)
    for seat, name in enumerate(["ada", "bo", "cy"]):
        assert got[name] == (expected[seat][0].mu, expected[seat][0].sigma, 1)
    board = client.get(f"/api/ratings?game={game.name}").json()  # the game's leaderboard
    assert [p["name"] for p in board["players"]] == sorted(
        got, key=lambda n: -(got[n][0] - 3 * got[n][1])
    )  # the best first, by mu - 3 sigma
    assert {(a["game"], a["bot"]) for a in board["anchors"]} == set(all_anchors())
    page = client.get(f"/ratings?game={game.name}")
    assert page.status_code == 200 and 'data-player="ada"' in page.text
    ada = client.get("/api/players/ADA").json()  # a name whatever its case
    (entry,) = ada["history"]
    assert entry["game"] == gid and entry["rank"] == ranks[0] and entry["players"] == 3
    assert entry["after"] == pytest.approx(got["ada"][0] - 3 * got["ada"][1], abs=0.01)
    assert f'data-game="{gid}"' in client.get("/players/ada").text
    # considered once: the sweep finds nothing more, the ratings stay
    assert client.portal.call(client.app.state.ratings.sweep) == 0
    assert client.portal.call(client.app.state.ratings.consider, gid) is False
    assert stored_ratings(client) == got


def test_bots_are_fixed_anchors(client, game):
    bots = anchor_bots(game)
    seats = [{"kind": "human", "name": "Ada"}, *({"kind": "bot", "bot": b} for b in bots)]
    gid, tokens = account_game(client, seats, ["ada"], game, **rated_length(game))
    play_to_the_end(client, gid, tokens, game=game)
    assert considered(client, gid).rated
    ranks = final_ranks(client, gid)
    model = PlackettLuce()
    anchors = game.served.rating.anchors
    teams = [[model.rating()], *([model.rating(mu=anchors[b], sigma=ANCHOR_SIGMA)] for b in bots)]
    expected = model.rate(teams, ranks=[ranks[0], ranks[1], ranks[2]])[0][0]
    assert stored_ratings(client) == {"ada": (expected.mu, expected.sigma, 1)}
    listed = client.get("/api/ratings").json()["anchors"]
    assert {(a["game"], a["bot"]): a["mu"] for a in listed} == all_anchors()  # unmoved
    page = client.get("/ratings")
    assert f'data-anchor="{game.served.rating.reference}" data-game="{game.name}"' in page.text


def test_a_game_with_a_guest_is_not_rated_and_is_considered_once(client, game):
    """A finished game is considered once, whichever game it is: recorded unrated with its
    reason (a game without ratings says so first), and the sweep finds nothing more."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Guest"}, {"kind": "bot", "bot": game.bot}]
    sign_up(client, "ada")
    made = client.post("/api/games", json=game.body(seats, seed=11, **game.short))
    assert made.status_code == 201, made.text
    data = made.json()
    client.cookies.clear()
    guest = client.post(
        f"/api/games/{data['id']}/claim", json={"invitation": invitation_code(data["seats"][1]["invitation"])}
    ).json()
    client.cookies.clear()
    play_to_the_end(client, data["id"], {0: data["token"], 1: guest["token"]}, game=game)
    row = considered(client, data["id"])
    assert not row.rated and row.reason == ("guest" if "ratings" in game.served.capabilities else "game")
    assert stored_ratings(client) == {}
    assert client.get(f"/api/ratings?game={game.name}").json()["players"] == []
    assert client.portal.call(client.app.state.ratings.sweep) == 0
    assert client.portal.call(client.app.state.ratings.consider, data["id"]) is False


def test_a_table_created_with_hints_is_not_rated_though_nobody_asked_for_one(client):
    """J&K only: hints are its capability (a Rome table cannot have them)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}]
    gid, tokens = account_game(client, seats, ["ada"], round_limit=1, hints=True)
    play_to_the_end(client, gid, tokens)
    row = considered(client, gid)
    assert not row.rated and row.reason == "hint"


def test_hints_and_the_rating_are_decided_at_the_tables_creation():
    """A table says at its creation whether it plays with hints (then it is not rated) or not;
    a table stored before that choice was kept is unrated once a seat asked for a hint."""
    seat = {"kind": "human", "name": "Ada"}
    asked = {**seat, "hints": 1}
    assert hinted_table({"hints": True}, [seat]) and not hinted_table({"hints": False}, [seat])
    assert hinted_table({}, [asked]) and not hinted_table({}, [seat])


def test_a_takeover_of_more_than_a_turn_unrates_the_game():
    away = {"away": True, "reason": "timer", "round": 2, "after": 10}
    assert not took_over_too_long({"history": [away, {"away": False, "round": 3, "after": 30}]}, 9)
    assert took_over_too_long({"history": [away, {"away": False, "round": 4, "after": 50}]}, 9)
    assert not took_over_too_long({"history": [away]}, 3)  # still away, the game ended the next round
    assert took_over_too_long({"history": [away]}, 4)
    revoked = {"event": "revoked", "round": 1, "after": 0}  # not a takeover event
    assert not took_over_too_long({"history": [revoked]}, 9)


def test_jk_places_follow_the_final_table():
    def row(seat, winner=False, out=None, total=0, settlements=0):
        return {"seat": seat, "winner": winner, "eliminated_round": out, "total": total, "settlements": settlements}

    table = {
        "players": [
            row(0, total=1, settlements=3),
            row(1, winner=True, total=3),
            row(2, out=4),
            row(3, out=2, total=2),
            row(4, total=1, settlements=3),
        ]
    }
    assert places_of(table) == {1: 1, 0: 2, 4: 2, 2: 4, 3: 5}


def test_a_scenario_game_and_an_abandoned_one_are_not_rated(game):
    """A game's own endings are the endings by the rules (the other game's is not one); its
    anchors are the bot seats a rated game may have; a game shorter than its minimum (J&K
    rounds, Rome turns) is not rated."""
    from judges.games.registry import GAMES

    options = {k: v for k, v in game.body([]).items() if k != "seats"}
    end = GAMES[game.name].endings[0]
    rating = game.served.rating
    seats = [{"kind": "bot", "bot": rating.reference}]
    assert check({**options, "position": {"round": 3}}, seats, end, rating.min_progress) == "scenario"
    assert check(options, seats, "abandoned", rating.min_progress) == "abandoned"
    other = "three_points" if game.name == "rome" else "era_ends"  # the other game's ending
    assert check(options, seats, other, rating.min_progress) == "abandoned"
    assert check(options, [{"kind": "bot", "bot": "mcts:16"}], end, rating.min_progress) == "bot"  # not an anchor
    assert check(options, seats, end, rating.min_progress, []) == "alone"  # long enough: no account, though
    assert check(options, seats, end, rating.min_progress - 1, []) == "short"


# --- ratings earned by playing ---------------------------------------------------------------------

ADA_AND_BOTS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]


def ada_and_bots(game):
    return [{"kind": "human", "name": "Ada"}, *({"kind": "bot", "bot": b} for b in anchor_bots(game))]


def test_a_game_shorter_than_the_minimum_is_not_rated(client):
    """J&K only, through a table: a round limit ends it early (Rome has none; both games'
    minimum: test_a_scenario_game_and_an_abandoned_one_are_not_rated)."""
    gid, tokens = account_game(client, ADA_AND_BOTS, ["ada"], round_limit=1)
    play_to_the_end(client, gid, tokens)
    row = considered(client, gid)
    assert not row.rated and row.reason == "short"
    assert stored_ratings(client) == {}


def test_a_seat_left_to_the_bot_and_taken_back_every_round_is_not_rated(client, game):
    """The farm: the player hands his seat to the takeover bot, comes back as each round (Rome:
    turn) begins (no takeover lasts into a second one) and leaves again; the bot plays nearly
    every one of his decisions. A seat played mostly by the bot is not rated."""
    gid, tokens = account_game(client, ada_and_bots(game), ["ada"], game, **rated_length(game))
    token = {"X-Seat-Token": tokens[0]}
    rt = client.app.state.service.rt
    rt.settings = rt.settings.model_copy(update={"bot_delay": 0.1})  # a round lasts seconds: each is noticed
    # a seat change at each round (turn) and after: more than the few a minute a player is allowed
    rates = client.app.state.rates
    client.app.state.rates = dataclasses.replace(rates, away=RateLimiter(1000, 1000.0, name="away"))
    seen_round = 0
    stop = time.time() + 240
    while time.time() < stop:
        view = client.get(f"/api/games/{gid}/view", headers=token).json()
        if view.get("ending"):
            break
        live = client.portal.call(client.app.state.service.get, gid)
        if not live.seats[0].get("away"):
            assert client.post(f"/api/games/{gid}/seat/away", headers=token).is_success
        elif live.played.progress > seen_round:
            seen_round = live.played.progress
            assert client.post(f"/api/games/{gid}/seat/back", headers=token).is_success
        time.sleep(0.02)
    row = considered(client, gid)
    assert not row.rated and row.reason == "takeover"
    assert stored_ratings(client) == {}


def test_at_a_table_of_accounts_the_takeover_bot_is_the_reference_bot(client, game):
    """The table chose the strongest takeover (MCTS); its seats all accounts', its game may be
    rated: the seat left is played by the game's reference player (J&K greedy, Rome neutral)."""
    gid, tokens = account_game(client, ada_and_bots(game), ["ada"], game, takeover_bot=game.search_bot)
    live = client.portal.call(client.app.state.service.get, gid)
    assert live.takeover_bot == game.search_bot
    assert client.post(f"/api/games/{gid}/seat/away", headers={"X-Seat-Token": tokens[0]}).is_success
    stop = time.time() + 60
    while 0 not in live.bots:
        assert time.time() < stop, "the takeover bot never played"
        time.sleep(0.02)
    assert live.bots[0].name == game.served.rating.reference


# --- one rating per game --------------------------------------------------------------------------


def expected_rating(game, bots, ranks, before):
    """Ada's (mu, sigma) after a game at seat 0 against `bots` (the game's anchors), from `before`."""
    model = PlackettLuce()
    anchors = game.served.rating.anchors
    teams = [[model.rating(mu=before[0], sigma=before[1])]]
    teams += [[model.rating(mu=anchors[b], sigma=ANCHOR_SIGMA)] for b in bots]
    after = model.rate(teams, ranks=[float(r) for r in ranks])[0][0]
    return after.mu, after.sigma


def test_a_game_moves_its_own_games_rating_only(client):
    """A player has one rating per game (docs/accounts.md "Ratings"): a Rome game starts Ada's
    Rome rating from a new player's and leaves her J&K rating as it was; a J&K game then moves
    her J&K rating from where it was and leaves her Rome rating. Each game's leaderboard lists
    its own players only; the player's record shows each game's rating."""
    from games_support import DRIVERS

    judges, rome = DRIVERS["judges"], DRIVERS["rome"]
    fresh = (PlackettLuce().mu, PlackettLuce().sigma)

    def ada_plays(game, returning):
        gid, tokens = account_game(client, ada_and_bots(game), ["ada"], game, returning, **rated_length(game))
        play_to_the_end(client, gid, tokens, game=game)
        assert considered(client, gid).rated
        return expected_rating(game, anchor_bots(game), final_ranks(client, gid), before)

    before = fresh
    jk = ada_plays(judges, returning=False)
    assert stored_ratings(client, "judges") == {"ada": (*jk, 1)}
    before = fresh  # her first Rome game: a new player's rating, whatever her J&K one
    in_rome = ada_plays(rome, returning=True)
    assert stored_ratings(client, "rome") == {"ada": (*in_rome, 1)}
    assert stored_ratings(client, "judges") == {"ada": (*jk, 1)}  # unmoved by Rome
    before = jk
    jk_again = ada_plays(judges, returning=True)
    assert stored_ratings(client, "judges") == {"ada": (*jk_again, 2)}
    assert stored_ratings(client, "rome") == {"ada": (*in_rome, 1)}  # unmoved by J&K

    gid, tokens = account_game(client, ada_and_bots(rome), ["bo"], rome)  # Bo plays Rome only
    play_to_the_end(client, gid, tokens, game=rome)
    assert considered(client, gid).rated
    default = client.get("/api/ratings").json()
    assert default["game"] == "judges" and [p["name"] for p in default["players"]] == ["ada"]
    assert [p["name"] for p in client.get("/api/ratings?game=judges").json()["players"]] == ["ada"]
    board = client.get("/api/ratings?game=rome").json()
    assert board["game"] == "rome" and sorted(p["name"] for p in board["players"]) == ["ada", "bo"]
    ada = next(p for p in board["players"] if p["name"] == "ada")
    assert (ada["mu"], ada["games"]) == (round(in_rome[0], 3), 1)
    page = client.get("/ratings?game=rome&lang=es").text
    assert 'data-player="bo"' in page and 'aria-current="page">La República de Roma<' in page
    assert 'data-player="bo"' not in client.get("/ratings").text

    record = client.get("/api/players/ada").json()
    assert [(r["game"], r["games"]) for r in record["ratings"]] == [("judges", 2), ("rome", 1)]
    assert record["mu"] == round(jk_again[0], 3) and record["games"] == 2  # the default game's
    assert [h["game_name"] for h in record["history"]].count("rome") == 1
    assert 'id="player-ratings"' in client.get("/players/ada").text
    assert [r["game"] for r in client.get("/api/players/bo").json()["ratings"]] == ["rome"]
    # the lobby shows at each seat the account's rating in its table's game
    shown = {
        (row.get("game", "judges"), seat["account"]): seat["rating"]
        for row in client.get("/api/lobby").json()["finished"]
        for seat in row["seats"]
        if "account" in seat
    }
    assert shown[("rome", "ada")] == round(in_rome[0] - 3 * in_rome[1], 1)
    assert shown[("judges", "ada")] == round(jk_again[0] - 3 * jk_again[1], 1)


def test_the_leaderboard_of_a_game_the_server_does_not_host_is_refused(client):
    for path in ("/api/ratings?game=chess", "/ratings?game=chess"):
        answer = client.get(path)
        assert answer.status_code == 422, path
    body = client.get("/api/ratings?game=chess").json()
    assert body["key"] == "error.unknown_game" and body["params"]["game"] == "chess"
