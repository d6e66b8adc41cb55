"""Read-only questions about a position: who is in Rome, the HRAO, the order factions act in,
a senator's effective loyalty, the wars' standing."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import Deck
from .state import CIVIL_WAR, OFFICES, UNALIGNED, RomeState, Senator


def aligned(state: RomeState, seat: int) -> list[Senator]:
    """A faction's senators, in id order."""
    return [s for s in state.senators.values() if s.faction == seat]


def in_rome(senator: Senator) -> bool:
    return senator.location == "rome"


def unaligned(state: RomeState) -> list[Senator]:
    return [s for s in state.senators.values() if s.faction == UNALIGNED]


def rank_key(senator: Senator) -> tuple[int, int, int, int]:
    """R8 and GAP-19: offices in their order, then influence, then oratory, then the lowest id."""
    office = OFFICES.index(senator.office) if senator.office in OFFICES else len(OFFICES)
    return (office, -senator.influence, -senator.oratory, int(senator.id))


def hrao(state: RomeState) -> Senator | None:
    """R9: the highest-ranking aligned senator present in Rome (None when nobody is)."""
    present = [s for s in state.senators.values() if s.faction != UNALIGNED and in_rome(s)]
    return min(present, key=rank_key) if present else None


def order_from(state: RomeState, first: int) -> list[int]:
    """The factions still playing in table (clockwise) order starting with `first`."""
    n = state.players
    return [(first + i) % n for i in range(n) if not state.factions[(first + i) % n].eliminated]


def hrao_order(state: RomeState) -> list[int]:
    """Table order from the HRAO's faction (from seat 0 when nobody is in Rome)."""
    top = hrao(state)
    return order_from(state, top.faction if top is not None else 0)


def holder(state: RomeState, office: str) -> Senator | None:
    found = [s for s in state.senators.values() if s.office == office]
    return found[0] if found else None


def active_wars(state: RomeState) -> list[str]:
    """Wars that cost 20T and count toward Rome's fall: active and unprosecuted (R29, R232), and
    a civil war until its rebel has won (VG 1.11.3, 1.12.1)."""
    out = [w.id for w in state.wars if w.state in ("active", "unprosecuted")]
    if state.rebellion is not None and not state.rebellion.won:
        out.append(CIVIL_WAR)
    return out


def drought_effects(state: RomeState, deck: Deck) -> int:
    """Droughts in force: the Drought event (2 when intensified) and each war card with the
    drought symbol on the board, even an inactive one (ror-data §3.1, §10)."""
    return state.events.get("drought", 0) + sum(1 for w in state.wars if deck.wars[w.id].drought)


def effective_loyalty(state: RomeState, senator: Senator, deck: Deck) -> int:
    """A statesman's loyalty is 0 while a statesman he opposes is in his faction (R59)."""
    if senator.statesman and senator.faction != UNALIGNED:
        opposes = set(deck.statesmen[senator.statesman].opposes)
        if any(s.statesman in opposes for s in aligned(state, senator.faction)):
            return 0
    return senator.loyalty


def faction_influence(state: RomeState, seat: int) -> int:
    return sum(s.influence for s in aligned(state, seat) if s.location != "rebel")


def votes(senator: Senator) -> int:
    """R91: oratory plus one per knight."""
    return senator.oratory + senator.knights


def iter_seats(state: RomeState) -> Iterator[int]:
    return (f.seat for f in state.factions if not f.eliminated)
