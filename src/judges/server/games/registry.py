"""The table kit of every game the server hosts, keyed by the game's name: the one place the
server names its games (besides each game's own package here). A kit is what the table core
asks of a game that its `ServedGame` (games/served.py) does not offer: the options a new table
is stored with, how a stored table is rebuilt (from its options, a snapshot and its actions),
how an action is read from and written to the log, the export, and what a seat and a
spectator receive (`views`, a `GameViews`: server/table/envelope.py).

    kit = KITS[live.kind]
    game = kit.new(stored_options)                 # the engine's own game object
    kit.wrap(game).to_move()                       # the game protocol over it
    kit.action_from_dict(d), kit.action_to_dict(a) # the log's encoding (RuleError if malformed)
    kit.views.parts(live, public, seat, language, seat_events)  # a seat's view, part by part
"""

from __future__ import annotations

from typing import Any, Protocol

from ...games.protocol import GameProtocol
from ...games.registry import SERVED
from ...games.served import ServedGame
from ..table.envelope import GameViews
from .judges.kit import JudgesKit
from .rome.kit import RomeKit


class TableKit(Protocol):
    """A game's table parts (one class per game, in its package of server/games/)."""

    @property
    def name(self) -> str: ...

    @property
    def served(self) -> ServedGame: ...

    @property
    def views(self) -> GameViews: ...

    @property
    def default_bot(self) -> str:
        """A bot seat's bot when the table names none."""

    @property
    def takeover_bot(self) -> str:
        """The bot that plays a human's seat while its player is away, unless the table chose another."""

    @property
    def bots_apart(self) -> bool:
        """Whether its bots think in the bots' worker processes (a heavy search), else on a thread."""

    def make_bot(self, spec: str, seed: int, cpu_budget: float | None = None) -> Any:
        """A bot of the game (`served.make_bot`), bounded by `cpu_budget` seconds of CPU per
        decision where the game's search takes a budget (None: the spec's whole budget)."""

    def lobby_phase(self, game: Any) -> str | None:
        """The phase a lobby row shows (`phase`'s name; None: the row shows none)."""

    def wrap(self, game: Any) -> GameProtocol[Any, Any]: ...

    def title(self, language: str) -> str:
        """The game's name in `language` ("Republic of Rome", "La República de Roma")."""

    def seat_name(self, seat: int, language: str) -> str:
        """The name of a seat its creator left unnamed, in `language`."""

    def names_for(self, names: dict[int, str], language: str) -> dict[int, str]:
        """The seats' names (`LiveGame.names()`) as a reader of `language` reads them."""

    def options(self, players: int, rules: Any, dice: dict[str, Any], **extra: Any) -> Any: ...

    def new(self, options: dict[str, Any], position: dict[str, Any] | None = None) -> Any: ...

    def action_from_dict(self, data: dict[str, Any]) -> Any: ...

    def action_to_dict(self, action: Any) -> dict[str, Any]: ...

    def snapshot(self, game: Any) -> dict[str, Any] | None: ...

    def from_snapshot(self, data: dict[str, Any]) -> Any: ...

    def rules_version(self) -> int: ...

    def export(self, game: Any, stored_options: dict[str, Any], game_id: str) -> dict[str, Any]: ...

    def phase(self, game: Any) -> str:
        """The name of the game's phase now (as its catalog names it: "movement", "senate")."""
        ...

    def where(self, game: Any, language: str) -> str:
        """Where the game is, in the reader's words, for a notice: "round 3, Movement"."""
        ...

    def replay(
        self, live: Any, game: Any, where: dict[str, Any], language: str, table_options: dict[str, Any]
    ) -> bytes:
        """A finished table's game replayed to `game` (`where`: {"step", "steps", "rounds",
        "phases"}) as `GET /api/games/{id}/replay` answers it (JSON): every hand shown, the log up
        to the step. `live`: the table; `table_options`: its options as the seats' views show them."""

    def protocol(self, game: Any = None) -> dict[str, Any]:
        """What `GET /api/games/{id}/protocol` answers for a table at `game` (None: the game's
        published protocol under its default rules, `GET /api/protocol`'s answer)."""

    def log(self, game: Any, names: dict[int, str], language: str, since: int = -1) -> dict[str, Any]:
        """The table's log in `language` after entry `since` (`GET /api/games/{id}/log`):
        `{"seq": the number of entries, "entries": [{"seq": its index, "text", ...}]}`; public
        (what a spectator may read). `names`: the seats' names."""


KITS: dict[str, TableKit] = {kit.name: kit for kit in (JudgesKit(), RomeKit())}
assert set(KITS) == set(SERVED)  # every game the server hosts has its table parts
