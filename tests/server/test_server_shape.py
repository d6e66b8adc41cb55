"""The server's modules stay small and acyclic, and
the environment is read in one place (judges/settings.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import judges

SRC = Path(judges.__file__).resolve().parent
SERVER = SRC / "server"
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def _server_files() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*.py") if "migrations" not in p.parts)


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, package: str) -> set[str]:
    """The modules (and names in them) one import statement in `package` imports; none for
    another statement."""
    if isinstance(node, ast.ImportFrom):
        base = package
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        name = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
        return {name} | {f"{name}.{alias.name}" for alias in node.names}
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    return set()


def _runtime_imports(path: Path) -> set[str]:
    """The judges.server modules `path` imports when it runs (not those under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            found.update(_imported(node, package))
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])

    visit(tree.body)
    return found


def test_no_server_file_is_over_600_lines():
    long = {str(p.relative_to(SRC)): n for p in _server_files() if (n := len(p.read_text().splitlines())) > 600}
    assert not long, f"files over {MAX_FILE_LINES} lines: {long}"


def test_no_server_function_is_over_80_lines():
    long = []
    for path in _server_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({length} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_server_modules_import_no_circle():
    modules = {_module(p): p for p in _server_files()}
    graph = {name: {m for m in _runtime_imports(path) if m in modules and m != name} for name, path in modules.items()}
    # a package's __init__ that re-exports its own modules is not a circle with them
    for name in graph:
        graph[name] = {m for m in graph[name] if not (m.startswith(name + ".") and modules[name].name == "__init__.py")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def walk(name: str, stack: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                walk(target, [*stack, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    assert not cycles, f"import circles among server modules: {cycles}"


def test_the_environment_is_read_in_one_module():
    readers = sorted(
        str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if "os.environ" in p.read_text(encoding="utf-8")
    )
    assert readers in ([], ["settings.py"]), f"os.environ read outside judges/settings.py: {readers}"


def test_the_table_core_names_no_piece_of_either_game():
    """The table core speaks of tables, seats, views and actions: a general (Judges & Kings) or a
    senator (Republic of Rome) is its game's, reached through the game's plug-in and its server
    parts (server/games/, one package per game)."""
    named = {
        path.name: sorted(set(re.findall(r"\b(?:generals?|senators?)\b", path.read_text(encoding="utf-8"), re.I)))
        for path in sorted((SERVER / "table").glob("*.py"))
    }
    assert {name: words for name, words in named.items() if words} == {}


def test_the_table_core_holds_no_game_kit():
    """Each game's table kit is in its own package of server/games/, reached through one registry
    keyed by the game's name: no class of the table core is a kit of one game."""
    kits = [
        f"{path.name}:{node.name}"
        for path in sorted((SERVER / "table").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Kit")
    ]
    assert kits == []


# The server's packages that host every game alike: the table core, the community (lobby, chat,
# ratings...), the advice (hints, reviews) and the routes (the HTTP and socket answers). A game's
# own parts are in its package of server/games/, reached through its table kit
# (server/games/registry.py, KITS).
GAME_NEUTRAL = ("table", "community", "advice", "routes")
GAME_PACKAGES = tuple(f"judges.server.games.{p.name}" for p in (SERVER / "games").iterdir() if p.is_dir())


def _neutral_files() -> list[Path]:
    return sorted(p for package in GAME_NEUTRAL for p in (SERVER / package).rglob("*.py"))


def _imports(path: Path, tree: ast.AST) -> set[str]:
    """Every module `path` imports, wherever the import stands (under TYPE_CHECKING too)."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        found.update(_imported(node, package))
    return found


def _game_names_compared(tree: ast.AST) -> list[str]:
    """The comparisons in `tree` of something to a game's name written out (a string literal
    naming a game the server hosts, or DEFAULT_GAME): a branch on which game a table plays."""
    from judges.server.games.registry import KITS

    def names_a_game(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant) and node.value in KITS:
            return True
        if isinstance(node, ast.Name | ast.Attribute) and (getattr(node, "id", None) or node.attr) == "DEFAULT_GAME":
            return True
        return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(names_a_game(e) for e in node.elts)

    return [
        f"{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare) and any(names_a_game(e) for e in (node.left, *node.comparators))
    ]


def test_the_game_neutral_packages_import_no_game_package():
    """server/table, server/community, server/advice and server/routes reach a game only through
    its kit: none imports a module of server/games/judges or server/games/rome (the registry,
    server/games/registry.py, is the way to the kits)."""
    assert set(GAME_PACKAGES) >= {"judges.server.games.judges", "judges.server.games.rome"}
    assert (SERVER / "routes" / "screen.py") in _neutral_files()
    found = {
        str(path.relative_to(SERVER)): sorted(
            m for m in _imports(path, ast.parse(path.read_text(encoding="utf-8"))) if m.startswith(GAME_PACKAGES)
        )
        for path in _neutral_files()
    }
    assert {name: modules for name, modules in found.items() if modules} == {}


def test_the_game_neutral_packages_never_branch_on_the_game_name():
    """No module of server/table, server/community, server/advice or server/routes compares a
    table's game to a game's name ("judges", "rome", DEFAULT_GAME): what differs between games
    is the kit's."""
    found = {
        str(path.relative_to(SERVER)): _game_names_compared(ast.parse(path.read_text(encoding="utf-8")))
        for path in _neutral_files()
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_game_name_checks_find_what_they_look_for():
    """The two checks above, on a module written the old way: they would fail on it."""
    old = ast.parse(
        "from ..games.judges import wire\n"
        "if live.kind != DEFAULT_GAME:\n    pass\n"
        "judges = game == 'judges'\n"
        "x = kind in ('rome', 'other')\n"
    )
    assert _game_names_compared(old) == [
        "2: live.kind != DEFAULT_GAME",
        "4: game == 'judges'",
        "5: kind in ('rome', 'other')",
    ]
    imported = _imports(SERVER / "table" / "views.py", old)
    assert any(m.startswith(GAME_PACKAGES) for m in imported)
