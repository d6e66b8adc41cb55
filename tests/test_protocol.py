"""The protocol from the engine to the screen: one registry of decision kinds, one table of
items, one of cards (docs/protocol.md), and what derives from them: the game's dispatch, the
greedy bot, the manual's links, `GET /api/protocol`, the generated tables of the docs."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient

import judges.engine
from judges import i18n, protocol
from judges.bots.greedy import CHOOSERS
from judges.engine import (
    ACTION_TYPES,
    DEFAULT_RULES,
    Action,
    Decision,
    Game,
    MalformedAction,
    Options,
    action_from_dict,
    action_from_json,
    decisions,
)
from judges.engine.cards import CARDS, EVENT_CARDS, copies
from judges.engine.cards import TARGETS as CARD_TARGETS
from judges.engine.decisions import KIND_OF_ACTION, KINDS, SUBJECTS, DecisionKind
from judges.engine.items import ITEMS, cost, wrath
from judges.engine.items import TARGETS as ITEM_TARGETS
from judges.manual import CHAPTERS, chapter_for_decision
from judges.server.app import create_app

ENGINE_DIR = Path(judges.engine.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[1]


# --- The registry of decision kinds ------------------------------------------------------------


def test_every_action_type_answers_exactly_one_kind():
    for action_type in ACTION_TYPES:
        owners = [k.name for k in KINDS.values() if action_type in k.actions]
        assert len(owners) == 1, (action_type.__name__, owners)
        assert KIND_OF_ACTION[action_type].name == owners[0]
    assert set(KIND_OF_ACTION) == set(ACTION_TYPES)


def test_every_kind_names_a_rule_a_chapter_a_subject_and_an_icon():
    for kind in KINDS.values():
        assert re.fullmatch(r"§\d+(\.\d+)? \S.*", kind.rule), kind
        assert kind.chapter in CHAPTERS, kind
        assert chapter_for_decision(kind.name) == kind.chapter
        assert kind.subject in SUBJECTS, kind
        assert kind.icon.strip(), kind
        if kind.subject_field is not None:
            assert kind.subject in ("region", "settlement")
            for action_type in kind.actions:
                assert kind.subject_field in action_type.__struct_fields__, (kind.name, action_type)
    assert chapter_for_decision("turn", "movement") == "movement-and-combat"
    assert chapter_for_decision("no_such_kind") is None


def test_every_kind_the_engine_posts_is_registered():
    posted = set()
    for path in ENGINE_DIR.glob("*.py"):
        posted |= set(re.findall(r'\bDecision\([^()]*?kind="([^"]+)"', path.read_text(encoding="utf-8")))
    assert posted == set(KINDS)


def test_every_kind_has_its_words_in_every_language():
    for lang in i18n.LANGUAGES:
        for kind in KINDS.values():
            for key in (
                f"decision.{kind.name}",
                f"decision_help.{kind.name}",
                *(f"action.{tag}" for tag in kind.action_tags),
            ):
                assert i18n.catalog(lang).get(key, "").strip(), (lang, key)


def test_the_greedy_bot_has_a_heuristic_for_every_kind_of_the_game():
    assert set(CHOOSERS) == set(KINDS)


def test_the_greedy_bot_answers_a_new_kind_without_a_heuristic_by_a_legal_action(fake_kind):
    from judges.bots.greedy import GreedyBot

    game = Game.new(Options(players=3, seed=4))
    game.state.pending = [Decision(player=1, kind="pray")]
    legal = list(game.legal_actions(1)) + [Pray(player=1, prayer="sun")]
    assert GreedyBot().choose(1, legal, lambda: game.view(1, notifications=False)) in legal


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_game_dispatches_through_the_registry(seed):
    """Along a whole game: every legal action answers a decision the seat owes, of the kind
    its type names, and each decision's subject is the one its actions name."""
    from judges.bots import make_bot

    game = Game.new(Options(players=4, seed=seed, round_limit=6))
    bots = [make_bot("greedy", seed * 10 + s) for s in range(4)]
    steps = 0
    while not game.is_over and steps < 3000:
        for d in game.pending:
            kind = KINDS[d.kind]
            for action in KINDS[d.kind].legal(game._ctx, d):
                assert type(action) in kind.actions and action.player == d.player
                if kind.subject_field:
                    assert getattr(action, kind.subject_field) == decisions.subject_name(kind, game.world, d.subject)
        seat = game.waiting_for()[0]
        legal = list(game.legal_actions(seat))
        game.apply(bots[seat].choose(seat, legal, lambda: game.view(seat, notifications=False)))
        steps += 1
    assert steps > 50


