"""The messages — report lines and notifications — registered like the decisions
(`judges.engine.messages`): each key declared once, beside the code that emits it, with typed
parameters and its manual chapter; the renderer, the manual's links and the screen derive from
the declarations.

- every key whole games emit is declared, with exactly the parameters it is emitted with, each
  value of its declared type; every key the engine's source emits is declared in that module;
- every declared key has its text in every catalog, whose fields are declared parameters;
- a parameter is converted by its declared type, never by its name;
- every declared chapter is a chapter of the manual, and the manual's links read it;
- the server's seat notices are declared (and kept off the game log); `/api/protocol`
  publishes the declarations.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import msgspec
import pytest

import judges.engine
import judges.server
from judges import i18n, protocol
from judges.bots import make_bot
from judges.engine import DEFAULT_RULES, ENDINGS, Options
from judges.engine.cards import CARDS
from judges.engine.messages import LINE_TYPES, MESSAGES, PARAM_TYPES, Line, forget, message
from judges.i18n import render
from judges.manual import CHAPTERS, chapter_for_notification
from judges.play import play_game
from judges.world import TERRAINS, load_world

WORLD = load_world()
ENGINE_DIR = Path(judges.engine.__file__).resolve().parent
SERVER_DIR = Path(judges.server.__file__).resolve().parent
LANGS = i18n.LANGUAGES
# The server's own notices (server/community/notices.py): the seats', and an abandoned game's (issue 30).
SEAT_NOTICES = {k for k in MESSAGES if k.startswith("notification.seat_")} | {
    "notification.game_abandoned",
    "notification.game_closed",
}
# The parameters a notification takes from itself (its round), not from its params.
NOTIFICATION_OWN = {"round"}

GAMES = [  # seed, players, bots, invader pairs per wave
    (1, 4, ["greedy"], 1),
    (2, 3, ["random"], 2),
    (3, 5, ["greedy", "random"], 1),
    (6, 4, ["random"], 2),
]


@pytest.fixture(scope="module")
def emitted():
    """key -> every params dict whole games emitted it with (notifications and their lines)."""
    out: dict[str, list[dict]] = {}
    for seed, players, bots, pairs in GAMES:
        options = Options(
            players=players, seed=seed, wave_pairs=pairs, round_limit=DEFAULT_RULES.simulation_round_limit
        )
        game = play_game(options, [make_bot(bots[s % len(bots)], seed * 100 + s) for s in range(players)])
        for n in msgspec.to_builtins(game.notifications):
            out.setdefault(n["key"], []).append(n["params"])
            for e in n["entries"]:
                out.setdefault(e["key"], []).append(e["params"])
    return out


def _is_seat(v) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool) and v >= -1) or v in ("invaders", "canaanites")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_WORDS = {
    "card": set(CARDS),
    "terrain": set(TERRAINS),
    "ending": set(ENDINGS),
}


def fits(kind: str, v) -> bool:
    """Whether a value is one of its declared type (None: not given, e.g. no winner)."""
    if v is None:
        return kind not in ("players", "generals", "cards", "terrains", "bool", "revolt_outcome", "death_outcome")
    if kind == "player":
        return _is_seat(v)
    if kind in ("general", "int", "die", "coins", "hex", "settlement", "region"):
        return _is_int(v)
    if kind == "players":
        return isinstance(v, list) and all(_is_seat(x) for x in v)
    if kind == "generals":
        return isinstance(v, list) and all(_is_int(x) for x in v)
    if kind in _WORDS:
        return v in _WORDS[kind]
    if kind in ("cards", "terrains"):
        return isinstance(v, list) and all(x in _WORDS[kind[:-1]] for x in v)
    if kind in ("bool", "revolt_outcome", "death_outcome"):
        return isinstance(v, bool)
    if kind in ("tally", "ballots", "battle_rounds", "events"):
        return isinstance(v, list) and all(isinstance(x, dict) for x in v)
    if kind == "scores":
        return isinstance(v, dict)
    return isinstance(v, str)  # a word of a vocabulary, a text


def test_every_key_whole_games_emit_is_declared_with_its_parameters_typed(emitted):
    assert {"notification.battle", "notification.round_report", "wrath.reconciled", "income.settlement"} <= set(emitted)
    undeclared = sorted(set(emitted) - set(MESSAGES))
    assert not undeclared, f"emitted but not declared (engine/messages.py `message`): {undeclared}"
    for key, calls in emitted.items():
        declared = MESSAGES[key].params
        own = NOTIFICATION_OWN if key.startswith("notification.") else set()
        for params in calls:
            assert set(params) <= set(declared) and set(declared) - set(params) <= own, (key, params, declared)
            for name, value in params.items():
                assert fits(declared[name], value), (key, name, declared[name], value)


def _literal_keys(tree: ast.AST, calls: tuple[str, ...]) -> set[str]:
    keys = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in calls and node.args and isinstance(node.args[0], ast.Constant):
            keys.add(node.args[0].value)
        if name == "Entry" and "report" in calls:
            keys |= {k.value.value for k in node.keywords if k.arg == "key" and isinstance(k.value, ast.Constant)}
    return keys


def test_every_key_the_engine_emits_is_declared_in_the_module_that_emits_it():
    declared_anywhere: set[str] = set()
    for path in sorted(ENGINE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        emits = _literal_keys(tree, ("report", "log_round", "notify"))
        declares = _literal_keys(tree, ("message",))
        assert emits <= declares, f"{path.name} emits {sorted(emits - declares)} without declaring them"
        declared_anywhere |= declares
        assert declares <= emits, f"{path.name} declares {sorted(declares - emits)} it never emits"
    assert declared_anywhere == set(MESSAGES) - SEAT_NOTICES


def test_the_servers_notices_are_declared_and_kept_off_the_game_log():
    found: set[str] = set()
    prefixes: set[str] = set()
    for path in sorted(SERVER_DIR.rglob("*.py")):  # (any module the server splits into)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"notification\.[a-z_.]+", node.value):
                    (prefixes if node.value.endswith(".") else found).add(node.value)
    assert found, "the scan finds the server's notices"
    assert found <= set(MESSAGES), sorted(found - set(MESSAGES))
    for prefix in prefixes:  # f"notification.seat_why.{why}"
        assert any(k.startswith(prefix) for k in MESSAGES), prefix
    assert SEAT_NOTICES and all(not MESSAGES[k].log for k in SEAT_NOTICES)
    assert all(m.log for k, m in MESSAGES.items() if k not in SEAT_NOTICES)


def _texts(key: str, lang: str) -> list[tuple[str, str]]:
    """The texts of a declared key in one language: its own, its variants', its lines'."""
    keys = [key, *(row[0] for row in i18n.VARIANTS.get(key, ()))]
    keys += [line.key for line in MESSAGES[key].lines if isinstance(line, Line)]
    return [(k, i18n.catalog(lang).get(k, "")) for k in keys]


@pytest.mark.parametrize("lang", LANGS)
def test_every_declared_key_has_its_text_with_declared_parameters_only(lang):
    for key, declared in MESSAGES.items():
        for k, text in _texts(key, lang):
            assert text.strip(), (lang, k)
            fields = i18n.message_fields(text)
            assert fields <= set(declared.params), (lang, k, sorted(fields - set(declared.params)))
            assert fields == i18n.message_fields(i18n.catalog("en")[k]), (lang, k)
        for name, test in ((row[1], row[2]) for row in i18n.VARIANTS.get(key, ())):
            assert name in declared.params, (key, name, test)  # a variant chooses by a declared parameter


def test_a_parameter_is_converted_by_its_declared_type_not_its_name():
    key = message("test.issue32", "screen", general="player", player="general", hex="int", card="terrain")
    try:
        r = render._Renderer("es", WORLD, {0: "Ana"}, strict=True)
        params = {"general": 0, "player": 3, "hex": 12, "card": "desert"}
        assert r.value(key, "general", params) == "Ana"
        assert r.value(key, "player", params) == i18n.gettext("es", "fmt.general", n=3)
        assert r.value(key, "hex", params) == 12
        assert r.value(key, "card", params) == i18n.label("es", "terrain", "desert")
        with pytest.raises(KeyError):  # strict: a parameter of no declared type
            r.value(key, "owner", {"owner": 1})
    finally:
        forget(key)
    assert key not in MESSAGES
    # the renderer keeps no table of parameter names
    source = "".join(p.read_text(encoding="utf-8") for p in Path(i18n.__file__).parent.glob("*.py"))
    for name in ("_SEAT_PARAMS", "_GENERAL_PARAMS", "_VOCABULARY_PARAMS", '"battle" in key', 'key == "notification.'):
        assert name not in source, name


def test_a_declaration_names_known_types_and_real_lines_once():
    with pytest.raises(ValueError):
        message("wrath.judgment", "wrath-and-invaders", judgments="int")  # declared already
    with pytest.raises(ValueError):
        message("test.issue32", "screen", who="person")  # no such type
    with pytest.raises(ValueError):
        message("test.issue32", "screen", lines=("who",), who="player")  # a player is no lines
    with pytest.raises(ValueError):
        message("test.issue32", "screen", lines=(Line("fmt.killed", "killed"),), who="player")
    with pytest.raises(ValueError):  # a variant tests a declared parameter
        message("test.issue32", "screen", variants=(("test.issue32.none", "winner", "missing"),), who="player")
    assert "test.issue32" not in MESSAGES
    for declared in MESSAGES.values():
        assert set(declared.params.values()) <= set(PARAM_TYPES)
        for line in declared.lines:
            assert isinstance(line, Line) or declared.params[line] in LINE_TYPES


def test_every_declared_chapter_is_the_manuals_and_its_links_read_it():
    for key, declared in MESSAGES.items():
        assert declared.chapter in CHAPTERS, (key, declared.chapter)
        assert chapter_for_notification(key) == declared.chapter
        for variant, _, _ in i18n.VARIANTS.get(key, ()):
            assert chapter_for_notification(variant) == declared.chapter
    assert chapter_for_notification("nothing.at_all") is None


def test_the_protocol_publishes_the_declarations():
    published = protocol.protocol()
    assert published["param_types"] == dict(PARAM_TYPES)
    assert set(published["messages"]) == set(MESSAGES)
    battle = published["messages"]["notification.battle"]
    assert battle["params"]["rounds"] == "battle_rounds" and battle["lines"][0] == "rounds"
    assert battle["chapter"] == "movement-and-combat" and battle["log"] is True
    assert published["messages"]["notification.seat_bot"]["log"] is False
