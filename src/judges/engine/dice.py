"""The one door through which randomness enters a game.

Every die the rules roll and every shuffle goes through a `Dice`. Two generators, chosen by
`Options.dice` (docs/architecture.md "Randomness"):

- "splitmix64" (`SeededDice`): fast, keyed by the integer `Options.seed`; simulations, the
  lab, tests and scenarios use it. Its whole state is `GameState.rng` (one 64-bit integer).
  Anybody who knows a few outcomes can search its seeds: never for a game with secrets.
- "blake2b" (`StrongDice`): a keyed BLAKE2b counter-mode generator, keyed by the 256-bit
  hex `Options.key` (at least 128 bits); every server game uses it. Its state is the key and
  the counter `GameState.rng`; without the key its outputs cannot be told from chance.

Either way the whole state lives in the game state, so cloning or serializing the state also
clones the dice, and options + action log always rebuild the same game. Both draw each die
by rejection (no modulo bias) and shuffle by Fisher-Yates through single dice.
Tests use `ScriptedDice`, which hands out exactly the faces a test lists.

`commitment(options)` is what a game publishes at its start: the SHA-256 of its seed under a
domain prefix. The seed is revealed when the game ends, and `judges.verify` checks it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from .errors import DiceScriptExhausted

if TYPE_CHECKING:
    from .state import GameState, Options

_T = TypeVar("_T")

_MASK = (1 << 64) - 1
SPLITMIX64 = "splitmix64"
BLAKE2B = "blake2b"
GENERATORS = (SPLITMIX64, BLAKE2B)
MIN_KEY_BYTES = 16  # 128 bits
MAX_KEY_BYTES = 64  # BLAKE2b's largest key
KEY_BYTES = 32  # what a server game draws: 256 bits
_PERSON = b"judges-dice-v1"  # BLAKE2b personalization: these outputs are dice, nothing else
COMMITMENT_PREFIX = b"judges-and-kings/dice-seed-commitment/v1\x00"


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: returns (next state, 64-bit output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def seed_to_state(seed: int) -> int:
    """Spreads any integer seed into a 64-bit generator state."""
    state, out = splitmix64(seed & _MASK)
    return out


class Dice(Protocol):
    def roll(self, sides: int = 6) -> int:
        """One die with `sides` faces: an integer in 1..sides."""

    def shuffle(self, items: list[_T]) -> None:
        """Shuffles `items` in place."""


class _DiceBase:
    def d6(self) -> int:
        return self.roll(6)

    def roll(self, sides: int = 6) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def shuffle(self, items: list[_T]) -> None:
        # Fisher-Yates driven by individual dice, so a shuffle is scriptable too.
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]


class RngHolder(Protocol):
    """What keeps the dice's state: normally the GameState, or a bot's own generator."""

    rng: int


# sides -> the rejection limit of a 64-bit word (below it: a fair face), for the dice and the
# shuffles of up to 1,023 faces (a deck holds at most 9 x 20 cards); larger ones are computed
_LIMITS: tuple[int, ...] = tuple(((_MASK + 1) // n) * n if n else 0 for n in range(1024))


class SeededDice(_DiceBase):
    """Dice whose state lives in `holder.rng` (normally the GameState)."""

    __slots__ = ("holder",)

    def __init__(self, holder: RngHolder) -> None:
        self.holder = holder

    def roll(self, sides: int = 6) -> int:
        if 0 < sides < 1024:
            limit = _LIMITS[sides]
        else:
            if sides < 1:
                raise ValueError("a die needs at least one face")
            limit = ((_MASK + 1) // sides) * sides  # rejection keeps every face equally likely
        x: int = self.holder.rng
        while True:  # splitmix64, written out (one call less per die: bots roll one per decision)
            x = (x + 0x9E3779B97F4A7C15) & _MASK
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        self.holder.rng = x
        return z % sides + 1


class StrongDice(_DiceBase):
    """Dice nobody can predict without the key: output word n is the 64-bit keyed BLAKE2b
    of n (counter mode). The counter lives in `holder.rng` (normally the GameState), the key
    in the game's options; a face is drawn from one word by rejection, like SeededDice."""

    __slots__ = ("holder", "_key")

    def __init__(self, holder: RngHolder, key: bytes) -> None:
        if not MIN_KEY_BYTES <= len(key) <= MAX_KEY_BYTES:
            raise ValueError(f"the dice key has {len(key)} bytes; it needs {MIN_KEY_BYTES} to {MAX_KEY_BYTES}")
        self.holder = holder
        self._key = key

    def __repr__(self) -> str:  # never shows the key
        return f"StrongDice(counter={self.holder.rng})"

    def word(self, counter: int) -> int:
        """The generator's 64-bit output number `counter`."""
        digest = hashlib.blake2b(counter.to_bytes(16, "little"), digest_size=8, key=self._key, person=_PERSON).digest()
        return int.from_bytes(digest, "little")

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one face")
        counter = self.holder.rng
        limit = ((_MASK + 1) // sides) * sides  # rejection keeps every face equally likely
        while True:
            out = self.word(counter)
            counter += 1
            if out < limit:
                break
        self.holder.rng = counter
        return out % sides + 1


def key_bytes(key: str | None) -> bytes:
    """The strong dice's key from its hex text in the options; ValueError when it is unusable."""
    if not key:
        raise ValueError("the blake2b dice need a key (Options.key, hex)")
    try:
        raw = bytes.fromhex(key)
    except ValueError:
        raise ValueError("the dice key must be hexadecimal") from None
    if not MIN_KEY_BYTES <= len(raw) <= MAX_KEY_BYTES:
        raise ValueError(f"the dice key has {len(raw) * 8} bits; it needs {MIN_KEY_BYTES * 8} to {MAX_KEY_BYTES * 8}")
    return raw


def initial_rng(options: Options) -> int:
    """`GameState.rng` at the setup: SplitMix64's state spread from the seed, or counter 0."""
    if getattr(options, "dice", SPLITMIX64) == BLAKE2B:
        return 0
    return seed_to_state(options.seed)


def dice_for(state: GameState) -> Dice:
    """The game's own dice, as its options choose them; their state is `state.rng`."""
    if getattr(state.options, "dice", SPLITMIX64) == BLAKE2B:
        return StrongDice(state, key_bytes(state.options.key))
    return SeededDice(state)


def seed_text(options: Options) -> str:
    """The seed that decides every die of a game, as text: the hex key of the blake2b dice,
    the decimal seed of SplitMix64. Secret until the game ends."""
    if getattr(options, "dice", SPLITMIX64) == BLAKE2B:
        return key_bytes(options.key).hex()
    return str(options.seed)


def commitment(options: Options) -> str:
    """SHA-256 (hex) of the domain prefix, the generator's name, a zero byte and the seed's
    text: published at the start, it binds the game to one seed without showing it."""
    generator = getattr(options, "dice", SPLITMIX64)
    text = f"{generator}\x00{seed_text(options)}".encode("ascii")
    return hashlib.sha256(COMMITMENT_PREFIX + text).hexdigest()


class ScriptedDice(_DiceBase):
    """Dice for tests and scenarios: hands out the listed faces in order.

    `shuffles`, when given, lists the permutations that successive shuffles apply
    (each a list of source indices); otherwise a shuffle keeps the order unchanged,
    so a test never has to script the dice of the deck shuffle.
    When the faces run out, `fallback` dice (if any) take over; otherwise
    DiceScriptExhausted is raised, which makes a test that rolls more than it
    expected fail loudly.
    """

    def __init__(
        self, faces: Sequence[int] = (), shuffles: Sequence[Sequence[int]] | None = None, fallback: Dice | None = None
    ) -> None:
        self.faces = list(faces)
        self.position = 0
        self.shuffles = [list(p) for p in shuffles] if shuffles is not None else None
        self.fallback = fallback
        self.rolled: list[tuple[int, int]] = []  # (sides, face) of every die handed out

    @property
    def remaining(self) -> list[int]:
        return self.faces[self.position :]

    def roll(self, sides: int = 6) -> int:
        if self.position >= len(self.faces):
            if self.fallback is not None:
                face = self.fallback.roll(sides)
                self.rolled.append((sides, face))
                return face
            raise DiceScriptExhausted(len(self.faces), sides)
        face = self.faces[self.position]
        if not 1 <= face <= sides:
            raise ValueError(f"scripted die #{self.position + 1} shows {face}, but this die has {sides} faces")
        self.position += 1
        self.rolled.append((sides, face))
        return face

    def shuffle(self, items: list[_T]) -> None:
        if self.shuffles is None:
            return
        if not self.shuffles:
            if self.fallback is not None:
                self.fallback.shuffle(items)
            return
        order = self.shuffles.pop(0)
        if sorted(order) != list(range(len(items))):
            raise ValueError(f"scripted shuffle {order} is not a permutation of {len(items)} items")
        items[:] = [items[i] for i in order]