class Pray(Action, tag="pray", kw_only=True, frozen=True):
    """A decision kind the game does not have: only for these tests."""

    prayer: str


def _legal_pray(ctx, decision):
    yield Pray(player=decision.player, prayer="rain")


def _apply_pray(ctx, decision, action):
    ctx.state.pending.remove(decision)


FAKE = DecisionKind(
    "pray", (Pray,), _legal_pray, _apply_pray, rule="§99 Prayer", chapter="round", icon="🙏", opens_window=True
)


@pytest.fixture
def fake_kind():
    decisions.register(FAKE)
    try:
        yield FAKE
    finally:
        decisions.unregister(FAKE.name)


def test_a_registered_kind_is_dispatched_by_the_game(fake_kind):
    game = Game.new(Options(players=3, seed=4))
    game.state.pending = [Decision(player=1, kind="pray")]
    assert list(game.legal_actions(1)) == [Pray(player=1, prayer="rain")]
    assert KIND_OF_ACTION[Pray] is fake_kind


def test_a_registered_kinds_action_travels_the_wire_and_is_applied(fake_kind):
    """The action type of a new kind is defined beside its handler, not in actions.py: the wire
    format decodes it because the registry knows it, and Game.apply dispatches it."""
    game = Game.new(Options(players=3, seed=4))
    game.state.pending = [Decision(player=1, kind="pray")]
    action = action_from_json(b'{"type": "pray", "player": 1, "prayer": "rain"}')
    assert action == Pray(player=1, prayer="rain")
    assert action_from_dict({"type": "pray", "player": 1, "prayer": "rain"}) == action
    game.apply(action)
    assert game.log[-1] == action and not any(d.kind == "pray" for d in game.state.pending)


def test_an_unregistered_kinds_action_is_malformed_on_the_wire():
    with pytest.raises(MalformedAction) as refused:
        action_from_dict({"type": "pray", "player": 1, "prayer": "rain"})
    assert refused.value.key == "error.malformed_action" and "pray" in str(refused.value)


def test_registering_refuses_a_taken_name_or_action_type(fake_kind):
    with pytest.raises(ValueError):
        decisions.register(FAKE)
    with pytest.raises(ValueError):
        decisions.register(
            DecisionKind(
                "vote_again",
                (KINDS["vote"].actions[0],),
                _legal_pray,
                _apply_pray,
                rule="§10 Election",
                chapter="judges-and-kings",
                icon="🗳",
            )
        )


# --- The items and cards tables ----------------------------------------------------------------


def test_the_items_table_is_what_the_rules_price():
    R = DEFAULT_RULES
    assert set(ITEMS) == set(R.costs)
    for item in ITEMS.values():
        assert item.target in ITEM_TARGETS
        assert cost(R, item.name) == R.costs[item.name]
        if item.wrath is not None:
            assert wrath(R, item.name) == getattr(R, item.wrath) > 0
            for lang in i18n.LANGUAGES:  # the Wrath it registers is reported with the item's name
                assert i18n.catalog(lang)[f"wrath_reason.{item.name}"].strip()
    assert wrath(R, "mercenary") == R.wrath_mercenary and wrath(R, "troop") == 0
    other = msgspec.structs.replace(R, costs={**R.costs, "wall": 8}, wrath_mercenary=3)
    assert cost(other, "wall") == 8 and wrath(other, "mercenary") == 3 and cost(R, "wall") == 10


def test_the_cards_table_is_the_deck():
    R = DEFAULT_RULES
    assert list(CARDS) == list(R.deck)
    for card in CARDS.values():
        assert card.target in CARD_TARGETS and card.action in ACTION_TYPES
        assert copies(R, card.name) == R.deck[card.name]
        assert KIND_OF_ACTION[card.action].name == "turn"
    assert EVENT_CARDS == ("plague", "abundance", "famine", "sandstorm")


