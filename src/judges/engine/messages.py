"""The messages: one registry of the report lines and notifications, as `decisions.py` is
of the decision kinds.

The engine never writes a sentence: it emits a message key with parameters (a report line,
`Ctx.report`/`log_round`, or a notification, `Ctx.notify`). Each key is declared once, by
`message` beside the code that emits it (the topic module, at its top): its parameters, each
with its type (`PARAM_TYPES`), the manual chapter that explains it, and, for a notification,
the lines shown under its title. A declaration is data: nothing is printed, nothing read.

What derives from it: the renderer (`judges.i18n` converts each parameter by its declared
type: a seat becomes a player's name, a settlement index its name...), the manual's links
(`judges.manual.chapter_for_notification`), `GET /api/protocol` (the screen reads the types
and whether a notice belongs to the log) and the message table of docs/protocol.md. The tests
check that every key emitted in whole games is registered, that every registered key has its
text in every catalog with exactly its declared parameters, and that its chapter exists.

Variants: a few keys name a genuinely different sentence for some parameters (a battle both
sides lost, a title taken from another player): a declaration's `variants`, rows (variant key,
parameter, test), tried in order, the first whose test holds wins (`VARIANT_TESTS`). A variant
uses its base key's parameters and chapter.

`FIELD_TYPES` types the parameters of the two other kinds of keys, which are not emitted
messages: the refusals (``error.*``, `errors.RuleError` and the server's) and the buttons of
legal actions (``label.<type>``, the action's fields and what the screen adds to them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: The types a parameter may have, and what its value is.
PARAM_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "player": "a seat (-1 the Canaanites; 'invaders' or 'canaanites' a party in a battle)",
        "players": "a list of seats",
        "general": "a general's id",
        "generals": "a list of generals' ids",
        "settlement": "a settlement's index (its name in a refusal)",
        "region": "a region's index (its name in a refusal)",
        "hex": "a hex's index",
        "phase": "a phase, by name or number 1-7",
        "card": "an intrigue card's name (card.<name>)",
        "cards": "a list of intrigue cards' names",
        "terrain": "a terrain's name (terrain.<name>)",
        "terrains": "a list of terrains' names",
        "item": "an item of Acquisitions (item.<name>)",
        "ending": "an ending of the game (ending.<name>)",
        "decision": "a decision kind (decision.<name>)",
        "action": "an action type (action.<type>)",
        "kingdom": "a kingdom (kingdom.<name>)",
        "wrath_reason": "why Wrath was registered (wrath_reason.<name>)",
        "cause": "how a general died (cause.<name>)",
        "razed_by": "what razed a settlement (razed_by.<name>)",
        "crowned": "how a King was crowned (crowned.<name>)",
        "arrival": "how an invader pair arrived (arrival.<name>)",
        "outcome": "an assassin's outcome (outcome.<name>)",
        "revolt_outcome": "true when a revolt succeeded",
        "death_outcome": "true when a general died",
        "tally": "an election's counts: [{general, owner, votes}]",
        "ballots": "an election's ballots: [{player, candidate, votes}]",
        "battle_rounds": "a battle's rolls: [{attacker, defender: faces; attacker_hits, defender_hits}]",
        "scores": "points by seat: {seat: {total, judges, king, tabernacle}}",
        "events": "cards and their terrains: [{card, terrain}]",
        "coins": "a number of coins",
        "die": "a die's face",
        "int": "a number",
        "bool": "true or false (chooses a variant, never shown)",
        "text": "a text shown as it is",
    }
)

#: What a variant's parameter is tested for: "missing" (None or absent), "given" (not None),
#: "empty" (no items, or falsy), "nonempty".
VARIANT_TESTS = ("missing", "given", "empty", "nonempty")

#: The types of parameter that are shown as lines under a notification's title.
LINE_TYPES = frozenset({"ballots", "battle_rounds", "scores", "ending"})


@dataclass(frozen=True, slots=True)
class Line:
    """A line under a notification's title: the catalog key `key` with the notification's
    parameters, when its parameter `when` is not empty (always when `when` is None)."""

    key: str
    when: str | None = None


@dataclass(frozen=True, slots=True)
class Message:
    key: str
    chapter: str  # the manual chapter that explains it (judges.manual.CHAPTERS)
    params: Mapping[str, str]  # name -> type (PARAM_TYPES), in the order they are declared
    # A notification's lines under its title, in order: a parameter's name (its items, by
    # its type: LINE_TYPES) or a Line; then the notification's entries, one line each.
    lines: tuple[str | Line, ...] = ()
    # False for the server's notices about seats: the bell's, not the game log's.
    log: bool = True
    # (variant key, parameter, test): the sentence for some parameters (VARIANT_TESTS)
    variants: tuple[tuple[str, str, str], ...] = ()

    def schema(self) -> dict[str, object]:
        """As `GET /api/protocol` publishes it."""
        return {
            "key": self.key,
            "chapter": self.chapter,
            "params": dict(self.params),
            "lines": [x if isinstance(x, str) else {"key": x.key, "when": x.when} for x in self.lines],
            "log": self.log,
            "variants": [{"key": k, "param": p, "test": t} for k, p, t in self.variants],
        }


#: key -> its declaration, in the order the modules declared them.
MESSAGES: dict[str, Message] = {}


def message(
    key: str,
    chapter: str,
    /,
    *,
    lines: tuple[str | Line, ...] = (),
    log: bool = True,
    variants: tuple[tuple[str, str, str], ...] = (),
    **params: str,
) -> str:
    """Declares the message `key` (see the module's docstring); returns the key."""
    if key in MESSAGES:
        raise ValueError(f"message {key!r} is declared already")
    unknown = {name: t for name, t in params.items() if t not in PARAM_TYPES}
    if unknown:
        raise ValueError(f"message {key!r}: unknown parameter types {unknown}")
    for line in lines:
        if isinstance(line, str) and params.get(line) not in LINE_TYPES:
            raise ValueError(f"message {key!r}: line {line!r} is no parameter shown as lines")
        if isinstance(line, Line) and line.when is not None and line.when not in params:
            raise ValueError(f"message {key!r}: line {line.key!r} depends on an undeclared parameter")
    for variant, name, test in variants:
        if name not in params or test not in VARIANT_TESTS or not variant.startswith(key + "."):
            raise ValueError(f"message {key!r}: variant {variant!r} ({name}, {test}) is not a variant of it")
    MESSAGES[key] = Message(
        key=key, chapter=chapter, params=MappingProxyType(dict(params)), lines=lines, log=log, variants=variants
    )
    return key


def forget(key: str) -> None:
    """Takes a declaration back (a test's fake message)."""
    MESSAGES.pop(key)


def param_type(key: str, name: str) -> str | None:
    """The declared type of parameter `name` of message `key`, of a refusal's or an action
    label's parameter (`FIELD_TYPES`), or None."""
    declared = MESSAGES.get(key)
    if declared is not None:
        return declared.params.get(name)
    return FIELD_TYPES.get(name)


#: The parameters of refusals (error.*) and of actions' buttons (label.<type>): each name has
#: one type wherever it appears (an action's field, as the wire names it).
FIELD_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "player": "player",
        "owner": "player",
        "general": "general",
        "target": "general",
        "candidate": "general",
        "settlement": "settlement",
        "region": "region",
        "hex": "hex",
        "phase": "phase",
        "card": "card",
        "terrain": "terrain",
        "terrains": "terrains",
        "item": "item",
        "ending": "ending",
        "kind": "decision",
        "action": "action",
        "events": "events",
        "cost": "coins",
        "coins": "coins",
        **dict.fromkeys(
            ("available", "chosen", "count", "expected", "got", "limit", "max", "min", "needed", "q", "r", "value"),
            "int",
        ),
        **dict.fromkeys(("retry_after", "seconds"), "int"),
        **dict.fromkeys(("detail", "rule", "lines"), "text"),
        "until": "text",  # a suspension's end, written by the server (server/community/moderation.py)
        # the hints' reasons and the review's items (bots/hint.py, server/advice/review.py): actions
        # already rendered in the reader's language, and numbers (points, samples, % sure)
        **dict.fromkeys(("step", "other", "best", "played", "title"), "text"),
        **dict.fromkeys(
            ("gap", "error", "sure", "samples", "defenders", "held", "total", "troops", "range"),
            "int",
        ),
        **dict.fromkeys(("round", "n"), "int"),
    }
)
