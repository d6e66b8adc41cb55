"""One driver per game for the platform's tests: the tests that are about the server (seats,
invitations, chat, spectators, limits, refusals, hidden information, persistence, crashes,
two processes) run for every game the server hosts through the `game` fixture
(tests/conftest.py), and reach the game's own parts only through its driver:

    def test_x(client, game):
        body = game.body(game.seats(humans=2, bots=1))     # POST /api/games, the game named
        ...
        action = game.hurried(view)                        # a legal action that moves the game on
        assert not game.leaks(view, seat)                  # the others' secrets stay out of a view

What a driver knows of its game is what a test reads in the rules or the plug-in
(`SERVED[name]`, games/served.py): its light bots, which of its answers make progress, its
hidden information, how a stored log replays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from judges.games.registry import GAMES, SERVED

GAME_NAMES: tuple[str, ...] = ("judges", "rome")

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")


@dataclass(frozen=True)
class GameDriver:
    """A game as the platform's tests drive it through the API."""

    name: str
    #: a light bot of the game's (a bot seat of a test's table; the takeover bot of a test)
    bot: str
    #: the game's other light bot
    other_bot: str
    #: a search bot the game seats (refused when its budget is over the server's)
    search_bot: str
    #: a bot of the other game only: refused at a table of this one
    foreign_bot: str
    #: the answers that move a game on, most wanted first (a hurried player's)
    progress: tuple[str, ...]

    def __str__(self) -> str:  # the test's id: test_x[judges], test_x[rome]
        return self.name

    @property
    def served(self) -> Any:
        return SERVED[self.name]

    @property
    def min_players(self) -> int:
        return int(self.served.min_players)

    @property
    def max_players(self) -> int:
        return int(self.served.max_players)

    def body(self, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        """The body of POST /api/games for a table of this game (Judges & Kings: the default)."""
        body: dict[str, Any] = {"seats": seats, **extra}
        if self.name != "judges":
            body["game"] = self.name
        return body

    def seats(self, humans: int, bots: int = 0, named: bool = True) -> list[dict[str, Any]]:
        """`humans` human seats (named Ada, Bo, ...) then `bots` bot seats of the game's light
        bots, in turn; more human seats up to the game's minimum."""
        humans = max(humans, self.min_players - bots)
        out: list[dict[str, Any]] = [
            {"kind": "human", "name": NAMES[i]} if named else {"kind": "human"} for i in range(humans)
        ]
        out += [{"kind": "bot", "bot": (self.bot, self.other_bot)[i % 2]} for i in range(bots)]
        return out

    def with_game(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A J&K test's seat list for this game: each seat where it was, J&K's greedy bot
        replaced by the game's light bot (random and mcts are every game's), human seats added at
        the end up to the game's minimum."""
        if self.name == "judges":
            return list(seats)
        out = [{**s, "bot": self.bot} if s.get("bot") == "greedy" else dict(s) for s in seats]
        while len(out) < self.min_players:
            out.append({"kind": "human", "name": NAMES[len(out) % len(NAMES)]})
        return out

    # --- the game's part of a view ----------------------------------------------------------

    def state(self, view: dict[str, Any]) -> dict[str, Any]:
        """The game's own view inside the server's (the engine's view of the seat)."""
        return view["state"]  # type: ignore[no-any-return]

    # --- choosing ---------------------------------------------------------------------------

    def hurried(self, view: dict[str, Any]) -> dict[str, Any]:
        """The seat's legal action that moves the game on soonest: the first of `progress`
        that is legal, else the first legal action."""
        legal = view["legal_actions"]
        for kind in self.progress:
            for action in legal:
                if action["type"] == kind:
                    return action  # type: ignore[no-any-return]
        return legal[0]  # type: ignore[no-any-return]

    def pick(self, view: dict[str, Any], rng: random.Random, hurry: float = 0.85) -> dict[str, Any]:
        """Mostly hurried, sometimes any legal action (a player under load)."""
        return self.hurried(view) if rng.random() < hurry else rng.choice(view["legal_actions"])

    def illegal(self) -> dict[str, Any]:
        """An action of a real type no seat may ever play."""
        if self.name == "judges":
            return {"type": "vote", "candidate": 99}
        return {"type": "vote", "ballot": "nonsense"}

    # --- hidden information -----------------------------------------------------------------

    def leaks(self, view: dict[str, Any], seat: int | None) -> list[str]:
        """What of the others' secrets a seat's (or a spectator's, None) view shows: empty when
        nothing. J&K: the others' hands, the deck, the dice's state and seed, the others'
        ballots; Rome: the others' hands and faction treasuries, the deck's order, the dice's
        state, seed and key, the others' ballots before the tally."""
        state = self.state(view)
        found: list[str] = []
        if state.get("rng"):
            found.append("the dice's state")
        options = state.get("options", {})
        if options.get("seed") or options.get("key"):
            found.append("the dice's seed or key")
        if self.name == "judges":
            if state["deck"]:
                found.append(f"the deck {state['deck']!r}")
            if set(state.get("votes", {})) - {str(seat)}:
                found.append(f"the others' ballots {state['votes']!r}")
            found += [f"seat {p['seat']}'s hand" for p in state["players"] if p["seat"] != seat and p["hand"]]
            return found
        if not isinstance(state["deck"], int):
            found.append("the deck's order")
        for f in state["factions"]:
            if f["seat"] != seat:
                if not isinstance(f["hand"], int):
                    found.append(f"faction {f['seat']}'s hand {f['hand']!r}")
                if f["treasury"] is not None:
                    found.append(f"faction {f['seat']}'s treasury")
        sitting = (state.get("scratch") or {}).get("senate") or {}
        for holder in (sitting, sitting.get("suspended") or {}):
            ballots = holder.get("ballots") or {}
            if "veto" not in ballots:
                shown = {k: v for k, v in ballots.items() if k != str(seat) and v != "voted"}
                if shown:
                    found.append(f"the others' ballots {shown!r}")
        return found

    def own_secrets_shown(self, view: dict[str, Any], seat: int, truth: Any) -> bool:
        """Whether the seat's view shows what is its own to see (its hand; Rome: its treasury),
        as the engine's game `truth` holds it."""
        state = self.state(view)
        if self.name == "judges":
            return state["players"][seat]["hand"] == list(truth.state.players[seat].hand)
        mine = next(f for f in state["factions"] if f["seat"] == seat)
        real = truth.state.factions[seat]
        return mine["hand"] == list(real.hand) and mine["treasury"] == real.treasury

    # --- the engine behind a stored table --------------------------------------------------

    def replay(self, options: dict[str, Any], actions: list[dict[str, Any]]) -> Any:
        """The engine's game a stored table's options and actions replay to (its rules'
        validation on every action)."""
        if self.name == "judges":
            from judges.engine import Game, Options

            return Game.replay(Options(**{k: v for k, v in options.items() if k in Options.__struct_fields__}), actions)
        import msgspec

        from judges.rome.engine.game import RomeGame
        from judges.rome.engine.state import RomeOptions

        known = {k: v for k, v in options.items() if k in RomeOptions.__struct_fields__}
        return RomeGame.replay(msgspec.convert(known, RomeOptions), actions)

    def result(self, engine_game: Any) -> tuple[str | None, list[int]]:
        """(ending, winners) of an engine's game, as the view and the store give them."""
        if self.name == "judges":
            return engine_game.state.ending, list(engine_game.state.winners or [])
        result = engine_game.state.result
        return (None, []) if result is None else (result.ending, list(result.winners))

    def codec(self) -> Any:
        return GAMES[self.name].codec


DRIVERS: dict[str, GameDriver] = {
    "judges": GameDriver(
        name="judges",
        bot="greedy",
        other_bot="random",
        search_bot="mcts",
        foreign_bot="neutral",
        progress=("end_turn",),
    ),
    "rome": GameDriver(
        name="rome",
        bot="neutral",
        other_bot="random",
        search_bot="mcts",
        foreign_bot="greedy",
        # skipping and being done end a faction's part of a phase; closing the Senate ends it
        progress=("done", "skip", "close_senate", "roll"),
    ),
}
