"""Positions for the Rome rules tests: a state built by hand (factions, senators where the test
wants them) and a game on it whose dice are scripted."""

from __future__ import annotations

from collections.abc import Sequence

from judges.engine.dice import ScriptedDice
from judges.rome.cards import load_deck
from judges.rome.engine.context import Ctx
from judges.rome.engine.effects import senator_from_card
from judges.rome.engine.game import RomeGame
from judges.rome.engine.state import PHASES, Faction, RomeOptions, RomeState, Senator

DECK = load_deck()


def position(players: int = 3) -> RomeState:
    """An empty board: the State at 100T, no senators, no wars, no deck."""
    state = RomeState(options=RomeOptions(players=players, seed=1))
    state.treasury = 100
    state.factions = [Faction(seat=i) for i in range(players)]
    state.turn = 1
    return state


def senator(state: RomeState, card: str, faction: int = -1, **changes: object) -> Senator:
    s = senator_from_card(DECK, card, faction)
    for name, value in changes.items():
        setattr(s, name, value)
    state.senators[card] = s
    return s


def ctx(state: RomeState, faces: Sequence[int] = ()) -> Ctx:
    return Ctx(state, ScriptedDice(faces))


def game_in(state: RomeState, phase: str, faces: Sequence[int] = ()) -> RomeGame:
    """A game about to run `phase` from its first step, with scripted dice."""
    state.phase = PHASES.index(phase)
    state.step = 0
    game = RomeGame(state, ScriptedDice(faces))
    game.advance()
    return game


def chit_face(chit: str) -> int:
    """The die face (of the cup's full 36) that draws `chit` first: ids 1-30, then 4 blanks,
    then the 2 "draw 2" chits."""
    if chit == "blank":
        return 31
    if chit == "draw_two":
        return 35
    return int(chit)
