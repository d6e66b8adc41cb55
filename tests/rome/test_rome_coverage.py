"""docs/rome/rules-coverage.md traces every rule of the review (R1-R275) once, and every test it
names exists: renaming or deleting a test breaks the trace and this test."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rome" / "rules-coverage.md").read_text(encoding="utf-8")


def test_every_rule_is_traced_once():
    numbers = [int(n) for n in re.findall(r"^\| R(\d+) \|", DOC, re.M)]
    assert numbers == list(range(1, 276))


def test_every_named_test_exists():
    named = re.findall(r"(tests/rome/[\w/]+\.py)::(\w+)((?:, ::\w+)*)", DOC)
    assert len(named) > 30
    for path, first, more in named:
        source = ROOT / path
        assert source.is_file(), path
        defined = {
            n.name for n in ast.walk(ast.parse(source.read_text(encoding="utf-8"))) if isinstance(n, ast.FunctionDef)
        }
        for name in [first, *re.findall(r"::(\w+)", more)]:
            assert name in defined, f"{path}::{name}"


def test_the_summary_counts_the_table():
    rows = re.findall(r"^\| R\d+ \| [^|]+ \| [^|]+ \| ([^|]+) \|", DOC, re.M)
    tested = sum(1 for r in rows if r.startswith(("tested", "data tested")))
    assert f"**{tested} tested**" in DOC
    # a rule tested for what is played and decided otherwise for the rest counts as tested, and
    # the summary says how many carry such a decided part
    with_decided = sum(1 for r in rows if r.startswith("tested") and " ; decided " in r)
    assert f"({with_decided} of them decided otherwise for a part not played" in DOC
    decided = sum(1 for r in rows if r.startswith("decided"))
    assert f", {decided} decided otherwise," in DOC
    for word in ("partly", "not yet"):
        assert f"{sum(1 for r in rows if r.startswith(word))} {word}" in DOC


def test_every_worked_example_is_traced_once_to_a_test_that_names_it():
    """E1-E14 (digest 3.11): a fixture, or the reason it is not one; a named test says which
    example it plays."""
    rows = re.findall(r"^\| E(\d+) \| [^|]+ \| ([^|]+) \|", DOC, re.M)
    assert [int(n) for n, _ in rows] == list(range(1, 15))
    for number, fixture in rows:
        named = re.findall(r"(tests/rome/[\w/]+\.py)::(\w+)", fixture)
        assert named or fixture.startswith("not a fixture: "), f"E{number}"
        for path, name in named:
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            tests = {n.name: ast.get_docstring(n) or "" for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
            assert name in tests, f"{path}::{name}"
            assert re.search(rf"\bE{number}\b", tests[name]), f"{name} does not name E{number}"
