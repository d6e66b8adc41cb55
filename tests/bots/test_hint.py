"""Hints: the best of the strong bot's candidates for the decision a seat owes, measured on paired
samples, legal, from the seat's view only, never claiming a difference its samples cannot tell,
with reasons rendered from the catalogs in every language."""

from __future__ import annotations

import random

import pytest

from judges import i18n
from judges.bots import make_bot
from judges.bots.hint import FIRST_SAMPLES, Reason, hint_for, hint_json, render_hint
from judges.bots.paired import Z
from judges.engine import Game, Options, action_to_dict

LANGS = ("en", "es", "pt_BR")
# A small budget keeps 200 searches quick; the default budget is measured in docs/bots.md.
FAST = 0.05


def _positions(count: int, every: int = 7):
    """(game, seat, legal, view) along games of greedy and random bots (3 and 4 players)."""
    found = 0
    seed = 0
    while found < count:
        seed += 1
        players = 3 + seed % 2
        game = Game.new(Options(players=players, seed=seed, round_limit=5))
        spec = "random" if seed % 3 == 0 else "greedy"
        bots = [make_bot(spec, seed * 10 + s) for s in range(players)]
        rng = random.Random(seed)
        step = 0
        while not game.is_over and found < count:
            seat = game.waiting_for()[0]
            legal = list(game.legal_actions(seat))
            view = game.view(seat, notifications=False)
            if step % every == rng.randrange(every):
                found += 1
                yield game, seat, legal, view
            game.apply(bots[seat].choose(seat, legal, lambda view=view: view))
            step += 1


def test_the_hint_is_a_legal_action_in_200_positions_of_bot_games():
    kinds: set[str] = set()
    for n, (_, seat, legal, view) in enumerate(_positions(200)):
        found = hint_for(seat, legal, view, seed=n, cpu_budget=FAST)
        assert found.action in legal, (n, found.action)
        assert all(a.action in legal and a.action != found.action for a in found.alternatives)
        assert found.reasons  # at least what the action does and why
        kinds.add(type(found.action).__name__)
    assert len(kinds) >= 5, kinds  # the positions cover many kinds of decision


def test_the_hint_reads_only_the_seats_view():
    """Two games alike in all the seat may see, different in the others' hands and the deck's
    order, give the same hint: nothing hidden reaches the search."""

    def hidden(position) -> bool:
        game, seat, _, _ = position
        others = [p for p in game.state.players if p.seat != seat]
        return len(game.state.deck) > 1 and sum(len(p.hand) for p in others) > 0

    game, seat, legal, view = next(filter(hidden, _positions(30, every=3)))
    twin = game.clone()
    hands = [list(p.hand) for p in twin.state.players if p.seat != seat]
    pool = [c for h in hands for c in h] + list(twin.state.deck)
    random.Random(5).shuffle(pool)
    for p in twin.state.players:
        if p.seat != seat:
            p.hand[:] = [pool.pop() for _ in p.hand]
    twin.state.deck[:] = pool
    first = hint_for(seat, legal, view, seed=1, cpu_budget=None)
    again = hint_for(seat, list(twin.legal_actions(seat)), twin.view(seat, notifications=False), seed=1)
    assert hint_json(first) == hint_json(again)


def _strict_render(lang: str, data: dict, view, world) -> dict:
    return render_hint(data, lang, view, world, {0: "Ada", 1: "Bo", 2: "Cy", 3: "Di"})


def test_every_hint_key_renders_in_every_language_and_is_translated():
    keys = [k for k in i18n.catalog("en") if k.startswith("hint.")]
    assert len(keys) >= 15
    for key in keys:
        for lang in LANGS:
            assert i18n.catalog(lang).get(key, "").strip(), (lang, key)
        if key.startswith("hint."):
            assert i18n.catalog("es")[key] != i18n.catalog("en")[key], key
            assert i18n.catalog("pt_BR")[key] != i18n.catalog("en")[key], key


