"""Abuse of the game server's API, in process (no network):

(a) schemathesis fuzzes every operation of the OpenAPI schema: no answer is ever a 5xx;
(b) hypothesis posts malformed and illegal actions: each is refused with a 4xx whose JSON body
    carries a message, and the game (views and the whole hidden state) is unchanged;
(c) hidden information: no view, websocket message or API answer shows another seat's hand,
    the deck's order, the dice's state, or the seed they all follow from;
(d) a seat's token acts for no other seat and in no other game;
(e) two simultaneous submissions of one decision are applied exactly once.

Sizes: JUDGES_ABUSE_EXAMPLES (hypothesis examples per abuse test, default 150),
JUDGES_SCHEMATHESIS_EXAMPLES (per operation, default 50) and JUDGES_HIDDEN_ROUNDS (rounds of
the hidden-information game, default 3). docs/reliability.md has the long on-demand settings.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import random
import re
import shutil
import tempfile
import threading
import uuid

import msgspec
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games_support import DRIVERS, GAME_NAMES
from judges.bots import make_bot
from judges.engine import DEFAULT_RULES, Game, Options, action_from_dict
from judges.engine.actions import ACTION_TYPES
from judges.engine.dice import seed_to_state
from judges.engine.errors import RuleError
from judges.games.registry import SERVED
from judges.rome.engine.actions import ACTION_TYPES as ROME_ACTION_TYPES
from judges.server.app import create_app
from judges.server.limits import Limits
from judges.server.store import GameStore
from judges.server.table.updates import apply_update
from judges.world import load_world
from seats_support import seat_tokens

ABUSE_EXAMPLES = int(os.environ.get("JUDGES_ABUSE_EXAMPLES", "150"))
SCHEMATHESIS_EXAMPLES = int(os.environ.get("JUDGES_SCHEMATHESIS_EXAMPLES", "50"))
HIDDEN_ROUNDS = int(os.environ.get("JUDGES_HIDDEN_ROUNDS", "3"))
FOUR_HUMANS = [{"kind": "human"}] * 4
WORLD = load_world()


# --- helpers ------------------------------------------------------------------------------

# These tests create many games from one address: creation's rate limit is tested on its own
# (tests/server/test_seats_and_limits.py).
MANY_GAMES = Limits(create_burst=100_000)


def create(client, seats=FOUR_HUMANS, seed: int | None = 5, game=None, **extra) -> tuple[str, list[str | None]]:
    """A table (`game`: the game's driver, tests/games_support.py; None: Judges & Kings)."""
    body = {"seats": seats, "seed": seed, **extra}
    if game is not None:
        body = game.body(game.with_game(seats), seed=seed, **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()["id"], seat_tokens(client, response.json())


def view(client, game_id: str, token: str) -> dict:
    response = client.get(f"/api/games/{game_id}/view", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    return response.json()


def post(client, game_id: str, token: str, action, client_action_id: str | None = None):
    body = {"action": action}
    if client_action_id is not None:
        body["client_action_id"] = client_action_id
    return client.post(f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json=body)


def hurried(v: dict, game=DRIVERS["judges"]) -> dict:
    """End the turn when that is legal, else the first legal action (the game's driver's)."""
    return game.hurried(v)


def play_humans(client, game_id: str, tokens: list[str], actions: int, game=DRIVERS["judges"]) -> None:
    """Plays `actions` hurried actions in a game of human seats only."""
    for _ in range(actions):
        v = view(client, game_id, tokens[0])
        if v["ending"]:
            return
        seat = v["waiting_for"][0]
        response = post(client, game_id, tokens[seat], hurried(view(client, game_id, tokens[seat]), game))
        assert response.status_code == 200, response.text


def assert_refusal(response, request_text: str) -> dict:
    assert 400 <= response.status_code < 500, (
        f"{request_text} was answered {response.status_code}, not a 4xx: {response.text[:500]}"
    )
    try:
        body = response.json()
    except ValueError:
        raise AssertionError(
            f"{request_text}: the {response.status_code} answer is not JSON: {response.text[:300]!r}"
        ) from None
    assert isinstance(body, dict) and isinstance(body.get("message"), str) and body["message"], (
        f"{request_text}: the {response.status_code} answer has no message: {body!r}"
    )
    return body


# --- (a) schemathesis ---------------------------------------------------------------------
# The schema is read from the application itself (in process). The app lives for the whole
# test session on a temporary SQLite database, on schemathesis's own event-loop thread.

_SCHEMA_DIR = tempfile.mkdtemp(prefix="judges-schemathesis-")
atexit.register(shutil.rmtree, _SCHEMA_DIR, True)
SCHEMA_APP = create_app(f"sqlite:///{_SCHEMA_DIR}/games.db", allow_seeds=True, limits=MANY_GAMES)
schema = schemathesis.openapi.from_asgi("/openapi.json", SCHEMA_APP)


@pytest.fixture(scope="module", autouse=True)
def stop_schema_app_tasks():
    """Games the fuzzer created may have bots or turn timers running on schemathesis's event
    loop: cancel them when this module is done, so they cost the rest of the session nothing."""
    yield
    for live in list(SCHEMA_APP.state.service.games.values()):
        for value in vars(live).values():
            if isinstance(value, asyncio.Task) and not value.done():
                value.get_loop().call_soon_threadsafe(value.cancel)


@pytest.fixture(scope="module")
def schema_game() -> tuple[str, list[str]]:
    """A real game of the schemathesis app, so that fuzzed requests also reach a live game
    with a valid token (most random ids and tokens stop at 404 / 403)."""
    from schemathesis.python.asgi import get_client

    with get_client(SCHEMA_APP) as client:
        response = client.post("/api/games", json={"seats": FOUR_HUMANS, "seed": 3})
        assert response.status_code == 201, response.text
        tokens = seat_tokens(client, response.json())
    return response.json()["id"], tokens


@schema.parametrize()
@schema.given(use_real_game=st.booleans(), seat=st.integers(0, 3))
@settings(max_examples=SCHEMATHESIS_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_fuzzed_requests_never_get_a_server_error(case, use_real_game, seat, schema_game):
    game_id, tokens = schema_game
    if use_real_game:
        if case.path_parameters and "game_id" in case.path_parameters:
            case.path_parameters["game_id"] = game_id
        if case.operation.path.startswith("/api/games/"):
            case.headers = {**(case.headers or {}), "X-Seat-Token": tokens[seat]}
    response = case.call()
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} query={case.query!r} headers={case.headers!r} "
        f"body={case.body!r} was answered {response.status_code}: {response.text[:500]}"
    )


# --- a humans-only game for the refusal tests ---------------------------------------------------


@pytest.fixture(scope="module")
def app_client(tmp_path_factory):
    db = tmp_path_factory.mktemp("abuse") / "games.db"
    with TestClient(
        create_app(f"sqlite:///{db}", allow_seeds=True, limits=MANY_GAMES), raise_server_exceptions=False
    ) as client:
        yield client


@pytest.fixture(scope="module", params=GAME_NAMES)
def still_game(app_client, request) -> tuple[str, list[str], str]:
    """Four human seats of each game, some actions in: nothing moves unless a test submits an
    action. (id, credentials, the game's name)"""
    game = DRIVERS[request.param]
    game_id, tokens = create(app_client, seed=21, game=game)
    play_humans(app_client, game_id, tokens, 40, game)
    return game_id, tokens, game.name


def live_of(client, game_id: str):
    return client.app.state.service.games[game_id]


def fingerprint(client, game_id: str, tokens: list[str]) -> dict:
    """Everything a refused action must leave alone: every seat's view, and the whole engine
    state (hidden parts included: the deck, the hands, the dice)."""
    live = live_of(client, game_id)
    # server_time is the clock's reading when the view was sent (the screen's clock), not the game
    views = [{k: v for k, v in view(client, game_id, t).items() if k != "server_time"} for t in tokens]
    return {
        "views": views,
        "state": msgspec.json.encode(live.game.state),
        "log": len(live.game.log),
        "notifications": len(getattr(live.game, "notifications", ())),
        "client_ids": dict(live.client_ids),
    }


def assert_unchanged(before: dict, after: dict, what: str) -> None:
    assert after["log"] == before["log"], f"{what} was refused but the log grew"
    assert after["state"] == before["state"], f"{what} was refused but the engine state changed"
    assert after["notifications"] == before["notifications"], f"{what} was refused but a notification was sent"
    assert after["client_ids"] == before["client_ids"], f"{what} was refused but its client id was recorded"
    for seat, (b, a) in enumerate(zip(before["views"], after["views"])):
        assert a == b, f"{what} was refused but seat {seat}'s view changed"


# --- (b) malformed and illegal actions -----------------------------------------------------------

JSON_LEAF = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
NAMES = sorted(
    {s.name for s in WORLD.settlements}
    | {r.name for r in WORLD.regions}
    | set(DEFAULT_RULES.deck)
    | set(DEFAULT_RULES.costs)
    | {"plain", "desert", "mountains", "troop", ""}
)
INTS = st.integers(-3, 40) | st.integers() | st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**40])
STRS = st.sampled_from(NAMES) | st.text(max_size=20)
TAGS = [cls.__struct_config__.tag for cls in (*ACTION_TYPES, *ROME_ACTION_TYPES)]
MISSING = object()


