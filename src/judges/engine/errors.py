"""Typed errors. Every refusal names the rule it enforces and carries a message key.

An action that raises one of these has changed nothing: handlers validate completely
before they touch the state.
"""

from __future__ import annotations

from typing import Any


class JudgesError(Exception):
    """Base of every error the engine raises on purpose."""


class RuleError(JudgesError):
    """An action the rules do not allow.

    `rule` is the rules section ("§10 Election"), `key` a message key for translation,
    `params` its parameters; str() gives an English sentence for logs and developers.
    """

    def __init__(self, rule: str, key: str, message: str, **params: Any) -> None:
        self.rule = rule
        self.key = key
        self.params = params
        self.message = message
        super().__init__(f"{rule}: {message}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": type(self).__name__,
            "rule": self.rule,
            "key": self.key,
            "params": self.params,
            "message": self.message,
        }


class IllegalAction(RuleError):
    """A well-formed action that the rules forbid now."""


class NotYourDecision(RuleError):
    """The acting player owes no decision of this kind."""


class MalformedAction(RuleError):
    """The action is not a valid action at all (unknown type, missing or wrong fields)."""


class GameOver(RuleError):
    """The game has ended: nothing can be played any more."""


class SetupError(JudgesError, ValueError):
    """Invalid game options or scenario data."""


class DiceScriptExhausted(JudgesError):
    """A scripted dice sequence ran out: the scenario rolled more dice than it scripted."""

    def __init__(self, scripted: int, sides: int) -> None:
        self.scripted = scripted
        super().__init__(f"the dice script ({scripted} faces) ran out when a d{sides} was rolled")
