"""The game store, against SQLite (a temporary file) and PostgreSQL.

PostgreSQL: JUDGES_TEST_POSTGRES_URL (default postgresql+psycopg://postgres@127.0.0.1:5432/test).
Each test session works in its own schema (judges_test_<pid>_<random>, put first on the
connections' search_path and dropped at the end), recreated empty before every test, so two
test processes never see each other's tables. If PostgreSQL cannot be reached the
PostgreSQL cases are skipped, or fail when the environment variable CI is set.
"""

from __future__ import annotations

import threading
import time

import msgspec
import pytest
from sqlalchemy import inspect

from judges.bots import make_bot
from judges.engine import Game, Options, action_from_dict, action_to_dict
from judges.engine.state import GameState, Notification, options_from_builtins, state_from_json, state_to_json
from judges.server.store import (
    GameExists,
    GameNotFound,
    GameStore,
    GameVersion,
    SequenceConflict,
    StoreError,
    database_url,
    hash_token,
    new_token,
    normalize_url,
    verify_token,
)
from postgres_support import postgres_schema  # noqa: E402

BACKENDS = ["sqlite", "postgresql"]
HEAD = "0011"  # the latest migration


# --- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def pg_session_schema():
    """(admin engine, schema name, URL whose connections use that schema) for this session."""
    with postgres_schema("judges_test") as found:
        yield found


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """A URL to an empty database (no tables, no alembic_version)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'judges.db'}"
    admin, schema, url = request.getfixturevalue("pg_session_schema")
    with admin.begin() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    return url


@pytest.fixture
def open_store(db_url):
    """Opens GameStores on the test database; all are closed after the test."""
    stores: list[GameStore] = []

    def _open(migrate: bool = True) -> GameStore:
        store = GameStore(db_url)
        stores.append(store)
        if migrate:
            store.migrate()
        return store

    yield _open
    for store in stores:
        store.close()


@pytest.fixture
def store(open_store) -> GameStore:
    return open_store()


def seats(n: int = 3) -> list[dict]:
    out = [{"kind": "human", "bot": None, "name": "Deborah", "language": "en", "token_hash": hash_token("t0")}]
    out += [
        {"kind": "bot", "bot": "random", "name": f"Bot {i}", "language": "en", "token_hash": None} for i in range(1, n)
    ]
    return out


def new_game(store: GameStore, game_id: str = "g1", players: int = 3, seed: int = 7) -> dict:
    options = msgspec.json.decode(msgspec.json.encode(Options(players=players, seed=seed)))  # as JSON keeps it
    store.create_game(game_id, options, seed, 1, seats(players))
    return options


def end_turn(player: int) -> dict:
    return {"type": "end_turn", "player": player}


# --- schema -------------------------------------------------------------------------------


def test_migrate_twice_is_fine(open_store):
    store = open_store(migrate=False)
    assert store.schema_revision() is None
    store.migrate()
    store.migrate()
    assert store.schema_revision() == HEAD
    open_store().migrate()  # another instance on the same database
    tables = set(inspect(store.engine).get_table_names())
    assert {"games", "actions", "snapshots", "alembic_version"} <= tables


def test_accounts_migration_keeps_the_guest_games(open_store):
    """A database at 0003 holding a guest game upgrades to the accounts' tables with
    the game, its seats (credential hashes among them) and its actions unchanged."""
    from alembic import command

    store = open_store(migrate=False)
    config = store.alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
    assert store.schema_revision() == "0003"
    new_game(store)
    store.append_action("g1", 0, 0, end_turn(0), "c0")
    before = store.load("g1", all_actions=True)
    store.migrate()
    assert store.schema_revision() == HEAD
    assert {"accounts", "sessions", "account_seats"} <= set(inspect(store.engine).get_table_names())
    after = store.load("g1", all_actions=True)
    assert after.seats == before.seats == seats()
    assert after.all_actions == before.all_actions and after.action_count == 1


def test_ratings_migration_keeps_the_games_and_accounts(open_store):
    """A database at 0004 holding a guest game and an account upgrades to the ratings'
    and e-mailed links' tables (0005) with the game, its seats and actions, and the account
    unchanged."""
    from alembic import command

    from judges.server.community.account_store import AccountStore

    store = open_store(migrate=False)
    config = store.alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
    new_game(store)
    store.append_action("g1", 0, 0, end_turn(0), "c0")
    account = old_account(store, "Ruth")  # as the code of 0004 made it
    before = store.load("g1", all_actions=True)
    store.migrate()
    assert store.schema_revision() == HEAD
    tables = set(inspect(store.engine).get_table_names())
    assert {"ratings", "rated_games", "rating_changes", "account_links"} <= tables
    after = store.load("g1", all_actions=True)
    assert after.seats == before.seats == seats()
    assert after.all_actions == before.all_actions and after.action_count == 1
    found = AccountStore(store).by_name("ruth")
    assert found is not None and (found.id, found.name, found.password_hash) == account


def old_account(store, name: str) -> tuple[int, str, str]:
    """An account row with the columns of migration 0004 only: (id, name, password hash)."""
    from sqlalchemy import text

    from judges.server.store.base import _now

    with store.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (name, name_key, password_hash, email, created_at)"
                " VALUES (:name, :key, :hash, NULL, :at)"
            ),
            {"name": name, "key": name.casefold(), "hash": "$argon2id$hash", "at": _now()},
        )
        account_id = connection.execute(text("SELECT id FROM accounts WHERE name = :name"), {"name": name}).scalar()
    return int(account_id), name, "$argon2id$hash"


def test_look_alike_accounts_made_before_keep_their_names_and_no_new_one_joins_them(open_store):
    """Migration 0008: `ada` and its full-width look-alike, both made before, stay (the older
    keeps the skeleton); a new Cyrillic look-alike is refused as the name is taken."""
    from alembic import command

    from judges.server.community.account_store import AccountStore, NameTaken

    store = open_store(migrate=False)
    config = store.alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0007")
    older, newer = old_account(store, "ada"), old_account(store, "ａｄａ")
    store.migrate()
    accounts = AccountStore(store)
    assert accounts.by_name("ada").id == older[0] and accounts.by_name("ａｄａ").id == newer[0]
    with pytest.raises(NameTaken):
        accounts.create("аda", "$argon2id$hash", None)


def test_ratings_kept_before_become_judges_and_kings_ratings(open_store):
    """Migration 0011: a database at 0010 holding an account's rating (one an account then)
    upgrades to one rating per (account, game): the rating kept is the default game's,
    unchanged, and the account may then hold another game's beside it."""
    from alembic import command
    from sqlalchemy import select, text

    from judges.server.community.rating_tables import ratings_table
    from judges.server.store.base import _now
    from judges.server.table.played import DEFAULT_GAME

    store = open_store(migrate=False)
    config = store.alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0010")
    account = old_account(store, "Ruth")[0]
    with store.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO ratings (account_id, mu, sigma, games, updated_at) VALUES (:a, 27.5, 6.25, 4, :at)"),
            {"a": account, "at": _now()},
        )
    store.migrate()
    assert store.schema_revision() == HEAD
    other = next(name for name in ("rome", "judges") if name != DEFAULT_GAME)
    with store.engine.begin() as connection:
        connection.execute(
            ratings_table.insert().values(
                account_id=account, game=other, mu=20.0, sigma=7.0, games=1, updated_at=_now()
            )
        )
        rows = connection.execute(
            select(ratings_table.c.game, ratings_table.c.mu, ratings_table.c.sigma, ratings_table.c.games)
            .where(ratings_table.c.account_id == account)
            .order_by(ratings_table.c.game)
        ).all()
    assert sorted(tuple(r) for r in rows) == sorted([(DEFAULT_GAME, 27.5, 6.25, 4), (other, 20.0, 7.0, 1)])