def field_values(annotation) -> st.SearchStrategy:
    text = str(annotation)
    if "bool" in text:
        good = st.booleans()
    elif "list" in text:
        good = st.lists(STRS, max_size=6)
    elif "int" in text:
        good = INTS
    else:
        good = STRS
    if "None" in text:
        good = good | st.none()
    return st.one_of(good, good, JSON)  # mostly the right type, sometimes anything


@st.composite
def typed_actions(draw, types=ACTION_TYPES) -> dict:
    """An action of a real type (of `types`) whose fields are random: in range, out of range,
    wrong types, missing, extra."""
    cls = draw(st.sampled_from(types))
    action = {"type": cls.__struct_config__.tag}
    for field in msgspec.structs.fields(cls):
        if field.name == "player":
            continue
        if draw(st.integers(0, 9)) == 0:
            continue  # missing
        action[field.name] = draw(field_values(field.type))
    if draw(st.integers(0, 5)) == 0:
        action[draw(st.text(max_size=6))] = draw(JSON)
    player = draw(st.one_of(st.just(MISSING), st.integers(-1, 6), INTS, JSON))
    if player is not MISSING:
        action["player"] = player
    return action


ACTIONS = st.one_of(
    typed_actions(),
    st.dictionaries(st.text(max_size=10), JSON, max_size=5),  # any JSON object
    st.builds(
        lambda tag, extra: {"type": tag, **extra},  # an unknown type
        st.text(max_size=15).filter(lambda t: t not in TAGS),
        st.dictionaries(st.text(max_size=6), JSON, max_size=3),
    ),
)
#: the actions posted at each game's table: its own types' (J&K's: ACTIONS)
ACTIONS_OF = {
    "judges": ACTIONS,
    "rome": st.one_of(
        typed_actions(ROME_ACTION_TYPES),
        st.dictionaries(st.text(max_size=10), JSON, max_size=5),
        st.builds(
            lambda tag, extra: {"type": tag, **extra},
            st.text(max_size=15).filter(lambda t: t not in TAGS),
            st.dictionaries(st.text(max_size=6), JSON, max_size=3),
        ),
    ),
}


