"""The translation layer (judges.i18n and judges/locale/*/LC_MESSAGES/messages.po).

(a) every key the engine can emit — found by scanning the engine's source — and every word of
    the game's vocabulary has a non-empty text in English, Spanish and Brazilian Portuguese;
(b) the catalogs pass Babel's checks and every translation has exactly the format fields of
    the English text (fields the engine's call sites actually pass);
(c) every notification of whole simulated games renders in every language, leaving no
    placeholder behind;
(d) Spanish and Portuguese use the manual's words.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import msgspec
import pytest
from babel.messages.pofile import read_po

import judges.engine
from judges import i18n
from judges.bots import make_bot
from judges.engine import ACTION_TYPES, DEFAULT_RULES, ENDINGS, PHASES, Game, Options, RuleError, errors
from judges.engine.actions import EndTurn
from judges.engine.cards import CARDS
from judges.engine.decisions import KINDS
from judges.engine.items import ITEMS
from judges.play import play_game
from judges.world import KINGDOMS, TERRAINS, load_world

WORLD = load_world()
ENGINE_DIR = Path(judges.engine.__file__).resolve().parent
I18N_SOURCE = "".join(p.read_text(encoding="utf-8") for p in sorted(Path(i18n.__file__).parent.glob("*.py")))
LANGS = i18n.LANGUAGES
NAMES = {0: "Ana", 1: "Bruno", 2: "Carla", 3: "Davi", 4: "Elena", 5: "Fábio"}


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    """In tests a missing translation or format field raises instead of falling back."""
    monkeypatch.setattr(i18n, "STRICT", True)


# --- What the engine can emit, read from its source ------------------------------------------


def _engine_sources() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(ENGINE_DIR.rglob("*.py"))}


RULE_ERRORS = sorted(name for name, obj in vars(errors).items() if isinstance(obj, type) and issubclass(obj, RuleError))

KEY_PATTERNS = (
    re.compile(r'\.(?:report|log_round|notify)\(\s*"([^"]+)"'),  # ctx.report("key", ...)
    re.compile(r'\bEntry\(\s*key="([^"]+)"'),  # Entry(key="income.tax", ...)
    re.compile(rf'\b(?:{"|".join(RULE_ERRORS)})\(\s*[^,()]+?,\s*"([^"]+)"', re.S),  # IllegalAction(rule, "error.x"
)
# values the engine passes as parameters, whose words the renderer looks up: call -> prefix
VALUE_PATTERNS = {
    "wrath_reason": re.compile(r'\bregister_wrath\([^()]*?,\s*"([^"]+)"\s*\)'),
    "cause": re.compile(r'\bkill_general\([^()]*?,\s*"([^"]+)"\s*\)'),
    "razed_by": re.compile(r'\braze\([^()]*?,\s*"([^"]+)"\s*\)'),
    "crowned": re.compile(r'\bcrown\([^()]*?,\s*"([^"]+)"\s*\)'),
    "arrival": re.compile(r'\b_land\([^()]*?,\s*"([^"]+)"\s*\)'),
    "outcome": re.compile(r'\boutcome\s+=\s+"([^"]+)"'),  # an assignment, not a declared type
    "decision": re.compile(r'\bDecision\([^()]*?kind="([^"]+)"'),
}


def engine_keys() -> set[str]:
    keys = set()
    for text in _engine_sources().values():
        for pattern in KEY_PATTERNS:
            keys.update(pattern.findall(text))
    return keys


def engine_value_keys() -> set[str]:
    keys = set()
    for text in _engine_sources().values():
        for prefix, pattern in VALUE_PATTERNS.items():
            keys.update(f"{prefix}.{v}" for v in pattern.findall(text))
    return keys


def vocabulary_keys() -> set[str]:
    keys = {f"phase.{p}" for p in PHASES}
    keys |= {f"terrain.{t}" for t in TERRAINS}
    keys |= {f"kingdom.{k}" for k in KINGDOMS}
    keys |= {f"card.{c}" for c in DEFAULT_RULES.deck} | {f"card.{c}" for c in CARDS}
    keys |= {f"item.{i}" for i in DEFAULT_RULES.costs} | {f"item.{i}" for i in ITEMS}
    keys |= {f"ending.{e}" for e in ENDINGS} | {f"ending_text.{e}" for e in ENDINGS}
    keys |= {f"decision.{k}" for k in KINDS} | {f"decision_help.{k}" for k in KINDS}
    keys |= {f"action.{t.__struct_config__.tag}" for t in ACTION_TYPES}
    keys |= {"party.canaanites", "party.invaders"}
    keys |= {"outcome.killed", "outcome.exposed", "outcome.failed"}
    return keys


def renderer_keys() -> set[str]:
    """Keys the renderer itself looks up (pieces of sentences, variants, outcomes)."""
    keys = set(re.findall(r'\.text\(\s*"([^"]+)"', I18N_SOURCE))
    keys |= {row[0] for rows in i18n.VARIANTS.values() for row in rows}
    return keys


UI_KEYS = {
    f"ui.{k}"
    for k in """
    bell unread players coins hand wrath events_area round phase waiting_for your_turn end_turn buy
    play_card move take_troops leave_troops pick_up_ark drop_ark execute release plunder hold close
    reopen new_game create_game seats human bot difficulty language invitation_links king judge
    prophet anointed captive besieged razed walls developments garrison army general tabernacle ark
    invaders score eliminated game_over winner no_winner you seat player_n""".split()
}


UI_KEYS |= {f"ui.language_name.{lang}" for lang in LANGS}

WEB_DIR = ENGINE_DIR.parent / "web"
WEB_KEY = re.compile(
    r"""\bt\(\s*['"]((?:ui|phase|terrain|kingdom|card|item|ending|ending_text|decision|decision_help|"""
    r"""action|party|outcome)\.[A-Za-z0-9_.]*[A-Za-z0-9_])['"]\s*[,)]"""
)


def web_keys() -> set[str]:
    """Literal keys the web screen asks for: t("ui.bell") in its scripts and templates."""
    keys = set()
    for path in sorted(WEB_DIR.rglob("*")) if WEB_DIR.is_dir() else []:
        if path.suffix in (".js", ".html", ".py"):
            keys.update(WEB_KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def all_expected_keys() -> set[str]:
    return engine_keys() | engine_value_keys() | vocabulary_keys() | renderer_keys() | UI_KEYS | web_keys()


def test_the_scan_finds_the_engine_keys():
    """Guards the regexes: a scan that silently found nothing would make (a) pass vacuously."""
    keys = engine_keys()
    assert len(keys) > 90
    for key in (
        "wrath.reconciled",
        "acquisition",
        "income.dowry",
        "income.tax",
        "notification.income",
        "notification.game_over",
        "error.buy.too_poor",
        "error.not_your_decision",
        "error.game_over",
        "error.malformed_action",
        "combat.battle",
        "title.claimed",
    ):
        assert key in keys, key
    assert {
        "wrath_reason.tax",
        "cause.plague",
        "razed_by.plunder",
        "crowned.anointed",
        "arrival.entry",
        "outcome.exposed",
        "decision.vote",
    } <= engine_value_keys()
    # the AST walk below sees every call with a literal key: the regexes must agree with it
    assert set(_call_sites()) <= keys


# --- (a) every key, every language ----------------------------------------------------------


def test_every_key_has_a_translation_in_every_language():
    missing = [
        (lang, key)
        for key in sorted(all_expected_keys())
        for lang in LANGS
        if not i18n.catalog(lang).get(key, "").strip()
    ]
    assert not missing, f"{len(missing)} message(s) without a translation: {missing}"


def test_the_three_catalogs_have_the_same_keys():
    en = set(i18n.catalog("en"))
    for lang in LANGS:
        keys = set(i18n.catalog(lang))
        assert keys == en, (lang, sorted(keys ^ en))


# --- (b) well-formed catalogs -----------------------------------------------------------------


def _po(lang: str):
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        return path, read_po(f, locale=lang)


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_passes_babel_checks_and_headers(lang):
    path, catalog = _po(lang)
    problems = [(msg.id, [str(e) for e in errs]) for msg, errs in catalog.check()]
    assert problems == []
    assert str(catalog.locale) == lang
    assert not any(msg.fuzzy for msg in catalog if msg.id)
    raw = path.read_text(encoding="utf-8")
    assert f'"Language: {lang}\\n"' in raw
    assert '"Content-Type: text/plain; charset=UTF-8\\n"' in raw
    if lang == "pt_BR":
        assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in raw


@pytest.mark.parametrize("lang", LANGS)
def test_format_fields_match_english(lang):
    english = i18n.catalog("en")
    for key, text in i18n.catalog(lang).items():
        fields = i18n.message_fields(text)
        assert fields == i18n.message_fields(english[key]), (lang, key, text)
        assert all(f.isidentifier() for f in fields), (lang, key, text)  # named fields only
        # no stray braces: everything between braces is a field
        assert text.count("{") == text.count("}") == len(list(re.finditer(r"\{[A-Za-z_]\w*\}", text))), (
            lang,
            key,
            text,
        )


def _call_sites() -> dict[str, set[str] | None]:
    """key -> the parameter names its engine call sites pass (None: not statically known)."""
    known: dict[str, set[str] | None] = {}

    def record(key: str, params: set[str] | None) -> None:
        if key in known and known[key] is not None and params is not None:
            known[key] = known[key] & params  # a field must be passed by every call site
        elif key not in known or params is None:
            known[key] = params

    for text in _engine_sources().values():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("report", "log_round") and node.args and isinstance(node.args[0], ast.Constant):
                params = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
                record(node.args[0].value, params)
            elif name == "notify" and node.args and isinstance(node.args[0], ast.Constant):
                given = next((k.value for k in node.keywords if k.arg == "params"), None)
                params = None
                if isinstance(given, ast.Dict) and all(isinstance(k, ast.Constant) for k in given.keys):
                    params = {k.value for k in given.keys} | {"round", "phase"}  # from the Notification
                record(node.args[0].value, params)
            elif name in RULE_ERRORS and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                record(node.args[1].value, {k.arg for k in node.keywords if k.arg})
            elif name == "Entry":
                kw = {k.arg: k.value for k in node.keywords}
                if isinstance(kw.get("key"), ast.Constant):
                    given = kw.get("params")
                    params = {k.value for k in given.keys} if isinstance(given, ast.Dict) else None
                    record(kw["key"].value, params)
    return known


def test_every_field_is_a_parameter_the_engine_passes():
    english = i18n.catalog("en")
    for key, params in _call_sites().items():
        if params is None:
            continue
        for k in (key, *(row[0] for row in i18n.VARIANTS.get(key, ()))):
            fields = i18n.message_fields(english[k])
            assert fields <= params, f"{k}: fields {sorted(fields - params)} are not parameters {sorted(params)}"


# --- Rendering every key with plausible parameters ------------------------------------------------

DUMMY = {
    "player": 0,
    "owner": 1,
    "captor": 2,
    "collector": 2,
    "previous_owner": 1,
    "by": 0,
    "general": 3,
    "target": 4,
    "candidate": 5,
    "previous_holder": 6,
    "winner": 5,
    "settlement": WORLD.settlement_by_name["Hazor"],
    "region": WORLD.region_by_name["Judah"],
    "hex": WORLD.settlements[WORLD.settlement_by_name["Shiloh"]].hex,
    "terrain": "plain",
    "terrains": ["plain", "desert"],
    "card": "plague",
    "cards": ["plague", "famine"],
    "item": "wall",
    "ending": "collapse",
    "kind": "vote",
    "phase": "movement",
    "action": "move",
    "reason": "tax",
    "cause": "battle",
    "how": "move",
    "outcome": "exposed",
    "success": True,
    "died": False,
    "modifiers": ["famine"],
    "candidates": [3, 5],
    "tied": [3, 5],
    "winners": [0],
    "eliminated": [1],
    "tally": [{"general": 3, "owner": 0, "votes": 2}, {"general": 5, "owner": 1, "votes": 2}],
    "ballots": [{"player": 0, "candidate": 3, "votes": 2}],
    "events": [{"card": "famine", "terrain": "plain"}],
    "scores": {"0": {"judges": 1, "king": 1, "tabernacle": 0, "total": 2}},
    "judgment": False,
    "detail": "?!",
}
ERROR_NAMES = {"settlement": "Hazor", "region": "Judah"}
OVERRIDES = {
    ("settlement.razed", "by"): "invaders",
    ("events.displaced", "by"): "sandstorm",
    ("king.crowned", "how"): "election",
    ("deck.reshuffled", "cards"): 12,
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_key_renders_with_its_call_site_parameters(lang):
    for key, params in sorted(_call_sites().items()):
        if params is None:
            continue
        values = {p: OVERRIDES.get((key, p), DUMMY.get(p, 2)) for p in params}
        if key.startswith("error."):
            values.update({p: v for p, v in ERROR_NAMES.items() if p in values})  # errors carry names
            text = i18n.render_error({"key": key, "params": values, "message": "-"}, lang, NAMES)
        elif key.startswith("notification."):
            n = {"id": 0, "round": 4, "phase": "combat", "key": key, "to": [0], "params": values, "entries": []}
            out = i18n.render_notification(n, lang, WORLD, NAMES)
            text = " ".join([out["title"], *out["lines"]])
        else:
            text = i18n.render_entry({"key": key, "params": values}, lang, WORLD, NAMES)
        assert text.strip() and "{" not in text and "}" not in text and "None" not in text, (lang, key, text)


# --- (c) whole games in every language -----------------------------------------------------

GAMES = [  # seed, players, bots, invader pairs per wave
    (1, 4, ["greedy"], 1),
    (2, 3, ["random"], 2),
    (3, 5, ["greedy", "random"], 1),
    (4, 6, ["random", "greedy"], 2),
    (5, 2, ["greedy", "random"], 1),
]


@pytest.fixture(scope="module")
def games():
    out = []
    for seed, players, bots, pairs in GAMES:
        options = Options(
            players=players, seed=seed, wave_pairs=pairs, round_limit=DEFAULT_RULES.simulation_round_limit
        )
        game = play_game(options, [make_bot(bots[s % len(bots)], seed * 100 + s) for s in range(players)])
        out.append((game, msgspec.to_builtins(game.notifications)))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_notification_of_whole_games_renders(games, lang):
    keys_seen = set()
    for game, notifications in games:
        assert game.is_over
        for n in notifications:
            out = i18n.render_notification(n, lang, game.world, NAMES)
            keys_seen.add(n["key"])
            keys_seen.update(e["key"] for e in n["entries"])
            assert out["title"].strip() and not out["title"].startswith("notification."), out
            assert len(out["lines"]) >= len(n["entries"])
            for text in (out["title"], *out["lines"]):
                assert text.strip(), (n["key"], out)
                assert "{" not in text and "}" not in text, (lang, n["key"], text)
                assert "None" not in text, (lang, n["key"], text)
            for entry in n["entries"]:
                line = i18n.render_entry(entry, lang, game.world, NAMES)
                assert line in out["lines"]
    # the games exercised most of the engine's vocabulary
    assert {
        "notification.announcements",
        "notification.income",
        "notification.battle",
        "notification.round_report",
        "notification.game_over",
        "wrath.reconciled",
        "combat.battle",
        "income.settlement",
        "acquisition",
    } <= keys_seen


def test_rendering_accepts_structs_and_unnamed_seats(games):
    game, notifications = games[0]
    struct = game.notifications[0]
    assert i18n.render_notification(struct, "es", game.world, NAMES) == i18n.render_notification(
        notifications[0], "es", game.world, NAMES
    )
    # names keyed by strings (JSON), and a seat without a name: "Player n" in the language
    line = i18n.render_entry(
        {"key": "intrigue.tax", "params": {"player": 1, "region": 0}}, "pt_BR", WORLD, {"1": "Bia"}
    )
    assert (
        line
        == f"Bia joga uma Taxação sobre {i18n.place_name('pt_BR', WORLD.regions[0].name)}."
        == "Bia joga uma Taxação sobre Naftali."
    )
    line = i18n.render_entry({"key": "intrigue.tax", "params": {"player": 2, "region": 0}}, "es", WORLD, {})
    assert line.startswith("Jugador 3 juega un Impuesto")


# --- (d) the manual's words ------------------------------------------------------------------


def _judgment_notification() -> dict:
    hazor = WORLD.settlement_by_name["Hazor"]
    return {
        "id": 7,
        "round": 6,
        "phase": "announcements",
        "key": "notification.announcements",
        "to": [0, 1],
        "params": {"wrath": 0, "judgment": True, "events": [{"card": "sandstorm", "terrain": "desert"}]},
        "entries": [
            {"key": "wrath.reconciled", "params": {"before": 11, "registered": 1, "canaanites": 1, "after": 13}},
            {"key": "wrath.judgment", "params": {"judgments": 1}},
            {"key": "invaders.wave", "params": {"wave": 1, "pairs": 1}},
            {"key": "invaders.besiege", "params": {"pair": 0, "settlement": hazor, "how": "entry"}},
            {"key": "events.landed", "params": {"card": "sandstorm", "terrain": "desert"}},
            {"key": "king.crowned", "params": {"general": 4, "owner": 1, "how": "anointed"}},
            {"key": "plague.garrison", "params": {"settlement": hazor, "owner": -1, "die": 2, "lost": 2}},
        ],
    }


def test_known_notification_in_english():
    out = i18n.render_notification(_judgment_notification(), "en", WORLD, NAMES)
    assert out["title"] == "Announcements — round 6: a judgment falls upon the land!"
    assert out["lines"][0] == "Wrath of God: 11 + 1 registered last round + 1 for the Canaanite presence → 13."
    assert "judgment" in out["lines"][1]
    assert out["lines"][3] == "Invader pair #0 enters the land and besieges Hazor."
    assert out["lines"][4] == "Sandstorm falls on the desert."
    assert out["lines"][5] == "General #4 (Bruno) is crowned King as the Anointed."
    assert "garrison of Canaanites" in out["lines"][6]


def test_known_notification_in_spanish():
    out = i18n.render_notification(_judgment_notification(), "es", WORLD, NAMES)
    text = "\n".join([out["title"], *out["lines"]])
    assert out["title"].startswith("Anuncios")
    for words in (
        "Ira de Dios",
        "juicio",
        "oleada",
        "asedia Hazor",
        "Tormenta de Arena",
        "desierto",
        "Ungido",
        "coronado Rey",
        "Cananeos",
    ):
        assert words in text, words
    assert out["lines"][0] == "Ira de Dios: 11 + 1 registrado la ronda anterior + 1 por la presencia cananea → 13."


def test_known_notification_in_portuguese():
    out = i18n.render_notification(_judgment_notification(), "pt_BR", WORLD, NAMES)
    text = "\n".join([out["title"], *out["lines"]])
    assert out["title"].startswith("Anúncios")
    for words in (
        "Ira de Deus",
        "julgamento",
        "leva",
        "cerca Hazor",
        "Tempestade de Areia",
        "deserto",
        "Ungido",
        "coroado Rei",
        "Cananeus",
    ):
        assert words in text, words


@pytest.mark.parametrize(
    "lang, title, line",
    [
        ("en", "Income: 7 coins (balance 2 → 9)", "Tax on Hazor: +4 (Famine)."),
        ("es", "Ingresos: 7 monedas (saldo 2 → 9)", "Impuesto sobre Hazor: +4 (Hambre)."),
        ("pt_BR", "Renda: 7 moedas (saldo 2 → 9)", "Taxação sobre Hazor: +4 (Fome)."),
    ],
)
def test_income_notification(lang, title, line):
    n = {
        "id": 1,
        "round": 2,
        "phase": "income",
        "key": "notification.income",
        "to": [0],
        "params": {"player": 0, "before": 2, "income": 7, "after": 9},
        "entries": [
            {
                "key": "income.tax",
                "params": {
                    "settlement": WORLD.settlement_by_name["Hazor"],
                    "value": 4,
                    "modifiers": ["famine"],
                    "owner": None,
                },
            },
            {"key": "income.besieged", "params": {"settlement": 3, "value": 0}},
        ],
    }
    out = i18n.render_notification(n, lang, WORLD, NAMES)
    assert out["title"] == title
    assert out["lines"][0] == line


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ["Collapse of the regions", "no winner", "everyone loses"]),
        ("es", ["Colapso de las regiones", "sin ganador", "todos pierden"]),
        ("pt_BR", ["Colapso das regiões", "sem vencedor", "todos perdem"]),
    ],
)
def test_game_over_without_winner(lang, words):
    n = {
        "id": 9,
        "round": 12,
        "phase": "victory",
        "key": "notification.game_over",
        "to": [0, 1],
        "params": {"ending": "collapse", "winners": [], "round": 12},
        "entries": [],
    }
    out = i18n.render_notification(n, lang, WORLD, NAMES)
    text = " ".join([out["title"], *out["lines"]])
    assert all(w in text for w in words), text


