"""The wire view: what a seat receives, as one typed Struct (`View`), built in one place.

`view(public, seat, language)` is the one builder of what a seat (or a spectator: the view of
no seat, `seat=None`) receives. It is made from the engine's `PlayerView`
(`judges.engine.view`: the public state, the scores, the final table, the seat's legal actions
with what each would give) and what the server adds: the table's seats and options, the words
of each action's button and the manual's chapters in the reader's language, the seats' events
and the notifications, rendered.

`public(...)` is one version of a table as every seat shares it: the engine's view of no seat,
built once per version. A seat's view shares its objects, and `parts(view, public)` encodes
each of the view's fields (the state's one by one) as the live updates send them
(server/table/updates.py: a full view, then the fields whose bytes changed): what every seat shares
is encoded once per version.

The view's JSON Schema is `schema()`, published at `GET /api/protocol` (key "view"); the
screen's types (web/static/js/wire.d.ts) are generated from it by scripts/wire-types.py.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

import msgspec
from msgspec import Struct

from ....engine import Game, action_to_dict
from ....engine.actions import ACTION_BY_TAG, Action
from ....engine.decisions import secret_action_tags
from ....engine.state import Decision, GameState
from ....engine.undo import taken_back
from ....engine.view import NOBODY, DiceInfo, PlayerView, player_view, seat_view
from ....i18n import gettext, render_action, render_notification
from ....manual import chapter_for_decision, chapter_for_notification, chapter_for_phase
from ...table import updates
from ...table.envelope import Note, Sanction, Seat, Table, encode, ended_early, note_of, sanctions, seats_of

if TYPE_CHECKING:  # pragma: no cover
    AnyAction = Action
else:  # every action type by its tag (the schema lists them; the encoder needs no more)
    AnyAction = Union[tuple(ACTION_BY_TAG.values())]  # noqa: UP007

__all__ = [
    "View",
    "Note",
    "Seat",
    "Sanction",
    "Table",
    "seats_of",
    "sanctions",
    "ended_early",
    "Public",
    "public",
    "view",
    "note",
    "parts",
    "schema",
    "encode",
    "log_entries",
    "PARTS",
    "STATE_FIELDS",
]


class Manual(Struct, kw_only=True):
    """The manual's chapters for the phase and for each decision the seat owes."""

    phase: str
    decisions: dict[str, str | None]


class View(Struct, kw_only=True):
    """What a seat receives (`seat` None: a spectator). The fields before `seat` every seat
    shares; `seat` to `manual` are the seat's own; `language` to `seat_events` the seat's in
    one language. `version` and `notifications` are the live updates' (server/table/updates.py)."""

    game_id: str
    seq: int  # actions applied
    round: int
    phase: int  # 1..7
    phase_name: str
    turn_order: list[int]
    waiting_for: list[int]
    pending: list[Decision]  # every decision owed now (who owes what is public)
    hand_sizes: list[int]
    deck_size: int
    dice: DiceInfo  # the commitment to the dice's seed, and the seed once the game is over
    seats: list[Seat]
    table: Table
    scores: dict[int, dict[str, int]]  # by seat: points by source, settlements controlled
    # How the game ended: the engine's ending, or "closed" (an operator closed the table) or
    # "abandoned" (nobody moved for too long): a game ended early owes nothing and has no `final`.
    ending: str | None
    winners: list[int]
    final: dict[str, Any] | None  # the end of the game as a table (victory.final_table)
    votes: dict[int, int]  # by seat: the votes each holds while an election is open (§ 10)
    max_notifications: int  # the latest notifications a view holds
    server_time: float  # the server's clock when the view was made (seconds since the epoch)
    seat: int | None
    my_decisions: list[Decision]
    legal_actions: list[AnyAction]
    undo: bool  # the seat may take back its last free step (§ 4 Taking back)
    ballot: int | None  # the seat's vote in an open election
    sanction: Sanction | None  # the seat's account is banned or suspended: the bot holds the seat
    manual: Manual
    language: str
    action_labels: list[str]  # the words of each legal action's button
    seat_events: list[Note]
    state: GameState  # the public state (every other hand hidden); a replay's whole state
    version: int
    notifications: list[Note]


