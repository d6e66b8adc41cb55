"""The Rome game's words: its three catalogs hold the same keys, every message the engine
declares has its text in English, Spanish and Portuguese with exactly its parameters, every
card, event, province, office, cause and ending has a name, every refusal key raised in the
engine is translated, and the report lines of whole random games render in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import judges.rome
import judges.rome.i18n as i18n
from judges.rome.cards import ERA_ENDS, load_deck
from judges.rome.engine.effects import CAUSES
from judges.rome.engine.messages import MESSAGES, PARAM_TYPES
from judges.rome.engine.state import ENDINGS, OFFICES, PHASES, RomeOptions
from judges.rome.play import play_random

DECK = load_deck()
LANGS = i18n.LANGUAGES
ROME_DIR = Path(judges.rome.__file__).resolve().parent


def test_three_languages_with_the_same_keys():
    assert LANGS == ("en", "es", "pt_BR")
    keys = {lang: set(i18n.catalog(lang)) for lang in LANGS}
    assert keys["en"] == keys["es"] == keys["pt_BR"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_has_its_text_with_exactly_its_parameters(lang):
    for key, params in MESSAGES.items():
        assert i18n.fields(i18n.catalog(lang)[key]) == set(params), key
        assert all(kind in PARAM_TYPES for kind in params.values())


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_and_word_of_the_game_has_a_name(lang):
    for card in [*DECK.deck_cards("early"), "punic_1", ERA_ENDS]:
        assert i18n.card_name(lang, card, DECK)
    for group, names in (
        ("event", DECK.events),
        ("province", DECK.provinces),
        ("games", DECK.games),
        ("office", OFFICES),
        ("cause", CAUSES),
        ("ending", ENDINGS),
        ("phase", PHASES),
    ):
        for name in names:
            assert i18n.text(lang, f"rome.{group}.{name}"), (group, name)


def test_every_refusal_the_engine_raises_is_translated():
    source = "".join(p.read_text(encoding="utf-8") for p in ROME_DIR.rglob("*.py"))
    raised = set(re.findall(r'"(rome\.error\.[a-z_]+)"', source))
    assert len(raised) >= 10
    for lang in LANGS:
        missing = raised - set(i18n.catalog(lang))
        assert not missing, (lang, missing)
        assert i18n.render_error({"key": "rome.error.not_your_senator"}, lang)


def test_the_report_of_random_games_renders_in_every_language():
    for seed in range(12):
        game = play_random(RomeOptions(players=3 + seed % 4, seed=seed))
        for entry in game.state.report:
            assert set(entry.params) == set(MESSAGES[entry.key])
            for lang in LANGS:
                line = i18n.render_entry(entry, lang, {0: "Ana"})
                assert line and "{" not in line


def test_known_lines():
    from judges.rome.engine.state import Entry

    dies = Entry("rome.mortality.dies", {"senator": "4", "cause": "mortality"})
    assert i18n.render_entry(dies, "en") == "Julius dies (mortality)."
    assert i18n.render_entry(dies, "es") == "Julius muere (mortalidad)."
    war = Entry("rome.war.imminent_active", {"war": "punic_2"})
    assert i18n.render_entry(war, "pt_BR") == "Segunda Guerra Púnica deixa de ser iminente: está ativa."
