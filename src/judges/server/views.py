"""What a seat receives, built from its table (`Views`): the parts every seat shares, each
seat's own, its notifications and the seats' events, encoded once (server/updates.py). The one
place the typed view becomes JSON (`encode_payload`)."""

from __future__ import annotations

from typing import Any

import msgspec

from ..engine import Game, action_to_dict
from ..engine.board import turn_order
from ..engine.combat import plunder_value
from ..engine.decisions import secret_action_tags
from ..engine.state import PHASES, Notification
from ..engine.undo import taken_back
from ..engine.victory import final_table, standings
from ..engine.view import dice_info, public_state
from ..i18n import gettext, render_action, render_notification
from ..manual import chapter_for_decision, chapter_for_notification, chapter_for_phase
from . import updates
from .errors import StoreUnavailable
from .limits import Limits
from .tables import LiveGame

SPECTATOR = -1  # a subscriber that is nobody's seat
SEAT_EVENT_IDS = 1_000_000_000  # ids of the server's seat-takeover notifications start here


def encode_payload(payload: dict) -> bytes:
    """A payload as the JSON a client receives: the one place the typed view becomes JSON."""
    return _json_encoder.encode(payload)


_json_encoder = msgspec.json.Encoder()


def _plunder_gain(action: dict[str, Any], game: Game, language: str) -> str:
    """What a plunder would give, for its button ("· +6 coins"): the engine's own value."""
    if action["type"] != "plunder" or not action["plunder"]:
        return ""
    coins = plunder_value(game._ctx, game.world.settlement_by_name[action["settlement"]])
    return " · " + gettext(language, "ui.plunder_gives", coins=coins)