class ReplayStep(Struct, kw_only=True):
    step: int
    steps: int
    rounds: dict[str, int]  # the step at which each round begins
    phases: list[int]  # the steps at which a phase begins, in order (0 first)


class ReplayView(View, kw_only=True):
    """A finished game at one step (`GET /api/games/{id}/replay`): every hand shown."""

    replay: ReplayStep
    board_svg: str
    log: list[dict[str, Any]]


# The view's parts as the live updates send them: `state` is sent field by field.
PARTS: tuple[str, ...] = tuple(f for f in View.__struct_fields__ if f not in ("state", "version", "notifications"))
STATE_FIELDS: tuple[str, ...] = GameState.__struct_fields__
STATE_PREFIX = updates.STATE_PREFIX
# each state field with its part's name, made once (not one new string a field, a seat, a version)
STATE_PARTS: tuple[tuple[str, str], ...] = tuple((name, STATE_PREFIX + name) for name in STATE_FIELDS)
# The parts that differ from seat to seat (`View`: `seat` to `seat_events`; of the state, the
# players, a seat's own hand among them, and the Foresee terrains it chose): every other part is
# the same for every seat and a spectator at one version, encoded once (`parts`).
OWN_PARTS: tuple[str, ...] = PARTS[PARTS.index("seat") : PARTS.index("seat_events") + 1]
OWN_STATE_PARTS: tuple[tuple[str, str], ...] = tuple(
    (name, key) for name, key in STATE_PARTS if name in ("players", "pending_terrains")
)


@dataclass(eq=False)
class Public:
    """One version of a table as every seat shares it: the engine's view of no seat, the seats,
    the table's options; and the bytes of the parts encoded so far (by the object encoded: a
    seat's view reuses those of the objects it shares with this one)."""

    game_id: str
    game: Game
    engine: PlayerView
    seats: list[Seat]
    table: Table
    max_notifications: int
    names: dict[int, str]
    server_time: float = 0.0
    reveal: bool = False
    ended: str | None = None  # "closed" or "abandoned": the game ended early (`ended_early`)
    sanctions: dict[int, Sanction] = field(default_factory=dict)  # by seat (`sanctions`)
    encoded: dict[str, tuple[Any, bytes]] = field(default_factory=dict)
    labels: dict[tuple[Any, ...], str] = field(default_factory=dict)  # the table's, kept across versions
    # A view's parts at an earlier version (the sockets' last): a part encoded to the same bytes
    # is that object, so that the next delta finds it unchanged by identity, not by comparing bytes.
    previous: Mapping[str, bytes] = field(default_factory=dict)
    # The first view's parts (`parts`): the next views copy them and encode only their own parts.
    first: dict[str, bytes] | None = None


def public(
    game_id: str,
    game: Game,
    seats: list[dict[str, Any]],
    table: Table,
    max_notifications: int,
    *,
    reveal: bool = False,
    labels: dict[tuple[Any, ...], str] | None = None,
    deadlines: dict[int, float] | None = None,
    now: float = 0.0,
    previous: Mapping[str, bytes] | None = None,
) -> Public:
    """The table at its current version as every seat shares it. `reveal` (a replay of a
    finished game): the views show the whole state. `labels`: the table's buttons' words
    rendered so far (`label`), kept by the caller from version to version. `deadlines`: when
    each seat's owed decision passes to a bot (tables.deadlines), at `now` (server's clock).
    `previous`: a view's parts at an earlier version, whose bytes the parts equal to them reuse."""
    ended = ended_early(seats)
    deadlines = deadlines if deadlines and ended is None else {}
    return Public(
        game_id=game_id,
        game=game,
        engine=player_view(game, NOBODY, notifications=False, screen=True),
        seats=seats_of(seats, deadlines),
        table=table,
        max_notifications=max_notifications,
        names={i: s["name"] for i, s in enumerate(seats)},
        server_time=now,
        reveal=reveal,
        ended=ended,
        sanctions=sanctions(seats, now),
        labels=labels if labels is not None else {},
        previous=previous if previous is not None else {},
    )