def test_the_setup_deck_holds_the_tables_copies():
    game = Game.new(Options(players=4, seed=9), start=False)
    cards = game.state.deck + [c for p in game.state.players for c in p.hand]
    assert {c: cards.count(c) for c in CARDS} == {c: copies(DEFAULT_RULES, c) for c in CARDS}


# --- Published: the API and the docs ------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as c:
        yield c


def test_the_server_publishes_the_protocol(client):
    body = client.get("/api/protocol").json()
    kinds = {d["name"]: d for d in body["decisions"]}
    assert list(kinds) == list(KINDS)
    assert kinds["appoint_judge"]["subject"] == "region" and kinds["appoint_judge"]["subject_field"] == "region"
    assert kinds["succession"]["actions"] == [
        {
            "type": "choose_successor",
            "fields": [
                {"name": "player", "type": "int", "required": True},
                {"name": "general", "type": "int", "required": True},
            ],
        }
    ]
    assert kinds["vote"]["rule"] == "§10 Election" and kinds["vote"]["chapter"] == "judges-and-kings"
    assert kinds["vote"]["opens_window"] and not kinds["turn"]["opens_window"]
    assert {a["type"] for d in body["decisions"] for a in d["actions"]} == {
        t.__struct_config__.tag for t in ACTION_TYPES
    }
    buy = next(a for a in kinds["turn"]["actions"] if a["type"] == "buy")
    assert {"name": "settlement", "type": "str | null", "required": False} in buy["fields"]
    assert body["items"] == [
        {
            "name": n,
            "target": i.target,
            "cost": DEFAULT_RULES.costs[n],
            "wrath": wrath(DEFAULT_RULES, n),
            "icon": i.icon,
        }
        for n, i in ITEMS.items()
    ]
    assert [(c["name"], c["copies"], c["event"]) for c in body["cards"]] == [
        (n, DEFAULT_RULES.deck[n], n in EVENT_CARDS) for n in CARDS
    ]
    assert "costs" not in client.get("/api/world").json()  # one source: the protocol's items


def test_a_kind_added_to_the_registry_is_published_and_gone_after(client):
    def names():
        return [d["name"] for d in client.get("/api/protocol").json()["decisions"]]

    assert "pray" not in names()
    decisions.register(FAKE)
    try:
        published = next(d for d in client.get("/api/protocol").json()["decisions"] if d["name"] == "pray")
        assert published == {
            "name": "pray",
            "actions": [
                {
                    "type": "pray",
                    "fields": [
                        {"name": "player", "type": "int", "required": True},
                        {"name": "prayer", "type": "str", "required": True},
                    ],
                }
            ],
            "subject": "none",
            "subject_field": None,
            "rule": "§99 Prayer",
            "chapter": "round",
            "opens_window": True,
            "icon": "🙏",
            "secret": False,
        }
    finally:
        decisions.unregister("pray")
    assert "pray" not in names()
    assert Pray not in KIND_OF_ACTION


def test_the_protocol_is_plain_json():
    assert msgspec.json.decode(msgspec.json.encode(protocol.protocol())) == protocol.protocol()


def test_the_docs_tables_are_current():
    """docs/protocol.md carries the tables generated from the registries; after a change,
    `python -m judges.protocol` rewrites them."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert protocol.generated_part(text) == protocol.markdown()


def test_every_icon_the_registries_name_is_drawn_in_the_sprite():
    from judges.render.svg import icon_symbols

    named = {k.icon for k in KINDS.values()} | {i.icon for i in ITEMS.values()} | {c.icon for c in CARDS.values()}
    assert named - set(icon_symbols()) == set()


def test_the_screen_reads_the_protocol_instead_of_its_own_tables():
    folder = ROOT / "src" / "judges" / "web" / "static" / "js"
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.js")))
    assert "json(`/api/games/${gameId}/protocol`)" in script  # the protocol priced by the game's rules
    assert "DECISION_ICONS" not in script and "world.costs" not in script
    assert not re.search(r"succession:\s*\"choose_successor\"", script)