class Views:
    """The views of the tables of a process, under its limits and turn timers."""

    def __init__(self, limits: Limits, turn_timers: dict[str, float]) -> None:
        self.limits = limits
        self.turn_timers = turn_timers  # game id -> seconds (a table's option)

    def public_parts(self, live: LiveGame) -> dict[str, bytes]:
        """The parts of the view every seat shares, encoded once (server/updates.py). The state
        is the public state with every hand hidden; each seat's own hand is its `state.players`."""
        game = live.game
        state = game.state
        public = public_state(state, -1)
        values = {
            "game_id": live.id,
            "seq": len(game.log),
            "round": state.round,
            "phase": state.phase,
            "phase_name": PHASES[state.phase - 1],
            "turn_order": turn_order(state),
            "waiting_for": game.waiting_for(),
            "pending": list(state.pending),
            "hand_sizes": [len(p.hand) for p in state.players],
            "deck_size": len(state.deck),
            # The commitment to the dice's seed, and the seed itself once the game is over.
            "dice": dice_info(game),
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "kind": s["kind"],
                    "bot": s["bot"],
                    "away": bool(s.get("away")),
                    "host": bool(s.get("host")),
                    "chat_closed": bool(s.get("chat_closed")),  # by the host (server/chat.py)
                    "hints": s.get("hints", 0),  # hints its player asked for (server/hints.py)
                }
                for i, s in enumerate(live.seats)
            ],
            # The table's options: after how long a bot plays an idle seat, and which bot.
            "table": {
                "turn_timer": self.turn_timers.get(live.id),
                "takeover_bot": live.takeover_bot,
                "hints": live.hints,
            },
            # each player's points by source and settlements controlled, as the final table counts
            "scores": {str(seat): row for seat, row in standings(public, game.world).items()},
            "ending": state.ending,
            "winners": state.winners,
            # the end of the game as a table (points by source, settlements, tie-break)
            "final": final_table(state, game.world) if state.ending is not None else None,
            "max_notifications": self.limits.max_view_notifications,
        }
        parts = {k: updates.encode(v) for k, v in values.items()}
        for name in updates.STATE_FIELDS:
            if name != "players":
                parts[updates.STATE_PREFIX + name] = updates.encode(getattr(public, name))
        parts["state.players"] = public.players  # type: ignore[assignment]  # completed per seat
        return parts

    def seat_parts(self, live: LiveGame, public: dict, seat: int, language: str) -> dict[str, bytes]:
        """The view of `seat` in `language`: the public parts and the seat's own."""
        game = live.game
        state = game.state
        names = live.names()
        legal = [action_to_dict(a) for a in game.legal_actions(seat)]
        owners = {g.id: g.owner for g in state.generals.values()}
        mine = [d for d in state.pending if d.player == seat]
        phase_name = PHASES[state.phase - 1]
        values = {
            "seat": seat,
            "my_decisions": mine,
            "legal_actions": legal,
            # the seat may take back its last free step (§ 4 Taking back: {"type": "undo"})
            "undo": game.can_undo(seat),
            "ballot": state.votes.get(seat),
            "manual": {
                "phase": chapter_for_phase(phase_name),
                "decisions": {d.kind: chapter_for_decision(d.kind, phase_name) for d in mine},
            },
            "language": language,
            # the words of each legal action's button, in the reader's language
            "action_labels": [
                render_action(
                    a,
                    language,
                    game.world,
                    names,
                    owners=owners,
                    costs=state.options.rules.costs,
                    events=state.events_area,
                )
                + _plunder_gain(a, game, language)
                for a in legal
            ],
            "seat_events": [self.render_note(live, n, language) for n in self.seat_events(live)],
        }
        parts = dict(public)
        parts.update((k, updates.encode(v)) for k, v in values.items())
        players = [state.players[seat] if p.seat == seat else p for p in public["state.players"]]
        parts["state.players"] = updates.encode(players)
        if any(d.player == seat and d.kind == "foresee_events" for d in state.pending):
            # the prophet's own choices so far (engine/view.py): only the seat that makes them
            parts["state.pending_terrains"] = updates.encode(state.pending_terrains)
        return parts

    def render_note(self, live: LiveGame, data: dict, language: str) -> dict:
        text = render_notification(data, language, live.game.world, live.names())
        return {
            "id": data["id"],
            "round": data["round"],
            "phase": data["phase"],
            "key": data["key"],
            "title": text["title"],
            "lines": text["lines"],
            "params": data["params"],
            "chapter": chapter_for_notification(data["key"]),
            "after": data.get("after", 0),
        }

    def notes(self, live: LiveGame, seat: int, language: str, after: int) -> tuple[bytes, int]:
        """The seat's engine notifications after id `after` (the latest `max_view_notifications`),
        rendered and encoded, and the latest id."""
        notes: list[Notification] = []
        for n in reversed(live.game.notifications):
            if n.id <= after or len(notes) == self.limits.max_view_notifications:
                break
            if seat in n.to:
                notes.append(n)
        notes.reverse()
        latest = live.game.notifications[-1].id if live.game.notifications else after
        rendered = [self.render_note(live, msgspec.to_builtins(n), language) for n in notes]
        return updates.encode(rendered), max(after, latest)

    def view_bytes(self, live: LiveGame, seat: int, language: str, since: int = -1) -> bytes:
        """The seat's whole view as JSON (GET .../view): the notifications after `since`. Call
        under the game's lock; StoreUnavailable while the copy waits for its reload."""
        if live.stale:
            raise StoreUnavailable()
        parts = self.seat_parts(live, self.public_parts(live), seat, language)
        notes, _ = self.notes(live, seat, language, since)
        return updates.view_bytes(parts, live.version, notes)

    def payload(self, live: LiveGame, seat: int, language: str, since: int = -1) -> dict:
        """The seat's view as a dict (tests, tools): the JSON of `view_bytes`, decoded."""
        return msgspec.json.decode(self.view_bytes(live, seat, language, since))

    # Seat events and the notification each one reads as; a revocation's `why` is its line.
    EVENT_KEYS = {
        "revoked": "notification.seat_revoked",
        "reinvited": "notification.seat_reinvited",
        "invited": "notification.seat_invited",
        "uninvited": "notification.seat_uninvited",
        "claimed": "notification.seat_claimed",
    }

    def seat_events(self, live: LiveGame) -> list[dict]:
        """The seats' events as notifications, ordered by the actions before them: takeovers
        (away, back), the host's revocations and invitations (who, and why: the player was
        away, absent, or the others agreed) and new players."""
        out = []
        for seat, info in enumerate(live.seats):
            for event in info.get("history", []):
                entries = []
                if "event" in event:
                    key = self.EVENT_KEYS[event["event"]]
                    params = {"player": seat, "by": event.get("by"), "why": event.get("why")}
                    if event.get("why") in ("away", "absent", "consent"):
                        why = {"player": seat, "voters": event.get("voters", [])}
                        entries.append({"key": f"notification.seat_why.{event['why']}", "params": why})
                else:
                    key = "notification.seat_bot" if event["away"] else "notification.seat_back"
                    params = {"player": seat, "reason": event["reason"]}
                out.append(
                    {
                        "id": SEAT_EVENT_IDS + event["after"] * 1000 + seat * 100 + event.get("n", 0) % 100,
                        "round": event["round"],
                        "phase": "",
                        "key": key,
                        "params": params,
                        "to": list(range(len(live.seats))),
                        "entries": entries,
                        "after": event["after"],
                    }
                )
        out.sort(key=lambda n: n["id"])
        return out