def test_migration_matches_the_models(store):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from judges.server.store import Base

    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_sqlite_pragmas_read_back(tmp_path):
    store = GameStore(f"sqlite:///{tmp_path / 'wal.db'}")
    try:
        store.migrate()
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000
        assert (tmp_path / "wal.db-wal").exists()
    finally:
        store.close()


def test_sqlite_writers_of_one_process_take_turns_before_they_begin(tmp_path):
    """A writer of the same process that finds another writing waits for its turn in the
    process (woken when the other is done) and never starts a transaction meanwhile: SQLite's
    own wait sleeps up to tens of milliseconds between tries. Past the busy timeout it fails as
    SQLite's lock would have (`database is locked`)."""
    from sqlalchemy import event
    from sqlalchemy.exc import OperationalError

    store = GameStore(f"sqlite:///{tmp_path / 'turns.db'}", sqlite_busy_timeout_ms=2000)
    try:
        store.migrate()
        new_game(store)
        begun: list[str] = []

        @event.listens_for(store.engine, "before_cursor_execute")
        def _seen(conn, cursor, statement, *args):  # noqa: ANN001, ANN202
            if statement.startswith("BEGIN IMMEDIATE"):
                begun.append(threading.current_thread().name)

        results: list = []
        with store._session(write=True):  # another writer holds SQLite's write lock
            assert begun == ["MainThread"]
            waiting = threading.Thread(
                target=lambda: results.append(store.append_action("g1", 0, 0, end_turn(0))), name="second"
            )
            waiting.start()
            waiting.join(0.5)
            assert waiting.is_alive() and begun == ["MainThread"]  # waits, no transaction begun
        waiting.join(10)
        assert results == [True] and begun == ["MainThread", "second"]

        def late() -> None:
            try:
                store.append_action("g1", 1, 0, end_turn(0))
            except OperationalError as exc:
                results.append(exc)

        with store._session(write=True):  # held past the busy timeout
            late_writer = threading.Thread(target=late)
            late_writer.start()
            late_writer.join(10)
        assert "database is locked" in str(results[-1])
        assert store.load("g1").action_count == 1
    finally:
        store.close()


