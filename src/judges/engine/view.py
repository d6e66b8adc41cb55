"""A player's view: everything that player may see, nothing more.

`PlayerView.state` is a typed `GameState` with the hidden parts removed: the other players'
hands and the deck are emptied, the dice's state (`rng`), the game's seed and its dice key
(which would rebuild both) are zeroed, and the ballots of an open election are taken out. What
shows of them has its own field: every hand's size, the deck's size and this seat's own ballot.
The terrains a prophet's owner has chosen so far for the Events Area (`pending_terrains`, while
the 👁 Foresee decision is owed) show to that seat alone, like a hand.
The dice show as `dice`: the generator, the commitment (the hash of the seed, published from
the start), and the seed itself once the game is over, so that any player can check every die
(`judges verify`).

Because the state is a `GameState`, a bot asks the engine's own questions of it
(`board.control_map`, `board.base_value`, `victory.score`…) and gets the engine's answers.
It is turned into JSON only at the server's edge (`msgspec.json.encode`).

A screen asks for more (`player_view(..., screen=True)`; bots leave it out, it costs): the
scores and the final table (`victory.standings`, `victory.final_table`), the votes each seat
holds in an open election (`votes`: § 10, public as the titles that give them), the seat's
legal actions with what each would give (`gains`: a plunder's coins), and whether it may take
back a step. `seat_view` derives a seat's screen view from the view of no seat (`NOBODY`), sharing
its public parts (the server builds the public view once per version: server/games/judges/wire.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
from msgspec import Struct

from .actions import Action, Plunder
from .board import turn_order
from .combat import plunder_value
from .dice import commitment, seed_text
from .state import _NO_OPTIONS, PHASES, Decision, GameState, Notification, Player
from .titles import votes_of
from .victory import final_table, standings

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["NOBODY", "DiceInfo", "PlayerView", "dice_info", "player_view", "public_state", "seat_view"]

NOBODY = -1  # the seat of a view that is nobody's (a spectator's): every hand hidden, no ballot

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(GameState)
_player_decoder = msgspec.msgpack.Decoder(Player)


class DiceInfo(Struct, kw_only=True):
    """The dice as every seat sees them: the generator, the commitment to its seed, and the
    seed once the game is over (None before)."""

    generator: str
    commitment: str
    seed: str | None = None


class PlayerView(Struct, kw_only=True):
    """What one seat sees of a game."""

    seat: int
    round: int
    phase: int  # 1..7
    phase_name: str
    turn_order: list[int]
    waiting_for: list[int]
    pending: list[Decision]  # every decision owed now (who owes what is public)
    my_decisions: list[Decision]
    state: GameState  # the public state: others' hands, deck, votes emptied; rng, seed and key zeroed
    hand_sizes: list[int]  # by seat (the seat's own hand is in `state`)
    deck_size: int
    ballot: int | None = None  # this seat's vote in an open election (others' stay secret)
    dice: DiceInfo
    notifications: list[Notification] = msgspec.field(default_factory=list)
    # The screen's parts (`screen=True`), empty for a bot:
    scores: dict[int, dict[str, int]] = msgspec.field(default_factory=dict)  # victory.standings
    final: dict[str, Any] | None = None  # victory.final_table, once the game is over
    votes: dict[int, int] = msgspec.field(default_factory=dict)  # by seat, while an election is open (§ 10)
    legal_actions: list[Action] = msgspec.field(default_factory=list)  # this seat's
    gains: list[int | None] = msgspec.field(default_factory=list)  # by legal action: a plunder's coins
    undo: bool = False  # this seat may take back its last free step (§ 4 Taking back)


def public_state(state: GameState, seat: int) -> GameState:
    """A copy of `state` with everything `seat` may not see removed (see the module docstring).
    The copy shares nothing that changes with `state`: only the report's lines (`Entry`
    records, never changed once written) are the same objects, in lists of its own."""
    players = [p if p.seat == seat else msgspec.structs.replace(p, hand=[]) for p in state.players]
    foreseeing = any(d.player == seat and d.kind == "foresee_events" for d in state.pending)
    # The options are frozen and hold the rules (some eighty numbers): the copy is made without
    # them, and shares the game's, the seed and key zeroed, rather than converting them each time.
    shallow = msgspec.structs.replace(
        state,
        rng=0,
        options=_NO_OPTIONS,
        players=players,
        deck=[],
        votes={},
        pending_terrains=state.pending_terrains if foreseeing else [],
        report=[],
        round_log=[],
    )
    public = _decoder.decode(_encoder.encode(shallow))
    public.options = msgspec.structs.replace(state.options, seed=0, key=None)
    public.report = list(state.report)
    public.round_log = list(state.round_log)
    return public


def player_view(game: Game, seat: int, notifications: bool = True, *, screen: bool = False) -> PlayerView:
    """The seat's view. `notifications=False` leaves out the bell (bots do not read it);
    `screen=True` adds the screen's parts (see the module docstring)."""
    state = game.state
    pending = list(state.pending)
    view = PlayerView(
        seat=seat,
        round=state.round,
        phase=state.phase,
        phase_name=PHASES[state.phase - 1],
        turn_order=turn_order(state),
        waiting_for=game.waiting_for(),
        pending=pending,
        my_decisions=[d for d in pending if d.player == seat],
        state=public_state(state, seat),
        hand_sizes=[len(p.hand) for p in state.players],
        deck_size=len(state.deck),
        ballot=state.votes.get(seat),
        dice=dice_info(game),
        notifications=[n for n in game.notifications if seat in n.to] if notifications else [],
    )
    if screen:
        _add_screen_parts(view, game)
    return view