def test_shared_victory_and_battle_variants():
    n = {
        "id": 9,
        "round": 12,
        "phase": "victory",
        "key": "notification.game_over",
        "to": [0, 1],
        "params": {"ending": "three_points", "winners": [0, 2], "round": 12},
        "entries": [],
    }
    assert (
        i18n.render_notification(n, "es", WORLD, NAMES)["title"]
        == "Fin de la partida en la ronda 12 — Tres puntos: victoria compartida de Ana y Carla"
    )
    battle = {
        "hex": WORLD.settlements[0].hex,
        "attacker": "invaders",
        "defender": 1,
        "winner": None,
        "rounds": [{"attacker": [6, 4, 1, 2], "defender": [5, 5], "attacker_hits": 2, "defender_hits": 2}],
        "attacker_losses": 2,
        "defender_losses": 2,
        "captured": [],
        "killed": [7],
    }
    out = i18n.render_notification(
        {
            "id": 3,
            "round": 5,
            "phase": "combat",
            "key": "notification.battle",
            "to": [0],
            "params": battle,
            "entries": [],
        },
        "pt_BR",
        WORLD,
        NAMES,
    )
    assert out["title"] == f"Batalha em {WORLD.settlements[0].name}: Invasores contra Bruno — ambos os lados caem"
    assert out["lines"] == [
        "Rolagem 1: Invasores 6, 4, 1, 2 (acertos: 2); Bruno 5, 5 (acertos: 2).",
        "Baixas — Invasores: 2; Bruno: 2.",
        "Mortos: general #7.",
    ]


