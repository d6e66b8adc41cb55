"""What the neutral bot knows: its guidelines' numbers and the public position it reads from its
seat's view (the others' hands and treasuries, and the deck, left empty)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from ....engine.dice import SeededDice
from ...cards import Deck
from ...engine import combat
from ...engine.board import aligned, votes
from ...engine.context import Ctx
from ...engine.state import RomeOptions, RomeState, Senator, WarInPlay


@dataclass(frozen=True, slots=True)
class Guidelines:
    """The neutral's numbers ([D] where VG gives none; docs/rome/bots.md)."""

    persuade_bribe_floor: int = 7  # VG 4.04.2: bribes only when the number can reach 7
    persuade_bribe_ceiling: int = 9  # VG 4.04.2: ... and then up to 9
    counter_bribe_to: int = 4  # VG 4.04.21: counter-bribes bring the number to exactly 4
    opening_bid_die: int = 3  # [D] VG's 1d6 in the opening bid, at its rounded-down mean
    bid_limit_over_turn: int = 4  # VG 4.04.5: no bid above the turn number + 4
    faction_reserve: int = 10  # [D] talents kept in the faction treasury for counter-bribes
    state_reserve: int = 30  # [D] the State keeps this above its coming debits
    crisis_wars: int = 3  # VG 4.05.3: three active wars make a crisis ...
    crisis_strength: int = 15  # ... or a war of strength above 15
    peace_legions: int = 10  # VG 4.05.33: with no war Rome keeps 10 legions ...
    peace_fleets: int = 5  # ... and 5 fleets
    excess_cap: int = 15  # VG 4.05.31: half the excess legions, up to +15
    consul_for_life_at: int = 35  # VG 4.03.4: a contribution that reaches 35 influence is made
    appeal_popularity: int = 3  # [D] the accused appeals with this popularity or more
    no_graft: tuple[str, ...] = ("22A", "22B", "28A")  # VG 4.03.3: the Catos and Cicero


GUIDELINES = Guidelines()


def public_state(view: Mapping[str, Any], options: RomeOptions | None = None) -> RomeState:
    """The position the view shows: the others' hands and treasuries and the deck, which the view
    hides, are empty here (nothing the bot reads depends on them). `options`, when given, are
    the view's options already read (reading the rules again on every decision is slow)."""
    data = dict(view)
    if options is not None:
        data["options"] = {"players": options.players}
    data["deck"] = []
    data["report"] = []  # the bot reads the position, not its story
    data["factions"] = [
        {
            **f,
            "hand": f["hand"] if isinstance(f["hand"], list) else [],
            "treasury": f["treasury"] if f["treasury"] is not None else 0,
        }
        for f in view["factions"]
    ]
    state = msgspec.convert(data, RomeState)
    if options is not None:
        state.options = options
    return state


class Seen:
    """One decision's reading of the view: the public position, the seat, the rules helpers."""

    def __init__(
        self, view: Mapping[str, Any], seat: int, deck: Deck, g: Guidelines, options: RomeOptions | None = None
    ) -> None:
        self.state = public_state(view, options)
        self.seat = seat
        self.deck = deck
        self.g = g
        self.ctx = Ctx(self.state, SeededDice(self.state), deck)  # read-only: no die is rolled

    @classmethod
    def of_state(cls, state: RomeState, seat: int, deck: Deck, g: Guidelines) -> Seen:
        """The reading of a whole state, read in place and never changed: a search's sample,
        where the bot plays every seat. Its answers are those its seat's view gives, since it
        reads nothing the view hides (the others' hands and treasuries, the deck)."""
        seen = cls.__new__(cls)
        seen.state, seen.seat, seen.deck, seen.g = state, seat, deck, g
        seen.ctx = Ctx(state, SeededDice(state), deck)
        return seen

    # --- the faction and the board -----------------------------------------------------------

    @property
    def mine(self) -> list[Senator]:
        return aligned(self.state, self.seat)

    def in_rome(self, seat: int | None = None) -> list[Senator]:
        seat = self.seat if seat is None else seat
        return [s for s in aligned(self.state, seat) if s.location == "rome"]

    def richest(self) -> Senator | None:
        """VG 4.03.2: the senator with the most money spends for the faction (in Rome, then the
        lowest id)."""
        here = self.in_rome()
        return max(here, key=lambda s: (s.talents, -int(s.id))) if here else None

    def sitting(self) -> dict[str, Any]:
        sitting: dict[str, Any] = self.state.scratch.get("senate") or {}
        return sitting

    def active(self) -> list[WarInPlay]:
        return [w for w in self.state.wars if w.state in ("active", "unprosecuted")]

    def land(self, war: WarInPlay) -> int:
        return combat.strength(self.ctx, war)[0]

    def naval(self, war: WarInPlay) -> int:
        return combat.strength(self.ctx, war)[1]

    def crisis(self) -> bool:
        """VG 4.05.3: three or more active wars, or a war of strength above 15."""
        return len(self.active()) >= self.g.crisis_wars or any(
            self.land(w) > self.g.crisis_strength for w in self.state.wars
        )

    def danger(self, war: WarInPlay) -> int:
        """VG 4.05.32: a war with matching cards still to come is dangerous, measured by the force
        adequate against it with all of them in play (0: not dangerous)."""
        card = self.deck.wars[war.id]
        seen = {w.id for w in self.state.wars} | set(self.state.removed) | set(self.state.discard)
        coming = [
            w
            for w in self.deck.wars.values()
            if w.series == card.series and w.id not in seen and w.id in self._era_cards()
        ]
        if not coming:
            return 0
        series = [w for w in self.state.wars if self.deck.wars[w.id].series == card.series]
        leaders = sum(self.deck.leaders[x].strength for w in series for x in w.leaders)
        return card.land * (len(series) + len(coming)) + leaders

    def _era_cards(self) -> set[str]:
        return set(self.deck.deck_cards(self.state.options.rules.deck)) | {
            w for w, c in self.deck.wars.items() if c.starts_on_board
        }

    # --- the ruling coalition (VG 4.05.2) ------------------------------------------------------

    def ranking(self) -> list[int]:
        """The factions by votes in Rome; ties by the talents of their senators (the faction
        treasuries are secret here [D]), then the lower seat."""
        seats = [f.seat for f in self.state.factions if not f.eliminated]
        return sorted(
            seats,
            key=lambda seat: (
                -sum(votes(s) for s in self.in_rome(seat)),
                -sum(s.talents for s in aligned(self.state, seat)),
                seat,
            ),
        )

    def coalition(self) -> list[int]:
        """VG 4.05.2's coalition list, read for any number of factions [D]: the 1st alone; the
        2nd with the last, ... with the 3rd; the 1st with the last, ... with the 2nd; everyone.
        The first with a majority of the votes in Rome rules."""
        ranked = self.ranking()
        strength = {seat: sum(votes(s) for s in self.in_rome(seat)) for seat in ranked}
        total = sum(strength.values())
        tries: list[list[int]] = [ranked[:1]]
        if len(ranked) > 1:
            tries += [[ranked[1], ranked[i]] for i in range(len(ranked) - 1, 1, -1)]
            tries += [[ranked[0], ranked[i]] for i in range(len(ranked) - 1, 0, -1)]
        for group in tries:
            if 2 * sum(strength[s] for s in group) > total:
                return group
        return ranked
