"""Actions a player can take: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it, e.g.
{"type": "vote", "player": 2, "candidate": 7}. Settlements and regions are named
by their map names, generals by their id, hexes by their axial coordinates q, r.
"""

from __future__ import annotations

from ..games.actions import ActionCodec, PlayerAction
from ..games.actions import action_tag as _shared_action_tag


class Action(PlayerAction, frozen=True):
    """An action of Judges & Kings (the seat taking it: `player`)."""


# --- Phase 1 decisions (§ 5, § 10, § 13) ---------------------------------------------------


class ForeseeInvasion(Action, tag="foresee_invasion", frozen=True):
    """👁 The prophet's owner chooses where an entering invader pair strikes (§ 13)."""

    settlement: str


class ForeseeEvents(Action, tag="foresee_events", frozen=True):
    """👁 The prophet's owner chooses each card's terrain, in the Events Area's order (§ 5.5)."""

    terrains: list[str]


class ChooseSuccessor(Action, tag="choose_successor", frozen=True):
    """👑 The dead King's player names one of their generals as King (§ 10)."""

    general: int


class AppointJudge(Action, tag="appoint_judge", frozen=True):
    """⚖ Fill a vacant Judge title (§ 10)."""

    region: str
    general: int


class Vote(Action, tag="vote", frozen=True):
    """🗳 Cast all of one's votes for a candidate judge (§ 10)."""

    candidate: int


# --- Phase 2 Intrigue (§ 6) ------------------------------------------------------------------


class Discard(Action, tag="discard", frozen=True):
    """Discard a card from a hand above the limit."""

    card: str


class PlayTax(Action, tag="play_tax", frozen=True):
    region: str


class PlayEvent(Action, tag="play_event", frozen=True):
    """Plague, Abundance, Famine or Sandstorm into the Events Area."""

    card: str


class PlayAssassin(Action, tag="play_assassin", frozen=True):
    target: int


class PlayRevolt(Action, tag="play_revolt", frozen=True):
    settlement: str


class PlayProphet(Action, tag="play_prophet", frozen=True):
    general: int


class PlayAnointing(Action, tag="play_anointing", frozen=True):
    general: int


class Execute(Action, tag="execute", frozen=True):
    """Execute one of your captives."""

    general: int


class Release(Action, tag="release", frozen=True):
    """Release one of your captives."""

    general: int


# --- Phase 4 Acquisitions (§ 8) --------------------------------------------------------------


class Buy(Action, tag="buy", frozen=True):
    """Buy one item: troop, mercenary, development, wall, general or card.

    Troops go to a settlement's garrison (`settlement`) or a general's army (`general`);
    mercenaries to a general's army; developments, walls and generals to a settlement."""

    item: str
    settlement: str | None = None
    general: int | None = None


# --- Phase 5 Movement (§ 9) ------------------------------------------------------------------


class Move(Action, tag="move", frozen=True):
    """Move a general to the hex (q, r), along the cheapest path within his points left."""

    general: int
    q: int
    r: int


class TakeTroops(Action, tag="take_troops", frozen=True):
    general: int
    count: int


class LeaveTroops(Action, tag="leave_troops", frozen=True):
    general: int
    count: int


class PickUpArk(Action, tag="pick_up_ark", frozen=True):
    general: int


class DropArk(Action, tag="drop_ark", frozen=True):
    general: int


# --- Phase 6 Combat (§ 9) --------------------------------------------------------------------


class Plunder(Action, tag="plunder", frozen=True):
    """The victor's choice at a conquered settlement: plunder it (True) or hold it (False)."""

    settlement: str
    plunder: bool


class ClaimJudge(Action, tag="claim_judge", frozen=True):
    """Name which of your generals in the region becomes the Judge of a claimed title."""

    region: str
    general: int


class EndTurn(Action, tag="end_turn", frozen=True):
    """Pass: the player is done with this phase (phases 2, 4, 5)."""


class Undo(Action, tag="undo", frozen=True):
    """↶ Take back one's last free step of this turn (§ 4 Taking back): not the answer to a
    decision but an act of the game itself (`engine/undo.py`), never among the legal actions."""


AnyAction = (
    ForeseeInvasion
    | ForeseeEvents
    | ChooseSuccessor
    | AppointJudge
    | Vote
    | Discard
    | PlayTax
    | PlayEvent
    | PlayAssassin
    | PlayRevolt
    | PlayProphet
    | PlayAnointing
    | Execute
    | Release
    | Buy
    | Move
    | TakeTroops
    | LeaveTroops
    | PickUpArk
    | DropArk
    | Plunder
    | ClaimJudge
    | EndTurn
)
ACTION_TYPES: tuple[type[Action], ...] = AnyAction.__args__  # the answers to decisions (Undo is none)

#: tag -> action type of every action a registered decision kind accepts: filled by the
#: registry (`decisions._index`), so an action type defined with a new kind is decoded too.
ACTION_BY_TAG: dict[str, type[Action]] = {}

#: The wire format of Judges & Kings' actions (the encoding both games share: games/actions.py).
CODEC: ActionCodec[Action] = ActionCodec(Action, ACTION_BY_TAG, "error.malformed_action")

action_tag = _shared_action_tag
action_from_json = CODEC.from_json
action_from_dict = CODEC.from_dict
action_to_dict = CODEC.to_dict
action_to_json = CODEC.to_json