# --- the view of no seat (spectators, replays: server/screen.py) -----------------------------


def log_entries(live: LiveGame, language: str, since: int = -1) -> list[dict[str, Any]]:
    """The public actions of the game after index `since`, each as a sentence. A step taken
    back says so (`undone`: the seq of its Undo), and an Undo names the step it took back
    (`undoes`: that step's seq; "Ana took back: moves general 2 to Shiloh")."""
    game, names = live.game, live.names()
    secret = secret_action_tags()
    costs = game.state.options.rules.costs
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
            label = render_action(step, language, game.world, names, costs=costs)
            entry["text"] = gettext(language, "log.undo", player=player, action=label)
            entry["undoes"] = undoes[seq]
        else:
            label = render_action(data, language, game.world, names, costs=costs)
            entry["text"] = gettext(language, "log.action", player=player, action=label)
        if seq in undone:
            entry["undone"] = undone[seq]
        out.append(entry)
    return out


def public_notifications(game: Game, language: str, names: dict[int, str], since: int = -1) -> list[dict[str, Any]]:
    """The notifications addressed to every player (what a spectator may read), rendered."""
    everyone = set(range(len(game.state.players)))
    out = []
    for n in game.notifications:
        if n.id <= since or not everyone <= set(n.to):
            continue
        data = msgspec.to_builtins(n)
        text = render_notification(data, language, game.world, names)
        out.append(
            {
                "id": n.id,
                "round": n.round,
                "phase": n.phase,
                "key": n.key,
                "title": text["title"],
                "lines": text["lines"],
                "params": data["params"],
                "chapter": chapter_for_notification(n.key),
                "after": n.after,
            }
        )
    return out


def public_payload(live: LiveGame, language: str, game: Game | None = None, reveal: bool = False) -> dict[str, Any]:
    """The view of someone who holds no seat: the public state (every hand hidden, no ballot),
    who we wait for, the scores; with `reveal` (a replay of a finished game) the whole state."""
    game = game or live.game
    state = game.state
    view = game.view(SPECTATOR, notifications=False)
    shown = state if reveal else view.state
    return {
        "game_id": live.id,
        "seat": None,
        "spectator": True,
        "language": language,
        "seq": len(game.log),
        "round": view.round,
        "phase": view.phase,
        "phase_name": view.phase_name,
        "turn_order": view.turn_order,
        "waiting_for": view.waiting_for,
        "pending": view.pending,
        "my_decisions": [],
        "legal_actions": [],
        "undo": False,
        "action_labels": [],
        "state": shown,
        "hand_sizes": view.hand_sizes,
        "deck_size": view.deck_size,
        "ballot": None,
        "dice": view.dice,
        "seats": [
            {"seat": i, "name": s["name"], "kind": s["kind"], "bot": s["bot"], "away": bool(s.get("away"))}
            for i, s in enumerate(live.seats)
        ],
        "scores": {str(seat): row for seat, row in standings(state, game.world).items()},
        "ending": state.ending,
        "winners": state.winners,
        "final": final_table(state, game.world) if state.ending is not None else None,
        "manual": {"phase": chapter_for_phase(view.phase_name), "decisions": {}},
        "notifications": public_notifications(game, language, live.names()),
    }
