"""The MCTS bot: information-set Monte Carlo search from its view only, greedy rollouts,
Sequential Halving over a few strong candidates at the root, stopped early when nothing comes
near the greedy choice.

A decision with one legal action is answered at once, and so is one where the greedy bot
proposes a free, undoable step (take/leave troops, pick up/drop the Ark) — and, with three
players or more, a purchase past the first three of an Acquisitions phase (`buys`): the troops
greedy buys one by one with what is left, which cost most of a 4-player game's search and seldom
changed anything (docs/bots.md, "Three purchases a phase"). Otherwise:

1. **Candidates.** The greedy bot ranks the options (`GreedyBot.ranked_buys`,
   `GreedyBot.move_plans`); the bot keeps the greedy choice, ending the turn when it may, and
   the next `width` options — for purchases the best of each kind of item, for movement the
   steps of each general toward its best and second-best goals, for the other decisions
   every option (votes, plunder, discards, cards to play…).
2. **Samples.** From its view it rebuilds a playable game (`engine.search.game_from_view`) and,
   for every sample, determinizes it again (`SearchState.determinize`: the other hands, the
   deck order, the others' ballots and every future die drawn anew), so it never uses what it
   cannot see.
3. **Rollouts.** Each candidate is played on a copy of the sample, then every seat plays as
   the greedy bot (reading the sample whole: `GreedyBot.choose_in_state`, no view to build)
   until the announcements of the round `horizon` rounds later are over (the next election
   and Victory Check included), or the game ends. With `horizon_seats=2` (not the default)
   the horizon is counted in turns — `horizon` rounds of a 2-player game, so with three to six
   players two rounds become one (`rounds_ahead`): 2.6x cheaper 4-player games, but a weaker
   search there (docs/bots.md). The rollout's actions come unchanged from
   the list the engine just enumerated, so they go through its trusted path
   (`Game.apply_legal`, no second validation). The end is scored by `returns()` if the game
   ended, else by a softmax of each seat's material (`engine.search.material`) at
   `temperature` 2 (overconfident where rollouts stop — 10 predicts the winners better,
   bench/material_temperature.py — but 10 did not play better: docs/bots.md). With a value
   model (`MCTSBot(..., value=bots.value.default_model())`) rollouts stop earlier, where that
   round begins, and the model's win chances score them: cheaper, but weaker as measured so
   far (docs/bots.md). **Common random numbers**: within one stage, all candidates are played
   on the same samples (same hidden cards, same dice state), so their comparison measures the
   decision rather than the luck of the draw. Two shortcuts that change no choice: a rollout
   whose position, once the searching seat's turn is over, another rollout of the same search
   reached (the same steps in another order, most often; `position_key`) ends with that one's
   reward, since the rest depends on the position only; and the greedy bot plays a whole
   Acquisitions turn from one `PurchasePlan`, updated by each purchase instead of listed and
   scored again.
4. **Sequential Halving** (Karnin, Koren & Somekh 2013; the root rule of Gumbel MuZero): the
   budget of `iterations` rollouts is split over ⌈log2 m⌉ stages (two at least); after each,
   the worse half of the candidates is dropped. The survivor is played — unless its paired
   advantage over the greedy choice, on the samples both were played on, is below `margin`:
   then greedy's choice stands (the search departs from a sound heuristic only for a
   measured reason).
5. **Early stop** (`early`): after a stage that is not the last, if no surviving candidate's
   paired advantage over the greedy choice reaches half the margin, the search stops there and
   greedy's choice stands — the rest of the budget could only confirm it. Most searches stop
   after their first stage; the budget goes to decisions where an alternative looks better.
   The first stage gives every candidate `early_samples` samples at least (two by default;
   with six candidates a 32-rollout budget would give one each), so no search stops on a
   single draw.

Why a flat root rather than a deep tree: a decision is one buy or one move (~150 a game) and
the budget is tens of rollouts, so a tree below the root would hold one or two visits a node;
the budget is better spent on longer, paired rollouts. docs/bots.md has the measurements.
"""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import msgspec