def is_legal(game: Game, seat: int, action, name: str = "judges") -> bool:
    """Whether the engine lists this action (as the server would read it) among the seat's
    legal actions: only such actions may be accepted."""
    if not isinstance(action, dict):
        return False
    read = action_from_dict if name == "judges" else DRIVERS[name].codec().from_dict
    try:
        parsed = read({**action, "player": action.get("player", seat)})
    except (RuleError, TypeError, ValueError):
        return False
    return parsed.player == seat and parsed in list(game.legal_actions(seat))


@settings(max_examples=ABUSE_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seat=st.integers(0, 3), client_action_id=st.none() | st.text(max_size=12))
def test_malformed_and_illegal_actions_are_refused_and_change_nothing(
    app_client, still_game, data, seat, client_action_id
):
    game_id, tokens, name = still_game
    action = data.draw(ACTIONS_OF[name], label="action")
    live = live_of(app_client, game_id)
    assume(not is_legal(live.game, seat, action, name))
    before = fingerprint(app_client, game_id, tokens)
    cid = None if client_action_id is None else f"abuse-{client_action_id}"
    response = post(app_client, game_id, tokens[seat], action, cid)
    what = f"seat {seat} posting {json.dumps(action)[:300]}"
    assert_refusal(response, what)
    assert_unchanged(before, fingerprint(app_client, game_id, tokens), what)


