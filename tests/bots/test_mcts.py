"""The search protocol (engine/search.py) and the MCTS bot (bots/mcts.py)."""

from __future__ import annotations

import math
from collections import Counter

import msgspec
import pytest

from judges.bots import MCTSBot, make_bot, parse_bot_spec
from judges.bots.mcts import PURCHASES_SEARCHED
from judges.engine import DEFAULT_RULES, Game, Options
from judges.engine.search import SearchState, chance_outcomes_d6, game_from_view, material, unseen_cards


def positions(players: int = 3, seed: int = 5, every: int = 23, bot: str = "greedy") -> list[Game]:
    """Copies of a seeded bot game every `every` actions, to the end."""
    game = Game.new(Options(players=players, seed=seed, round_limit=30))
    bots = [make_bot(bot, seed * 100 + s) for s in range(players)]
    out, n = [], 0
    while not game.is_over:
        if n % every == 0:
            out.append(game.clone())
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
        n += 1
    out.append(game)
    return out


POSITIONS = positions() + positions(players=4, seed=2, every=41, bot="random")


def live_decisions(games: list[Game], min_legal: int = 2):
    """(game, seat, legal) for each live position whose first owing seat has a choice."""
    for game in games:
        if game.is_over:
            continue
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if len(legal) >= min_legal:
            yield game, seat, legal


def hidden(game: Game, seat: int) -> tuple:
    s = game.state
    return (tuple(s.deck), tuple(tuple(p.hand) for p in s.players if p.seat != seat), s.rng)


def test_determinize_never_changes_what_the_seat_sees():
    for game in POSITIONS:
        s = SearchState(game)
        for seat in range(len(game.state.players)):
            before = game.view(seat, notifications=False)
            for k in range(3):
                d = s.determinize(seat, 1000 * seat + k)
                assert d.view(seat) == before
                assert list(d.game.legal_actions(seat)) == list(game.legal_actions(seat))
            assert game.view(seat, notifications=False) == before  # the original is untouched


def test_determinize_keeps_the_cards_and_the_hand_sizes():
    for game in POSITIONS:
        for seat in range(len(game.state.players)):
            d = SearchState(game).determinize(seat, 7).game.state

            def pool(st):
                return Counter(st.deck) + sum((Counter(p.hand) for p in st.players if p.seat != seat), Counter())

            assert pool(d) == pool(game.state)
            assert [len(p.hand) for p in d.players] == [len(p.hand) for p in game.state.players]


def test_determinize_changes_the_hidden_parts_for_different_seeds():
    checked = 0
    for game in POSITIONS:
        s = SearchState(game)
        for seat in range(len(game.state.players)):
            samples = [hidden(s.determinize(seat, seed).game, seat) for seed in range(8)]
            assert len({h[2] for h in samples}) == 8  # the dice always change
            cards = {(h[0], tuple(tuple(sorted(hand)) for hand in h[1])) for h in samples}
            unseen = len(game.state.deck) + sum(len(p.hand) for p in game.state.players if p.seat != seat)
            if len(set(unseen_cards(game.view(seat, notifications=False)))) >= 2:
                assert len(cards) >= 2  # the deck order or the other hands change
            if unseen >= 12:
                assert len(cards) == 8
                checked += 1
    assert checked > 20


def test_game_from_view_round_trips_the_public_state():
    for game in POSITIONS:
        for seat in range(len(game.state.players)):
            view = game.view(seat, notifications=False)
            rebuilt = game_from_view(view, seed=seat)
            # Everything but the dice's commitment: the rebuilt game rolls dice of its own seed.
            again = rebuilt.view(seat, notifications=False)
            assert again.dice.commitment != view.dice.commitment
            assert msgspec.structs.replace(again, dice=view.dice) == view
            assert list(rebuilt.legal_actions(seat)) == list(game.legal_actions(seat))
            assert len(unseen_cards(view)) == len(game.state.deck) + sum(
                len(p.hand) for p in game.state.players if p.seat != seat
            )
            assert view == game.view(seat, notifications=False)  # the view was not changed


def test_game_from_view_is_playable_and_reproducible():
    game = POSITIONS[3]
    seat = game.waiting_for()[0]
    view = game.view(seat, notifications=False)
    a, b = game_from_view(view, seed=9), game_from_view(view, seed=9)
    assert a.state_json() == b.state_json()
    s = SearchState(a)
    for _ in range(50):
        if s.is_terminal():
            break
        s.apply(s.legal_actions()[0])


