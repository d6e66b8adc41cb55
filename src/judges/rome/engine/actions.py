"""What a player can do in Republic of Rome: a tagged union of msgspec Structs.

On the wire an action is a JSON object whose "type" names it:
{"type": "choose_leader", "player": 2, "senator": "7"}. Senators are named by their family id,
cards by their card id. Which decision each answers: `decisions.KINDS`.
"""

from __future__ import annotations

from ...games.actions import ActionCodec, PlayerAction


class Action(PlayerAction, frozen=True):
    """An action of Republic of Rome (the seat taking it: `player`)."""


class Done(Action, tag="done", frozen=True):
    """Ends one's part of a step that allows several actions (playing cards, moving money)."""


class ChooseLeader(Action, tag="choose_leader", frozen=True):
    """Put the faction-leader marker on one of one's senators (setup)."""

    senator: str


class PlayStatesman(Action, tag="play_statesman", frozen=True):
    """Put a statesman from one's hand into play (setup, Revolution phase)."""

    card: str


class PlayConcession(Action, tag="play_concession", frozen=True):
    """Put a concession from one's hand under one of one's senators (setup, Revolution phase)."""

    card: str
    senator: str


class Transfer(Action, tag="transfer", frozen=True):
    """Redistribution (Revenue phase): move talents between one's faction treasury
    ("treasury") and one's senators' personal treasuries (their ids), or give them to another
    player's faction treasury ("faction:<seat>", as a target only)."""

    source: str
    target: str
    talents: int


class Contribute(Action, tag="contribute", frozen=True):
    """A senator gives talents from his personal treasury to the State (Revenue phase)."""

    senator: str
    talents: int


class Skip(Action, tag="skip", frozen=True):
    """Lets a step of one's initiative go by (persuasion, knights, games, leader), or passes
    in an auction."""


class Persuade(Action, tag="persuade", frozen=True):
    """Forum: one of one's senators in Rome tries to win `target`, paying `bribe` talents from
    his personal treasury at once (R51-R56)."""

    persuader: str
    target: str
    bribe: int = 0
    card: str = ""  # a Seduction or Blackmail card from the hand: nobody may counter-bribe (R58)


class CounterBribe(Action, tag="counter_bribe", frozen=True):
    """Forum: talents from one's faction treasury against a persuasion attempt (0: none)."""

    talents: int


class Raise(Action, tag="raise", frozen=True):
    """Forum: the persuader adds talents from his personal treasury."""

    talents: int


class Roll(Action, tag="roll", frozen=True):
    """Forum: the persuader accepts the number and rolls."""


class PeddleInfluence(Action, tag="peddle_influence", frozen=True):
    """Forum: discard Influence Peddling to take a card at random from another faction's hand
    (R268)."""

    card: str
    target: int


class AttractKnight(Action, tag="attract_knight", frozen=True):
    """Forum: a senator in Rome pays `talents` (to the bank) and rolls for a knight (R61, R62)."""

    senator: str
    talents: int = 0


class PressureKnights(Action, tag="pressure_knights", frozen=True):
    """Forum: a senator's knights are pressured: a die each to his treasury, the knights lost (R64)."""

    senator: str
    knights: int


class SponsorGames(Action, tag="sponsor_games", frozen=True):
    """Forum: a senator pays for games from his personal treasury (R66)."""

    senator: str
    games: str


class Bid(Action, tag="bid", frozen=True):
    """Forum: a senator in Rome bids for an initiative from his personal treasury (GAP-12)."""

    senator: str
    talents: int


class DiscardLeader(Action, tag="discard_leader", frozen=True):
    """Forum (Enemy Leader Dies): the HRAO discards an enemy leader in play."""

    card: str


class ProposeConsuls(Action, tag="propose_consuls", frozen=True):
    """Senate: the presiding magistrate nominates a pair of consuls (R94)."""

    first: str
    second: str


class ProposeCensor(Action, tag="propose_censor", frozen=True):
    """Senate: the presiding magistrate nominates a censor (R122)."""

    senator: str


class Vote(Action, tag="vote", frozen=True):
    """Senate: a faction's senators in Rome vote as a block ("yea", "nay" or "abstain"), with
    `talents` bought votes paid from their personal treasuries (VG 1.09.141)."""

    choice: str
    talents: int = 0


