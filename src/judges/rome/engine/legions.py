"""Legions and their veterans' allegiance (VG 1.10.5, 1.10.6, 1.11.31, 1.11.34; R224-R226,
R240, R244, R249): a veteran made in battle owes allegiance to the commander who led it until
he dies or the legion is lost. Rome's box, each force and the rebel army count their legions,
how many are veterans, and how many of those owe each senator (`loyal`).

Where only some veterans move, each veteran is named by its owner (a senator id, "" for none) in
a fixed order: those owing allegiance by senator id, then those owing none."""

from __future__ import annotations

from typing import Protocol

from .context import Ctx


class Army(Protocol):
    legions: int
    veterans: int
    loyal: dict[str, int]


def owners(army: Army) -> list[str]:
    """Each veteran's allegiance, in the fixed order."""
    out: list[str] = []
    for sid in sorted(army.loyal, key=int):
        out += [sid] * army.loyal[sid]
    return out + [""] * (army.veterans - len(out))


def _drop(army: Army, owner: str) -> None:
    if owner:
        army.loyal[owner] -= 1
        if army.loyal[owner] == 0:
            del army.loyal[owner]


def make_veteran(army: Army, commander: str) -> None:
    """VG 1.10.5 (R224, R225): one surviving regular legion turns veteran, owing the commander."""
    if army.veterans < army.legions:
        army.veterans += 1
        if commander:
            army.loyal[commander] = army.loyal.get(commander, 0) + 1


def lose(ctx: Ctx, army: Army, lost: int) -> None:
    """VG 1.10.6 (R226): lost legions drawn one by one at random among regular and veteran ones;
    a lost veteran takes its allegiance with it (drawn at random among the veterans)."""
    for _ in range(lost):
        if army.legions == 0:
            break
        if army.veterans and ctx.dice.roll(army.legions) <= army.veterans:
            if army.loyal:
                _drop(army, owners(army)[ctx.dice.roll(army.veterans) - 1])
            army.veterans -= 1
        army.legions -= 1


def move(src: Army, dst: Army, regulars: int, veterans: list[str]) -> None:
    """`regulars` regular legions and the veterans named by `veterans` (their owners) go from
    `src` to `dst`."""
    for owner in veterans:
        _drop(src, owner)
        if owner:
            dst.loyal[owner] = dst.loyal.get(owner, 0) + 1
    src.legions -= regulars + len(veterans)
    src.veterans -= len(veterans)
    dst.legions += regulars + len(veterans)
    dst.veterans += len(veterans)


def move_all(src: Army, dst: Army) -> None:
    move(src, dst, src.legions - src.veterans, owners(src))


def take(src: Army, dst: Army, legions: int, veterans: int) -> None:
    """`legions` legions, `veterans` of them veterans, in the fixed order: [D] the veterans owing
    no allegiance first (the Senate's levies and releases)."""
    chosen = sorted(owners(src), key=lambda o: (o != "", int(o) if o else 0))[:veterans]
    move(src, dst, legions - veterans, chosen)


def forget(army: Army, senator: str) -> None:
    """VG 1.10.5: a dead senator's allegiance markers are gone; his veterans stay veterans."""
    army.loyal.pop(senator, None)
