"""Shared helpers: build positions on the Canaan map with scripted dice.

`make_game(position, dice)` starts from the standard setup, applies a scenario position
(docs/scenarios.md) and runs the automatic steps. `dice` is the exact list of faces the
test expects to be rolled: rolling one more raises DiceScriptExhausted, so a test also
fails when the engine rolls dice it should not.
"""

from __future__ import annotations

import pytest

from games_support import DRIVERS, GAME_NAMES
from judges.engine import Game
from judges.engine.scenario import build_game
from judges.world import load_world

WORLD = load_world()


def S(name: str) -> int:
    """Settlement index by name."""
    return WORLD.settlement_by_name[name]


def R(name: str) -> int:
    """Region index by name."""
    return WORLD.region_by_name[name]


def H(name: str) -> int:
    """Hex index of a settlement."""
    return WORLD.settlements[S(name)].hex


def terrain(name: str) -> str:
    return WORLD.settlement_terrain(S(name))


def settlements_on(terrain_name: str) -> list[str]:
    return [s.name for s in WORLD.settlements if WORLD.settlement_terrain(s.index) == terrain_name]


def make_game(
    position: dict | None = None,
    dice: list[int] | dict | None = (),
    players: int = 3,
    wave_pairs: int = 1,
    round_limit: int | None = None,
    seed: int = 0,
    rules: dict | None = None,
) -> Game:
    """A scenario game; `rules` lists the rules that differ from the defaults (as a scenario file may)."""
    data = {
        "options": {"players": players, "seed": seed, "wave_pairs": wave_pairs, "round_limit": round_limit},
        "position": position or {},
        "dice": list(dice) if isinstance(dice, tuple) else dice,
    }
    if rules is not None:
        data["options"]["rules"] = rules
    return build_game(data)


def entries(game: Game, key: str | None = None, notification: str = "notification.announcements") -> list:
    """Report lines of every notification of the given key (optionally only lines of `key`)."""
    out = []
    for n in game.notifications:
        if n.key == notification:
            out.extend(e for e in n.entries if key is None or e.key == key)
    return out


def end_turns(game: Game, until_phase: str | None = None, until_round: int | None = None) -> None:
    """Ends turns (phases 2, 4, 5, 6) until a different decision is owed, or the game reaches
    `until_phase` (of `until_round`, when given)."""
    while not game.is_over:
        if until_round is not None and game.state.round < until_round:
            pass
        elif until_phase is not None and game.phase_name == until_phase:
            return
        elif until_round is not None and until_phase is None:
            return
        turn = [d for d in game.pending if d.kind == "turn"]
        if not turn or len(turn) != len(game.pending):
            return
        from judges.engine import EndTurn

        game.apply(EndTurn(player=turn[0].player))


def refused(game: Game, action, error: type, rule_part: str | None = None):
    """Applies `action`, expects `error` whose rule names `rule_part`, and checks that nothing
    changed at all: state, pending decisions, notifications, log, dice rolled. Returns the error."""

    def snapshot():
        return (
            game.state_json(),
            game.pending,
            len(game.notifications),
            len(game.log),
            len(getattr(game.dice, "rolled", ())),
        )

    before = snapshot()
    with pytest.raises(error) as info:
        game.apply(action)
    if rule_part is not None:
        assert rule_part.lower() in info.value.rule.lower(), info.value.rule
    assert snapshot() == before
    return info.value


def finish_round(game: Game) -> None:
    """Ends every turn of the current round; stops at the next round's first decision."""
    from judges.engine import EndTurn

    start = game.state.round
    while game.state.round == start and not game.is_over:
        turns = [d for d in game.pending if d.kind == "turn"]
        assert turns and len(turns) == len(game.pending), game.pending
        game.apply(EndTurn(player=turns[0].player))
    assert not game.is_over, game.state.ending


def turn_of(game: Game, seat: int) -> None:
    """Ends the Movement turns of the players before `seat`."""
    from judges.engine import EndTurn

    while True:
        assert game.phase_name == "movement"
        turn = [d for d in game.pending if d.kind == "turn"]
        assert len(turn) == 1 == len(game.pending), game.pending
        if turn[0].player == seat:
            return
        game.apply(EndTurn(player=turn[0].player))


def hurried_action(game: Game, seat: int):
    """A policy that always makes progress: end the turn when that is possible, otherwise
    take the first legal action (a decision's answer)."""
    from judges.engine import EndTurn

    legal = list(game.legal_actions(seat))
    end = EndTurn(player=seat)
    return end if end in legal else legal[0]


@pytest.fixture
def world():
    return WORLD


@pytest.fixture(params=GAME_NAMES, ids=str)
def game(request):
    """The game a platform test plays (tests/games_support.py): every such test runs for each
    game the server hosts."""
    return DRIVERS[request.param]