BODIES = st.one_of(
    st.binary(max_size=40),  # not JSON at all
    JSON.filter(lambda v: not isinstance(v, dict)).map(json.dumps),  # JSON, not an object
    st.dictionaries(st.text(max_size=8), JSON, max_size=3).map(json.dumps),  # an object without "action"
    JSON.filter(lambda v: not isinstance(v, dict)).map(lambda v: json.dumps({"action": v})),  # action not an object
    st.builds(
        lambda cid: json.dumps({"action": {"type": "end_turn"}, "client_action_id": cid}),  # bad client id
        JSON.filter(lambda v: v is not None and not isinstance(v, str)) | st.text(min_size=101, max_size=200),
    ),
)


@settings(max_examples=ABUSE_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES, seat=st.integers(0, 3))
def test_malformed_request_bodies_are_refused_and_change_nothing(app_client, still_game, body, seat):
    game_id, tokens, _ = still_game
    before = fingerprint(app_client, game_id, tokens)
    response = app_client.post(
        f"/api/games/{game_id}/actions",
        content=body,
        headers={"X-Seat-Token": tokens[seat], "content-type": "application/json"},
    )
    what = f"seat {seat} posting the body {body[:200]!r}"
    assert_refusal(response, what)
    assert_unchanged(before, fingerprint(app_client, game_id, tokens), what)


# --- game creation: extreme numbers, odd names, bot specs ----------------------------------------


@settings(max_examples=ABUSE_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.none() | INTS,
    round_limit=st.none() | st.none() | INTS,
    wave_pairs=st.integers(1, DEFAULT_RULES.max_wave_pairs) | st.integers(1, DEFAULT_RULES.max_wave_pairs) | INTS,
    players=st.integers(DEFAULT_RULES.min_players, DEFAULT_RULES.max_players) | st.integers(1, 7),
    name=st.none() | st.text(max_size=60),
    language=st.text(max_size=12),
)
def test_game_creation_never_gets_a_server_error(
    app_client, seed, round_limit, wave_pairs, players, name, language, game
):
    body = game.body(
        [{"kind": "human", "name": name, "language": language}] * players,
        seed=seed,
        round_limit=round_limit,
        wave_pairs=wave_pairs,
    )
    response = app_client.post("/api/games", json=body)
    what = f"POST /api/games {json.dumps(body)[:400]}"
    if response.status_code != 201:
        assert_refusal(response, what)


def first_owed_is_not(seat: int, players: int, name: str = "judges") -> int:
    """A seed whose game starts waiting for somebody other than `seat` (so that a bot in that
    seat is not woken by creating the game)."""
    for seed in range(100):
        if name == "judges":
            if seat not in Game.new(Options(players=players, seed=seed)).waiting_for():
                return seed
        elif seat not in SERVED[name].new_table(players, seed, None, None).to_move():
            return seed
    raise AssertionError("no such seed")  # pragma: no cover


BAD_BOT_SPECS = ["greedy:5", "random:1", "mcts:0", "mcts:x", "mcts:10:2:3:1", "mcts:10:2:0", "mcts:-4"]
#: and a bot of the other game, and the settings of a bot that takes none
BAD_BOT_SPECS_OF = {"judges": [*BAD_BOT_SPECS, "neutral"], "rome": [*BAD_BOT_SPECS, "greedy", "neutral:2"]}


