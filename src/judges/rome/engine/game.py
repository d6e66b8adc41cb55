"""RomeGame: a position plus the machine that moves it.

Automatic steps fire by themselves until some faction owes a decision (several may owe one
at once: the redistribution, the contributions). Every action is validated before anything
changes; a refused action raises a typed `RuleError` naming the rule and leaves the game as it
was. Options + action log = the game (`replay`), the dice living in the state.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...engine.dice import BLAKE2B, Dice, SeededDice, StrongDice, key_bytes
from ...engine.errors import GameOver, MalformedAction, NotYourDecision
from ..cards import load_deck
from .actions import Action, action_from_dict, action_to_dict
from .context import Ctx
from .decisions import KINDS
from .phases import PHASE_STEPS
from .setup import initial_state
from .state import PHASES, Decision, RomeOptions, RomeState, clone_state
from .victory import consul_for_life_appointed

RULE_TURN = "R1 Sequence of play"


def dice_of(state: RomeState) -> Dice:
    """The game's own dice (judges.engine.dice), their state in `state.rng`."""
    if state.options.dice == BLAKE2B:
        return StrongDice(state, key_bytes(state.options.key))
    return SeededDice(state)


class RomeGame:
    __slots__ = ("state", "dice", "log", "ctx")

    def __init__(self, state: RomeState, dice: Dice | None = None, log: list[Action] | None = None) -> None:
        self.state = state
        self.dice = dice if dice is not None else dice_of(state)
        self.log: list[Action] = log if log is not None else []
        self.ctx = Ctx(state, self.dice, load_deck(state.options.rules.deck))

    @classmethod
    def new(cls, options: RomeOptions, dice: Dice | None = None) -> RomeGame:
        game = cls(initial_state(options), dice)
        game.advance()
        return game

    # --- questions -----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.result is not None

    @property
    def pending(self) -> list[Decision]:
        return list(self.state.pending)

    def legal_actions(self, seat: int) -> list[Action]:
        out: list[Action] = []
        for decision in self.state.pending:
            if decision.player == seat:
                out.extend(KINDS[decision.kind].legal(self.ctx, decision))
        return out

    # --- moving --------------------------------------------------------------------------

    def advance(self) -> None:
        """Runs automatic steps until a decision is owed or the game ends."""
        state, ctx = self.state, self.ctx
        while not state.pending and state.result is None:
            steps = PHASE_STEPS[PHASES[state.phase]]
            if state.step >= len(steps):
                state.step = 0
                state.scratch.clear()
                state.phase = state.phase + 1 if state.phase + 1 < len(PHASES) else 1
                if PHASES[state.phase] == "mortality":
                    state.turn += 1
                continue
            if steps[state.step](ctx):
                state.step += 1
            consul_for_life_appointed(ctx)

    def apply(self, action: Action | dict[str, Any]) -> None:
        """Validates and applies one action, then runs the automatic steps that follow."""
        if isinstance(action, dict):
            action = action_from_dict(action)
        if not isinstance(action, Action):
            raise MalformedAction("actions", "rome.error.malformed_action", f"not an action: {action!r}")
        if self.over:
            raise GameOver("R256 End of the game", "rome.error.game_over", "the game is over")
        if not 0 <= action.player < self.state.players:
            raise MalformedAction("actions", "rome.error.not_a_player", f"there is no player {action.player}")
        decision = self._decision_for(action)
        KINDS[decision.kind].handler(self.ctx, decision, action)
        self.log.append(action)
        consul_for_life_appointed(self.ctx)
        self.advance()

    def _decision_for(self, action: Action) -> Decision:
        for decision in self.state.pending:
            if decision.player == action.player and type(action) in KINDS[decision.kind].actions:
                return decision
        owed = [d.kind for d in self.state.pending if d.player == action.player]
        raise NotYourDecision(
            RULE_TURN,
            "rome.error.not_your_decision",
            f"player {action.player} owes {owed or 'nothing'}, not a {type(action).__name__}",
        )

    # --- copies and replays --------------------------------------------------------------

    def clone(self) -> RomeGame:
        state = clone_state(self.state)
        return RomeGame(state, None, list(self.log))

    @classmethod
    def replay(cls, options: RomeOptions, log: list[Action] | list[dict[str, Any]]) -> RomeGame:
        game = cls.new(options)
        for action in log:
            game.apply(action)
        return game

    def log_as_dicts(self) -> list[dict[str, Any]]:
        return [action_to_dict(a) for a in self.log]

    def options_as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self.state.options)
        return out