def test_database_url_from_environment(monkeypatch):
    monkeypatch.delenv("JUDGES_DATABASE_URL", raising=False)
    assert database_url() == "sqlite:///judges.db"
    monkeypatch.setenv("JUDGES_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url() == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"


def test_tokens_are_hashed():
    token = new_token()
    assert len(token) >= 40 and token != new_token()
    assert hash_token(token) == hash_token(token) and len(hash_token(token)) == 64
    assert verify_token(token, hash_token(token))
    assert not verify_token(token, hash_token("other")) and not verify_token(None, hash_token(token))


# --- games --------------------------------------------------------------------------------


def test_create_and_load_round_trip(store):
    options = new_game(store, "g1", players=3, seed=2**40 + 5)
    stored = store.load("g1")
    assert stored.id == "g1"
    assert stored.options == options
    assert stored.seed == 2**40 + 5
    assert stored.rules_version == 1
    assert stored.seats == seats(3)
    assert stored.action_count == 0
    assert stored.ending is None and stored.winners == []
    assert stored.snapshot is None and stored.actions == [] and stored.all_actions is None
    assert stored.created_at.tzinfo is not None and stored.updated_at >= stored.created_at
    with pytest.raises(GameExists):
        new_game(store, "g1")
    with pytest.raises(GameNotFound):
        store.load("nope")
    with pytest.raises(KeyError):  # GameNotFound is a KeyError too
        store.load("nope")


def test_result_list_and_delete(store):
    new_game(store, "g1")
    new_game(store, "g2")
    store.append_action("g1", 0, 0, end_turn(0), "c1")
    store.save_snapshot("g1", 1, {"state": {}})
    store.set_result("g1", "three_points", [2])
    stored = store.load("g1")
    assert (stored.ending, stored.winners) == ("three_points", [2])
    summaries = {s.id: s for s in store.list_games()}
    assert set(summaries) == {"g1", "g2"}
    assert summaries["g1"].ending == "three_points" and summaries["g1"].action_count == 1
    assert summaries["g1"].players == 3
    assert all("token_hash" not in seat for seat in summaries["g1"].seats)
    with pytest.raises(GameNotFound):
        store.set_result("nope", "collapse", [])
    assert store.delete_game("g1") is True
    assert store.delete_game("g1") is False
    assert [s.id for s in store.list_games()] == ["g2"]
    with pytest.raises(GameNotFound):
        store.load("g1")
    assert store.find_action_by_client_id("g1", "c1") is None


# --- actions ------------------------------------------------------------------------------


def test_append_in_order(store):
    new_game(store)
    for seq in range(5):
        assert store.append_action("g1", seq, seq % 3, end_turn(seq % 3), f"c{seq}") is True
    stored = store.load("g1", all_actions=True)
    assert stored.action_count == 5
    assert [r["seq"] for r in stored.actions] == [0, 1, 2, 3, 4]
    assert [r["action"] for r in stored.actions] == [end_turn(s % 3) for s in range(5)]
    assert [r["player"] for r in stored.actions] == [0, 1, 2, 0, 1]
    assert stored.all_actions == stored.actions
    assert store.find_action_by_client_id("g1", "c3") == 3
    assert store.find_action_by_client_id("g1", "zzz") is None
    assert store.list_actions("g1", 2, 4) == stored.actions[2:4]


def test_append_out_of_order_raises(store):
    new_game(store)
    with pytest.raises(SequenceConflict) as info:
        store.append_action("g1", 1, 0, end_turn(0), None)
    assert isinstance(info.value, StoreError)
    assert (info.value.expected, info.value.got) == (0, 1)
    assert store.append_action("g1", 0, 0, end_turn(0), None) is True
    with pytest.raises(SequenceConflict, match="expected seq 1"):
        store.append_action("g1", 0, 1, end_turn(1), None)  # a stale writer
    with pytest.raises(GameNotFound):
        store.append_action("nope", 0, 0, end_turn(0), None)
    with pytest.raises(StoreError):
        store.append_action("g1", 1, 2, end_turn(1), None)  # player mismatch
    stored = store.load("g1")
    assert stored.action_count == 1 and len(stored.actions) == 1


def test_duplicate_client_action_id_applied_once(store):
    new_game(store)
    new_game(store, "g2")
    assert store.append_action("g1", 0, 0, end_turn(0), "same") is True
    assert store.append_action("g1", 1, 0, end_turn(0), "same") is False  # retried with the next seq
    assert store.append_action("g1", 0, 0, end_turn(0), "same") is False  # retried with the same seq
    assert store.load("g1").action_count == 1
    assert store.append_action("g2", 0, 0, end_turn(0), "same") is True  # unique per game only
    assert store.append_action("g1", 1, 1, end_turn(1), None) is True  # many actions without an id
    assert store.append_action("g1", 2, 2, end_turn(2), None) is True
    assert store.load("g1").action_count == 3


def test_appended_action_is_committed(store, open_store):
    new_game(store)
    store.append_action("g1", 0, 0, end_turn(0), "c0")
    other = open_store(migrate=False)  # a new engine, new connections
    stored = other.load("g1")
    assert stored.action_count == 1
    assert stored.actions[0]["action"] == end_turn(0)
    assert other.find_action_by_client_id("g1", "c0") == 0


def test_concurrent_writers_append_once(store, open_store):
    new_game(store)
    writers = [open_store(migrate=False) for _ in range(4)]
    barrier = threading.Barrier(len(writers))
    results: list = [None] * len(writers)

    def write(i: int, client_id: str | None) -> None:
        barrier.wait()
        try:
            results[i] = writers[i].append_action("g1", seq, 0, end_turn(0), client_id)
        except Exception as exc:  # noqa: BLE001 - recorded and checked below
            results[i] = exc

    for seq, same_id in ((0, False), (1, True)):
        threads = [
            threading.Thread(target=write, args=(i, "same" if same_id else f"w{seq}-{i}")) for i in range(len(writers))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if same_id:  # one stores it, the others see their retry already applied
            assert sorted(map(repr, results)) == ["False"] * 3 + ["True"], results
        else:  # one stores it, the others lost the race
            assert results.count(True) == 1, results
            assert all(isinstance(r, SequenceConflict) for r in results if r is not True), results
    assert store.load("g1").action_count == 2


# --- snapshots ----------------------------------------------------------------------------


def test_snapshot_and_actions_after_it(store):
    new_game(store)
    for seq in range(7):
        store.append_action("g1", seq, seq % 3, end_turn(seq % 3), None)
    store.save_snapshot("g1", 3, {"after": 3, "generals": {1: "a", 0: "b"}})
    store.save_snapshot("g1", 5, {"after": 5})
    stored = store.load("g1")
    assert stored.snapshot == (5, {"after": 5})
    seq, data = stored.snapshot
    assert stored.actions_start == 5
    assert [r["seq"] for r in stored.actions] == [5, 6]
    assert stored.all_actions is None
    stored = store.load("g1", all_actions=True)
    assert [r["seq"] for r in stored.actions] == [5, 6]
    assert [r["seq"] for r in stored.all_actions] == list(range(7))
    store.save_snapshot("g1", 5, {"after": 5, "again": True})  # replaces
    assert store.load("g1").snapshot.data == {"after": 5, "again": True}
    store.save_snapshot("g1", 7, {"after": 7})  # right after the last action
    stored = store.load("g1")
    assert stored.snapshot.seq == 7 and stored.actions == []
    with pytest.raises(StoreError):
        store.save_snapshot("g1", 8, {})  # beyond the log
    with pytest.raises(GameNotFound):
        store.save_snapshot("nope", 0, {})
    store.delete_game("g1")  # snapshots go with it
    new_game(store)
    assert store.load("g1").snapshot is None


def test_json_keeps_key_order_and_turns_int_keys_into_strings(store):
    new_game(store)
    store.save_snapshot("g1", 0, {"z": 1, "a": {3: "x", 1: "y", 20: "z"}, "m": [1, None, "é"]})
    data = store.load("g1").snapshot.data
    assert list(data) == ["z", "a", "m"]
    assert list(data["a"].items()) == [("3", "x"), ("1", "y"), ("20", "z")]
    assert data["m"] == [1, None, "é"]


# --- a real game --------------------------------------------------------------------------

SNAPSHOT_EVERY = 50


def _snapshot_data(game: Game) -> dict:
    data = game.to_dict()
    del data["log"]
    return data


def test_resume_a_real_game(store, open_store):
    options = Options(players=3, seed=11)
    store.create_game("real", msgspec.to_builtins(options), options.seed, 1, seats(3))
    game = Game.new(options)
    bots = [make_bot("random", 1000 + seat) for seat in range(3)]
    while not game.is_over and game.state.round <= 2:  # two whole rounds
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        action = bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False))
        seq = len(game.log)
        game.apply(action)
        assert store.append_action("real", seq, action.player, action_to_dict(action), f"a{seq}") is True
        if len(game.log) % SNAPSHOT_EVERY == 0:
            store.save_snapshot("real", len(game.log), _snapshot_data(game))
    assert len(game.log) > SNAPSHOT_EVERY, "the game should be long enough to take a snapshot"

    stored = open_store(migrate=False).load("real", all_actions=True)
    assert stored.action_count == len(game.log)
    assert stored.snapshot is not None
    snap_seq, data = stored.snapshot
    assert snap_seq == len(game.log) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
    assert [r["seq"] for r in stored.actions] == list(range(snap_seq, len(game.log)))

    # from the snapshot: the state (JSON keys are strings now) + the actions after it
    state = state_from_json(msgspec.json.encode(data["state"]))
    assert state == msgspec.convert(data["state"], GameState, str_keys=True)
    notifications = msgspec.convert(data["notifications"], list[Notification], str_keys=True)
    rebuilt = Game(
        state, notifications=notifications, log=[action_from_dict(r["action"]) for r in stored.all_actions[:snap_seq]]
    )
    for record in stored.actions:
        rebuilt.apply(record["action"])
    assert state_to_json(rebuilt.state) == state_to_json(game.state)
    assert rebuilt.notifications == game.notifications
    assert rebuilt.log == game.log

    # and from the seed: the whole log
    replayed = Game.replay(options_from_builtins(stored.options), [r["action"] for r in stored.all_actions])
    assert state_to_json(replayed.state) == state_to_json(game.state)


