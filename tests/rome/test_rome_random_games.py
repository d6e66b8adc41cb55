"""Random games of 3 to 6 factions, played by the random bot to their end: they end (a winner,
or Rome falls), never crash, keep every invariant after every action (cards conserved, money
never negative, one holder per office, a faction leader among his own, Rome's units within 25
legions and 25 fleets, a rebel's among them; veterans' allegiance owed by living senators), and
replay identically from options + log; reading any seat's legal actions or view changes nothing."""

from __future__ import annotations

import os
from collections import Counter

import msgspec
import pytest

from judges.rome.bots.random_bot import RandomRomeBot
from judges.rome.cards import ERA_ENDS, load_deck
from judges.rome.engine.game import RomeGame
from judges.rome.engine.legions import Army
from judges.rome.engine.state import OFFICES, RomeOptions, RomeState, card_places, state_to_json
from judges.rome.engine.view import player_view

DECK = load_deck()
ALL_CARDS = set(DECK.deck_cards("early")) | {"punic_1", ERA_ENDS}
GAMES = int(os.environ.get("ROME_GAMES", "100"))  # ROME_GAMES=2000 for a long run


def in_the_field(state: RomeState, senator: str) -> bool:
    """A senator in the field commands a force, or is the Master of Horse riding with the
    Dictator's force (R113) or with the army of the Dictator declared in revolt until the revolt
    stands (R239)."""
    s = state.senators[senator]
    dictator = next((o.id for o in state.senators.values() if o.office == "dictator"), None)
    if any(f.commander == senator for f in state.forces):
        return True
    if s.office != "master_of_horse" or dictator is None:
        return False
    candidate = state.scratch.get("candidate")
    return any(f.commander == dictator for f in state.forces) or (
        candidate is not None and candidate["rebel"] == dictator
    )


def invariants(game: RomeGame) -> None:
    state = game.state
    counts = Counter(card for card, _ in card_places(state))
    assert set(counts) == ALL_CARDS and max(counts.values()) == 1, counts.most_common(3)
    assert state.treasury >= 0 or (state.result is not None and state.result.ending == "bankruptcy")
    assert state.unrest >= 0
    for f in state.factions:
        assert f.treasury >= 0
        assert f.leader == "" or state.senators[f.leader].faction == f.seat
    for office in OFFICES:
        assert sum(1 for s in state.senators.values() if s.office == office) <= 1
    for s in state.senators.values():
        assert s.talents >= 0 and s.knights >= 0
        assert s.location != "field" or in_the_field(state, s.id), s.id
    rebels = state.rebellion
    if rebels is not None:  # the primary rebel is in revolt, with at least nothing negative
        assert state.senators[rebels.rebel].location == "rebel" and 0 <= rebels.veterans <= rebels.legions
    legions = state.units.legions + sum(f.legions for f in state.forces) + (rebels.legions if rebels else 0)
    armies: list[Army] = [state.units, *state.forces, *([rebels] if rebels else [])]
    for army in armies:  # allegiance (R225)
        assert 0 <= army.veterans <= army.legions and sum(army.loyal.values()) <= army.veterans
        assert all(n > 0 and sid in state.senators for sid, n in army.loyal.items())
    fleets = state.units.fleets + sum(f.fleets for f in state.forces)
    assert 0 <= legions <= 25 and 0 <= fleets <= 25
    assert state.units.veterans <= state.units.legions
    if not game.over:
        assert game.state.pending


