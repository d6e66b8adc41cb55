"""The drivers the platform's tests play each game through (tests/games_support.py): a hurried
player ends a game, and the leak check finds each secret of a view the plug-in (SERVED) gives
another seat, and nothing in one that hides them."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from games_support import DRIVERS, GAME_NAMES, GameDriver
from judges.games.registry import GAMES, SERVED


def wire(name: str, game: Any, seat: int | None) -> dict[str, Any]:
    """The parts of a server's view the drivers read: the legal actions and the game's view."""
    served, codec = SERVED[name], GAMES[name].codec
    legal = [] if seat is None else [codec.to_dict(a) for a in game.legal_actions(seat)]
    state = served.spectator_view(game) if seat is None else served.seat_view(game, seat)
    if name == "judges":  # the server's J&K view carries the engine's PlayerView, its state inside
        state = state["state"]
    return {"legal_actions": legal, "state": state}


def hurried_game(driver: GameDriver, players: int, seed: int, until: Any = None, limit: int = 20000) -> Any:
    served, codec = SERVED[driver.name], GAMES[driver.name].codec
    game = served.new_table(players, seed, None, served.parse_rules(None))
    for _ in range(limit):
        if game.is_over or (until is not None and until(game)):
            return game
        seat = game.to_move()[0]
        game.apply(codec.from_dict({**driver.hurried(wire(driver.name, game, seat)), "player": seat}))
    raise AssertionError(f"{driver.name}: no end after {limit} hurried actions")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_hurried_player_ends_a_game(name: str) -> None:
    game = hurried_game(DRIVERS[name], SERVED[name].min_players + 1, 3, limit=3000 if name == "rome" else 20000)
    assert game.is_over and game.outcome() is not None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_views_the_plug_in_gives_leak_nothing_and_show_the_seats_own(name: str) -> None:
    driver = DRIVERS[name]
    game = hurried_game(driver, 4, 5, until=lambda g: len(g.log()) >= 30)
    truth = game.game
    for seat in range(game.players):
        view = wire(name, game, seat)
        assert driver.leaks(view, seat) == []
        assert driver.own_secrets_shown(view, seat, truth)
    assert driver.leaks(wire(name, game, None), None) == []


def _with_hand(name: str, view: dict[str, Any], seat: int) -> dict[str, Any]:
    shown = copy.deepcopy(view)
    if name == "judges":
        shown["state"]["players"][seat]["hand"] = ["tax"]
    else:
        faction = next(f for f in shown["state"]["factions"] if f["seat"] == seat)
        faction["hand"], faction["treasury"] = ["a.card"], 3
    return shown


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_secret_shown_to_another_seat_is_a_leak(name: str) -> None:
    driver = DRIVERS[name]
    game = hurried_game(driver, 3, 7, until=lambda g: len(g.log()) >= 10)
    view = wire(name, game, 0)
    assert driver.leaks(_with_hand(name, view, 1), 0)  # another's hand
    assert not driver.leaks(_with_hand(name, view, 0), 0)  # one's own
    assert driver.leaks(_with_hand(name, view, 0), None)  # a spectator sees nobody's
    dice = copy.deepcopy(view)
    dice["state"]["rng"] = 12345
    assert driver.leaks(dice, 0)
    deck = copy.deepcopy(view)
    deck["state"]["deck"] = ["x", "y"]
    assert driver.leaks(deck, 0)
    if name == "rome":
        ballots = copy.deepcopy(view)
        ballots["state"]["scratch"]["senate"] = {"ballots": {"0": "yea", "1": "nay"}}
        assert driver.leaks(ballots, 0) == ["the others' ballots {'1': 'nay'}"]
        grain = copy.deepcopy(view)
        grain["state"]["scratch"]["grain"] = {"0": ["sicilian_grain"], "1": ["aegyptian_grain"], "2": "answered"}
        assert driver.leaks(grain, 0) == ["the others' grain {'1': ['aegyptian_grain']}"]
        assert "the others' grain {'0': ['sicilian_grain'], '1': ['aegyptian_grain']}" in driver.leaks(grain, None)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stored_log_replays_to_the_same_game(name: str) -> None:
    driver = DRIVERS[name]
    game = hurried_game(driver, 3, 11)
    engine = game.game
    options = engine.options_as_dict() if name == "rome" else msgspec.to_builtins(engine.state.options)
    log = [GAMES[name].codec.to_dict(a) for a in game.log()]
    replayed = driver.replay(options, log)
    assert driver.result(replayed) == driver.result(engine)
    assert driver.result(replayed)[0]


def test_every_game_the_server_hosts_has_a_driver() -> None:
    """A game added to the server runs the platform's tests too (the `game` fixture)."""
    assert set(GAME_NAMES) == set(DRIVERS) == set(SERVED)