def test_search_state_protocol():
    game = POSITIONS[2]
    s = SearchState(game)
    assert s.current_player() == game.waiting_for()[0]
    c = s.clone()
    c.apply(c.legal_actions()[-1])
    assert s.game.state_json() == game.state_json() and c.game.state_json() != game.state_json()
    end = SearchState(POSITIONS[0])  # a live position
    assert not end.is_terminal() and end.returns() == [0.0] * len(end.game.state.players)
    over = next(g for g in POSITIONS if g.is_over and g.state.winners)
    r = SearchState(over).returns()
    assert sum(r) == pytest.approx(1.0)
    assert [seat for seat, x in enumerate(r) if x > 0] == over.state.winners
    assert SearchState(over).current_player() is None and SearchState(over).legal_actions() == []
    outcomes = chance_outcomes_d6()
    assert [f for f, _ in outcomes] == [1, 2, 3, 4, 5, 6] and sum(p for _, p in outcomes) == pytest.approx(1)


def test_returns_split_a_shared_victory_and_give_nothing_without_winner():
    game = POSITIONS[-1].clone()
    game.state.ending, game.state.winners = "three_points", [0, 2]
    assert SearchState(game).returns() == [0.5, 0.0, 0.5, 0.0]
    game.state.ending, game.state.winners = "collapse", []
    assert SearchState(game).returns() == [0.0, 0.0, 0.0, 0.0]


def test_bot_specs():
    assert make_bot("mcts", 1).iterations == 32 and make_bot("mcts", 1).horizon == 2
    assert make_bot("mcts", 1).buys == {2: None, 3: 3, 4: 3, 5: 3, 6: 3} and make_bot("mcts", 1).early
    assert make_bot("mcts", 1).early_samples == 2  # two samples a candidate before an early stop
    assert make_bot("mcts", 1).temperature == 2.0 and make_bot("mcts", 1).margin == 0.01
    assert make_bot("mcts", 1).horizon_seats is None  # the horizon is counted in rounds
    assert make_bot("mcts:400", 1).iterations == 400
    bot = make_bot("mcts:12:3", 1)
    assert (bot.iterations, bot.horizon) == (12, 3)
    assert parse_bot_spec("greedy") == ("greedy", {})
    # samples a candidate before an early stop, written out
    cheap = make_bot("mcts:16:2:1", 1)
    assert (cheap.iterations, cheap.horizon, cheap.early_samples) == (16, 2, 1)
    assert parse_bot_spec("mcts:16:2:1") == ("mcts", {"iterations": 16, "horizon": 2, "early_samples": 1})
    for bad in ("mcts:x", "mcts:0", "greedy:3", "nobot", "mcts:1:2:3:4", "mcts:16:2:0"):
        with pytest.raises(ValueError):
            make_bot(bad, 1)


def test_the_leaf_evaluation_is_calibrated_where_rollouts_stop():
    """Scored where a rollout stops (as a round's announcements end), greedy games' winners are
    predicted better by the softmax of material at temperature 10 than at the bot's default 2
    (overconfident) or by equal chances (bench/material_temperature.py measures it in full)."""
    from judges.bots.value import horizon_samples, softmax_log_loss

    samples = [s for seed in range(20000, 20030) for s in horizon_samples(seed, 2)]
    assert len(samples) > 60
    loss = softmax_log_loss(samples, 10.0)
    assert loss < math.log(2) and loss < softmax_log_loss(samples, MCTSBot(seed=1).temperature) - 0.2


def test_horizon_samples_are_taken_as_the_announcements_end():
    from judges.bots.value import horizon_samples

    samples = horizon_samples(21, 2)
    assert samples and all(len(worth) == 2 and all(alive) for worth, alive, _ in samples)
    assert {tuple(label) for _, _, label in samples} in ({(1.0, 0.0)}, {(0.0, 1.0)}, {(0.5, 0.5)})
    assert len(samples) <= 60  # one a round at most


def test_the_margin_scales_with_the_temperature():
    """The margin is the same advantage in material between level seats at any temperature:
    0.01 at the default 2, 0.002 at 10; an explicit margin is kept."""
    assert MCTSBot(seed=1).margin == pytest.approx(0.01)
    assert MCTSBot(seed=1, temperature=10.0).margin == pytest.approx(0.002)
    assert MCTSBot(seed=1, temperature=2.0, margin=0.05).margin == 0.05