def test_real_errors_render_in_every_language():
    game = Game.new(Options(players=3, seed=1))
    idle = next(s for s in range(3) if s not in game.waiting_for())
    with pytest.raises(RuleError) as refused:
        game.apply(EndTurn(player=idle))
    error = refused.value.to_dict()
    assert error["key"] == "error.not_your_decision"
    texts = {lang: i18n.render_error(error, lang, NAMES) for lang in LANGS}
    assert texts["en"].startswith(NAMES[idle])
    assert "decisión" in texts["es"] and "decisão" in texts["pt_BR"]
    with pytest.raises(RuleError) as refused:
        game.apply({"type": "no_such_action", "player": 0})
    for lang in LANGS:
        assert "{" not in i18n.render_error(refused.value.to_dict(), lang)
    # values the player sent are shown as they came, even in strict mode
    bad = {"key": "error.not_an_event", "params": {"card": "dragon"}, "message": "'dragon' is not an event card"}
    assert i18n.render_error(bad, "es") == "dragon no es una carta de evento."
    assert i18n.render_error(refused.value, "pt_BR").startswith("Esta não é uma ação válida")


# --- The API -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, lang",
    [
        ("en", "en"),
        ("es", "es"),
        ("pt_BR", "pt_BR"),
        ("pt", "pt_BR"),
        ("pt-BR", "pt_BR"),
        ("pt_br", "pt_BR"),
        ("PT-PT", "pt_BR"),
        ("es-ES", "es"),
        ("es_MX", "es"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("fr-FR,es;q=0.8,en;q=0.5", "es"),
        ("de", "en"),
    ],
)
def test_normalize_language(code, lang):
    assert i18n.normalize_language(code) == lang
    assert i18n.DEFAULT_LANGUAGE == "en" and i18n.LANGUAGES == ("en", "es", "pt_BR")