def view(
    shared: Public,
    seat: int | None,
    language: str,
    *,
    seat_events: list[Note] | None = None,
    notifications: list[Note] | None = None,
    version: int = 0,
) -> View:
    """What `seat` receives in `language` (None: a spectator, the view of no seat): the one
    builder of the view. `seat_events` and `notifications`: already rendered (`note`); the live
    updates send a seat's notifications and version apart (server/table/updates.py)."""
    game = shared.game
    state = game.state
    mine = shared.engine if seat is None else seat_view(shared.engine, game, seat)
    if shared.ended is not None:  # a game ended early: nobody owes anything, nothing is legal
        mine = msgspec.structs.replace(
            mine, waiting_for=[], pending=[], my_decisions=[], legal_actions=[], gains=[], undo=False
        )
    labels = []
    if mine.legal_actions:
        owners = {g.id: g.owner for g in state.generals.values()}
        seated = tuple(shared.names.items())
        labels = [
            label(shared, action, gain, language, owners, seated)
            for action, gain in zip(mine.legal_actions, mine.gains, strict=True)
        ]
    return View(
        game_id=shared.game_id,
        seq=len(game.log),
        round=mine.round,
        phase=mine.phase,
        phase_name=mine.phase_name,
        turn_order=mine.turn_order,
        waiting_for=mine.waiting_for,
        pending=mine.pending,
        hand_sizes=mine.hand_sizes,
        deck_size=mine.deck_size,
        dice=mine.dice,
        seats=shared.seats,
        table=shared.table,
        scores=mine.scores,
        ending=state.ending if shared.ended is None else shared.ended,
        winners=state.winners,
        final=mine.final,
        votes=mine.votes,
        max_notifications=shared.max_notifications,
        server_time=shared.server_time,
        seat=seat,
        my_decisions=mine.my_decisions,
        legal_actions=mine.legal_actions,
        undo=mine.undo,
        ballot=mine.ballot,
        sanction=None if seat is None else shared.sanctions.get(seat),
        manual=Manual(
            phase=chapter_for_phase(mine.phase_name),
            decisions={d.kind: chapter_for_decision(d.kind, mine.phase_name) for d in mine.my_decisions},
        ),
        language=language,
        action_labels=labels,
        seat_events=seat_events or [],
        state=state if shared.reveal else mine.state,
        notifications=notifications or [],
        version=version,
    )


LABELS_KEPT = 512  # a table's rendered buttons kept (a few hundred bytes each)
# by action type: the field naming the general whose owner its words name ("" for none)
_NAMED: dict[type, str] = {}


def label(
    shared: Public,
    action: Action,
    gain: int | None,
    language: str,
    owners: dict[int, int],
    seated: tuple[tuple[int, str], ...],
) -> str:
    """The words of an action's button ("Move general 3 to Shiloh · +6 coins"), rendered once
    per table for the same action and what its words depend on: the owner of the general it
    names, the Events Area for a foresight, the seats' names, the language."""
    game, state = shared.game, shared.game.state
    named = _NAMED.get(type(action))
    if named is None:
        fields = action.__struct_fields__
        named = _NAMED[type(action)] = next((f for f in ("target", "candidate", "general") if f in fields), "")
    who = getattr(action, named) if named else None
    events = tuple(state.events_area) if action.__struct_config__.tag == "foresee_events" else None
    key = (action, gain, language, owners.get(who) if who is not None else None, events, seated)
    try:
        known = shared.labels.get(key)
        cacheable = True
    except TypeError:  # an action with a list (a foresight's terrains) is not hashable
        known, cacheable = None, False
    if known is not None:
        return known
    words = render_action(
        action,
        language,
        game.world,
        shared.names,
        owners=owners,
        costs=state.options.rules.costs,
        events=state.events_area,
    )
    if gain is not None:  # what a plunder would give ("· +6 coins")
        words += " · " + gettext(language, "ui.plunder_gives", coins=gain)
    if cacheable:
        if len(shared.labels) >= LABELS_KEPT:
            shared.labels.clear()
        shared.labels[key] = words
    return words


