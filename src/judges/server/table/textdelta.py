"""A text as the edits that turn an older copy of it into the new one, line by line: how the
board drawing (render/svg.py, ~100 KiB, a few lines of which change with an action) reaches a
screen that holds the drawing of an earlier step (`GET /api/games/{id}/follow`, server/table/screen.py).

    edits = [[start, end, [lines]], ...]   # replace old lines [start, end) by `lines`

The ranges are in the old text's line numbers, in increasing order and disjoint; `apply_edits`
is the reference of how a client applies them (the screen's `patchText` in
web/static/js/connection.js does the same, from the last edit to the first)."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

Edits = list[list[object]]


def line_edits(old: str, new: str) -> Edits:
    """The edits from `old` to `new` (none when they are equal)."""
    if old == new:
        return []
    a, b = old.split("\n"), new.split("\n")
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return [[i1, i2, b[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def splice(items: list[Any], edits: Edits) -> list[Any]:
    """A new list: `items` with `edits` applied, from the last to the first (the same edits
    turn a drawing's lines and a view's arrays into their new ones: server/table/updates.py)."""
    out = list(items)
    for start, end, replacement in reversed(edits):
        assert isinstance(start, int) and isinstance(end, int) and isinstance(replacement, list)
        out[start:end] = replacement
    return out


def apply_edits(old: str, edits: Edits) -> str:
    """`old` with `edits` applied: the new text."""
    return "\n".join(splice(old.split("\n"), edits))


__all__ = ["line_edits", "apply_edits", "splice", "Edits"]
