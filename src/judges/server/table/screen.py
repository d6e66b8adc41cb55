"""What the game screen adds to the seat's view: the board drawing, the log, the lobby,
spectators and replays. The routes are in
server/routes/screen.py; the public view is built in server/table/views.py (`public_payload`).

- `GET /api/games/{id}/board.svg`: the board as the public state has it (render/svg.py, the
  one drawing), in the reader's language; nothing on the board is secret.
- `GET /api/games/{id}/log?since=`: the public actions after `since` (moves, purchases, cards
  played...), each in the reader's language; the engine's notifications (reports, battles with
  their dice, tallies) come with the view and carry `after` (the actions before them), so the
  screen merges both into one log. Votes and foresights stay secret (a discard does not: the
  discard pile is face up).
- `GET /api/games/{id}/follow?base=&since=`: both of the above in one answer, the board as the
  line edits from the drawing the screen holds (server/table/textdelta.py): what the screen fetches.
  A seat's socket with `?follow=1` sends the same as `follow` messages (`Screen.follow_message`).
- `GET /api/lobby`: open tables (a free seat anyone may take) and games running or finished;
  `POST /api/games/{id}/join`: takes the first free seat (its token is made now).
- `GET /api/games/{id}/spectate` and `WS /ws/games/{id}/spectate`: the public view (no hand, no
  ballot), live: the view of no seat, sent as a seat's is (a full view, then deltas, built once
  per version and language for all the game's spectators: server/table/hub.py); at most
  `spectators_per_address` sockets per client address and `spectators_per_game` per game
  (server/limits.py), one more is closed with code 4429.
- `GET /api/games/{id}/replay?step=`: a finished game rebuilt from its options (the seed is
  revealed at the end) and its log up to `step`, every hand shown.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ...engine import Game
from ...render.board import SEAT_COLOURS, describe_board
from ...render.svg import board_svg
from ..limits import Limits
from . import textdelta
from .tables import SERVER_OPTIONS, SPECTATOR, LiveGame, Subscriber
from .views import encode_payload, log_entries, public_payload

REPLAY_CHECKPOINT = 40  # actions between the replay's kept positions
REPLAY_GAMES = 8  # finished games whose replay positions are kept in memory
SVG_KEPT = 64  # boards kept drawn
BOARD_TEXTS = 256  # board drawings kept to send the next as edits (~100 KiB each)
BOARD_EDITS = 1024  # edits between two drawings kept (a few hundred bytes each)


class Replays:
    """Finished games rebuilt step by step: a position kept every REPLAY_CHECKPOINT actions,
    so that any step is at most that many actions away."""

    def __init__(self) -> None:
        # game id -> (kept positions, the step at which each round begins, each phase's)
        self.kept: OrderedDict[str, tuple[list[Any], dict[str, int], list[int]]] = OrderedDict()

    def game_at(self, live: LiveGame, options: dict[str, Any], step: int) -> tuple[Any, dict[str, int], list[int]]:
        """The game (the engine's own object, whichever game the table plays) after `step`
        actions, the step at which each round (Rome: turn) begins, and the steps at which a new
        phase begins (a round's or a phase's first step: where "step by phase" stops)."""
        if live.id not in self.kept:
            kit = live.kit
            game = kit.new({k: v for k, v in options.items() if k not in SERVER_OPTIONS}, options.get("position"))
            checkpoints, rounds, phases = [game.clone()], {str(kit.wrap(game).progress): 0}, [0]
            where = (kit.wrap(game).progress, kit.phase(game))
            for seq, action in enumerate(live.game.log, start=1):
                game.apply(action)
                now = (kit.wrap(game).progress, kit.phase(game))
                rounds.setdefault(str(now[0]), seq)
                if now != where:
                    where = now
                    phases.append(seq)
                if seq % REPLAY_CHECKPOINT == 0:
                    checkpoints.append(game.clone())
            self.kept[live.id] = (checkpoints, rounds, phases)
            while len(self.kept) > REPLAY_GAMES:
                self.kept.popitem(last=False)
        self.kept.move_to_end(live.id)
        checkpoints, rounds, phases = self.kept[live.id]
        game = checkpoints[step // REPLAY_CHECKPOINT].clone()
        for action in live.game.log[len(game.log) : step]:
            game.apply(action)
        return game, rounds, phases


class BoardTexts:
    """The board drawings recently sent, by the hash of their text (what a screen names as
    the drawing it holds), and the edits between two of them: computed once, for every seat
    and spectator reading the game in that language. Bounded: a screen whose drawing is no
    longer here receives the whole drawing."""

    def __init__(self, texts: int = BOARD_TEXTS, edits: int = BOARD_EDITS) -> None:
        self.texts: OrderedDict[str, str] = OrderedDict()
        self.cached: OrderedDict[tuple[str, str], textdelta.Edits] = OrderedDict()
        self.max_texts, self.max_edits = texts, edits

    def keep(self, text: str) -> str:
        """The drawing's hash; the drawing is kept under it."""
        digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
        self.texts[digest] = text
        self.texts.move_to_end(digest)
        while len(self.texts) > self.max_texts:
            self.texts.popitem(last=False)
        return digest

    def text(self, digest: str) -> str | None:
        return self.texts.get(digest)

    def edits(self, base: str, old: str, digest: str, new: str) -> textdelta.Edits:
        key = (base, digest)
        found = self.cached.get(key)
        if found is None:
            found = self.cached[key] = textdelta.line_edits(old, new)
            while len(self.cached) > self.max_edits:
                self.cached.popitem(last=False)
        return found

    def part(self, text: str, base: str) -> dict[str, Any]:
        """The board drawing `text` for a screen holding the drawing whose hash is `base`: the
        edits from it when it is known, else the whole drawing."""
        digest = self.keep(text)
        if base == digest:
            return {"hash": digest, "base": base, "edits": []}
        old = self.text(base) if base else None
        if old is not None:
            return {"hash": digest, "base": base, "edits": self.edits(base, old, digest, text)}
        return {"hash": digest, "svg": text}


@dataclass
class Followed:
    """What a seat's socket has sent of the board and the log (`Screen.follow_message`)."""

    seq: int = -1
    board: str = ""  # the hash of the drawing sent
    since: int = -1  # the last log entry sent


class Screen:
    """What the screen's routes keep in a process (`app.state.screen`): the boards drawn, the
    replays' positions, and the spectator sockets per game and per client address (their views
    are the hub's, server/table/hub.py)."""

    def __init__(
        self, limits: Limits, watchers: dict[str, list[Subscriber]], turn_timers: dict[str, float] | None = None
    ) -> None:
        self.limits = limits
        self.turn_timers = turn_timers if turn_timers is not None else {}  # the service's: game id -> seconds
        self.watchers = watchers  # the service's: game id -> its spectators' sockets in this process
        self.replays = Replays()
        self.svg_cache: OrderedDict[tuple[str, int, str], str] = OrderedDict()
        self.boards = BoardTexts()  # shared by every screen: content-addressed
        # a client address -> its spectator sockets open here; (game, address) -> those in that game
        self.spectating: dict[str | tuple[str, str], int] = {}

    def svg_of(self, live: LiveGame, game: Game, language: str) -> str:
        key = (live.id, len(game.log), language)
        text = self.svg_cache.get(key)
        if text is None or game is not live.game:
            text = board_svg(describe_board(game.world, game.state, language), language, live.names())
            if game is live.game:
                self.svg_cache[key] = text
                while len(self.svg_cache) > SVG_KEPT:
                    self.svg_cache.popitem(last=False)
        return text

    def _follow(self, live: LiveGame, language: str, base: str, since: int) -> dict[str, Any]:
        # under the game's lock
        seq = len(live.game.log)
        text = self.svg_of(live, live.game, language)
        entries = log_entries(live, language, since)
        return {"seq": seq, "board": self.boards.part(text, base), "log": {"seq": seq, "entries": entries}}

    async def follow(self, live: LiveGame, language: str, base: str, since: int) -> bytes:
        """The board of the game's current step (as edits from the drawing `base` when it is
        kept) and the public actions after `since`: GET /api/games/{id}/follow's answer."""
        async with live.lock:
            return encode_payload(self._follow(live, language, base, since))

    async def follow_message(self, live: LiveGame, language: str, followed: Followed) -> str | None:
        """A seat socket's next `follow` message, when the game moved since the last one: the
        board's edits from the drawing it sent (whole the first time) and the new log entries
        (what the screen would otherwise fetch with GET .../follow after
        each view, one more round trip per click)."""
        async with live.lock:
            if len(live.game.log) == followed.seq or live.stale:
                return None
            answer = self._follow(live, language, followed.board, followed.since)
        seq = answer["seq"]
        followed.seq, followed.board = seq, answer["board"]["hash"]
        followed.since = max(followed.since, seq - 1)
        return encode_payload({"type": "follow", **answer}).decode()

    def table_options(self, live: LiveGame) -> dict[str, Any]:
        """The table's options as the seats' views show them (its turn timer, the limits)."""
        return {"turn_timer": self.turn_timers.get(live.id), "limits": self.limits}

    def refusal(self, live: LiveGame, address: str) -> tuple[str, int] | None:
        """Why a new spectator socket is refused (a message key and its limit), if it is."""
        if self.spectating.get(address, 0) >= self.limits.spectators_per_address:
            return "error.too_many_spectators", self.limits.spectators_per_address
        if self.spectating.get((live.id, address), 0) >= self.limits.spectators_per_address_per_game:
            return "error.too_many_spectators", self.limits.spectators_per_address_per_game
        if len(self.watchers.get(live.id, [])) >= self.limits.spectators_per_game:
            return "error.spectators_full", self.limits.spectators_per_game
        return None

    def join(self, live: LiveGame, address: str, language: str) -> tuple[Subscriber, list[Subscriber]]:
        """A spectator's socket, counted in the game's and its address's (call right after
        `refusal`, with no await between), and the game's spectators it joined; the hub sends
        it the view of no seat once attached (`Hub.attach`)."""
        sub = Subscriber(seat=SPECTATOR, language=language, queue=asyncio.Queue(maxsize=self.limits.socket_queue))
        watching = self.watchers.setdefault(live.id, [])
        watching.append(sub)
        for key in (address, (live.id, address)):  # its address's sockets, and in this game
            self.spectating[key] = self.spectating.get(key, 0) + 1
        return sub, watching

    def leave(self, live: LiveGame, address: str, sub: Subscriber, watching: list[Subscriber]) -> None:
        watching.remove(sub)
        if not watching and self.watchers.get(live.id) is watching:
            del self.watchers[live.id]
        for key in (address, (live.id, address)):
            self.spectating[key] -= 1
            if not self.spectating[key]:
                del self.spectating[key]


__all__ = [
    "Screen",
    "BoardTexts",
    "Followed",
    "public_payload",
    "log_entries",
    "SEAT_COLOURS",
    "SPECTATOR",
]
