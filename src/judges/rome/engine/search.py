"""A playable Rome position from one faction's view, for search (the game protocol's
`from_view`/`determinize`): what the view hides is filled with a plausible sample.

Hidden from a faction (view.py): the other hands (it sees their sizes), the deck's order (its
size), the other faction treasuries, the others' secret ballots of a vote in progress and their
other secret choices made at once (spoils, grain, a sponsor's consent, discards), and the
dice. The sample deals the cards it cannot see (every card of the game minus those it sees)
into the other hands and the deck, each keeping its size; gives every other faction treasury
the viewer's own amount (no better estimate is public); redraws each secret ballot as yea or
nay with no bought votes and each other secret choice with its kind's `guess` (a faction still
choosing its discards chooses them again); and seeds the dice anew, so every die still to roll
is new.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

import msgspec

from ...engine.dice import SPLITMIX64, SeededDice, seed_to_state
from ..cards import ERA_ENDS, load_deck
from .state import RomeOptions, RomeState, card_places

BALLOT_CHOICES = ("yea", "nay")
HAND_KINDS = ("statesman", "concession", "intrigue")


class _Rng:
    __slots__ = ("rng",)

    def __init__(self, seed: int) -> None:
        self.rng = seed_to_state(seed)


@lru_cache(maxsize=32)
def _all_cards(options_json: bytes) -> tuple[str, ...]:
    """Every card a game of these options holds, wherever it is (the same cards whatever the seed)."""
    from .game import RomeGame

    options = msgspec.json.decode(options_json, type=RomeOptions)
    return tuple(sorted(c for c, _ in card_places(RomeGame.new(options).state)))


def unseen_cards(state: RomeState) -> list[str]:
    """The cards of the game `state` does not place (its hidden hands and deck emptied)."""
    options = msgspec.structs.replace(state.options, seed=0, key=None, dice=SPLITMIX64)
    left = Counter(_all_cards(msgspec.json.encode(options)))
    left.subtract(c for c, _ in card_places(state))
    return sorted(left.elements())


def state_from_view(view: dict[str, Any], seat: int, seed: int) -> RomeState:
    """A full RomeState consistent with `seat`'s view (view.player_view), sampled from `seed`."""
    data = msgspec.msgpack.decode(msgspec.msgpack.encode(view))  # a deep copy, several times deepcopy's speed
    data["options"]["dice"] = SPLITMIX64
    data["options"]["key"] = None
    deck_size = data["deck"]
    data["deck"] = []
    sizes: dict[int, int] = {}
    own = next(f for f in data["factions"] if f["seat"] == seat)
    for f in data["factions"]:
        if f["seat"] != seat:
            sizes[f["seat"]] = f["hand"]
            f["hand"] = []
            f["treasury"] = own["treasury"]
    dice = SeededDice(_Rng(seed))
    sitting = data["scratch"].get("senate")
    # the vote on the floor, and one waiting for a special trial (view.py hides both)
    for holder in (sitting, (sitting or {}).get("suspended")):
        ballots: dict[str, Any] = (holder or {}).get("ballots") or {}
        for k, v in ballots.items():
            if v == "voted":
                ballots[k] = [BALLOT_CHOICES[dice.roll(len(BALLOT_CHOICES)) - 1], 0]
    state = msgspec.convert(data, RomeState)
    deck = load_deck(state.options.rules.deck)
    pool = unseen_cards(state)
    dice.shuffle(pool)
    # only faction cards are ever held in a hand (statesmen, concessions, intrigue)
    holdable = [c for c in pool if deck.kind_of(c) in HAND_KINDS]
    for f in state.factions:
        if f.seat in sizes:
            f.hand, holdable = holdable[: sizes[f.seat]], holdable[sizes[f.seat] :]
    dealt = {c for f in state.factions if f.seat in sizes for c in f.hand}
    rest = [c for c in pool if c not in dealt]
    # the Era Ends card was shuffled into the deck's bottom block (setup.deal)
    if ERA_ENDS in rest:
        rest.remove(ERA_ENDS)
        block = min(deck.setup.bottom_block_early + 1, len(rest) + 1)
        rest.insert(dice.roll(block) - 1, ERA_ENDS)
    state.deck = rest[:deck_size]
    _guess_held(state, dice)
    state.rng = seed_to_state(dice.roll(1 << 30) ^ (dice.roll(1 << 30) << 30))
    return state


def _guess_held(state: RomeState, dice: SeededDice) -> None:
    """The others' secret choices made at once (view.ANSWERED), drawn anew from the sample."""
    from .context import Ctx
    from .decisions import KINDS
    from .view import ANSWERED, held_answers

    ctx: Ctx | None = None
    for kind in KINDS.values():
        answers = held_answers(state.scratch, kind.held) if kind.held and kind.guess else None
        if not answers or kind.guess is None:
            continue
        for k, v in list(answers.items()):
            if v != ANSWERED:
                continue
            if any(d.player == int(k) and d.kind == kind.name for d in state.pending):
                del answers[k]  # still choosing (its discards): it chooses again in the sample
                continue
            ctx = ctx or Ctx(state, dice)
            answers[k] = kind.guess(ctx, int(k))


def determinize(state: RomeState, seat: int, seed: int) -> RomeState:
    """A copy of a full state with what `seat` cannot see drawn anew (the search's sample)."""
    from .view import player_view

    return state_from_view(player_view(state, seat), seat, seed)