def _add_screen_parts(view: PlayerView, game: Game) -> None:
    state = game.state
    view.scores = standings(view.state, game.world)  # the public state: scores hide nothing
    view.final = final_table(state, game.world) if state.ending is not None else None
    if any(d.kind == "vote" for d in state.pending):  # an open election: who holds how many votes
        weights = {p.seat: votes_of(game._ctx, p.seat) for p in state.players if not p.eliminated}
        view.votes = {seat: n for seat, n in weights.items() if n}
    if view.seat != NOBODY:
        view.legal_actions = game.legal_actions(view.seat)
        view.gains = [_gain(game, a) for a in view.legal_actions]
        view.undo = game.can_undo(view.seat)


def _gain(game: Game, action: Action) -> int | None:
    """What an action would give, for its button: a plunder's coins (None for any other)."""
    if not isinstance(action, Plunder) or not action.plunder:
        return None
    return plunder_value(game._ctx, game.world.settlement_by_name[action.settlement])


def seat_view(public: PlayerView, game: Game, seat: int) -> PlayerView:
    """The screen's view of `seat` (as `player_view(game, seat, False, screen=True)`) from the
    screen's view of no seat of the same position: its public parts are `public`'s own objects,
    not copies (a server encodes them once for every seat), and only the seat's own are new:
    its hand, its ballot, the Foresee terrains it chose so far, its decisions and actions."""
    state = game.state
    if seat == NOBODY:
        return public
    players = [
        _player_decoder.decode(_encoder.encode(p)) if p.seat == seat else hidden
        for p, hidden in zip(state.players, public.state.players, strict=True)
    ]
    foreseeing = any(d.player == seat and d.kind == "foresee_events" for d in state.pending)
    shown = msgspec.structs.replace(
        public.state, players=players, pending_terrains=list(state.pending_terrains) if foreseeing else []
    )
    view = msgspec.structs.replace(
        public,
        seat=seat,
        my_decisions=[d for d in public.pending if d.player == seat],
        state=shown,
        ballot=state.votes.get(seat),
        notifications=[],
    )
    view.scores, view.final, view.votes = public.scores, public.final, public.votes
    view.legal_actions = game.legal_actions(seat)
    view.gains = [_gain(game, a) for a in view.legal_actions]
    view.undo = game.can_undo(seat)
    return view


def dice_info(game: Game) -> DiceInfo:
    """The dice as every seat sees them: the generator, the commitment to its seed, and the
    seed once the game is over (None before)."""
    options = game.state.options
    return DiceInfo(
        generator=options.dice,
        commitment=commitment(options),
        seed=seed_text(options) if game.is_over else None,
    )
