"""The search protocol: a game position as tree-search algorithms (MCTS, ISMCTS) want it.

    s = SearchState(game)            # wraps a Game (never copies it by itself)
    s.current_player()               # the first seat owing a decision (None once over)
    s.legal_actions()                # that seat's legal actions, as a list
    s.apply(action)                  # plays it in place (validated), returns self
    t = s.clone()                    # an independent copy (Game.clone: a msgpack round trip)
    s.is_terminal(), s.returns()     # over? then 1 for each winner split evenly, 0 for others
    d = s.determinize(seat, seed)    # a copy where everything `seat` cannot see is resampled

Several seats may owe decisions at once (the votes of an election); like the headless loop
(`judges.play.play_game`) the search takes them in seat order, so `current_player` is
`Game.waiting_for()[0]`.

Hidden information. A seat sees its own hand, the public board and the sizes of the deck and
of the other hands (`engine/view.py`). It does not see the order of the deck, the other
players' hands, the other ballots of an open election, or the dice's state. `determinize`
resamples exactly those: the deck and the other hands are shuffled together and dealt back
(each hand keeps its size), the ballots already cast by others are redrawn among the
candidates, and `state.rng` is reseeded, so every die still to be rolled is new.

Chance. The engine has no explicit chance nodes: every die and shuffle flows through the
seeded dice whose whole state is the integer `state.rng`. A search samples chance by
reseeding in determinization: each iteration plays on a copy whose future dice are a fresh,
independent sample. `chance_outcomes_d6()` documents the law of one die.

A bot does not get the Game, only its view (a typed `engine.view.PlayerView`):
`game_from_view(view, seed)` builds a full, playable Game from it by filling the hidden parts
with a plausible sample (unknown hands dealt from the unseen cards, deck shuffled, rng from the
given seed). See docs/search.md.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from ..world import World, load_world
from .actions import Action
from .board import base_value, control_map, region_share
from .context import Ctx
from .dice import SeededDice, seed_to_state
from .game import Game
from .state import clone_state
from .view import PlayerView

__all__ = ["SearchState", "game_from_view", "chance_outcomes_d6", "unseen_cards", "material", "fresh_seed"]


class _Rng:
    """A holder for SeededDice that is not a game state."""

    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = seed_to_state(seed)


def fresh_seed(dice: SeededDice) -> int:
    """A new seed drawn from `dice` (60 bits): for a sample's dice or a search's next sample."""
    return (dice.roll(1 << 30) << 30) ^ dice.roll(1 << 30)


def chance_outcomes_d6() -> list[tuple[int, float]]:
    """The outcomes of one six-sided die and their probabilities: [(1, 1/6), …, (6, 1/6)]."""
    return [(face, 1 / 6) for face in range(1, 7)]


class SearchState:
    """A Game seen as a search position. `apply` changes it in place; `clone` copies it."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    @classmethod
    def from_view(cls, view: PlayerView, seed: int, world: World | None = None) -> SearchState:
        return cls(game_from_view(view, seed, world))

    # --- the protocol -------------------------------------------------------------------

    def current_player(self) -> int | None:
        if self.game.is_over:
            return None
        waiting = self.game.waiting_for()
        return waiting[0] if waiting else None

    def legal_actions(self) -> list[Action]:
        seat = self.current_player()
        return [] if seat is None else list(self.game.legal_actions(seat))

    def apply(self, action: Action) -> SearchState:
        self.game.apply(action)
        return self

    def clone(self) -> SearchState:
        return SearchState(self.game.clone())

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        """1 for each winner, split evenly; 0 for the others; 0 for all when nobody won (or
        the game is not over)."""
        state = self.game.state
        out = [0.0] * len(state.players)
        if state.ending is not None and state.winners:
            share = 1.0 / len(state.winners)
            for seat in state.winners:
                out[seat] = share
        return out

    def view(self, seat: int) -> PlayerView:
        return self.game.view(seat, notifications=False)

    def determinize(self, seat: int, rng_seed: int) -> SearchState:
        """A copy in which everything `seat` cannot see is resampled from `rng_seed`: the deck
        order and the other hands (shuffled together; hands keep their sizes), the ballots
        others have cast in an open election, and the dice state (`state.rng`)."""
        game = self.game.clone()
        state = game.state
        dice = SeededDice(_Rng(rng_seed))
        others = [p for p in state.players if p.seat != seat]
        pool = list(state.deck)
        for p in others:
            pool.extend(p.hand)
        dice.shuffle(pool)
        at = 0
        for p in others:
            n = len(p.hand)
            p.hand = pool[at : at + n]
            at += n
        state.deck = pool[at:]
        _redraw_ballots(game, [s for s in state.votes if s != seat], dice)
        state.rng = seed_to_state(fresh_seed(dice))
        return SearchState(game)


# --- rebuilding a game from a view -----------------------------------------------------------


