"""One wire view: what a seat receives is a `wire.View` built by one function
(server/games/judges/wire.py) from the engine's `PlayerView`; a spectator's is the view of no seat; the live
updates send its fields, each shared one encoded once; its JSON Schema is published."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgspec
from fastapi.testclient import TestClient

from judges.engine.view import NOBODY, player_view, seat_view
from judges.server.app import create_app
from judges.server.games.judges import wire
from judges.server.store import GameStore
from judges.server.table import screen, updates
from judges.server.table.service import GameService, LiveGame

SERVER = Path(wire.__file__).parents[2]  # src/judges/server
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def played(tmp_path, check) -> None:
    """A four-seat table with a socket per seat, played at random for 150 actions; `check(service,
    live, step, messages)` after each push, `messages` by seat (decoded)."""

    async def scenario() -> None:
        store = GameStore(f"sqlite:///{tmp_path / 'games.db'}")
        store.migrate()
        service = GameService(store)
        live, _, _ = await service.create(SEATS, seed=11)
        subscribed = [service.subscribe(live, seat, "en") for seat in range(4)]
        subs = [sub for sub, _ in subscribed]
        check(service, live, -1, [msgspec.json.decode(first) for _, first in subscribed if first is not None])
        rng = random.Random(5)
        for step in range(150):
            owing = live.game.waiting_for()
            if not owing:
                break
            live.game.apply(rng.choice(live.game.legal_actions(owing[0])))
            service.hub.push(live)
            check(service, live, step, [msgspec.json.decode(sub.queue.get_nowait()) for sub in subs])
        await service.stop()

    with ThreadPoolExecutor(1) as thread:  # the browser tests' Playwright may hold this thread's loop
        thread.submit(asyncio.run, scenario()).result()


def test_every_message_a_seat_receives_is_a_wire_view_and_the_deltas_keep_it_whole(tmp_path):
    views: dict[int, dict] = {}

    def check(service: GameService, live: LiveGame, step: int, messages: list[dict]) -> None:
        for seat, message in enumerate(messages):
            applied = updates.apply_update(views.get(seat), message)
            assert applied is not None, message
            views[seat] = applied
            # the view as the deltas built it is a View (typed: the schema's) ...
            typed = msgspec.convert(applied, wire.View, str_keys=True)
            assert typed.seat == seat and typed.seq == len(live.game.log)
            # ... and the whole view built anew, field for field (the server's clock went on)
            fresh, kept = service.payload(live, seat, "en"), dict(applied)
            assert 0 <= fresh.pop("server_time") - kept.pop("server_time") < 60
            assert kept == fresh, (step, seat)

    played(tmp_path, check)
    assert any(message for message in views.values())


def test_a_seat_shares_the_public_parts_encoded_once_and_sees_only_its_own_hand(tmp_path):
    def check(service: GameService, live: LiveGame, step: int, messages: list[dict]) -> None:
        public = service.public_parts(live)
        a = service.seat_parts(live, public, 0, "en")
        b = service.seat_parts(live, public, 1, "es")
        for name in ("pending", "scores", "seats", "state.board" if "state.board" in a else "state.generals"):
            assert a[name] is b[name]  # one encoding for every seat
        hands = [p["hand"] for p in msgspec.json.decode(a["state.players"])]
        assert all(hand == [] for seat, hand in enumerate(hands) if seat != 0)
        assert hands[0] == msgspec.to_builtins(live.game.state.players[0].hand)

    played(tmp_path, check)


def test_the_seat_view_from_the_public_one_is_the_engines_own_view_of_that_seat(tmp_path):
    def check(service: GameService, live: LiveGame, step: int, messages: list[dict]) -> None:
        game = live.game
        public = player_view(game, NOBODY, notifications=False, screen=True)
        for seat in range(4):
            derived = seat_view(public, game, seat)
            assert msgspec.json.encode(derived) == msgspec.json.encode(
                player_view(game, seat, notifications=False, screen=True)
            )

    played(tmp_path, check)


def test_a_spectator_gets_the_view_of_no_seat_from_the_same_builder(tmp_path):
    def check(service: GameService, live: LiveGame, step: int, messages: list[dict]) -> None:
        watched = screen.public_payload(live, "en", turn_timer=service.turn_timers.get(live.id), limits=service.limits)
        assert isinstance(watched, wire.View) and watched.seat is None
        assert watched.legal_actions == [] and watched.my_decisions == [] and watched.ballot is None
        assert all(p.hand == [] for p in watched.state.players)
        seat_view_ = messages[0]["view"] if messages[0]["type"] == "full" else service.payload(live, 0, "en")
        assert msgspec.json.decode(wire.encode(watched.scores)) == seat_view_["scores"]  # scores computed once, alike

    played(tmp_path, check)


def test_one_function_builds_what_a_seat_receives():
    """No other server module assembles a view: the view's own parts are named in each game's
    wire.py only (server/games/), and no server module reaches into the engine's game context."""
    own_parts = ("my_decisions", "action_labels", "hand_sizes", "legal_actions", "max_notifications")
    for path in SERVER.rglob("*.py"):
        text = path.read_text()
        assert "._ctx" not in text, path.name
        if path.name == "wire.py":
            continue
        for part in own_parts:
            assert not re.search(rf"[\"']{part}[\"']\s*:", text), (path.name, part)
        assert "View(" not in text.replace("ReplayView(", ""), path.name
    builders = re.findall(r"(?<!class )\bView\(", (SERVER / "games" / "judges" / "wire.py").read_text())
    assert len(builders) == 1  # wire.view, the one builder


