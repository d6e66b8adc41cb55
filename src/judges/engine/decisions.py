"""The decision kinds: one registry.

A `Decision` in `state.pending` names its kind; this registry says everything else about
it: the action types that answer it (`actions.py`), the generator of its legal actions and
the handler that applies one (which validates fully before it changes anything), the rules
section its refusals name, what its `subject` is and which field of an action names it, the
manual chapter that explains it, whether the screen opens a window for it, its icon, and
whether its answer is secret (the log says a player decided, not what).

`Game` dispatches through it (`legal_actions`, `apply`, matching an action to the decision
it answers), and so do the greedy bot, the manual's links, the server's `GET /api/protocol`
and the table in docs/protocol.md. The kinds are listed in the order a seat that owes
several at once answers them (bots follow it).

Adding a decision kind: its action type (a tagged `Action` Struct), legal-action generator
and handler in the topic module, one `DecisionKind` here, and its words (`decision.<kind>`,
`decision_help.<kind>`, `action.<type>`) in the three catalogs. The wire format
(`actions.action_from_dict`/`action_from_json`) decodes every action type registered here.

`GAME_ACTS` lists the actions of the game itself, which answer no decision: `undo` (§ 4
Taking back). They are never among the legal actions; the seat's view says when one may be
sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..world import World
from . import combat, events, intrigue, invaders, titles, turns
from .actions import (
    ACTION_BY_TAG,
    ACTION_TYPES,
    Action,
    AppointJudge,
    ChooseSuccessor,
    ClaimJudge,
    Discard,
    EndTurn,
    ForeseeEvents,
    ForeseeInvasion,
    Plunder,
    Undo,
    Vote,
    action_tag,
)
from .context import Ctx
from .state import Decision
from .undo import RULE as UNDO_RULE

#: What a decision's `subject` is (an index into the world, or an invader pair's id).
SUBJECTS = ("none", "region", "settlement", "invader_pair")


_A = TypeVar("_A", bound=Action)


@dataclass(frozen=True, slots=True)
class DecisionKind(Generic[_A]):
    name: str
    actions: tuple[type[_A], ...]  # the action types that answer it
    # a list the generator returns is new, the caller's to keep
    legal: Callable[[Ctx, Decision], Iterable[_A]]
    handler: Callable[[Ctx, Decision, _A], None]  # validates before it changes anything
    rule: str  # the rules section its refusals name
    chapter: str  # the manual chapter that explains it ("turn": its phase's chapter when known)
    icon: str  # a symbol of web/static/icons.svg
    opens_window: bool = True  # the screen opens a window for it (a turn is played on the board)
    subject: str = "none"  # one of SUBJECTS
    subject_field: str | None = None  # the action field that names the subject (by its map name)
    # What its answer says is hidden from the other seats (a ballot before the tally, a
    # prophet's private choice; not a discard: the discard pile is face up, rules-reference
    # § 6): the public log, the other seats' frames and a running game's record say that the
    # player decided, never what.
    secret: bool = False

    @property
    def action_tags(self) -> tuple[str, ...]:
        return tuple(action_tag(t) for t in self.actions)


def _turn_actions() -> tuple[type[Action], ...]:
    """Every action a turn phase handles (Intrigue, Acquisitions, Movement), and EndTurn."""
    return tuple(t for t in ACTION_TYPES if t in turns.ACTION_PHASE or t is EndTurn)


KINDS: dict[str, DecisionKind[Any]] = {
    kind.name: kind
    for kind in (
        DecisionKind(
            "vote",
            (Vote,),
            titles.legal_vote,
            titles.apply_vote,
            rule="§10 Election",
            chapter="judges-and-kings",
            icon="vote",
            secret=True,
        ),
        DecisionKind(
            "appoint_judge",
            (AppointJudge,),
            titles.legal_appoint,
            titles.apply_appoint,
            rule="§10 Vacant titles",
            chapter="judges-and-kings",
            icon="seal",
            subject="region",
            subject_field="region",
        ),
        DecisionKind(
            "succession",
            (ChooseSuccessor,),
            titles.legal_succession,
            titles.apply_succession,
            rule="§10 Succession",
            chapter="judges-and-kings",
            icon="crown",
        ),
        DecisionKind(
            "foresee_invasion",
            (ForeseeInvasion,),
            invaders.legal_foresee_invasion,
            invaders.apply_foresee_invasion,
            rule="§13 New wave",
            chapter="wrath-and-invaders",
            icon="prophet",
            secret=True,
            subject="invader_pair",
        ),
        DecisionKind(
            "foresee_events",
            (ForeseeEvents,),
            events.legal_foresee_events,
            events.apply_foresee_events,
            rule="§5.5 New events land",
            chapter="events",
            icon="prophet",
            secret=True,
        ),
        DecisionKind(
            "discard",
            (Discard,),
            intrigue.legal_discard,
            intrigue.apply_discard,
            rule="§6 Intrigue: drawing",
            chapter="intrigue",
            icon="card",
        ),
        DecisionKind(
            "plunder",
            (Plunder,),
            combat.legal_plunder,
            combat.apply_plunder,
            rule="§9 Combat",
            chapter="movement-and-combat",
            icon="battle",
            subject="settlement",
            subject_field="settlement",
        ),
        DecisionKind(
            "claim_judge",
            (ClaimJudge,),
            combat.legal_claim,
            combat.apply_claim,
            rule="§9 Claiming a Judge title",
            chapter="judges-and-kings",
            icon="seal",
            subject="region",
            subject_field="region",
        ),
        DecisionKind(
            "turn",
            _turn_actions(),
            turns.legal_turn,
            turns.apply_turn_action,
            rule="§4 Turn order",
            chapter="round",
            icon="turn",
            opens_window=False,
        ),
    )
}


@dataclass(frozen=True, slots=True)
class GameAct:
    """An action of the game itself: it answers no decision and is never among the legal
    actions (bots, the search and the lab never consider it); the seat's view says when the
    seat may send it (`view_field`), and the screen offers it then."""

    name: str
    action: type[Action]
    rule: str  # the rules section its refusals name
    view_field: str  # the seat's view: true when the seat may send it now
    icon: str


#: The game's own actions: taking back a free step (§ 4 Taking back, engine/undo.py).
GAME_ACTS: dict[str, GameAct] = {
    act.name: act for act in (GameAct("undo", Undo, rule=UNDO_RULE, view_field="undo", icon="undo"),)
}

#: action type -> the kind it answers (rebuilt by `register`/`unregister`)
KIND_OF_ACTION: dict[type[Action], DecisionKind[Any]] = {}


def _index() -> None:
    """Rebuilds the action type -> kind index and the wire format's tag -> type table, so an
    action type registered with a kind (wherever its Struct is defined) is decoded too."""
    KIND_OF_ACTION.clear()
    ACTION_BY_TAG.clear()
    for kind in KINDS.values():
        for action_type in kind.actions:
            KIND_OF_ACTION[action_type] = kind
            ACTION_BY_TAG[action_tag(action_type)] = action_type
    for act in GAME_ACTS.values():
        ACTION_BY_TAG[action_tag(act.action)] = act.action


_index()


def secret_action_tags() -> frozenset[str]:
    """The action types whose content other seats may not see: those of the secret kinds."""
    return frozenset(tag for kind in KINDS.values() if kind.secret for tag in kind.action_tags)


def kind_of(action_type: type[Action]) -> DecisionKind[Any]:
    """The decision kind an action type answers."""
    return KIND_OF_ACTION[action_type]


def subject_name(kind: DecisionKind[Any], world: World, subject: int | None) -> str | None:
    """The map name of a decision's subject, as an action names it (None when actions do not
    name it)."""
    if kind.subject_field is None or subject is None:
        return None
    if kind.subject == "region":
        return world.regions[subject].name
    if kind.subject == "settlement":
        return world.settlements[subject].name
    raise ValueError(f"decision kind {kind.name}: subject {kind.subject!r} has no map name")


def register(kind: DecisionKind[Any]) -> None:
    """Adds a decision kind (a new rule, or a test's fake kind)."""
    if kind.name in KINDS:
        raise ValueError(f"decision kind {kind.name!r} is registered already")
    taken = [t.__name__ for t in kind.actions if t in KIND_OF_ACTION]
    if taken:
        raise ValueError(f"decision kind {kind.name!r}: {taken} already answer another kind")
    KINDS[kind.name] = kind
    _index()


def unregister(name: str) -> None:
    KINDS.pop(name)
    _index()
