"""The rules engine of Judges & Kings: pure Python, no I/O, no web, no database.

    from judges.engine import Game, Options
    game = Game.new(Options(players=4, seed=7))   # rules=Rules(...) for a variant; default DEFAULT_RULES
    game.waiting_for()              # seats owing a decision
    list(game.legal_actions(0))     # what seat 0 may do
    game.apply(action)              # validated; raises RuleError and changes nothing if refused
"""

from .actions import (ACTION_TYPES, Action, AnyAction, AppointJudge, Buy, ChooseSuccessor, ClaimJudge, Discard,
                      DropArk, EndTurn, Execute, ForeseeEvents, ForeseeInvasion, LeaveTroops, Move, PickUpArk,
                      PlayAnointing, PlayAssassin, PlayEvent, PlayProphet, PlayRevolt, PlayTax, Plunder, Release,
                      TakeTroops, Vote, action_from_dict, action_from_json, action_to_dict)
from .dice import Dice, ScriptedDice, SeededDice
from .errors import (DiceScriptExhausted, GameOver, IllegalAction, JudgesError, MalformedAction,
                     NotYourDecision, RuleError, SetupError)
from .game import Game
from .rules import DEFAULT_RULES, Rules, RulesError
from .state import CANAANITES, ENDINGS, PHASES, Decision, GameState, Notification, Options

__all__ = [
    "ACTION_TYPES", "Action", "AnyAction", "AppointJudge", "Buy", "ChooseSuccessor", "ClaimJudge", "Discard",
    "DropArk", "EndTurn", "Execute", "ForeseeEvents", "ForeseeInvasion", "LeaveTroops", "Move", "PickUpArk",
    "PlayAnointing", "PlayAssassin", "PlayEvent", "PlayProphet", "PlayRevolt", "PlayTax", "Plunder", "Release",
    "TakeTroops", "Vote", "action_from_dict", "action_from_json", "action_to_dict",
    "Dice", "ScriptedDice", "SeededDice",
    "DiceScriptExhausted", "GameOver", "IllegalAction", "JudgesError", "MalformedAction",
    "NotYourDecision", "RuleError", "SetupError",
    "Game", "DEFAULT_RULES", "Rules", "RulesError",
    "CANAANITES", "ENDINGS", "PHASES", "Decision", "GameState", "Notification", "Options",
]
