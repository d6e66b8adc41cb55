"""THE REGISTRY OF THE ROME ENGINE'S DECISION KINDS.

A `Decision` in `state.pending` names its kind; this registry says everything else about it:
the action types that answer it, the generator of its legal actions, the handler that applies
one (it validates fully before it changes anything), the rule its refusals name, and whether
its answer is secret. `RomeGame` dispatches through it, and so will the bots, the protocol and
the docs. A choice the factions make at once and in secret (`held`) waits in `state.scratch`
at that path, by seat, until the last faction owing it has chosen: each view shows a faction
its own and of the others only that they chose (view.py), and a search's sample draws the
others' anew with `guess` (search.py). Its order is the order a seat owing several answers them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from . import alliances, forum, playing, prosecutions, provinces, revenue, revolution, senate, setup
from .actions import (
    Action,
    Appeal,
    AppointMaster,
    Assassinate,
    AttractKnight,
    AwardConcession,
    Bid,
    Bodyguards,
    ChooseLeader,
    CloseSenate,
    Consent,
    Contribute,
    CounterBribe,
    DeclareAssassination,
    Deploy,
    Disband,
    Discard,
    DiscardLeader,
    Done,
    GiveCard,
    Grain,
    JoinRevolt,
    LandBill,
    LayDown,
    NominateConsulForLife,
    PeddleInfluence,
    Persuade,
    PlayConcession,
    PlayStatesman,
    PressureKnights,
    ProposeCensor,
    ProposeConsuls,
    ProposeDictator,
    ProposeGovernor,
    Prosecute,
    Raise,
    RaiseForces,
    Ransom,
    Recall,
    RecallGovernor,
    Reinforce,
    RepealLandBill,
    Repopulate,
    Revolt,
    Roll,
    RollLegions,
    Skip,
    SplitVote,
    Spoils,
    SponsorGames,
    SueForPeace,
    Transfer,
    TribuneProposal,
    Veto,
    Vote,
    Withdraw,
)
from .context import Ctx
from .state import Decision


@dataclass(frozen=True, slots=True)
class DecisionKind:
    name: str
    actions: tuple[type[Action], ...]
    legal: Callable[[Ctx, Decision], Iterable[Any]]
    handler: Callable[[Ctx, Decision, Any], None]
    rule: str
    secret: bool = False
    held: tuple[str, ...] = ()  # where the answers wait in the scratch (a dict by seat)
    guess: Callable[[Ctx, int], Any] | None = None  # a plausible answer of `seat`'s, on the dice


KINDS: Mapping[str, DecisionKind] = MappingProxyType(
    {
        k.name: k
        for k in (
            DecisionKind(
                "choose_leader",
                (ChooseLeader,),
                setup.legal_choose_leader,
                setup.apply_choose_leader,
                setup.RULE_LEADER,
            ),
            DecisionKind(
                "play_cards",
                (PlayStatesman, PlayConcession, Done),
                playing.legal_play_cards,
                playing.apply_play_cards,
                playing.RULE,
            ),
            DecisionKind(
                "redistribute",
                (Transfer, Ransom, Done),
                revenue.legal_redistribute,
                revenue.apply_redistribute,
                revenue.RULE_REDISTRIBUTION,
                secret=True,  # faction treasuries are secret (VG 1.06.31)
            ),
            DecisionKind(
                "grain",
                (Grain,),
                revenue.legal_grain,
                revenue.apply_grain,
                revenue.RULE_GRAIN,
                secret=True,
                held=("grain",),
                guess=revenue.guess_grain,
            ),
            DecisionKind(
                "contribute",
                (Contribute, Done),
                revenue.legal_contribute,
                revenue.apply_contribute,
                revenue.RULE_CONTRIBUTION,
            ),
            DecisionKind(
                "initiative",
                (Persuade, AttractKnight, PressureKnights, SponsorGames, ChooseLeader, PeddleInfluence, Skip),
                forum.legal_initiative,
                forum.apply_initiative,
                forum.RULE_INITIATIVE,
            ),
            DecisionKind(
                "counter_bribe",
                (CounterBribe,),
                forum.legal_counter_bribe,
                forum.apply_counter_bribe,
                forum.RULE_PERSUASION,
            ),
            DecisionKind(
                "persuasion",
                (Raise, Roll),
                forum.legal_persuasion,
                forum.apply_persuasion,
                forum.RULE_PERSUASION,
            ),
            DecisionKind("bid", (Bid, Skip), forum.legal_bid, forum.apply_bid, forum.RULE_AUCTION),
            DecisionKind(
                "discard_leader",
                (DiscardLeader,),
                forum.legal_discard_leader,
                forum.apply_discard_leader,
                forum.RULE_ENEMY_LEADER,
            ),
            DecisionKind(
                "repopulate",
                (Repopulate,),
                senate.legal_repopulate,
                senate.apply_repopulate,
                senate.RULE_REPOPULATE,
            ),
            DecisionKind(
                "propose_consuls",
                (ProposeConsuls,),
                senate.legal_propose_consuls,
                senate.apply_propose_consuls,
                senate.RULE_CONSULS,
            ),
            DecisionKind(
                "propose_dictator",
                (ProposeDictator, Skip),
                senate.legal_propose_dictator,
                senate.apply_propose_dictator,
                senate.RULE_DICTATOR,
            ),
            DecisionKind(
                "appoint_master",
                (AppointMaster,),
                senate.legal_appoint_master,
                senate.apply_appoint_master,
                senate.RULE_DICTATOR,
            ),
            DecisionKind(
                "propose_censor",
                (ProposeCensor,),
                senate.legal_propose_censor,
                senate.apply_propose_censor,
                senate.RULE_CENSOR,
            ),
            DecisionKind(
                "propose_governor",
                (ProposeGovernor,),
                provinces.legal_propose_governor,
                provinces.apply_propose_governor,
                provinces.RULE_GOVERNORS,
            ),
            DecisionKind(
                "spoils",
                (Spoils,),
                provinces.legal_spoils,
                provinces.apply_spoils,
                provinces.RULE_SPOILS,
                secret=True,
                held=("spoils",),
                guess=provinces.guess_spoils,
            ),
            DecisionKind(
                "propose_business",
                (
                    RaiseForces,
                    Disband,
                    Deploy,
                    CloseSenate,
                    AwardConcession,
                    LandBill,
                    NominateConsulForLife,
                    RepealLandBill,
                    Recall,
                    Reinforce,
                    Withdraw,
                    RecallGovernor,
                ),
                senate.legal_propose_business,
                senate.apply_propose_business,
                senate.RULE_PROPOSAL,
            ),
            DecisionKind(
                "sue_for_peace",
                (SueForPeace,),
                alliances.legal_sue_for_peace,
                alliances.apply_sue_for_peace,
                alliances.RULE_NEW_ALLIANCE,
            ),
            DecisionKind(
                "prosecute",
                (Prosecute, Done),
                prosecutions.legal_prosecute,
                prosecutions.apply_prosecute,
                prosecutions.RULE,
            ),
            DecisionKind(
                "consent", (Consent,), prosecutions.legal_consent, prosecutions.apply_consent, prosecutions.RULE
            ),
            DecisionKind(
                "sponsor_consent",
                (Consent,),
                senate.legal_sponsor_consent,
                senate.apply_sponsor_consent,
                senate.RULE_LAND_BILLS,
                secret=True,
                held=("senate", "sponsoring", "answers"),
                guess=senate.guess_consent,
            ),
            DecisionKind(
                "assassination",
                (Assassinate, Skip),
                senate.legal_assassinate,
                senate.apply_assassinate,
                senate.RULE_ASSASSINATION,
            ),
            DecisionKind(
                "bodyguards",
                (Bodyguards,),
                senate.legal_bodyguards,
                senate.apply_bodyguards,
                senate.RULE_ASSASSINATION,
            ),
            DecisionKind(
                "tribune_proposal",
                (
                    RaiseForces,
                    Disband,
                    Deploy,
                    AwardConcession,
                    LandBill,
                    NominateConsulForLife,
                    RepealLandBill,
                    Recall,
                    Reinforce,
                    Withdraw,
                    RecallGovernor,
                    Skip,
                ),
                senate.legal_tribune_proposal,
                senate.apply_tribune_proposal,
                senate.RULE_TRIBUNES,
            ),
            DecisionKind(
                "vote",
                (Vote, SplitVote, Veto, Appeal, DeclareAssassination, TribuneProposal),
                senate.legal_vote,
                senate.apply_vote,
                senate.RULE_VOTE,
                secret=True,
            ),
            DecisionKind(
                "trade_cards",
                (GiveCard, Done),
                revolution.legal_trade_cards,
                revolution.apply_trade_cards,
                revolution.RULE_TRADE,
                secret=True,  # hands are secret: the card given is seen by its giver and receiver only
            ),
            DecisionKind(
                "discard",
                (Discard,),
                revolution.legal_discard,
                revolution.apply_discard,
                revolution.RULE_HAND,
                secret=True,
                held=("discarding",),
                guess=revolution.guess_discards,
            ),
            DecisionKind(
                "revolt",
                (LayDown, RollLegions, Revolt),
                revolution.legal_revolt,
                revolution.apply_revolt,
                revolution.RULE_REVOLT,
            ),
            DecisionKind(
                "join_revolt",
                (JoinRevolt,),
                revolution.legal_join_revolt,
                revolution.apply_join_revolt,
                revolution.RULE_SECONDARY,
            ),
        )
    }
)


def kinds_answered_by(action: Action) -> list[str]:
    return [k.name for k in KINDS.values() if type(action) in k.actions]