def test_a_supported_language_normalizes_to_itself_by_negotiation_too():
    # normalize_language returns a supported code as it is, without negotiating (every rendered
    # word asks): the negotiation must agree
    for lang in i18n.LANGUAGES:
        assert i18n.negotiate_language(accept_language=lang) == lang
        assert i18n.normalize_language(lang) == lang


def test_gettext_strict_and_fallbacks(monkeypatch):
    assert i18n.gettext("es", "ui.player_n", n=3) == "Jugador 3"
    assert i18n.gettext("pt-BR", "phase.victory") == "Checagem de Vitória"
    assert i18n.gettext("es", "decision.vote") == "🗳 Votar"
    assert i18n.gettext("pt_BR", "decision.appoint_judge") == "⚖ Nomear Juiz"
    assert i18n.gettext("en", "decision.succession") == "👑 Succession"
    with pytest.raises(KeyError):
        i18n.gettext("es", "no.such.key")
    with pytest.raises(KeyError):
        i18n.gettext("es", "ui.player_n")  # a field without its parameter
    assert i18n.gettext("es", "no.such.key", strict=False) == "no.such.key"
    assert i18n.gettext("es", "ui.player_n", strict=False) == "Jugador ?"
    monkeypatch.setattr(i18n, "STRICT", False)
    spanish = {k: v for k, v in i18n.catalog("es").items() if k != "ui.bell"}
    real = i18n.catalog
    monkeypatch.setattr(i18n, "catalog", lambda lang: spanish if lang == "es" else real(lang))
    assert i18n.gettext("es", "ui.bell") == "Notifications"  # English fills the gap
    assert (
        i18n.render_error({"key": "error.brand_new", "params": {}, "message": "plain English"}, "es") == "plain English"
    )


