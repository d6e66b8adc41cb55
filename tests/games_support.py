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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judges.games.registry import GAMES, SERVED
from judges.rome.engine.rules import RULE_MAXIMUM as ROME_RULE_MAXIMUM

GAME_NAMES: tuple[str, ...] = ("judges", "rome")

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")

#: Rome's choices made at once and kept secret until the last is made (docs/rome/rules-reference.md,
#: "Choices made at once"), where a view's scratch holds them by seat: another's shows "answered"
ROME_SECRET_CHOICES = (("spoils",), ("grain",), ("senate", "sponsoring", "answers"), ("discarding",))


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
    #: the bot a table's away seats get when the table names none
    takeover_bot: str
    #: a bot of the other game only: refused at a table of this one
    foreign_bot: str
    #: the answers that move a game on, most wanted first (a hurried player's)
    progress: tuple[str, ...]
    #: rules no table of the game may be opened under, each naming its rule first
    hostile_rules: tuple[dict[str, Any], ...] = ()
    #: how often a player of the hidden-information tests hurries (else: any legal action)
    secret_hurry: float = 1.0
    #: the options (POST /api/games) of a table whose game its bots end soon
    short: dict[str, Any] = field(default_factory=dict)

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

    @property
    def phases(self) -> tuple[str, ...]:
        """The names of the game's phases (as its catalog names them)."""
        if self.name == "judges":
            from judges.engine.state import PHASES
        else:
            from judges.rome.engine.state import PHASES
        return tuple(PHASES)

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

    def quick_finish(self, seats: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """A J&K test's seats and the table's options for a game its bots end soon (its human
        seats handed to the takeover bot): J&K one round of greedy bots; Rome random bots (a
        few hundred actions, Rome falls)."""
        if self.name == "judges":
            return seats, {"round_limit": 1, "takeover_bot": "greedy"}
        quick = [{**s, "bot": "random"} if s.get("kind") == "bot" else s for s in seats]
        quick += [{"kind": "bot", "bot": "random"}] * (self.min_players - len(quick))
        return quick, {"takeover_bot": "random"}

    def state(self, view: dict[str, Any]) -> dict[str, Any]:
        """The game's own view inside the server's (the engine's view of the seat)."""
        return view["state"]  # type: ignore[no-any-return]

    def progress_of(self, view: dict[str, Any]) -> int:
        """How far the game of a view is: J&K's round, Rome's turn."""
        return int(view["round"] if self.name == "judges" else view["progress"])

    def note_text(self, note: dict[str, Any]) -> str:
        """A rendered notification's words (J&K: its title; Rome: a report line's text)."""
        return str(note["title"] if self.name == "judges" else note["text"])

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
        return {"type": "vote", "choice": "nonsense"}

    # --- hidden information -----------------------------------------------------------------

    def leaks(self, view: dict[str, Any], seat: int | None) -> list[str]:
        """What of the others' secrets a seat's (or a spectator's, None) view shows: empty when
        nothing. J&K: the others' hands, the deck, the dice's state and seed, the others'
        ballots; Rome: the others' hands and faction treasuries, the deck's order, the dice's
        state, seed and key, the others' ballots before the tally and their other choices made
        at once before the last is made (`ROME_SECRET_CHOICES`)."""
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
        for path in ROME_SECRET_CHOICES:
            answers: Any = state.get("scratch") or {}
            for key in path:
                answers = answers.get(key) if isinstance(answers, dict) else None
            shown = {k: v for k, v in (answers or {}).items() if k != str(seat) and v != "answered"}
            if shown:
                found.append(f"the others' {path[-1]} {shown!r}")
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

    def engine(self, options: dict[str, Any]) -> Any:
        """A new engine game from a stored table's options."""
        if self.name == "judges":
            from judges.engine import Game, Options
            from judges.engine.state import options_from_builtins

            return Game.new(options_from_builtins({k: v for k, v in options.items() if k in Options.__struct_fields__}))
        import msgspec

        from judges.rome.engine.game import RomeGame
        from judges.rome.engine.state import RomeOptions

        known = {k: v for k, v in options.items() if k in RomeOptions.__struct_fields__}
        return RomeGame.new(msgspec.convert(known, RomeOptions))

    def apply(self, engine_game: Any, action: dict[str, Any]) -> None:
        """Plays a stored action (a dict of the log) on an engine game."""
        if self.name == "judges":
            from judges.engine import action_from_dict

            engine_game.apply(action_from_dict(action))
        else:
            engine_game.apply(self.codec().from_dict(action))

    def secrets(self, engine_game: Any) -> dict[str, Any]:
        """What only the engine knows at this step: the deck's order, every hand (Rome: and
        every faction treasury), the dice's state."""
        state = engine_game.state
        if self.name == "judges":
            return {"deck": list(state.deck), "hands": [list(p.hand) for p in state.players], "rng": state.rng}
        return {
            "deck": list(state.deck),
            "hands": [list(f.hand) for f in state.factions],
            "treasuries": [f.treasury for f in state.factions],
            "rng": state.rng,
        }

    def shows_truth(self, view: dict[str, Any], seat: int, truth: dict[str, Any]) -> list[str]:
        """What a seat's view says wrongly of `secrets()` at its step: the sizes of the deck and
        of the hands, the seat's own hand (Rome: and treasury)."""
        state, wrong = self.state(view), []
        if self.name == "judges":
            if view["deck_size"] != len(truth["deck"]):
                wrong.append("the deck's size")
            if view["hand_sizes"] != [len(h) for h in truth["hands"]]:
                wrong.append("the hands' sizes")
            if state["players"][seat]["hand"] != truth["hands"][seat]:
                wrong.append("the seat's own hand")
            return wrong
        if state["deck"] != len(truth["deck"]):
            wrong.append("the deck's size")
        for f in state["factions"]:
            real = truth["hands"][f["seat"]]
            if f["hand"] != (real if f["seat"] == seat else len(real)):
                wrong.append(f"faction {f['seat']}'s hand")
            if f["seat"] == seat and f["treasury"] != truth["treasuries"][seat]:
                wrong.append("the seat's own treasury")
        return wrong

    def differences(self, view: dict[str, Any], seat: int, engine_game: Any) -> list[str]:
        """The parts of a seat's view that differ from the engine game's at that step (a
        replay of the stored log): the whole game view, who owes, the legal actions, the
        ending and the winners (J&K: and the phase, the scores and the notifications)."""
        import json

        import msgspec

        def normalized(data: Any) -> Any:  # as the JSON API gives it: integer keys as strings
            return json.loads(msgspec.json.encode(data))

        codec, wrong = self.codec(), []
        if self.name == "judges":
            from judges.engine.victory import standings

            expected = engine_game.view(seat, notifications=False)
            for key in ("round", "phase", "phase_name", "turn_order", "waiting_for", "pending", "my_decisions"):
                if normalized(view[key]) != normalized(getattr(expected, key)):
                    wrong.append(key)
            if view["state"] != normalized(expected.state):
                wrong.append("state")
            if view["scores"] != {str(s): row for s, row in standings(engine_game.state, engine_game.world).items()}:
                wrong.append("scores")
            notes = [(n.id, n.key) for n in engine_game.notifications if seat in n.to]
            if [(n["id"], n["key"]) for n in view["notifications"]] != notes:
                wrong.append("notifications")
        else:
            played = self.wrap(engine_game)
            expected = normalized(self.served.seat_view(played, seat))
            expected.pop("report", None)  # the report's lines are the view's notifications
            if self.state(view) != expected:
                wrong.append(f"state (at {', '.join(paths_apart(self.state(view), expected)[:3])})")
            if view["waiting_for"] != played.to_move():
                wrong.append("waiting_for")
        legal = normalized([codec.to_dict(a) for a in self.wrap(engine_game).legal_actions(seat)])
        if view["legal_actions"] != legal:
            wrong.append("legal_actions")
        if (view["ending"], view["winners"] or []) != self.result(engine_game):
            wrong.append("ending")
        return wrong

    def result(self, engine_game: Any) -> tuple[str | None, list[int]]:
        """(ending, winners) of an engine's game, as the view and the store give them."""
        if self.name == "judges":
            return engine_game.state.ending, list(engine_game.state.winners or [])
        result = engine_game.state.result
        return (None, []) if result is None else (result.ending, list(result.winners))

    def codec(self) -> Any:
        return GAMES[self.name].codec

    def wrap(self, engine_game: Any) -> Any:
        """The game protocol (games/protocol.py) over a live table's engine game: what its bots
        are given (`view(seat)`, `legal_actions(seat)`)."""
        if self.name == "judges":
            from judges.games.judges_game import JudgesGame

            return JudgesGame(engine_game)
        from judges.games.rome_game import RomeProtocolGame

        return RomeProtocolGame(engine_game)

    def bot_sources(self) -> list[Path]:
        """The source files of the game's bots."""
        import judges.bots

        root = Path(judges.bots.__file__).parent
        if self.name == "judges":
            return sorted(root.rglob("*.py"))
        import judges.rome.bots

        return sorted(Path(judges.rome.bots.__file__).parent.rglob("*.py"))


DRIVERS: dict[str, GameDriver] = {
    "judges": GameDriver(
        name="judges",
        bot="greedy",
        other_bot="random",
        search_bot="mcts",
        takeover_bot="mcts",
        foreign_bot="neutral",
        progress=("end_turn",),
        short={"round_limit": 1},  # one round
        hostile_rules=(
            {"no_such_rule": 1},
            {"wrath_threshold": "ten"},
            {"wrath_threshold": 10**9},
            {"min_players": -1},
        ),
    ),
    "rome": GameDriver(
        name="rome",
        bot="neutral",
        other_bot="random",
        search_bot="mcts",
        takeover_bot="neutral",
        foreign_bot="greedy",
        # skipping and being done end a faction's part of a phase; closing the Senate ends it
        progress=("done", "skip", "close_senate", "roll"),
        secret_hurry=0.6,
        short={"rules": {"wars_lose_game": 1}},  # R232: Rome falls at its first active war
        hostile_rules=(
            {"no_such_rule": 1},
            {"hand_limit": "six"},
            {"state_income": ROME_RULE_MAXIMUM + 1},
            {"mortality_draws": 10**9},
            {"hand_limit": 10**12},
            {"deck": "../../etc/passwd"},
            {"era": "imperial"},
            {"illness": True},
        ),
    ),
}


def paths_apart(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ: the paths of the differing leaves (a failure's message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in sorted(set(a) | set(b), key=str) for p in paths_apart(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in paths_apart(x, y, f"{path}[{i}]")]
    return [] if a == b else [path or "."]