def unseen_cards(view: PlayerView) -> list[str]:
    """The cards `view`'s seat cannot locate: the whole deck (the game's rules: `deck`) minus its
    own hand, the discard pile, the Events Area and the events in force. Sorted."""
    s = view.state
    known = (
        Counter(s.players[view.seat].hand)
        + Counter(s.discard)
        + Counter(s.events_area)
        + Counter(e.card for e in s.events_landed)
    )
    return sorted((Counter(s.options.rules.deck) - known).elements())


def game_from_view(view: PlayerView, seed: int, world: World | None = None) -> Game:
    """A full, playable Game consistent with everything `view`'s seat can see. The hidden parts
    are a sample drawn from `seed`: the unseen cards are shuffled and dealt to the other hands
    (at their known sizes) and the deck; ballots cast by others in an open election are drawn
    among the candidates; the dice state comes from the seed. The view is not changed.

    If the unseen cards do not match the hidden slots (a hand-edited scenario position can
    break card conservation), the pool is cut or padded with cards drawn by deck frequency."""
    seat = view.seat
    dice = SeededDice(_Rng(seed))
    state = clone_state(view.state)
    slots = [(p.seat, view.hand_sizes[p.seat]) for p in state.players if p.seat != seat]
    need = view.deck_size + sum(n for _, n in slots)
    pool = unseen_cards(view)
    dice.shuffle(pool)
    if len(pool) > need:
        pool = pool[:need]
    if len(pool) < need:
        deck = state.options.rules.deck
        kinds = [card for card, copies in deck.items() for _ in range(copies)] or ["tax"]
        pool += [kinds[dice.roll(len(kinds)) - 1] for _ in range(need - len(pool))]
    at = 0
    for other, n in slots:
        state.players[other].hand = pool[at : at + n]
        at += n
    state.deck = pool[at:]
    if view.ballot is not None:
        state.votes[seat] = view.ballot
    # The view shows neither the seed nor the dice key: the sample rolls SplitMix64 dice.
    state.options = msgspec.structs.replace(state.options, dice="splitmix64")
    world = world if world is not None else load_world(state.options.rules.map)
    game = Game(state, world, undoable=False)  # a bot's sample: bots never take back
    # Ballots already cast by others in an open election are hidden: draw them.
    from .titles import votes_of

    ctx = Ctx(state, world, dice)
    owing = {d.player for d in state.pending if d.kind == "vote"}
    if owing:
        cast = [p.seat for p in state.players if p.seat != seat and p.seat not in owing and votes_of(ctx, p.seat) > 0]
        _redraw_ballots(game, cast, dice)
    state.rng = seed_to_state(fresh_seed(dice))
    return game


def _redraw_ballots(game: Game, seats: list[int], dice: SeededDice) -> None:
    """Each of `seats` votes for its own candidate if it has one, else for a random one."""
    if not seats:
        return
    from .titles import candidates

    state = game.state
    ctx = Ctx(state, game.world, dice)
    names = candidates(ctx)
    if not names:
        return
    for s in seats:
        own = [g for g in names if state.generals[g].owner == s]
        choices = own or names
        state.votes[s] = choices[dice.roll(len(choices)) - 1]


# --- a heuristic evaluation, for searches that cut their rollouts -----------------------------


def material(game: Game) -> list[float]:
    """A rough worth of each seat's position (0 for an eliminated player): victory points
    dominate (4 each); then progress toward Judge titles not yet owned (2 x the squared share
    of each sustaining region's standing settlements), settlements (0.8), income (0.4 a coin),
    free generals (0.8), troops (0.15) and coins (0.05)."""
    rules = game.state.options.rules
    from .victory import score

    state, world = game.state, game.world
    n = len(state.players)
    settlements = [0] * n
    income = [0] * n
    troops = [0] * n
    generals = [0] * n
    progress = [0.0] * n
    for g in state.generals.values():
        if g.captor is None:
            generals[g.owner] += 1
            troops[g.owner] += g.army
    control = control_map(state, world)
    for r, region in enumerate(world.regions):
        standing = 0
        held = [0] * n
        for i in region.settlements:
            s = state.settlements[i]
            if s.razed:
                continue
            standing += 1
            owner = control[i]
            if owner is None or owner < 0:
                continue
            held[owner] += 1
            settlements[owner] += 1
            income[owner] += base_value(state, world, i)
            if s.owner == owner:
                troops[owner] += s.troops
        if standing >= rules.settlements_to_sustain_judge and state.titles[r].in_play:
            for seat in range(n):
                if held[seat] and state.titles[r].owner != seat:
                    progress[seat] += region_share(state, world, r, seat, control) ** 2
    out = []
    for seat, player in enumerate(state.players):
        if player.eliminated:
            out.append(0.0)
            continue
        points = score(state, world, seat)["total"]
        out.append(
            4.0 * points
            + 2.0 * progress[seat]
            + 0.8 * settlements[seat]
            + 0.4 * income[seat]
            + 0.8 * generals[seat]
            + 0.15 * troops[seat]
            + 0.05 * player.coins
        )
    return out
