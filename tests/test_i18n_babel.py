"""Translations by Babel: plural entries, one language negotiation, place names, the labels of
legal actions, and the language of every page (judges.i18n, the catalogs, the server)."""

from __future__ import annotations

import re

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from judges import i18n
from judges.engine import ACTION_TYPES
from judges.i18n import render
from judges.world import load_world

LANGS = i18n.LANGUAGES
WORLD = load_world()
COIN = {"en": ("coin", "coins"), "es": ("moneda", "monedas"), "pt_BR": ("moeda", "moedas")}


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    monkeypatch.setattr(i18n, "STRICT", True)


def _po(lang):
    with i18n._po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


# --- plurals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_one_coin_two_coins(lang):
    one, many = COIN[lang]
    plunder = {"player": 0, "settlement": WORLD.settlement_by_name["Hazor"], "coins": 1}
    assert i18n.render_entry({"key": "combat.plunder", "params": plunder}, lang, WORLD).endswith(f" 1 {one}.")
    plunder["coins"] = 2
    assert i18n.render_entry({"key": "combat.plunder", "params": plunder}, lang, WORLD).endswith(f" 2 {many}.")
    income = {"income": 1, "before": 3, "after": 4}
    assert f"1 {one} " in i18n.gettext(lang, "notification.income", **income)
    assert f"2 {many} " in i18n.gettext(lang, "notification.income", **{**income, "income": 2})


def test_zero_follows_each_languages_rule():
    # English and Spanish say "0 coins"; Brazilian Portuguese counts 0 as singular ("0 moeda")
    texts = {lang: i18n.gettext(lang, "ui.plunder_for", coins=0) for lang in LANGS}
    assert texts == {"en": "Plunder for 0 coins", "es": "Saquear por 0 monedas", "pt_BR": "Saquear por 0 moeda"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_entry_has_the_forms_of_its_language(lang):
    catalog = _po(lang)
    entries = [m for m in catalog if m.pluralizable]
    assert len(entries) >= 15
    for msg in entries:
        assert len(msg.string) == catalog.num_plurals, (lang, msg.id)
        assert all(msg.string), (lang, msg.id)
        field = re.fullmatch(r"\{(\w+)\}", msg.id[1])
        assert field, f"{msg.id[0]}: msgid_plural names its count as a field"
        for form in msg.string:
            assert field.group(1) in i18n.message_fields(form), (lang, msg.id[0], form)
    # the catalog's Plural-Forms agrees with CLDR's "one" for this language
    locale = Locale.parse(lang)
    translations = i18n._translations(lang)
    for n in range(0, 120):
        first = translations.ngettext("ui.plunder_for", "{coins}", n) == translations.ngettext(
            "ui.plunder_for", "{coins}", 1
        )
        assert first == (locale.plural_form(n) == "one"), (lang, n)


def test_the_same_plural_entries_in_every_language():
    keys = {lang: {m.id for m in _po(lang) if m.pluralizable} for lang in LANGS}
    assert keys["en"] == keys["es"] == keys["pt_BR"]


def test_a_shared_victory_is_the_plural_of_the_winners():
    n = {
        "key": "notification.game_over",
        "round": 9,
        "phase": "victory",
        "params": {"ending": "three_points", "winners": [0]},
    }
    names = {0: "Ana", 1: "Bruno"}
    assert i18n.render_notification(n, "en", WORLD, names)["title"].endswith("Ana wins")
    n["params"]["winners"] = [0, 1]
    assert "shared victory of Ana and Bruno" in i18n.render_notification(n, "en", WORLD, names)["title"]
    assert "vitória compartilhada" in i18n.render_notification(n, "pt_BR", WORLD, names)["title"]
    n["params"]["winners"] = []
    assert i18n.render_notification(n, "es", WORLD, names)["title"].endswith("sin ganador")
    assert "notification.game_over.shared" not in i18n.catalog("en")


def test_variants_are_data():
    for base, rows in i18n.VARIANTS.items():
        for variant, _param, test in rows:
            assert test in i18n._VARIANT_TESTS and variant.startswith(base.split(".")[0])
            for lang in LANGS:
                assert variant in i18n.catalog(lang), (lang, variant)
    assert render._variant("combat.battle", {"winner": None}) == "combat.battle.none"
    assert render._variant("combat.battle", {"winner": 2}) == "combat.battle"
    assert render._variant("acquisition", {"general": 4}) == "acquisition.general"


# --- the language of a reader ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "header, lang",
    [
        ("fr-FR,es;q=0.9", "es"),
        ("pt-PT", "pt_BR"),
        ("pt", "pt_BR"),
        ("es;q=0.2,pt-BR;q=0.8", "pt_BR"),
        ("es;q=0,en;q=0.5", "en"),
        ("es;q=0", "en"),
        ("fr, de", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
        ("en-US,en;q=0.9,es;q=0.8", "en"),
        ("de;q=1.0, es-MX;q=0.3, pt;q=0.2", "es"),
    ],
)
def test_accept_language_by_q_value(header, lang):
    assert i18n.negotiate_language(accept_language=header) == lang


def test_an_explicit_choice_wins():
    assert i18n.negotiate_language("pt", accept_language="es") == "pt_BR"
    assert i18n.negotiate_language(None, "es", accept_language="en") == "es"  # the cookie
    assert i18n.negotiate_language("fr", None, "es", accept_language="en") == "es"  # unsupported choices skipped
    assert i18n.parse_accept_language("fr-FR,es;q=0.9,de;q=0") == ["fr_FR", "es"]


@pytest.fixture
def client(tmp_path, monkeypatch):
    from judges.server.app import create_app

    monkeypatch.setenv("JUDGES_BOT_DELAY", "0")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True)) as c:
        yield c