from ..engine import Action, Buy, DropArk, EndTurn, Game, LeaveTroops, Move, PickUpArk, TakeTroops
from ..engine.actions import action_to_json
from ..engine.dice import SeededDice, seed_to_state
from ..engine.errors import RuleError
from ..engine.search import SearchState, fresh_seed, game_from_view, material
from ..engine.state import GameState
from ..engine.view import PlayerView
from ..world import load_world
from .greedy import GreedyBot, PurchasePlan
from .seat_view import SeatView
from .value import ValueModel

# The leaf evaluation: a softmax of material at this temperature. It is overconfident where
# rollouts stop (10 predicts greedy games' winners best: bench/material_temperature.py), but the
# calibrated 10 did not play better against greedy, for more CPU (docs/bots.md), so 2 stays.
TEMPERATURE = 2.0
# margin x temperature: a paired advantage of `margin` in reward is, between level seats, the same
# advantage in material (0.08) whatever the temperature (0.01 at the default 2).
MARGIN_X_TEMPERATURE = 0.02
# None: the rollout horizon is `horizon` rounds at every player count. Counted in turns instead
# (2: `horizon` rounds of a 2-player game, one round with 3-6 players), 4-player games cost 2.6x
# less CPU but the search won much less often (docs/bots.md), so rounds stay the default.
HORIZON_SEATS: int | None = None
# Purchases searched an Acquisitions phase, by player count (None: all); the later ones follow
# greedy. Searching them all took 3-5x the CPU of whole 3-6 player games and won no more often on
# fresh seeds; with two players the evidence was a tie and the games are cheap, so they keep every
# purchase searched (docs/bots.md, "Three purchases a phase").
PURCHASES_SEARCHED: dict[int, int | None] = {2: None, 3: 3, 4: 3, 5: 3, 6: 3}

# Free, undoable steps: the greedy bot's proposal is followed, so no search walks in circles.
_REVERSIBLE = (TakeTroops, LeaveTroops, PickUpArk, DropArk)

_encode = msgspec.msgpack.Encoder().encode
# The most positions a bot keeps for transpositions (a search plays under a hundred rollouts).
REACHED_KEPT = 4096


def position_key(state: GameState) -> bytes:
    """The bytes of everything in `state` that the rest of a rollout can depend on: the whole
    state but what the rules only write (the reports, the coins spent by item, the notifications'
    numbering). Two positions with the same key play on alike: the rules, the dice (their state is
    `state.rng`), the greedy policy and the evaluation read nothing else."""
    return _encode(msgspec.structs.replace(state, report=[], round_log=[], spent={}, next_notification_id=0))


class Appraisal(NamedTuple):
    """One candidate of a search (`MCTSBot.appraise`)."""

    action: Action
    mean: float | None  # mean reward over its rollouts (None: not played)
    advantage: float | None  # mean (candidate - greedy's choice) on the samples both were played on
    samples: int


