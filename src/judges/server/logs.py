"""The server's log lines: plain text by default, or one JSON object a line
(`JUDGES_LOG_FORMAT=json`), each naming the game and the seat it was written for.

The game and the seat are context variables: the table actor binds the game when a request,
a socket, a bot's task or a recovery takes it in hand (`TableActor.get`, and the tasks of one
game), the seat's credential binds the seat (server/deps.py `seat_of`), a bot's task binds the
seat it plays. A request, a socket and a task each have their own context (asyncio copies it
when a task starts), so one game's values never show in another's lines; a line written outside
any game has `"game": null, "seat": null`.

    {"time": "2026-12-07T13:20:01.532Z", "level": "warning", "logger": "judges.server",
     "message": "action 12 of game Xy… was not stored: the game is reloaded", "game": "Xy…", "seat": 0}
"""

from __future__ import annotations

import json
import logging
import sys
import time
from contextvars import ContextVar
from typing import IO

from ..settings import Settings

GAME: ContextVar[str | None] = ContextVar("judges_log_game", default=None)
SEAT: ContextVar[int | None] = ContextVar("judges_log_seat", default=None)


def bind_game(game: str | None) -> None:
    """The game this context handles from now on (its seat forgotten when the game changes)."""
    if GAME.get() != game:
        GAME.set(game)
        SEAT.set(None)


def bind_seat(seat: int | None) -> None:
    SEAT.set(seat)


class JsonLines(logging.Formatter):
    """A record as one line of JSON: time (UTC), level, logger, message, game, seat, and the
    exception's traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        seconds = time.gmtime(record.created)
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", seconds) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "game": GAME.get(),
            "seat": SEAT.get(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(settings: Settings, stream: IO[str] | None = None) -> logging.Handler | None:
    """With `JUDGES_LOG_FORMAT=json`: every logger's lines (the server's, uvicorn's) go to
    `stream` (standard error) as JSON lines, from `JUDGES_LOG_LEVEL` up; the handler installed.
    Otherwise nothing changes (None)."""
    if settings.log_format.strip().lower() != "json":
        return None
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(settings.log_level.strip().upper() or "WARNING")
    return handler