def _game(client, **seat):
    seats = [{"kind": "human", "name": "Ada", **seat}, {"kind": "bot", "bot": "random"}]
    body = client.post("/api/games", json={"seats": seats, "seed": 3}).json()
    client.cookies.clear()
    return body["id"], body["token"]


FRENCH_THEN_SPANISH = {"accept-language": "fr-FR,es;q=0.9"}


def _html_lang(text):
    return re.search(r'<html lang="([^"]+)"', text).group(1)


def test_accept_language_gives_spanish_on_every_page(client):
    assert _html_lang(client.get("/", headers=FRENCH_THEN_SPANISH).text) == "es"
    game, token = _game(client)
    page = client.get(f"/games/{game}", headers={"X-Seat-Token": token, **FRENCH_THEN_SPANISH})
    assert page.status_code == 200
    assert _html_lang(page.text) == "es"
    view = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token, **FRENCH_THEN_SPANISH}).json()
    assert view["language"] == "es"
    manual = client.get("/manual", headers=FRENCH_THEN_SPANISH, follow_redirects=False)
    assert manual.headers["location"] == "/manual/es"
    assert _html_lang(client.get("/manual", headers=FRENCH_THEN_SPANISH).text) == "es"
    with client.websocket_connect(f"/ws/games/{game}", headers={"X-Seat-Token": token, **FRENCH_THEN_SPANISH}) as ws:
        assert ws.receive_json()["view"]["language"] == "es"
    refused = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": "nope", **FRENCH_THEN_SPANISH})
    assert refused.json()["text"] == i18n.gettext("es", "error.token_wrong", detail="")


def test_lang_parameter_and_cookie_win(client):
    home = client.get("/", params={"lang": "pt"}, headers=FRENCH_THEN_SPANISH)
    assert _html_lang(home.text) == "pt-BR"
    assert client.cookies.get("lang") == "pt_BR"  # remembered
    assert _html_lang(client.get("/", headers=FRENCH_THEN_SPANISH).text) == "pt-BR"
    game, token = _game(client)
    assert _html_lang(client.get(f"/games/{game}", params={"lang": "en"}, headers={"X-Seat-Token": token}).text) == "en"
    client.cookies.clear()
    assert (
        client.get("/manual", params={"lang": "pt-PT"}, follow_redirects=False).headers["location"] == "/manual/pt_BR"
    )
    assert _html_lang(client.get("/", headers={"accept-language": "es;q=0,pt-PT;q=0.5"}).text) == "pt-BR"