def play(players: int, seed: int, read_all: bool = False) -> RomeGame:
    """A game of the random bots; `read_all`: before each action every seat's legal actions and
    view are read (as a server shows them), which must leave the position as it was (a replay
    reads none of them)."""
    game = RomeGame.new(RomeOptions(players=players, seed=seed))
    bots = [RandomRomeBot(seed * 31 + seat) for seat in range(players)]
    invariants(game)
    while not game.over and game.state.pending:
        if read_all:
            before = state_to_json(game.state)
            for other in range(players):
                game.legal_actions(other)
                player_view(game.state, other)
            assert state_to_json(game.state) == before, (players, seed, len(game.log))
        seat = game.state.pending[0].player
        legal = game.legal_actions(seat)
        assert legal
        game.apply(bots[seat].choose(legal))
        invariants(game)
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_the_invariants_and_replay(players):
    endings: Counter[str] = Counter()
    for seed in range(GAMES // 4):
        game = play(players, seed + 1000 * players, read_all=seed % 5 == 0)
        assert game.over, (players, seed)
        assert game.state.result is not None
        endings[game.state.result.ending] += 1
        if seed % 5 == 0:
            again = RomeGame.replay(game.state.options, game.log_as_dicts())
            assert state_to_json(again.state) == state_to_json(game.state)
    assert sum(endings.values()) == GAMES // 4


#: the choices the factions make at once and in secret (docs/rome/rules-reference.md, "Choices
#: made at once"), by the kind of decision they answer, and the actions that are such a choice
#: (announcing an assassination, playing a tribune or appealing while a vote is owed are public)
SECRET_CHOICES = {
    "spoils": ("spoils",),
    "grain": ("grain",),
    "sponsor_consent": ("consent",),
    "vote": ("vote", "split_vote"),
    "discard": ("discard",),
}
#: how a view marks another faction's choice made but not yet revealed (a ballot: "voted")
MARKERS = ("voted", "answered")


def learned(view: dict) -> dict:
    """What a view tells beyond who still owes and who made a choice still secret (the markers
    are in its scratch)."""

    def strip(data):  # the markers are values of dicts (never inside a list)
        if isinstance(data, dict):
            return {k: strip(v) for k, v in data.items() if not (isinstance(v, str) and v in MARKERS)}
        return data

    return {k: strip(v) if k == "scratch" else v for k, v in view.items() if k != "pending"}


def floor_of(state: RomeState) -> object:
    """The proposal being voted, if any."""
    return (state.scratch.get("senate") or {}).get("floor")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_view_shows_another_factions_secret_choice_before_the_rules_reveal_it(players):
    """Whenever a faction makes a secret choice and others still owe theirs, every other seat's
    view and a spectator's tell nothing more than before but that it chose. Every other game
    keeps one card in hand (the discards come more often)."""
    from judges.rome.engine.actions import action_to_dict
    from judges.rome.engine.decisions import KINDS
    from judges.rome.engine.rules import DEFAULT_ROME_RULES

    seen: Counter[str] = Counter()
    one_card = msgspec.structs.replace(DEFAULT_ROME_RULES, hand_limit=1)
    for seed in range(max(2, GAMES // 20)):
        rules = one_card if seed % 2 else DEFAULT_ROME_RULES
        game = RomeGame.new(RomeOptions(players=players, seed=seed + 7000 * players, rules=rules))
        bots = [RandomRomeBot(seed * 37 + seat) for seat in range(players)]
        while not game.over and game.state.pending:
            seat = game.state.pending[0].player
            action = bots[seat].choose(game.legal_actions(seat))
            kind = next(
                d.kind for d in game.state.pending if d.player == seat and type(action) in KINDS[d.kind].actions
            )
            secret = action_to_dict(action)["type"] in SECRET_CHOICES.get(kind, ())
            before = [learned(player_view(game.state, s)) for s in [*range(players), None]] if secret else []
            owing = {d.player for d in game.state.pending if d.kind == kind}
            floor = floor_of(game.state)
            game.apply(action)
            still = {d.player for d in game.state.pending if d.kind == kind}
            if not secret or not still or not still <= owing or floor_of(game.state) != floor:
                continue  # the last choice reveals them all (a special trial's resumes the vote it interrupted)
            seen[kind] += 1
            for other, view in zip([*range(players), None], before):
                if other != seat:
                    after = learned(player_view(game.state, other))
                    assert after == view, (players, seed, len(game.log), kind, other)
    assert seen["vote"], seen