class MCTSBot:
    name = "mcts"

    def __init__(
        self,
        seed: int,
        iterations: int = 32,
        horizon: int = 2,
        width: int = 4,
        margin: float | None = None,
        temperature: float = TEMPERATURE,
        value: ValueModel | None = None,
        buys: int | None | Mapping[int, int | None] = PURCHASES_SEARCHED,
        early: bool = True,
        early_samples: int = 2,
        horizon_seats: int | None = HORIZON_SEATS,
        cpu_budget: float | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        if horizon < 1:
            raise ValueError("the rollout horizon is at least one round")
        if early_samples < 1:
            raise ValueError("every candidate gets one sample at least before an early stop")
        self.rng = seed_to_state(seed)
        self._dice = SeededDice(self)
        self._greedy = GreedyBot(seed)
        self.iterations = iterations
        self.horizon = horizon
        # None: the horizon is `horizon` rounds at every player count. A number: it is counted in
        # turns, as `horizon` rounds of a game of that many players (with more players, fewer
        # rounds, never under one): `rounds_ahead`.
        self.horizon_seats = horizon_seats
        self.width = width
        # The leaf evaluation's temperature and the margin scale together: a margin of
        # MARGIN_X_TEMPERATURE / T is the same advantage in material wherever the seats are level.
        self.temperature = temperature
        self.margin = MARGIN_X_TEMPERATURE / temperature if margin is None else margin
        # None: rollouts run through the announcements H rounds later and material scores them
        # (the measured default). A model: they stop where that round begins and it scores them
        # (cheaper; weaker so far, docs/bots.md).
        self.value = value
        # Purchases searched an Acquisitions phase (None: all), or a mapping by player count. The
        # first few decide where the money goes, the rest are the troops greedy buys one by one
        # with what is left, which the search seldom overrules (6 % of them in 12 4-player games)
        # at most of a game's CPU.
        self.buys = buys
        # Stop a search after a stage where no candidate is ahead of greedy's by half the margin.
        self.early = early
        # Samples each candidate gets on the first stage at least, before the search may stop early.
        self.early_samples = early_samples
        # Seconds of this thread's CPU one decision may take (the web server's bound): past it,
        # the search decides on the samples played so far. None: the whole budget, always (the
        # lab's and the simulations' games stay deterministic).
        self.cpu_budget = cpu_budget
        self.last_stats: tuple[list[Action], list[float], list[int], list[float], list[int]] | None = None
        self.out_of_time = 0  # searches cut by the CPU budget (for measurements)
        self.stopped = 0  # searches stopped early (for measurements)
        self._buying: tuple[int, int] = (0, 0)  # (round, purchases searched in its acquisitions)
        # Rollouts by where they stood when the searching seat's turn was over (`position_key`)
        # -> their reward, for rollouts that stop at the same round (`_reached_until`): a rollout
        # that reaches a position another one reached (the same steps in another order, most
        # often) ends with its reward. Emptied at each search, and kept small for callers that
        # play many rollouts with one bot (the hint, the review).
        self._reached: dict[bytes, float] = {}
        self._reached_until = 0
        self.transposed = 0  # rollouts ended that way (for measurements)
        self.calls = 0  # decisions with a choice so far (for measurements)
        self.searched = 0  # decisions searched so far (for measurements)
        self.departed = 0  # of them, those where the search overruled the greedy choice

    def max_rollouts(self) -> int:
        """The most rollouts one decision may play: the budget, and the first stage's minimum of
        `early_samples` for each of at most `width` + 2 candidates (greedy's, ending the turn)."""
        return self.iterations + (self.width + 2) * (self.early_samples if self.early else 0)

    def _seed(self) -> int:
        return fresh_seed(self._dice)

    # --- the decision ---------------------------------------------------------------------

    def choose(self, seat: int, legal: list[Action], view: Callable[[], PlayerView]) -> Action:
        if len(legal) == 1:
            return legal[0]
        self.calls += 1
        v = view()
        greedy = self._greedy.choose(seat, legal, lambda: v)
        if isinstance(greedy, _REVERSIBLE):
            return greedy
        cap = self.buys.get(len(v.state.players)) if isinstance(self.buys, Mapping) else self.buys
        buying = cap is not None and v.phase_name == "acquisitions"
        done = self._buying[1] if buying and self._buying[0] == v.round else 0
        if cap is not None and buying and done >= cap:
            return greedy
        cands = self.candidates(seat, legal, v, greedy)
        if len(cands) == 1:
            return greedy
        if buying:
            self._buying = (v.round, done + 1)
        self.searched += 1
        choice = self._halve(SearchState(game_from_view(v, self._seed())), seat, cands, v.round)
        self.departed += choice is not greedy
        return choice

    def _halve(self, base: SearchState, seat: int, cands: list[Action], start_round: int) -> Action:
        """Sequential Halving with common random numbers and an early stop; see the module
        docstring."""
        m = len(cands)
        stages = max(2, math.ceil(math.log2(m)))  # two at least, so that every search can stop early
        total = [0.0] * m
        count = [0] * m
        paired = [0.0] * m  # sum of (candidate - greedy) on the samples both were played on
        pairs = [0] * m
        alive = list(range(m))
        # The search's numbers, for those who ask why (`appraise`): filled in place as it runs.
        self.last_stats = (cands, total, count, paired, pairs)
        self._reached = {}
        deadline = None if self.cpu_budget is None else time.thread_time() + self.cpu_budget
        for stage in range(stages):
            per = max(1, self.iterations // (stages * len(alive)))
            if stage == 0 and self.early:
                per = max(per, self.early_samples)  # no early stop on a single sample
            for _ in range(per):
                if deadline is not None and time.thread_time() > deadline and pairs[0]:
                    # Out of CPU: decide on the samples played, as at the end of the search.
                    self.out_of_time += 1
                    return self._best(cands, alive, total, count, paired, pairs)
                sample = base.determinize(seat, self._seed())
                rewards = {}
                for c in alive:
                    rewards[c] = self._playout(sample.clone(), seat, cands[c], start_round)
                    total[c] += rewards[c]
                    count[c] += 1
                if 0 in rewards:
                    for c in alive:
                        paired[c] += rewards[c] - rewards[0]
                        pairs[c] += 1
            if len(alive) == 1:
                break
            if self.early and 0 in alive and stage < stages - 1:
                # Nothing comes near beating greedy on the samples so far: the rest of the budget
                # would only confirm it (measured: docs/bots.md), so greedy's choice stands.
                if all(paired[c] / pairs[c] < self.margin / 2 for c in alive if c != 0):
                    self.stopped += 1
                    return cands[0]
            alive.sort(key=lambda c: (-total[c] / count[c], c))  # ties go to the earlier candidate
            last = stage == stages - 1
            alive = alive[: 1 if last else max(2, math.ceil(len(alive) / 2))]
        return self._best(cands, alive[:1], total, count, paired, pairs)

    def appraise(self, seat: int, legal: list[Action], view: PlayerView) -> tuple[Action, list[Appraisal]]:
        """The search of `choose` on one decision, with its numbers: the action it plays and every
        candidate (greedy's first) with its mean reward and its paired advantage over greedy's
        choice (None where the candidate was not played). Unlike `choose`, it searches every
        purchase (no cap a phase); a decision with one option, or a free undoable step greedy
        proposes, is answered without a search (no numbers)."""
        greedy = self._greedy.choose(seat, legal, lambda: view)
        if len(legal) == 1 or isinstance(greedy, _REVERSIBLE):
            return greedy, [Appraisal(greedy, None, None, 0)]
        cands = self.candidates(seat, legal, view, greedy)
        if len(cands) == 1:
            return greedy, [Appraisal(greedy, None, None, 0)]
        self.last_stats = None
        choice = self._halve(SearchState(game_from_view(view, self._seed())), seat, cands, view.round)
        assert self.last_stats is not None
        _, total, count, paired, pairs = self.last_stats
        out = [
            Appraisal(
                c,
                total[i] / count[i] if count[i] else None,
                paired[i] / pairs[i] if pairs[i] else None,
                count[i],
            )
            for i, c in enumerate(cands)
        ]
        return choice, out

    def _best(
        self,
        cands: list[Action],
        alive: list[int],
        total: list[float],
        count: list[int],
        paired: list[float],
        pairs: list[int],
    ) -> Action:
        """The best surviving candidate by its mean, unless its paired advantage over the greedy
        choice is under the margin: then greedy's choice stands."""
        best = min(alive, key=lambda c: (-total[c] / count[c] if count[c] else math.inf, c))
        if best != 0 and pairs[best] and paired[best] / pairs[best] < self.margin:
            return cands[0]
        return cands[best]

    def _playout(self, s: SearchState, seat: int, action: Action, start_round: int) -> float:
        game = s.game
        phase = game.state.phase
        try:
            game.apply(action)
        except RuleError:  # not legal in this sample (cannot happen from a faithful view)
            return -1.0
        stop_round = start_round + self.rounds_ahead(len(game.state.players))
        if stop_round != self._reached_until or len(self._reached) > REACHED_KEPT:
            self._reached, self._reached_until = {}, stop_round
        state, world = game.state, game.world
        greedy = self._greedy
        through_announcements = self.value is None
        # Once the seat's turn (its run of decisions in this phase) is over, the position is
        # looked up among those the search's other rollouts reached there: the rest of a rollout
        # depends on the position only, so one met before has its reward already.
        key: bytes | None = None
        while not game.is_over and (state.round < stop_round or (through_announcements and state.phase == 1)):
            if key is None and (state.phase != phase or state.pending[0].player != seat):
                key = position_key(state)
                known = self._reached.get(key)
                if known is not None:
                    self.transposed += 1
                    return known
            p = game.waiting_for()[0]
            legal = game.legal_actions(p)  # read, never changed: no copy
            if len(legal) == 1:
                game.apply_legal(legal[0])
                continue
            plan = greedy.purchase_plan(p, legal, state, world) if state.phase == 4 else None
            if plan is not None:
                self._purchases(game, p, plan)
                continue
            # The sample is the search's own draw: greedy reads it whole, without a view; the
            # action comes unchanged from the list the engine just made, so it is not validated again.
            game.apply_legal(greedy.choose_in_state(p, legal, state, world))
        reward = s.returns()[seat] if game.is_over else self.evaluate(s)[seat]
        if key is not None:
            self._reached[key] = reward
        return reward

    @staticmethod
    def _purchases(game: Game, seat: int, plan: PurchasePlan) -> None:
        """Plays `seat`'s Acquisitions turn by `plan` while it stands and the turn lasts (the
        greedy bot's choices, without listing the legal actions again after each troop)."""
        state = game.state
        decision = state.pending[0]
        while True:
            action = plan.next()
            game.apply_legal(action)  # a purchase of the last list the engine made, still affordable
            pending = state.pending
            if len(pending) != 1 or pending[0] is not decision or state.ending is not None:
                return
            if not plan.bought(action):
                return

    def rounds_ahead(self, players: int) -> int:
        """Rounds a rollout plays past the decision's: `horizon`, or with `horizon_seats` the
        nearest whole number of rounds with as many turns as `horizon` rounds of that many
        players (one at least)."""
        if self.horizon_seats is None:
            return self.horizon
        return max(1, round(self.horizon * self.horizon_seats / players))

    def evaluate(self, s: SearchState) -> list[float]:
        """Rewards at a cut-off (eliminated seats get 0): each seat's chance to win by the value
        model when the bot has one, else a softmax of each seat's material."""
        state = s.game.state
        if self.value is not None:
            return self.value.win_chances(state, s.game.world)
        worth = material(s.game)
        top = max(worth)
        weights = [
            0.0 if p.eliminated else math.exp((w - top) / self.temperature) for p, w in zip(state.players, worth)
        ]
        total = sum(weights) or 1.0
        return [w / total for w in weights]

    # --- candidates ------------------------------------------------------------------------

    def candidates(self, seat: int, legal: list[Action], view: PlayerView, greedy: Action) -> list[Action]:
        """The greedy choice first, then ending the turn (when a turn), then up to `width`
        alternatives ranked by the greedy bot's own scores; see the module docstring."""
        out = [greedy]
        seen = {action_to_json(greedy)}

        def add(a: Action) -> None:
            key = action_to_json(a)
            if key not in seen:
                seen.add(key)
                out.append(a)

        for end in [a for a in legal if isinstance(a, EndTurn)]:
            add(end)
        limit = len(out) + self.width
        by_type: dict[type, list[Action]] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        me = SeatView(view, load_world(view.state.options.rules.map))
        if Buy in by_type:
            kinds: set[Any] = set()
            for score, a in self._greedy.ranked_buys(me, by_type):
                kind = (a.item, a.general is not None)
                if kind not in kinds and len(out) < limit and score > -1:
                    kinds.add(kind)
                    add(a)
        elif Move in by_type:
            for _, _, move, _ in self._greedy.move_plans(me, by_type, goals_per_general=2):
                if len(out) < limit:
                    add(move)
        else:
            # Votes, plunder, discards, appointments, cards to play…: every option, in a stable
            # hash order when there are more than the width allows.
            rest = [a for a in legal if not isinstance(a, _REVERSIBLE + (EndTurn,))]
            rest.sort(key=lambda a: zlib.crc32(action_to_json(a)))
            for a in rest:
                if len(out) < limit:
                    add(a)
        return out