def test_a_bot_spec_the_server_cannot_play_is_refused_at_creation(app_client, game):
    """A seat whose bot cannot be built would never move: the game would wait for it for ever."""
    seed = first_owed_is_not(2, 3, game.name)  # the bot seat owes nothing yet: nothing runs in this test
    accepted = {}
    for spec in BAD_BOT_SPECS_OF[game.name]:
        with pytest.raises(ValueError):
            make_bot(spec, 0) if game.name == "judges" else game.served.make_bot(spec, 0)
        response = app_client.post(
            "/api/games",
            json=game.body([{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": spec}], seed=seed),
        )
        if response.status_code == 422:
            assert_refusal(response, f"a bot seat {spec!r}")
        else:
            accepted[spec] = response.status_code
    assert not accepted, (
        f"POST /api/games accepted bot seats whose bot make_bot() cannot build: {accepted} (expected 422): "
        f"the seat's bot task dies with ValueError when it is first owed, and the game never goes on"
    )


def test_a_bot_search_budget_over_the_server_limit_is_refused(app_client, game):
    """A seat's search costs rollouts x horizon rounds of CPU on the shared bot threads."""
    from judges.server.table.service import MAX_MCTS_BUDGET

    seed = first_owed_is_not(2, 3, game.name)

    def seats(spec: str) -> list[dict[str, str]]:
        return [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": spec}]

    over = f"mcts:{MAX_MCTS_BUDGET // 2 + 1}:2"
    response = app_client.post("/api/games", json=game.body(seats(over), seed=seed))
    assert response.status_code == 422
    assert_refusal(response, f"a bot seat {over!r}")
    within = f"mcts:{MAX_MCTS_BUDGET // 2}:2"
    assert app_client.post("/api/games", json=game.body(seats(within), seed=seed)).status_code in (200, 201)


# --- (c) hidden information ------------------------------------------------------------------

HIDDEN_SEED = 1_234_567_891  # large enough that finding its digits anywhere is no coincidence


def secrets_by_seq(store_url: str, game_id: str, upto: int, game=DRIVERS["judges"]) -> tuple[list[dict], set[str]]:
    """Replays the stored log: for each seq, the deck and the hands (Rome: and the faction
    treasuries); and every dice state the game went through (any of them gives away every later
    die and shuffle)."""
    stored = GameStore(store_url).load(game_id, all_actions=True)
    engine = game.engine(stored.options)
    by_seq = []
    # (the seed itself is shown by every view: test_the_view_does_not_give_away_the_seed...)
    rngs = {str(seed_to_state(stored.seed)), str(engine.state.rng)}
    records = stored.all_actions[:upto]
    for i in range(len(records) + 1):
        by_seq.append(game.secrets(engine))
        rngs.add(str(engine.state.rng))
        if i < len(records):
            game.apply(engine, records[i]["action"])
    return by_seq, rngs


def assert_hides_secrets(
    doc: dict, seat: int | None, by_seq: list[dict], rngs: set[str], where: str, game=DRIVERS["judges"]
) -> None:
    """`seat` None: a spectator's."""
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    numbers = set(re.findall(r"\d+", text))
    leaked = numbers & rngs
    assert not leaked, f"{where}: shows {sorted(leaked)}, a state of the dice"
    if "state" in doc:
        assert not game.leaks(doc, seat), f"{where}: shows {game.leaks(doc, seat)}"
    seq = doc.get("seq")
    if seq is not None and seq < len(by_seq):
        deck = by_seq[seq]["deck"]
        if len(deck) >= 2:
            assert json.dumps(deck, separators=(",", ":")) not in text, f"{where}: shows the deck's order"
            assert json.dumps(deck[::-1], separators=(",", ":")) not in text, f"{where}: shows the deck's order"
        if "state" in doc and seat is not None:
            wrong = game.shows_truth(doc, seat, by_seq[seq])
            assert not wrong, f"{where}: wrong {wrong}"


@pytest.fixture
def bot_client(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    url = f"sqlite:///{tmp_path / 'hidden.db'}"
    with TestClient(create_app(url, allow_seeds=True, limits=MANY_GAMES), raise_server_exceptions=False) as client:
        yield client, url


def wait_for_humans(client, game_id: str, tokens: list[str | None], timeout: float = 30.0) -> dict:
    """Bots play in the background: waits until only human seats are owed (or the end)."""
    import time

    humans = {i for i, t in enumerate(tokens) if t}
    first = next(t for t in tokens if t)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = view(client, game_id, first)
        if v["ending"] or (v["waiting_for"] and set(v["waiting_for"]) <= humans):
            return v
        time.sleep(0.02)
    raise AssertionError("the bots never handed the game back to the humans")


@pytest.mark.timeout(240)
def test_no_answer_or_message_shows_hidden_information(bot_client, game):
    client, url = bot_client
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    game_id, tokens = create(client, seats=seats, seed=HIDDEN_SEED, game=game)
    humans = [i for i, t in enumerate(tokens) if t]
    answers: list[tuple[int, str, dict]] = []  # (seat, where, JSON)
    sockets = {
        seat: client.websocket_connect(f"/ws/games/{game_id}", headers={"X-Seat-Token": tokens[seat]})
        for seat in humans
    }
    # a second tab, in Spanish; and a spectator
    extra = client.websocket_connect(f"/ws/games/{game_id}?lang=es", headers={"X-Seat-Token": tokens[0]})
    watching = client.websocket_connect(f"/ws/games/{game_id}/spectate")
    messages: list[tuple[int | None, dict]] = []
    rng = random.Random(HIDDEN_SEED)
    with sockets[humans[0]] as ws0, sockets[humans[1]] as ws1, extra as ws_es, watching as ws_spectator:
        streams = [(humans[0], ws0), (humans[1], ws1), (humans[0], ws_es), (None, ws_spectator)]
        v = wait_for_humans(client, game_id, tokens)
        refused = 0
        while not v["ending"] and game.progress_of(v) <= HIDDEN_ROUNDS:
            for seat in v["waiting_for"]:
                mine = view(client, game_id, tokens[seat])
                answers.append((seat, "GET view", mine))
                if seat not in mine["waiting_for"]:
                    continue
                # J&K: hurried; Rome: sometimes any legal action (transfers to the faction's
                # treasury, bribes, ballots, gifts of cards: its secrets change)
                response = post(client, game_id, tokens[seat], game.pick(mine, rng, game.secret_hurry))
                assert response.status_code == 200, response.text
                answers.append((seat, "POST action", response.json()))
                if refused < 10:  # refusals answer in words: they must not reveal anything either
                    wrong = post(client, game_id, tokens[seat], {"type": "discard", "card": "no-such-card"})
                    answers.append((seat, f"refusal {wrong.status_code}", wrong.json()))
                    refused += 1
            v = wait_for_humans(client, game_id, tokens)
        final_seq = v["seq"]
        for seat, ws in streams:  # every message up to the last action (one per action, in order)
            current = None
            while True:
                # the view each message makes (a full view, then deltas: docs/web.md)
                current = apply_update(current, ws.receive_json())
                assert current is not None, "a delta that does not follow the socket's view"
                messages.append((seat, current))
                if current["seq"] >= final_seq:
                    break
    assert game.progress_of(v) > HIDDEN_ROUNDS or v["ending"], "the game did not run the rounds asked for"
    for seat in humans:
        answers.append((seat, "final view", view(client, game_id, tokens[seat])))
    by_seq, rngs = secrets_by_seq(url, game_id, final_seq, game)
    assert len(messages) > final_seq  # the first message, then one per action, per socket
    for seat, where, doc in answers:
        assert_hides_secrets(doc, seat, by_seq, rngs, f"seat {seat}, {where}", game)
    for seat, message in messages:
        where = f"seat {seat}, websocket message at seq {message['seq']}"
        assert_hides_secrets(message, seat, by_seq, rngs, where, game)


def test_the_view_does_not_give_away_the_seed_that_deals_every_hand(bot_client, game):
    """The seed decides the setup shuffle, every hand dealt and every die: a view that shows it
    lets a player rebuild the deck's order and the other seats' hands."""
    client, _ = bot_client
    game_id, tokens = create(client, seed=None, game=game)
    v = view(client, game_id, tokens[0])
    live = live_of(client, game_id)
    real = live.game.state
    if game.name != "judges":  # the dice's seed and key (the driver's leak check), in no form
        assert not game.leaks(v, 0)
        assert real.options.key is None or real.options.key not in json.dumps(v)
        assert real.options.seed < 10**6 or str(real.options.seed) not in json.dumps(v)
        return
    options = v["state"].get("options", {})
    assert options.get("seed", 0) == 0 and (real.options.seed < 10**6 or str(real.options.seed) not in json.dumps(v)), (
        f"the view of seat 0 shows options.seed = {options.get('seed')}: "
        f"Game.new(Options(**view['state']['options'])) rebuilds the deck "
        f"({Game.new(Options(**options)).state.deck == real.deck}) and every seat's hand "
        f"({[p.hand for p in Game.new(Options(**options)).state.players] == [p.hand for p in real.players]})"
    )


# --- (d) tokens ------------------------------------------------------------------------------


def test_a_token_acts_for_no_other_seat_and_in_no_other_game(app_client, game):
    game_a, tokens_a = create(app_client, seed=31, game=game)
    game_b, tokens_b = create(app_client, seed=32, game=game)
    va = view(app_client, game_a, tokens_a[0])
    owed = va["waiting_for"][0]
    other = (owed + 1) % 4
    before_a = fingerprint(app_client, game_a, tokens_a)
    before_b = fingerprint(app_client, game_b, tokens_b)
    legal = hurried(view(app_client, game_a, tokens_a[owed]), game)
    # another seat's token, naming the owed seat as the player
    response = post(app_client, game_a, tokens_a[other], {**legal, "player": owed})
    assert response.status_code == 403, response.text
    assert_refusal(response, "a seat's token acting for another seat")
    # the owed seat's token of game A, in game B (where that seat is also owed)
    vb = view(app_client, game_b, tokens_b[0])
    for token in tokens_a:
        response = post(
            app_client, game_b, token, hurried(view(app_client, game_b, tokens_b[vb["waiting_for"][0]]), game)
        )
        assert response.status_code == 403, response.text
        assert_refusal(response, "a token of game A in game B")
        assert app_client.get(f"/api/games/{game_b}/view", headers={"X-Seat-Token": token}).status_code == 403
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as refused:
        with app_client.websocket_connect(f"/ws/games/{game_b}", headers={"X-Seat-Token": tokens_a[0]}) as ws:
            ws.receive_json()
    assert refused.value.code == 4403
    assert_unchanged(before_a, fingerprint(app_client, game_a, tokens_a), "acting for another seat")
    assert_unchanged(before_b, fingerprint(app_client, game_b, tokens_b), "acting in another game")


# --- (e) simultaneous submissions --------------------------------------------------------------


def race(client, game_id: str, token: str, bodies: list[dict]) -> list:
    """Posts the bodies at the same moment from as many threads."""
    barrier = threading.Barrier(len(bodies))
    results: list = [None] * len(bodies)

    def send(i: int) -> None:
        barrier.wait()
        results[i] = client.post(f"/api/games/{game_id}/actions", headers={"X-Seat-Token": token}, json=bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_simultaneous_submissions_of_one_decision_are_applied_once(app_client, game):
    game_id, tokens = create(app_client, seed=41, game=game)
    trials = 0
    while trials < 12:
        v = view(app_client, game_id, tokens[0])
        assert not v["ending"]
        seat = v["waiting_for"][0]
        live = live_of(app_client, game_id)
        probe = game.wrap(live.game).clone()
        # J&K: an end of turn; Rome: the hurried answer the seat owes
        action = {**hurried(view(app_client, game_id, tokens[seat]), game), "player": seat}
        if game.name == "judges" and action != {"type": "end_turn", "player": seat}:
            play_humans(app_client, game_id, tokens, 1)  # not a turn: answer it and go on
            continue
        probe.apply(game.codec().from_dict(action))
        if seat in probe.to_move():  # the same seat owes again: a second such answer could be legal
            play_humans(app_client, game_id, tokens, 1, game)
            continue
        trials += 1
        start = v["seq"]
        same_id = trials % 3 == 0  # also: the same client id twice at once
        ids = [f"race-{trials}-a", f"race-{trials}-a" if same_id else f"race-{trials}-b"]
        results = race(
            app_client,
            game_id,
            tokens[seat],
            [{"action": action, "client_action_id": cid} for cid in ids],
        )
        statuses = sorted(r.status_code for r in results)
        after = view(app_client, game_id, tokens[0])
        assert after["seq"] == start + 1, f"trial {trials}: seq went {start} -> {after['seq']} ({statuses})"
        applied = [r for r in results if r.status_code == 200 and not r.json()["duplicate"]]
        assert len(applied) == 1, f"trial {trials}: {[(r.status_code, r.text) for r in results]}"
        assert applied[0].json()["seq"] == start + 1
        other = next(r for r in results if r is not applied[0])
        if same_id:
            assert other.status_code == 200 and other.json() == {"seq": start + 1, "duplicate": True}, other.text
        else:
            assert other.status_code == 422 or (other.status_code == 200 and other.json()["duplicate"]), other.text
            if other.status_code != 200:
                assert_refusal(other, f"the second of two simultaneous {action['type']}s")
        stored = GameStore(app_client.app.state.service.store.url).load(game_id, all_actions=True)
        assert stored.action_count == start + 1
        assert stored.all_actions[start]["action"] == action


def test_replayed_client_ids_stay_duplicates_under_concurrency(app_client, game):
    """Eight threads post the same client id at once: one application, seven duplicates."""
    game_id, tokens = create(app_client, seed=43, game=game)
    v = view(app_client, game_id, tokens[0])
    seat = v["waiting_for"][0]
    action = hurried(view(app_client, game_id, tokens[seat]), game)
    cid = f"same-{uuid.uuid4()}"
    results = race(app_client, game_id, tokens[seat], [{"action": action, "client_action_id": cid}] * 8)
    assert all(r.status_code == 200 for r in results), [r.text for r in results]
    assert sorted(r.json()["duplicate"] for r in results) == [False] + [True] * 7
    assert {r.json()["seq"] for r in results} == {v["seq"] + 1}
    assert view(app_client, game_id, tokens[0])["seq"] == v["seq"] + 1