def test_fields_are_plain_names_only():
    # a translation cannot reach into objects: "{n.__class__}" is looked up as a name
    assert i18n._format("k", "{n.__class__}", {"n": 1}, strict=False) == "?"


def test_messages_for_a_screen():
    ui = i18n.messages("pt", "ui.")
    assert ui["ui.bell"] == "Notificações" and all(k.startswith("ui.") for k in ui)
    strings = i18n.ui_strings("es")
    assert strings["ui.bell"] == "Notificaciones" and strings["card.tax"] == "Impuesto"
    assert strings["phase.victory"] == "Comprobación de Victoria" and strings["decision.vote"] == "🗳 Votar"
    assert not any(k.startswith(("error.", "notification.", "wrath.")) for k in strings)
    assert set(i18n.ui_strings("pt_BR")) == set(strings)
    assert i18n.label("es", "terrain", "mountains") == "montañas"
    assert i18n.label("es", "card", "dragon", strict=False) == "dragon"


def test_every_error_the_server_answers_is_translated_in_every_language():
    import judges.server as server_package

    source = "".join(p.read_text() for p in Path(server_package.__file__).parent.rglob("*.py"))
    keys = set(re.findall(r'ServiceError\(\d+, "(error\.[a-z_]+)"', source)) | {"error.request"}
    assert len(keys) >= 10
    for lang in i18n.LANGUAGES:
        for key in keys:
            assert key in i18n.catalog(lang), (lang, key)
            assert i18n.gettext(lang, key, strict=True, detail="x").strip(), (lang, key)


def test_a_hex_without_a_settlement_is_named_by_the_nearest_settlement():
    """A hex with no settlement reads as its terrain near the nearest settlement (of those as
    near, the lowest index), for every hex of the map: the nearest kept once per map is that one."""
    from judges.i18n.render import _Renderer

    world = load_world()
    renderer = _Renderer("en", world, None, None)
    for h, hx in enumerate(world.hexes):
        if hx.settlement is not None:
            continue
        near = min(world.settlements, key=lambda s: (world.hex_distance(h, s.hex), s.index))
        expected = renderer.text(
            "fmt.hex", terrain=renderer.word("terrain", hx.terrain), near=i18n.place_name("en", near.name)
        )
        assert renderer.hex(h) == expected, h