def test_a_seats_language_beats_the_browser(client):
    game, token = _game(client, language="pt_BR")
    view = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token, **FRENCH_THEN_SPANISH}).json()
    assert view["language"] == "pt_BR"


# --- place names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, es, pt",
    [
        ("Shechem", "Siquem", "Siquém"),
        ("Jericho", "Jericó", "Jericó"),
        ("Bethlehem", "Belén", "Belém"),
        ("Hebron", "Hebrón", "Hebrom"),
        ("Bethel", "Betel", "Betel"),
        ("Shiloh", "Silo", "Siló"),
        ("Judah", "Judá", "Judá"),
        ("Hazor", "Hazor", "Hazor"),
    ],
)
def test_place_names(name, es, pt):
    assert [i18n.place_name(lang, name) for lang in LANGS] == [name, es, pt]


def test_every_place_entry_names_a_place_of_the_map():
    places = {s.name for s in WORLD.settlements} | {r.name for r in WORLD.regions} | {WORLD.name}
    for lang in LANGS:
        keys = {k[len("place.") :] for k in i18n.catalog(lang) if k.startswith("place.")}
        assert keys <= places and len(keys) > 40, lang
        assert all(i18n.catalog("en")[f"place.{k}"] == k for k in keys)


def test_place_names_in_notifications_and_for_the_screen():
    line = i18n.render_entry(
        {"key": "combat.conquest", "params": {"player": 0, "settlement": WORLD.settlement_by_name["Shechem"]}},
        "es",
        WORLD,
        {0: "Ana"},
    )
    assert "Siquem" in line
    assert i18n.ui_strings("pt_BR")["place.Bethlehem"] == "Belém"


# --- the words of legal actions --------------------------------------------------------------------


def test_every_action_type_has_a_label():
    for lang in LANGS:
        for t in ACTION_TYPES:
            assert f"label.{t.__struct_config__.tag}" in i18n.catalog(lang), (lang, t)


def test_action_labels_are_whole_sentences_with_plurals():
    owners = {4: 1}
    names = {0: "Ana", 1: "Bruno"}
    take = {"type": "take_troops", "player": 0, "general": 2, "count": 1}
    assert i18n.render_action(take, "en", WORLD, names) == "Take 1 troop"
    assert i18n.render_action({**take, "count": 3}, "es", WORLD, names) == "Tomar 3 tropas"
    assassin = {"type": "play_assassin", "player": 0, "target": 4}
    general = i18n.gettext("pt_BR", "fmt.general", n=4)
    assert i18n.render_action(assassin, "pt_BR", WORLD, names, owners=owners) == f"Assassino contra o {general} (Bruno)"
    buy = {"type": "buy", "player": 0, "item": "wall", "settlement": "Shechem", "general": None}
    assert i18n.render_action(buy, "es", WORLD, names, costs={"wall": 1}).endswith("para Siquem, 1 moneda")
    hold = {"type": "plunder", "player": 0, "settlement": "Jericho", "plunder": False}
    assert i18n.render_action(hold, "pt_BR", WORLD, names) == "Manter Jericó"
    assert i18n.render_action({**hold, "plunder": True}, "en", WORLD, names) == "Plunder Jericho"
    foresee = {"type": "foresee_events", "player": 0, "terrains": ["plain", "desert"]}
    text = i18n.render_action(foresee, "es", WORLD, names, events=["famine", "abundance"])
    assert "llanura" in text and "desierto" in text


def test_the_view_carries_a_label_for_each_legal_action(client):
    game, token = _game(client, language="es")
    view = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token}).json()
    assert len(view["action_labels"]) == len(view["legal_actions"])
    assert all(isinstance(label, str) and label and "{" not in label for label in view["action_labels"])