def note(data: dict[str, Any], language: str, game: Game, names: dict[int, str]) -> Note:
    """A notification (as `msgspec.to_builtins(Notification)` gives it, or a seat's event)
    rendered in `language`, with the manual's chapter that explains it."""
    text = render_notification(data, language, game.world, names)
    return note_of(data, text, chapter_for_notification(data["key"]))


def _encoded(shared: Public, key: str, value: Any) -> bytes:
    cache = shared.encoded
    known = cache.get(key)
    if known is not None and known[0] is value:
        return known[1]
    data = encode(value)
    before = shared.previous.get(key)
    if before is not None and before == data:
        data = before
    if known is None:
        cache[key] = (value, data)
    return data


def parts(seen: View, shared: Public) -> dict[str, bytes]:
    """The view's parts as the live updates send them (server/table/updates.py), each field encoded
    once per version for every seat that shares its object. The first view's parts are kept: a
    later view of the same version copies them and encodes only its own (`OWN_PARTS`,
    `OWN_STATE_PARTS`), the others being the same for every seat."""
    first = shared.first
    if first is None:
        out = {name: _encoded(shared, name, getattr(seen, name)) for name in PARTS}
        for name, key in STATE_PARTS:
            out[key] = _encoded(shared, key, getattr(seen.state, name))
        shared.first = out
        return dict(out)
    out = dict(first)
    for name in OWN_PARTS:
        out[name] = _encoded(shared, name, getattr(seen, name))
    for name, key in OWN_STATE_PARTS:
        out[key] = _encoded(shared, key, getattr(seen.state, name))
    return out


@functools.cache
def schema() -> dict[str, Any]:
    """The view's JSON Schema (`GET /api/protocol`, key "view"); its definitions hold the
    replay's view too (`ReplayView`)."""
    _, components = msgspec.json.schema_components((View, ReplayView))
    return {"$ref": "#/$defs/View", "$defs": components}


def log_entries(game: Game, names: dict[int, str], language: str, since: int = -1) -> list[dict[str, Any]]:
    """The public actions of the game after index `since`, each as a sentence. A step taken
    back says so (`undone`: the seq of its Undo), and an Undo names the step it took back
    (`undoes`: that step's seq; "Ana took back: moves general 2 to Shiloh")."""
    secret = secret_action_tags()
    costs = game.state.options.rules.costs
    owners = game.general_owners()  # the buttons name a general's owner: the log does too
    undone = taken_back(game.log)
    undoes = {undo: step for step, undo in undone.items()}
    out = []
    for seq, action in enumerate(game.log):
        if seq <= since:
            continue
        data = action_to_dict(action)
        player = names.get(action.player, "?")
        entry: dict[str, Any] = {"seq": seq, "player": action.player, "type": data["type"]}
        if data["type"] in secret:  # the registry's secret kinds: who decided, never what
            entry["text"] = gettext(language, "log.secret_action", player=player)
        elif seq in undoes:
            step = action_to_dict(game.log[undoes[seq]])
            label = render_action(step, language, game.world, names, owners=owners, costs=costs)
            entry["text"] = gettext(language, "log.undo", player=player, action=label)
            entry["undoes"] = undoes[seq]
        else:
            label = render_action(data, language, game.world, names, owners=owners, costs=costs)
            entry["text"] = gettext(language, "log.action", player=player, action=label)
        if seq in undone:
            entry["undone"] = undone[seq]
        out.append(entry)
    return out
