"""docs/manual-coverage.md stays current: every test it names exists, no row says a test fails
(those findings are closed or the test is marked), and the designer's additions the in-app manual
marks are listed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "manual-coverage.md").read_text(encoding="utf-8")
CITED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_coverage_names_exists():
    cited = CITED.findall(DOC)
    assert len(cited) > 150  # the table is there (not an empty file passing by accident)
    missing = sorted({f"{f}::{name}" for f, name in cited if name not in functions(ROOT / f)})
    assert missing == []


def test_every_rule_row_names_a_test():
    rows = 0
    for line in DOC.splitlines():
        m = re.match(r"\| ([AB]\d+) \| .*? \| (rule[^|]*) \| (.*) \|$", line)
        if m:
            rows += 1
            assert CITED.search(m.group(3)) or m.group(3).startswith("see "), m.group(1)
    assert rows >= 80


def test_no_row_records_a_failing_test():
    assert "⚠ fails" not in DOC


def test_every_screen_row_names_the_test_that_checks_it_on_the_screen():
    rows = 0
    for line in DOC.splitlines():
        m = re.match(r"\| ([AB]\d+) \| .*? \| ((?:rule \+ )?screen) \| (.*) \|$", line)
        if m:
            rows += 1
            cited = CITED.findall(m.group(3))
            assert any(f.startswith(("tests/browser/", "tests/test_manual.py")) for f, _ in cited), m.group(1)
    assert rows >= 5