def test_the_evaluation_is_a_softmax_of_material_at_the_temperature():
    game = POSITIONS[len(POSITIONS) // 2]
    worth = material(game)
    for t in (2.0, 10.0):
        got = MCTSBot(seed=1, temperature=t).evaluate(SearchState(game))
        weights = [math.exp(w / t) for w in worth]
        assert got == pytest.approx([w / sum(weights) for w in weights])
    # the calibrated one is flatter: the leader's share is smaller at 10 than at 2
    leader = max(range(len(worth)), key=worth.__getitem__)
    flat, sharp = (MCTSBot(seed=1, temperature=t).evaluate(SearchState(game))[leader] for t in (10.0, 2.0))
    assert flat < sharp


def test_the_horizon_is_counted_in_turns():
    """With `horizon_seats=2`, `horizon` rounds of a 2-player game: two rounds with two
    players, one with three to six (the nearest whole number of rounds with as many turns, one
    at least); by default, rounds at every player count."""
    bot = MCTSBot(seed=1, horizon_seats=2)
    assert [bot.rounds_ahead(n) for n in range(2, 7)] == [2, 1, 1, 1, 1]
    assert [MCTSBot(seed=1, horizon=4, horizon_seats=2).rounds_ahead(n) for n in range(2, 7)] == [4, 3, 2, 2, 1]
    assert [MCTSBot(seed=1, horizon=1, horizon_seats=2).rounds_ahead(n) for n in range(2, 7)] == [1] * 5
    assert [MCTSBot(seed=1).rounds_ahead(n) for n in range(2, 7)] == [2] * 5


@pytest.mark.parametrize("players, horizon_seats, rounds", [(2, None, 2), (4, None, 2), (2, 2, 2), (4, 2, 1)])
def test_a_rollout_ends_after_the_announcements_of_the_round_its_horizon_reaches(
    monkeypatch, players, horizon_seats, rounds
):
    game = Game.new(Options(players=players, seed=11, round_limit=30))
    bots = [make_bot("greedy", s) for s in range(players)]
    while game.state.round < 3 or game.state.phase != 4:  # an Acquisitions phase of round 3
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
    seat = game.waiting_for()[0]
    start = game.state.round
    ends = []
    bot = MCTSBot(seed=1, horizon_seats=horizon_seats)

    def evaluate(s):
        ends.append((s.game.state.round, s.game.state.phase))
        return [0.0] * players

    monkeypatch.setattr(bot, "evaluate", evaluate)
    end_turn = next(a for a in game.legal_actions(seat) if type(a).__name__ == "EndTurn")
    bot._playout(SearchState(game.clone()), seat, end_turn, start)
    assert ends == [(start + rounds, 2)]  # the Intrigue phase of that round: its announcements are over


def test_mcts_returns_a_legal_action_and_is_reproducible():
    tried = 0
    for game, seat, legal in live_decisions(POSITIONS[:12]):

        def view():
            return game.view(seat, notifications=False)

        first = MCTSBot(seed=3, iterations=6).choose(seat, legal, view)
        again = MCTSBot(seed=3, iterations=6).choose(seat, legal, view)
        assert first in legal and first == again
        tried += 1
    assert tried >= 5


def test_mcts_beats_random_in_most_short_two_player_games():
    """Seeded, hence deterministic: 3 seeds x both seats, round cap 30."""
    wins = 0
    for seed in (1, 2, 3):
        for mcts_seat in (0, 1):
            game = Game.new(Options(players=2, seed=seed, round_limit=30))
            bots = [make_bot("mcts:4:1" if s == mcts_seat else "random", seed * 100 + s) for s in range(2)]
            while not game.is_over:
                seat = game.waiting_for()[0]
                legal = list(game.legal_actions(seat))
                game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
            wins += mcts_seat in game.state.winners
    assert wins >= 4


def test_the_bot_reads_the_deck_from_the_constants():
    game = POSITIONS[1]
    view = game.view(0, notifications=False)
    assert Counter(unseen_cards(view)) + Counter(view.state.players[0].hand) + Counter(view.state.discard) + Counter(
        view.state.events_area
    ) + Counter(e.card for e in view.state.events_landed) == Counter(DEFAULT_RULES.deck)


# --- the search itself ----------------------------------------------------------------------


def _live_decision(min_legal: int = 3):
    return next(live_decisions(POSITIONS, min_legal))


def test_candidates_start_with_the_greedy_choice_and_are_distinct_legal_actions():
    checked = 0
    for game, seat, legal in live_decisions(POSITIONS):
        view = game.view(seat, notifications=False)
        bot = MCTSBot(seed=1, width=3)
        greedy = bot._greedy.choose(seat, legal, lambda: view)
        cands = bot.candidates(seat, legal, view, greedy)
        assert cands[0] == greedy
        assert all(c in legal for c in cands)
        assert len({repr(c) for c in cands}) == len(cands)
        ends = [a for a in legal if type(a).__name__ == "EndTurn"]
        assert all(e in cands for e in ends)  # ending the turn is always weighed
        assert len(cands) <= 1 + len(ends) + 3
        checked += 1
    assert checked >= 5


def test_sequential_halving_finds_the_best_candidate(monkeypatch):
    """With scripted rollout values, the search returns the best candidate, drops the others
    round by round, and spends about its budget."""
    game, seat, legal = _live_decision()
    cands = legal[:4]
    worth = {repr(cands[0]): 0.2, repr(cands[1]): 0.1, repr(cands[2]): 0.9, repr(cands[3]): 0.5}
    played = []

    def playout(self, s, seat_, action, start_round):
        played.append(repr(action))
        return worth[repr(action)]

    monkeypatch.setattr(MCTSBot, "_playout", playout)
    bot = MCTSBot(seed=2, iterations=40, margin=0.05)
    choice = bot._halve(SearchState(game.clone()), seat, cands, game.state.round)
    assert choice == cands[2]
    # round 1: 4 candidates x 5 samples; round 2: the best two x 10 samples
    assert Counter(played) == {repr(cands[0]): 5, repr(cands[1]): 5, repr(cands[2]): 15, repr(cands[3]): 15}


def test_the_greedy_choice_stands_unless_an_alternative_beats_it_by_the_margin(monkeypatch):
    game, seat, legal = _live_decision()
    cands = legal[:3]
    monkeypatch.setattr(MCTSBot, "_playout", lambda self, s, seat_, action, r: 0.50 + 0.02 * (action == cands[1]))
    assert (
        MCTSBot(seed=2, iterations=30, margin=0.05)._halve(SearchState(game.clone()), seat, cands, game.state.round)
        == cands[0]
    )
    assert (
        MCTSBot(seed=2, iterations=30, margin=0.01)._halve(SearchState(game.clone()), seat, cands, game.state.round)
        == cands[1]
    )


def test_the_choice_depends_only_on_the_view():
    """Two games that differ only in what the seat cannot see (other hands, deck order, dice)
    get the same decision from the same seeded bot: it searches samples, never the truth."""
    checked = 0
    for game, seat, _legal in live_decisions(POSITIONS[:10], min_legal=3):
        other = SearchState(game).determinize(seat, 12345).game
        assert other.view(seat, notifications=False) == game.view(seat, notifications=False)
        assert other.state_json() != game.state_json()
        picks = [
            MCTSBot(seed=4, iterations=8).choose(
                seat, list(g.legal_actions(seat)), lambda g=g: g.view(seat, notifications=False)
            )
            for g in (game, other)
        ]
        assert picks[0] == picks[1]
        checked += 1
    assert checked >= 3


def test_a_search_stops_after_its_first_stage_when_nothing_comes_near_greedy(monkeypatch):
    """Greedy's candidate ahead of every other on the first stage's samples: the rest of the
    budget is not spent and greedy's choice stands; without the early stop, the whole budget."""
    game, seat, legal = _live_decision()
    cands = legal[:4]
    played = []

    def playout(self, s, seat_, action, start_round):
        played.append(repr(action))
        return 0.6 if action == cands[0] else 0.5

    monkeypatch.setattr(MCTSBot, "_playout", playout)
    bot = MCTSBot(seed=2, iterations=40)
    assert bot._halve(SearchState(game.clone()), seat, cands, game.state.round) == cands[0]
    assert len(played) == 4 * 5 and bot.stopped == 1  # stage 1 only: 4 candidates x 5 samples
    played.clear()
    full = MCTSBot(seed=2, iterations=40, early=False)
    assert full._halve(SearchState(game.clone()), seat, cands, game.state.round) == cands[0]
    assert len(played) == 4 * 5 + 2 * 10 and full.stopped == 0


def test_no_early_stop_before_every_candidate_has_its_samples(monkeypatch):
    """Six candidates at 32 rollouts: one sample each on the first stage of three; with
    `early_samples=2` each gets two before the search may stop early."""
    game, seat, legal = _live_decision(min_legal=6)
    cands = legal[:6]
    played = []

    def playout(self, s, seat_, action, start_round):
        played.append(repr(action))
        return 0.6 if action == cands[0] else 0.5

    monkeypatch.setattr(MCTSBot, "_playout", playout)
    one = MCTSBot(seed=2, iterations=32, early_samples=1)
    assert one._halve(SearchState(game.clone()), seat, cands, game.state.round) == cands[0]
    assert len(played) == 6 and one.stopped == 1
    played.clear()
    two = MCTSBot(seed=2, iterations=32, early_samples=2)
    assert two._halve(SearchState(game.clone()), seat, cands, game.state.round) == cands[0]
    assert Counter(played) == {repr(c): 2 for c in cands} and two.stopped == 1


def test_a_search_goes_on_when_an_alternative_is_ahead_by_half_the_margin(monkeypatch):
    game, seat, legal = _live_decision()
    cands = legal[:2]  # two candidates: still two stages, so that the search may stop after one
    played = []

    def playout(self, s, seat_, action, start_round):
        played.append(repr(action))
        return 0.5 + 0.006 * (action == cands[1])  # ahead by more than half the margin (0.005)

    monkeypatch.setattr(MCTSBot, "_playout", playout)
    bot = MCTSBot(seed=2, iterations=32, margin=0.01)
    # 0.006 is under the margin itself: the search goes to the end, and greedy still stands
    assert bot._halve(SearchState(game.clone()), seat, cands, game.state.round) == cands[0]
    assert Counter(played) == {repr(cands[0]): 16, repr(cands[1]): 16} and bot.stopped == 0


def _acquisitions_turn(players: int = 2, seed: int = 11) -> Game:
    """A game of greedy bots played to its first Acquisitions turn with several purchases."""
    game = Game.new(Options(players=players, seed=seed, round_limit=30))
    bots = [make_bot("greedy", s) for s in range(players)]
    while not game.is_over:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if game.state.phase == 4 and sum(type(a).__name__ == "Buy" for a in legal) >= 3:
            return game
        game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
    raise AssertionError("no Acquisitions turn")


def _purchases_searched(monkeypatch, players: int, bot: MCTSBot) -> dict[int, list[int]]:
    """Plays `bot` in a seat of a greedy game through three Acquisitions phases (the search
    answers greedy's choice at once): round -> searched or not, for each of its purchases."""
    monkeypatch.setattr(MCTSBot, "_halve", lambda self, base, seat, cands, r: cands[0])
    game = _acquisitions_turn(players)
    mine = game.waiting_for()[0]
    greedy = make_bot("greedy", 0)
    searched: dict[int, list[int]] = {}
    while not game.is_over and len(searched) < 3:
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        if seat != mine:
            game.apply(greedy.choose(seat, legal, lambda: game.view(seat, notifications=False)))
            continue
        before, phase, round_ = bot.searched, game.state.phase, game.state.round
        game.apply(bot.choose(seat, legal, lambda: game.view(seat, notifications=False)))
        if phase == 4 and len(legal) > 1:
            searched.setdefault(round_, []).append(bot.searched - before)
    return searched


@pytest.mark.parametrize(
    ("players", "buys", "limit"), [(2, 2, 2), (3, "default", 3), (4, "default", 3), (4, {4: 1}, 1)]
)
def test_only_the_first_purchases_of_a_phase_are_searched(monkeypatch, players, buys, limit):
    """After `buys` searched purchases in an Acquisitions phase (three by default with three
    players or more) the bot buys as greedy does, without searching; the count starts again in
    the next round's Acquisitions."""
    kwargs = {} if buys == "default" else {"buys": buys}
    searched = _purchases_searched(monkeypatch, players, MCTSBot(seed=1, iterations=4, **kwargs))
    rounds = [r for r, marks in searched.items() if len(marks) > limit]
    assert rounds, f"no phase with more than {limit} purchases"
    for r in rounds:
        assert searched[r][:limit] == [1] * limit and sum(searched[r]) == limit  # the first ones, no more


def test_two_player_games_search_every_purchase_by_default(monkeypatch):
    """With two players the default searches every purchase that has a choice: the cap's
    evidence there was a tie and the games are cheap (docs/bots.md)."""
    assert PURCHASES_SEARCHED[2] is None
    searched = _purchases_searched(monkeypatch, 2, MCTSBot(seed=1, iterations=4))
    assert any(sum(marks) > 3 for marks in searched.values()), searched