def test_the_view_schema_is_published_beside_the_protocol(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        body = client.get("/api/protocol").json()
    assert body["view"] == msgspec.json.decode(msgspec.json.encode(wire.schema()))
    view = body["view"]["$defs"]["View"]
    assert set(view["required"]) == set(wire.PARTS) | {"state", "version", "notifications"}
    assert "decisions" in body and "items" in body  # the registry's protocol as before


def test_the_buttons_words_kept_by_the_table_are_those_rendered_afresh():
    """wire.label: a table keeps its buttons' words from version to version; over a whole game
    of five, in two languages, they are the words rendered without it, and a seat's new name
    is in the words at once."""
    from judges.bots import make_bot
    from judges.engine import Game, Options

    game = Game.new(Options(players=5, seed=3))
    seats = [{"name": f"P{i}", "kind": "bot", "bot": "greedy"} for i in range(5)]
    bots = [make_bot("greedy", 3 + i) for i in range(5)]
    table = wire.Table(turn_timer=None, takeover_bot="greedy", hints=True)
    kept: dict = {}
    hits = 0
    renamed = False
    while not game.is_over:
        seat = game.waiting_for()[0]
        for language in ("en", "pt_BR"):
            before = len(kept)
            cached = wire.view(wire.public("g", game, seats, table, 50, labels=kept), seat, language)
            fresh = wire.view(wire.public("g", game, seats, table, 50), seat, language)
            assert cached.action_labels == fresh.action_labels, len(game.log)
            hits += len(cached.action_labels) - (len(kept) - before)
        if not renamed and any("(P1)" in words for words in cached.action_labels):
            seats[1] = {**seats[1], "name": "Gideon"}  # the seat changes hands: its words at once
            renamed = True
            again = wire.view(wire.public("g", game, seats, table, 50, labels=kept), seat, "pt_BR")
            assert any("(Gideon)" in words for words in again.action_labels), again.action_labels
        game.apply(bots[seat].choose(seat, game.legal_actions(seat), lambda: game.view(seat)))
    assert renamed and hits > 0 and len(kept) <= wire.LABELS_KEPT


# the big parts every seat and a spectator see alike, each game's (a seat's own hand apart)
SHARED_PARTS = {
    "judges": ("pending", "scores", "seats", "state.generals", "state.settlements"),
    "rome": ("pending", "seats", "state.senators", "state.scratch", "state.wars"),
}


def test_the_parts_seats_and_spectators_see_alike_are_encoded_once(tmp_path, game):
    """A version's view parts that every seat and a spectator see alike are encoded once and the
    same bytes for each (a seat in English, another in Spanish, a spectator), whichever game the
    table plays; no seat's parts hold another's secrets."""
    from judges.server.table.tables import SPECTATOR

    async def scenario() -> None:
        store = GameStore(f"sqlite:///{tmp_path / 'games.db'}")
        store.migrate()
        service = GameService(store)
        rules = game.served.parse_rules(None)
        live, _, _ = await service.create([{"kind": "human"}] * 3, seed=11, rules=rules, game_name=game.name)
        for _ in range(20):
            seat = live.played.to_move()[0]
            legal = [live.kit.action_to_dict(a) for a in live.played.legal_actions(seat)]
            await service.submit(live, seat, game.hurried({"legal_actions": legal}), None)
            public = service.public_parts(live)
            views = [service.seat_parts(live, public, 0, "en"), service.seat_parts(live, public, 1, "es")]
            watched = service.seat_parts(live, public, SPECTATOR, "en")
            for name in SHARED_PARTS[game.name]:
                assert views[0][name] is views[1][name] is watched[name], name
            for mine, parts in enumerate(views):  # the others' secrets kept out of the seat's parts
                state = {k.removeprefix("state."): msgspec.json.decode(v) for k, v in parts.items() if "state." in k}
                assert not game.leaks({"state": state}, mine), game.leaks({"state": state}, mine)
        await service.stop()
        store.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()


def test_a_seats_parts_are_its_whole_view_encoded_field_by_field_whoever_came_first(tmp_path):
    """wire.parts: a version's later views copy the parts of its first one but their own; each
    seat's (and a spectator's) parts are those of its view encoded field by field, in the view's
    order, whichever view of the version was built first."""
    from judges.server.table.tables import SPECTATOR

    readers = [(SPECTATOR, "en"), (0, "en"), (1, "es"), (2, "pt_BR"), (3, "en")]

    def check(service: GameService, live: LiveGame, step: int, messages: list[dict]) -> None:
        public = service.public_parts(live)
        for seat, language in readers[step % 5 :] + readers[: step % 5]:
            parts = service.seat_parts(live, public, seat, language)
            alone = service.seat_parts(live, service.public_parts(live), seat, language)  # the version's first
            alone["server_time"] = parts["server_time"]  # the clock's reading when each was made
            assert list(parts) == list(alone) and parts == alone, (step, seat)

    played(tmp_path, check)
