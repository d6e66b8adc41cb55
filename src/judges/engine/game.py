"""The Game: a position plus the machine that moves it.

Like a python-chess Board, a Game answers questions about its position (who must decide
what, which actions are legal) and is moved by pushing actions. Automatic steps fire by
themselves until some player owes a decision. Every action is validated before anything
changes; a refused action raises a RuleError and leaves the game exactly as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from ..world import World, load_world
from .actions import Action, Undo, action_from_dict, action_to_dict
from .context import Ctx
from .decisions import KIND_OF_ACTION, KINDS, subject_name
from .dice import Dice, SeededDice, StrongDice, dice_for
from .errors import GameOver, MalformedAction, NotYourDecision
from .interned import ActionPool
from .phases import PHASE_STEPS
from .setup import initial_state
from .state import PHASES, Decision, GameState, Notification, Options, clone_state, state_to_json
from .undo import Overwritten, TakeBack, is_free, overwritten, put_back, refusal

if TYPE_CHECKING:  # pragma: no cover
    from .view import PlayerView


class Game:
    """One game: state, dice, action log and the notifications emitted so far.

    `undoable`: the game keeps what an `Undo` needs (§ 4 Taking back, `engine/undo.py`): a
    copy of the position when a seat's run of free steps begins. Games that never take back
    (the lab's, the bots' samples and rollouts) pass False and spare that copy; an Undo sent to
    them is refused like one with nothing to take back."""

    __slots__ = ("state", "world", "dice", "log", "notifications", "_ctx", "undoable", "takeback")

    def __init__(
        self,
        state: GameState,
        world: World | None = None,
        dice: Dice | None = None,
        log: list[Action] | None = None,
        notifications: list[Notification] | None = None,
        actions: ActionPool | None = None,
        *,
        undoable: bool = True,
    ) -> None:
        self.state = state
        self.world = world if world is not None else load_world(state.options.rules.map)
        self.dice = dice if dice is not None else dice_for(state)
        self.log: list[Action] = log if log is not None else []
        self.notifications: list[Notification] = notifications if notifications is not None else []
        self._ctx = Ctx(self.state, self.world, self.dice, actions)
        self.undoable = undoable
        self.takeback: TakeBack | None = None  # the run of free steps an Undo can take back

    # --- creation --------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        options: Options | None = None,
        *,
        dice: Dice | None = None,
        world: World | None = None,
        start: bool = True,
        dice_factory: Callable[[GameState], Dice] | None = None,
        undoable: bool = True,
        **option_fields: Any,
    ) -> Game:
        """A game in its setup position. With `start`, automatic steps run at once up to the
        first decision; a scenario passes start=False to edit the position first."""
        if options is None:
            options = Options(**option_fields)
        world = world if world is not None else load_world(options.rules.map)
        if dice_factory is not None:
            factory = dice_factory
        else:
            factory = (lambda state: dice) if dice is not None else dice_for
        state, game_dice = initial_state(options, world, factory)
        game = cls(state, world, game_dice, undoable=undoable)
        if start:
            game.advance()
        return game

    @classmethod
    def replay(cls, options: Options, actions: Iterable[Action | dict[str, Any]], *, dice: Dice | None = None) -> Game:
        """Seed + action log = the game."""
        game = cls.new(options, dice=dice)
        for action in actions:
            game.apply(action_from_dict(action) if isinstance(action, dict) else action)
        return game

    def clone(self) -> Game:
        state = clone_state(self.state)
        dice = dice_for(state) if isinstance(self.dice, (SeededDice, StrongDice)) else copy.deepcopy(self.dice)
        game = Game(
            state, self.world, dice, list(self.log), list(self.notifications), self._ctx.actions, undoable=self.undoable
        )
        if self.takeback is not None:
            game.takeback = self.takeback.copy()  # its base position is never changed: shared
        return game

    # --- questions -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.ending is not None

    @property
    def pending(self) -> list[Decision]:
        """Every decision owed right now (several players may owe decisions at once)."""
        return list(self.state.pending)

    def waiting_for(self) -> list[int]:
        """Who are we waiting for: the seats that owe a decision, in seat order."""
        pending = self.state.pending
        if len(pending) == 1:  # the usual case
            return [pending[0].player]
        return sorted({d.player for d in pending})

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action, for one player or for all who owe a decision."""
        state = self.state
        if state.ending is not None:  # is_over
            return []
        pending = state.pending
        if len(pending) == 1:  # the usual case: no list to merge
            decision = pending[0]
            if player is not None and decision.player != player:
                return []
            actions = KINDS[decision.kind].legal(self._ctx, decision)
            return actions if type(actions) is list else list(actions)
        out: list[Action] = []
        for decision in self.state.pending:
            if player is None or decision.player == player:
                out.extend(KINDS[decision.kind].legal(self._ctx, decision))
        return out

    def can_undo(self, player: int) -> bool:
        """Whether `player` may take back a step now (`Undo`, § 4 Taking back). Undo is never
        among `legal_actions`: bots and the search do not take back."""
        run = self.takeback
        return run is not None and run.seat == player and bool(run.steps) and self.state.ending is None

    @property
    def phase_name(self) -> str:
        return PHASES[self.state.phase - 1]

    # --- moving ----------------------------------------------------------------------

    def apply(self, action: Action | dict[str, Any], *, trusted: bool = False) -> list[Notification]:
        """Validates and applies one action, then runs automatic steps up to the next
        decision. Returns the notifications this produced. `trusted=True` is `apply_legal`."""
        if trusted and not isinstance(action, dict):
            return self.apply_legal(action)
        if isinstance(action, dict):
            action = action_from_dict(action)
        if type(action) is Undo:
            return self._undo(action)
        if type(action) not in KIND_OF_ACTION:
            raise MalformedAction(
                "actions", "error.malformed_action", f"not an action: {action!r}", detail=repr(action)
            )
        if self.is_over:
            raise GameOver("§14 Endings", "error.game_over", "the game is over", ending=self.state.ending)
        if not 0 <= action.player < len(self.state.players):
            raise MalformedAction(
                "actions", "error.unknown_player", f"there is no player {action.player}", player=action.player
            )
        decision = self._find_decision(action)
        start = len(self.notifications)
        run = self._run_of(action, start) if self.undoable else None
        KINDS[decision.kind].handler(self._ctx, decision, action)  # validates fully before it changes anything
        self.log.append(action)
        if self.undoable:
            self._ran(action, run)
        self.advance()
        return self.notifications[start:]

    def apply_legal(self, action: Action) -> list[Notification]:
        """Applies an action taken unchanged from `legal_actions()` of this very position,
        skipping the checks its enumeration already made. For bots, search and the lab, which
        only ever play what they were offered; whatever comes from outside (the server, a
        replayed log) goes through `apply`. An action that is not legal here may corrupt the game."""
        if type(action) is Undo:
            return self._undo(action)
        kind = KIND_OF_ACTION[type(action)]
        state = self.state
        pending = state.pending
        decision = pending[0] if len(pending) == 1 else None
        if decision is None or decision.player != action.player or decision.kind != kind.name:
            decision = self._find_decision(action)  # else the usual case: the action came from this decision's list
        start = len(self.notifications)
        run = self._run_of(action, start) if self.undoable else None
        ctx = self._ctx
        ctx.trusted = True
        try:
            kind.handler(ctx, decision, action)
        finally:
            ctx.trusted = False
        self.log.append(action)
        if self.undoable:
            self._ran(action, run)
        if (not state.pending and state.ending is None) or ctx.outbox:  # else advance() has nothing to do
            self.advance()
            return self.notifications[start:]
        return []

    # --- taking back (§ 4 Taking back, engine/undo.py) ------------------------------------------

    def _run_of(self, action: Action, notes: int) -> tuple[TakeBack, Overwritten] | None:
        """The run of free steps `action` goes on or begins (what an Undo needs: `TakeBack`) and
        what the step overwrites, None when it is no free step. Asked before the action changes
        anything."""
        if not is_free(action):
            return None
        run = self.takeback
        if run is None or run.seat != action.player:
            run = TakeBack(action.player, notes)
        return run, overwritten(self.state, self.world, action)

    def _ran(self, action: Action, run: tuple[TakeBack, Overwritten] | None) -> None:
        """After `action` was applied: a free step joins (or begins) its seat's run; anything
        else ends the run."""
        if run is None:
            self.takeback = None
        else:
            self.takeback = run[0]
            run[0].add(action, run[1])

    def _undo(self, action: Undo) -> list[Notification]:
        """Takes back the last free step of the seat's run: writes back what it overwrote (a
        run read from a stored snapshot: the position before the run, its steps played again
        but the last). Refused (changing nothing) when there is none."""
        if self.is_over:
            raise GameOver("§14 Endings", "error.game_over", "the game is over", ending=self.state.ending)
        if not 0 <= action.player < len(self.state.players):
            raise MalformedAction(
                "actions", "error.unknown_player", f"there is no player {action.player}", player=action.player
            )
        run = self.takeback
        if run is None or run.seat != action.player or not run.steps:
            raise refusal(self.log, action.player)
        state, ctx = self.state, self._ctx
        if run.packed is None:
            put_back(state, run.steps.pop(), run.before.pop())
        else:
            run.restore(state)  # in place: the dice and the context hold this state
            steps = run.steps[:-1]
            run.steps, run.before = [], []
            ctx.forget()
            for step in steps:  # free steps roll no die: the same steps, the same position
                decision = self._find_decision(step)
                before = overwritten(state, self.world, step)
                KINDS[decision.kind].handler(ctx, decision, step)
                run.add(step, before)
        del self.notifications[run.notes :]
        ctx.forget()
        self.log.append(action)
        return []

    def _find_decision(self, action: Action) -> Decision:
        kind = KIND_OF_ACTION[type(action)]
        named = getattr(action, kind.subject_field) if kind.subject_field else None
        for d in self.state.pending:
            if d.player == action.player and d.kind == kind.name:
                if named is not None and subject_name(kind, self.world, d.subject) != named:
                    continue
                return d
        owed = ", ".join(f"player {d.player} ({d.kind})" for d in self.state.pending) or "nobody"
        subject = f" for {named}" if named is not None else ""
        raise NotYourDecision(
            kind.rule,
            "error.not_your_decision",
            f"player {action.player} owes no {kind.name.replace('_', ' ')} decision{subject} now; waiting for: {owed}",
            player=action.player,
            kind=kind.name,
        )

    def forget(self) -> None:
        """Drops what the game caches about its position (the facts of the current turn).
        Call it after editing `state` by hand; actions and automatic steps need no call."""
        self._ctx.forget()

    def advance(self) -> None:
        """Fires automatic steps until a decision is owed or the game ends."""
        state, ctx = self.state, self._ctx
        while not state.pending and state.ending is None:
            steps = PHASE_STEPS[state.phase]
            if state.step >= len(steps):
                state.step = 0
                if state.phase == 7:
                    state.phase = 1
                    state.round += 1
                else:
                    state.phase += 1
                continue
            step = steps[state.step]
            state.step += 1
            step(ctx)
        if ctx.outbox:
            after = len(self.log)
            for note in ctx.outbox:
                note.after = after
            self.notifications.extend(ctx.outbox)
            ctx.outbox.clear()

    # --- output ----------------------------------------------------------------------

    def notifications_for(self, seat: int) -> list[Notification]:
        return [n for n in self.notifications if seat in n.to]

    def general_owners(self) -> dict[int, int]:
        """Every general's owner (general id -> seat), the dead generals' too: the log names
        the owner of a general an earlier action named, though he may have died since. A
        general leaves the board only by dying (effects.kill_general), whose report line says
        whose he was; that line is in a notification, or still in this phase's or round's report."""
        owners: dict[int, int] = {}
        state = self.state
        reports = [n.entries for n in self.notifications]
        for entries in (*reports, state.round_log, state.report):
            for entry in entries:
                if entry.key == "general.died":
                    owners[entry.params["general"]] = entry.params["owner"]
        owners.update((gid, g.owner) for gid, g in state.generals.items())
        return owners

    def view(self, seat: int, notifications: bool = True) -> PlayerView:
        from .view import player_view

        return player_view(self, seat, notifications)

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume: state (dice included), log, notifications, and the
        run of free steps an Undo may take back (None when there is none)."""
        return {
            "state": msgspec.to_builtins(self.state),
            "log": [action_to_dict(a) for a in self.log],
            "notifications": msgspec.to_builtins(self.notifications),
            "takeback": self.takeback.to_builtins(self.state) if self.takeback is not None else None,
        }

    def state_json(self) -> bytes:
        return state_to_json(self.state)