class SplitVote(Action, tag="split_vote", frozen=True):
    """Senate: a vote like `Vote` (the block's choice and its bought votes) with some senators
    voting otherwise: `split` maps each to his choice ({"4": "nay"}; VG 1.09.14)."""

    choice: str
    split: dict[str, str]
    talents: int = 0


class Veto(Action, tag="veto", frozen=True):
    """Senate: play a tribune card from the hand to stop the vote (R84, VG 1.09.152)."""

    card: str


class RaiseForces(Action, tag="raise_forces", frozen=True):
    """Senate: propose to raise legions and fleets, paid by the State (R146, R147)."""

    legions: int = 0
    fleets: int = 0


class Disband(Action, tag="disband", frozen=True):
    """Senate: propose to disband legions (`veterans` of them veterans) and fleets waiting in
    Rome's box (VG 1.09.63; R148)."""

    legions: int = 0
    veterans: int = 0
    fleets: int = 0


class Deploy(Action, tag="deploy", frozen=True):
    """Senate: propose to send a consul with units from Rome against a war (R150-R159)."""

    commander: str
    war: str
    legions: int = 0
    veterans: int = 0
    fleets: int = 0


class CloseSenate(Action, tag="close_senate", frozen=True):
    """Senate: the presiding magistrate closes the sitting (R92)."""


class Discard(Action, tag="discard", frozen=True):
    """Revolution: a card discarded down to the hand limit (R236)."""

    card: str


class Prosecute(Action, tag="prosecute", frozen=True):
    """Senate: the Censor accuses a senator, naming a prosecutor (R125-R130)."""

    accused: str
    prosecutor: str
    major: bool = False


class Consent(Action, tag="consent", frozen=True):
    """Senate: the named prosecutor's faction agrees to prosecute, or refuses (R130)."""

    agree: bool


class Appeal(Action, tag="appeal", frozen=True):
    """Senate: the accused appeals to the people before his faction votes (R133)."""


class ProposeGovernor(Action, tag="propose_governor", frozen=True):
    """Senate: the presiding magistrate nominates a governor for a vacant province (R137)."""

    senator: str
    province: str


class Spoils(Action, tag="spoils", frozen=True):
    """Revenue: which of one's governors take provincial spoils (and become corrupt, R32)."""

    governors: list[str]


class Grain(Action, tag="grain", frozen=True):
    """Revenue: which of one's grain concessions take the drought bonus (more income, less
    popularity; R25)."""

    cards: list[str]


class AwardConcession(Action, tag="award_concession", frozen=True):
    """Senate: propose to give a concession lying in the Forum to a senator in Rome (R164)."""

    card: str
    senator: str


class LandBill(Action, tag="land_bill", frozen=True):
    """Senate: propose a land bill of type 1, 2 or 3 with its sponsor and co-sponsor (R173)."""

    bill: int
    sponsor: str
    cosponsor: str


class Ransom(Action, tag="ransom", frozen=True):
    """Revenue (redistribution): pay a captive senator's ransom from his personal treasury, then
    the faction treasury (R229, VG 1.10.71)."""

    senator: str


class Repopulate(Action, tag="repopulate", frozen=True):
    """Senate (Repopulating Rome): the faction with fewest senators takes a senator from the
    Curia, or from the Forum when the Curia has none (VG 1.09.81)."""

    senator: str


class NominateConsulForLife(Action, tag="nominate_consul_for_life", frozen=True):
    """Senate: propose a senator with 21 influence or more as Consul for Life (R178)."""

    senator: str


class ProposeDictator(Action, tag="propose_dictator", frozen=True):
    """Senate: the presiding magistrate proposes a Dictator when Rome's wars allow one (R104)."""

    senator: str


class AppointMaster(Action, tag="appoint_master", frozen=True):
    """Senate: the Dictator names his Master of Horse (R109)."""

    senator: str


class RepealLandBill(Action, tag="repeal_land_bill", frozen=True):
    """Senate: propose to repeal a land bill of type 2 or 3 in force, with its sponsor (R176)."""

    bill: int
    sponsor: str


class Recall(Action, tag="recall", frozen=True):
    """Senate: propose to recall a proconsul: he comes home, his units to Rome's box (R160, R161)."""

    commander: str


class Reinforce(Action, tag="reinforce", frozen=True):
    """Senate: propose to send units from Rome's box to a commander in the field (R156)."""

    commander: str
    legions: int = 0
    veterans: int = 0
    fleets: int = 0


