"""The screens' types of each game's wire view (web/static/js/wire.d.ts for Judges & Kings,
web/static/js/rome/wire.d.ts for Republic of Rome) are generated from the view's JSON Schema by
scripts/wire-types.py, and the committed files are the ones it writes."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import msgspec
import pytest

from judges.games import SERVED

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "wire-types.py"


def load():
    spec = importlib.util.spec_from_file_location("wire_types", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["judges", "rome"])
def test_the_committed_wire_types_are_what_the_schema_generates(game):
    script = load()
    out = script.TARGETS[game][0]
    assert out.read_text() == script.render(game), "run: python scripts/wire-types.py"


def test_a_stale_file_fails_the_check(tmp_path, monkeypatch):
    script = load()
    stale = tmp_path / "wire.d.ts"
    stale.write_text(script.render("rome").replace("senators", "statesmen"))
    _, header, make_schema = script.TARGETS["rome"]
    monkeypatch.setitem(script.TARGETS, "rome", (stale, header, make_schema))
    assert script.main(["--check"]) == 1
    script.main([])
    assert script.main(["--check"]) == 0


def test_the_types_name_every_field_of_the_view():
    script = load()
    from judges.server.games.judges import wire

    text = script.render()
    block = text[text.index("export interface View {") :]
    block = block[: block.index("\n}")]
    for name in wire.View.__struct_fields__:
        assert f"\n  {name}: " in block, name
    assert "export interface ReplayView {" in text and "export interface GameState {" in text


def test_rome_types_name_every_field_of_its_view_from_the_plug_ins_schema():
    script = load()
    served = SERVED["rome"]
    text = script.render("rome")
    block = text[text.index("export interface RomeView {") :]
    block = block[: block.index("\n}")]
    for name in served.view_type.__struct_fields__:
        assert f"\n  {name}: " in block or f"\n  {name}?: " in block, name
    for name in served.view_schema()["$defs"]:
        assert f"export interface {name} {{" in text or f"export type {name} = " in text, name


@pytest.mark.parametrize("seat", [0, 4, None])
def test_a_rome_view_served_is_of_the_schema_s_type(seat):
    """What a Rome seat (or a spectator) receives decodes as the type the schema and the
    TypeScript types describe: no field outside it, none of another type."""
    served = SERVED["rome"]
    game = served.new_table(players=5, seed=7, key=None, rules=served.parse_rules(None))
    view = served.spectator_view(game) if seat is None else served.seat_view(game, seat)
    wire = msgspec.json.decode(msgspec.json.encode(view))  # as the socket carries it
    typed = msgspec.convert(wire, served.view_type)  # ValidationError for a field of another type
    assert set(wire) <= set(served.view_type.__struct_fields__)
    assert msgspec.json.decode(msgspec.json.encode(typed)) == wire  # nothing dropped on the way