# --- many processes on one database (docs/deploy.md) ---------------------------------------------


def test_the_ending_is_stored_with_the_last_action(store):
    """A game's ending is written in the transaction of the action that ended it: there is
    no moment at which the log is complete and the result missing."""
    new_game(store, "g1")
    assert store.append_action("g1", 0, 0, end_turn(0), "c0") is True
    assert store.load("g1").ending is None
    assert store.append_action("g1", 1, 1, end_turn(1), "c1", ending="three_points", winners=[1]) is True
    stored = store.load("g1")
    assert (stored.action_count, stored.ending, stored.winners) == (2, "three_points", [1])
    # a refused append (stale seq) writes no ending either
    new_game(store, "g2")
    store.append_action("g2", 0, 0, end_turn(0), None)
    with pytest.raises(SequenceConflict):
        store.append_action("g2", 0, 1, end_turn(1), None, ending="collapse", winners=[])
    assert store.load("g2").ending is None


def test_seat_changes_of_two_writers_are_both_kept(open_store):
    """update_seat reads and writes the seats under the game's row lock: two stores (two
    processes) changing different seats at once lose neither change."""
    first, second = open_store(), open_store(migrate=False)
    new_game(first, "g1", players=4)
    for s in range(4):  # humans all
        first.update_seat("g1", s, lambda seat: seat.update(kind="human") is None)
    before = first.load("g1").seats_version
    barrier = threading.Barrier(2)

    def flip(writer: GameStore, seat: int) -> None:
        barrier.wait()
        for _ in range(10):
            writer.update_seat("g1", seat, lambda info: info.update(flips=info.get("flips", 0) + 1) is None)

    threads = [threading.Thread(target=flip, args=(w, s)) for w, s in ((first, 1), (second, 2))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    stored = first.load("g1")
    assert [seat.get("flips", 0) for seat in stored.seats] == [0, 10, 10, 0]
    assert stored.seats_version == before + 20
    # a change that changes nothing keeps the version
    assert first.update_seat("g1", 0, lambda seat: False)[1] == before + 20
    with pytest.raises(StoreError):
        first.update_seat("g1", 9, lambda seat: True)


def test_a_seat_change_may_read_the_table_and_be_quiet(store):
    """With `table` the change reads every stored seat and the game's chat count under the same
    row lock (a seat's new player reads private talk from there on); a `quiet` change (a
    player's last sign of life) keeps the seats' version, so no process is told of it."""
    new_game(store, "g1")
    store.append_chat("g1", "seats:0.1", 0, "Deborah", "a secret")
    read = []
    store.update_seat(
        "g1", 1, lambda seat, table: read.append((len(table.seats), table.chat_count)) or False, table=True
    )
    assert read == [(3, 1)]
    before = store.load("g1").seats_version
    seats, version = store.update_seat("g1", 1, lambda seat: seat.update(seen=12.5) is None, quiet=True)
    assert version == before and seats[1]["seen"] == 12.5 and store.load("g1").seats[1]["seen"] == 12.5


def test_the_bots_lease_has_one_holder_until_it_expires(store):
    new_game(store, "g1")
    assert store.take_bot_lease("g1", "a", 30) is True
    assert store.take_bot_lease("g1", "b", 30) is False  # a holds it
    assert store.take_bot_lease("g1", "a", 30) is True  # a renews
    assert store.bot_lease("g1")[0] == "a"
    store.release_bot_lease("g1", "b")  # not b's to give up
    assert store.bot_lease("g1")[0] == "a"
    store.release_bot_lease("g1", "a")
    assert store.take_bot_lease("g1", "b", 0.05) is True
    time.sleep(0.1)  # b died: its lease ran out
    assert store.take_bot_lease("g1", "a", 30) is True
    assert store.bot_lease("g1")[0] == "a"


def test_catch_up_and_versions(store):
    new_game(store, "g1")
    for seq in range(3):
        store.append_action("g1", seq, seq, end_turn(seq), f"c{seq}")
    caught = store.catch_up("g1", 1)
    assert caught.action_count == 3 and [r["seq"] for r in caught.actions] == [1, 2]
    assert store.catch_up("g1", 3).actions == []
    version = store.set_seats("g1", store.load("g1").seats)
    assert store.versions(["g1", "nope"]) == {"g1": GameVersion(3, version, None)}
    with pytest.raises(GameNotFound):
        store.catch_up("nope", 0)


def test_postgres_connections_have_timeouts(db_url):
    """Every PostgreSQL connection runs with a statement and a lock timeout (a locked table
    fails a caller fast instead of freezing it); SQLite waits its busy timeout."""
    store = GameStore(db_url, statement_timeout_ms=4321, lock_timeout_ms=1234, sqlite_busy_timeout_ms=2345)
    try:
        with store.engine.connect() as conn:
            if store.is_sqlite:
                assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 2345
            else:
                assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "4321ms"
                assert conn.exec_driver_sql("SHOW lock_timeout").scalar() == "1234ms"
    finally:
        store.close()
    with pytest.raises(TypeError):
        GameStore(db_url, pool_sise=3)


def test_account_store_on_each_backend(store):
    """Accounts (server/community/account_store.py): a name is one account whatever its case; a session is
    found by its hash until it ends or expires; a bound seat lists its game."""
    from judges.server.community.account_store import AccountStore, NameTaken

    accounts = AccountStore(store)
    ruth = accounts.create("Ruth", "$argon2id$x", None)
    with pytest.raises(NameTaken):
        accounts.create("ruth", "$argon2id$y", "r@example.org")
    assert accounts.by_name(" RUTH ") == ruth
    accounts.open_session("h1", ruth.id, 3600)
    accounts.open_session("h2", ruth.id, -1)  # already expired
    assert accounts.session_account("h1") == ruth and accounts.session_account("h2") is None
    accounts.open_session("h3", ruth.id, 3600, replaces="h1")  # rotated at sign-in
    assert accounts.session_account("h1") is None and accounts.session_account("h3") == ruth
    new_game(store)
    accounts.bind_seat(ruth.id, "g1", 0)
    assert accounts.seat_in(ruth.id, "g1") == 0
    assert [(g.id, g.seat, g.ending) for g in accounts.games_of(ruth.id, 10)] == [("g1", 0, None)]
    store.delete_game("g1")
    assert accounts.games_of(ruth.id, 10) == []