class Withdraw(Action, tag="withdraw", frozen=True):
    """Senate: propose to bring units home from a commander in the field to Rome's box (R160,
    R162)."""

    commander: str
    legions: int = 0
    veterans: int = 0
    fleets: int = 0


class TribuneProposal(Action, tag="tribune_proposal", frozen=True):
    """Senate: while answering a vote on other business, play a tribune card to make a proposal
    of one's own, voted next (R83); the faction then names it."""

    card: str


class RecallGovernor(Action, tag="recall_governor", frozen=True):
    """Senate: propose to recall a governor past his first year and send `replacement` in his
    place (R144)."""

    governor: str
    replacement: str


class LayDown(Action, tag="lay_down", frozen=True):
    """Revolution: the victorious commander hands his force back to the Senate (R238)."""


class RollLegions(Action, tag="roll_legions", frozen=True):
    """Revolution: a victorious commander considering revolt rolls for each of his legions,
    `talents` from his personal treasury adding 1 to as many rolls (R240, R241)."""

    talents: int = 0


class Revolt(Action, tag="revolt", frozen=True):
    """Revolution: the commander who rolled declares himself in revolt with the legions that
    follow him (R238, R239)."""


class JoinRevolt(Action, tag="join_revolt", frozen=True):
    """Revolution: a senator of the rebel's faction joins the revolt, or stays loyal (R243)."""

    join: bool


class DeclareAssassination(Action, tag="declare_assassination", frozen=True):
    """Senate: while answering a vote, announce an assassination attempt (R184); the faction then
    names the assassin and the target."""


class Assassinate(Action, tag="assassinate", frozen=True):
    """Senate: one of one's senators in Rome tries to kill another faction's senator in Rome,
    playing `cards` Assassin cards from the hand, +1 each (R186, R187)."""

    assassin: str
    target: str
    cards: int = 0


class Bodyguards(Action, tag="bodyguards", frozen=True):
    """Senate: the target's faction plays `cards` Secret Bodyguard cards from its hand before the
    roll, −1 each and a further roll to catch the assassin each (R188); 0 plays none."""

    cards: int = 0


class SueForPeace(Action, tag="sue_for_peace", frozen=True):
    """End of the Senate, New Alliance: the HRAO names the war that sues for peace."""

    war: str


class GiveCard(Action, tag="give_card", frozen=True):
    """Revolution: a faction card from one's hand to another player (R237; a trade is two gifts)."""

    card: str
    to: int


ACTION_TYPES: tuple[type[Action], ...] = (
    Done,
    ChooseLeader,
    PlayStatesman,
    PlayConcession,
    Transfer,
    Contribute,
    Skip,
    Persuade,
    CounterBribe,
    Raise,
    Roll,
    AttractKnight,
    PressureKnights,
    SponsorGames,
    Bid,
    DiscardLeader,
    ProposeConsuls,
    ProposeCensor,
    Vote,
    Veto,
    RaiseForces,
    Deploy,
    CloseSenate,
    Discard,
    Prosecute,
    Consent,
    Appeal,
    ProposeGovernor,
    Spoils,
    AwardConcession,
    LandBill,
    Ransom,
    Repopulate,
    NominateConsulForLife,
    ProposeDictator,
    AppointMaster,
    LayDown,
    RollLegions,
    Revolt,
    JoinRevolt,
    DeclareAssassination,
    Assassinate,
    Bodyguards,
    RepealLandBill,
    SueForPeace,
    Recall,
    Reinforce,
    Withdraw,
    TribuneProposal,
    RecallGovernor,
    SplitVote,
    GiveCard,
    Disband,
    Grain,
    PeddleInfluence,
)
#: tag -> action type: Rome's own table (its "vote" is not Judges & Kings' "vote").
ACTION_BY_TAG: dict[str, type[Action]] = {}

#: The wire format of Rome's actions (the encoding both games share: judges/games/actions.py).
CODEC: ActionCodec[Action] = ActionCodec(Action, ACTION_BY_TAG, "rome.error.malformed_action")
CODEC.register(*ACTION_TYPES)

action_from_dict = CODEC.from_dict
action_from_json = CODEC.from_json
action_to_dict = CODEC.to_dict
action_to_json = CODEC.to_json