def test_hints_render_in_the_readers_language(monkeypatch):
    monkeypatch.setattr(i18n, "STRICT", True)  # a missing key or field raises
    seen: set[str] = set()
    for n, (game, seat, legal, view) in enumerate(_positions(25, every=5)):
        data = hint_json(hint_for(seat, legal, view, seed=n, cpu_budget=FAST))
        english = _strict_render("en", data, view, game.world)
        for lang in LANGS:
            out = _strict_render(lang, data, view, game.world)
            for reason, en in zip(out["reasons"], english["reasons"], strict=True):
                assert reason["text"] and "{" not in reason["text"] and not reason["text"].startswith("hint.")
                seen.add(reason["key"])
                if lang != "en":
                    assert reason["text"] != en["text"], (lang, reason["key"], reason["text"])
            assert all(a["text"] for a in out["alternatives"])
    assert len(seen) >= 4, seen


def test_a_troop_hint_names_the_threat_and_the_income_greedy_scored():
    """The facts a purchase's score used are in its reasons, with the view's numbers."""
    for n, (game, seat, legal, view) in enumerate(_positions(150, every=2)):
        found = hint_for(seat, legal, view, seed=n, cpu_budget=FAST)
        a = found.action
        if type(a).__name__ == "Buy" and a.item == "troop" and a.settlement:
            keys = {r.key for r in found.reasons}
            assert "hint.threat" in keys
            threat = next(r for r in found.reasons if r.key == "hint.threat")
            i = game.world.settlement_by_name[a.settlement]
            assert threat.params["troops"] == view.state.settlements[i].troops
            assert "hint.region_share" in keys
            return
    pytest.skip("no troop purchase hinted in these positions")


def test_a_reason_is_a_key_with_parameters():
    r = Reason("hint.besieged", {"settlement": 0})
    assert i18n.render_entry({"key": r.key, "params": r.params}, "es") != r.key


def test_a_hint_says_about_even_where_its_samples_cannot_tell_the_options_apart():
    """The hint names its action ahead of the nearest alternative only when the gap is beyond
    its noise (Z standard errors, one point at least); otherwise it says they are about even.
    Every alternative it names is no better than its action on the samples both were played on."""
    said = set()
    for n, (_, seat, legal, view) in enumerate(_positions(40, every=4)):
        found = hint_for(seat, legal, view, seed=n, cpu_budget=None)
        if not found.alternatives:
            continue
        first = found.reasons[0]
        nearest = found.alternatives[0]
        assert [a.gap for a in found.alternatives] == sorted(a.gap for a in found.alternatives)
        for a in found.alternatives:
            assert a.gap >= 0 or a.even
            # shown in whole points: each number is within half a point of the one compared
            if a.even:
                assert a.gap - 0.5 < 1 or a.gap - 0.5 <= Z * (a.error + 0.5), a
            else:
                assert a.gap + 0.5 >= 1 and a.gap + 0.5 > Z * (a.error - 0.5), a
        if nearest.even:
            assert first.key == "hint.even" and first.params["other"] == action_to_dict(nearest.action)
        else:
            assert first.key == "hint.ahead" and first.params["gap"] == nearest.gap and first.params["sure"] >= 97
        said.add(first.key)
    assert said == {"hint.even", "hint.ahead"}, said


def test_a_hint_spends_more_samples_where_the_choice_is_close():
    """The nearest alternative about even: the comparison went on past its first samples."""
    close, clear = [], []
    for n, (_, seat, legal, view) in enumerate(_positions(40, every=4)):
        found = hint_for(seat, legal, view, seed=n, cpu_budget=None)
        if found.alternatives:
            (close if found.alternatives[0].even else clear).append(found.samples)
    assert close and clear
    assert sum(close) / len(close) > sum(clear) / len(clear)
    assert max(close) > FIRST_SAMPLES


def test_movement_is_searched_too():
    """In Movement, where greedy's own next step may be a free one (troops, the Ark), the hint
    still weighs the generals' moves and ending the turn on paired samples."""
    compared = 0
    for n, (_, seat, legal, view) in enumerate(_positions(200, every=2)):
        if view.phase_name != "movement" or len(legal) < 3:
            continue
        found = hint_for(seat, legal, view, seed=n, cpu_budget=None)
        if found.samples:
            compared += 1
            assert found.reasons[0].key in ("hint.even", "hint.ahead")
            kinds = {type(a.action).__name__ for a in found.alternatives} | {type(found.action).__name__}
            assert kinds & {"Move", "EndTurn"}, kinds
        if compared >= 5:
            return
    raise AssertionError(f"only {compared} movement decisions were compared")
