"""§ 3 Setup and every die after it: the two dice generators (engine/dice.py).

SplitMix64 (simulations, tests, scenarios, old games) must roll exactly as before; the keyed
BLAKE2b dice (server games) must be uniform, follow from their key alone, and live wholly in
the game state like SplitMix64.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from itertools import permutations

import msgspec
import pytest

from judges.bots import make_bot
from judges.engine import Game, Options
from judges.engine.dice import (
    BLAKE2B,
    SPLITMIX64,
    SeededDice,
    StrongDice,
    commitment,
    dice_for,
    seed_text,
    seed_to_state,
)
from judges.engine.errors import SetupError
from judges.engine.state import GameState, state_from_json, state_to_json
from judges.engine.view import DiceInfo
from judges.play import play_game

KEY = bytes(range(32))
KEY_HEX = KEY.hex()


class Holder:
    def __init__(self, rng: int) -> None:
        self.rng = rng


def strong(counter: int = 0, key: bytes = KEY) -> StrongDice:
    return StrongDice(Holder(counter), key)


def chi_square(counts: Counter, outcomes: list, total: int) -> float:
    expected = total / len(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


# --- SplitMix64 rolls exactly as before ---------------------------------------------------


def test_splitmix64_dice_and_setup_are_unchanged():
    dice = SeededDice(Holder(seed_to_state(12345)))
    assert [dice.roll(6) for _ in range(12)] == [6, 1, 1, 5, 4, 6, 5, 4, 4, 1, 4, 1]
    assert [dice.roll(100) for _ in range(4)] == [43, 83, 87, 36]
    game = Game.new(Options(players=4, seed=1))
    dealt = json.dumps([game.state.deck, [p.hand for p in game.state.players]]).encode()
    assert hashlib.sha256(dealt).hexdigest() == "244bf367c8545eb58406b4d1680a041e1701f3dc18602c23223a6e99b13aeb9f"
    assert game.state.options.dice == SPLITMIX64
    assert isinstance(game.dice, SeededDice)


def test_a_state_stored_before_the_dice_option_keeps_splitmix64():
    game = Game.new(Options(players=3, seed=9))
    old = json.loads(state_to_json(game.state))
    del old["options"]["dice"], old["options"]["key"]  # what a game stored before looks like
    restored = Game(state_from_json(json.dumps(old)))
    assert restored.state.options.dice == SPLITMIX64 and restored.state.options.key is None
    assert isinstance(restored.dice, SeededDice)
    assert [restored.dice.roll(6) for _ in range(20)] == [game.dice.roll(6) for _ in range(20)]
    assert msgspec.convert({"players": 4, "seed": 3}, Options).dice == SPLITMIX64
    # a server snapshot (JSON with string keys) of an old game, too
    assert msgspec.convert(old, GameState, str_keys=True).options.dice == SPLITMIX64


# --- the strong dice ------------------------------------------------------------------------


def test_strong_dice_follow_from_the_key_alone():
    word = hashlib.blake2b((0).to_bytes(16, "little"), digest_size=8, key=KEY, person=b"judges-dice-v1").digest()
    assert strong().word(0) == int.from_bytes(word, "little")
    a, b = strong(), strong()
    rolls = [a.roll(6) for _ in range(200)]
    assert rolls == [b.roll(6) for _ in range(200)]
    assert a.holder.rng == b.holder.rng >= 200  # the counter is the whole moving state
    assert rolls != [strong(key=bytes(32)).roll(6) for _ in range(200)]
    resumed = strong(counter=a.holder.rng)  # the same key at the same counter goes on alike
    assert [resumed.roll(20) for _ in range(50)] == [a.roll(20) for _ in range(50)]
    assert "counter" in repr(a) and KEY_HEX not in repr(a)


@pytest.mark.parametrize("sides", [2, 6, 7, 10])
def test_strong_dice_are_uniform(sides):
    dice = strong(counter=sides * 1_000_003)
    total = 12_000 * sides
    counts = Counter(dice.roll(sides) for _ in range(total))
    assert set(counts) == set(range(1, sides + 1))
    # chi-square with sides-1 degrees of freedom, below its 0.1% critical value
    critical = {2: 10.83, 6: 20.52, 7: 22.46, 10: 27.88}[sides]
    assert chi_square(counts, list(range(1, sides + 1)), total) < critical


def test_strong_dice_shuffle_every_order_alike():
    dice = strong(counter=77)
    orders = list(permutations("abc"))
    counts = Counter()
    for _ in range(12_000):
        items = list("abc")
        dice.shuffle(items)
        counts[tuple(items)] += 1
    assert chi_square(counts, orders, 12_000) < 20.52  # 5 degrees of freedom, 0.1%


def test_strong_dice_reject_instead_of_folding_the_top_of_the_range():
    # With 3 * 2**62 faces, words at or above 3 * 2**62 would fold onto the low faces: they are
    # skipped, so the counter moves past every rejected word.
    sides = 3 << 62
    dice = strong()
    rejected = sum(1 for n in range(400) if dice.word(n) >= sides)
    for _ in range(400 - rejected):
        dice.roll(sides)
    assert 0 < rejected and dice.holder.rng <= 400 + rejected


def test_a_game_with_strong_dice_clones_stores_and_replays_exactly():
    options = Options(players=4, dice=BLAKE2B, key=KEY_HEX, round_limit=2)
    game = Game.new(options)
    assert isinstance(game.dice, StrongDice)
    assert game.state.deck != Game.new(Options(players=4, seed=0)).state.deck
    copy, stored = game.clone(), Game(state_from_json(game.state_json()))
    ahead = [game.dice.roll(6) for _ in range(30)]
    assert [copy.dice.roll(6) for _ in range(30)] == ahead == [stored.dice.roll(6) for _ in range(30)]
    played = play_game(options, [make_bot("random", seat) for seat in range(4)])
    assert played.is_over
    replayed = Game.replay(options, played.log)
    assert state_to_json(replayed.state) == state_to_json(played.state)


def test_strong_dice_need_a_key_of_at_least_128_bits():
    with pytest.raises(SetupError, match="key"):
        Game.new(Options(players=3, dice=BLAKE2B))
    with pytest.raises(SetupError, match="bits"):
        Game.new(Options(players=3, dice=BLAKE2B, key="ab" * 15))
    with pytest.raises(SetupError, match="hexadecimal"):
        Game.new(Options(players=3, dice=BLAKE2B, key="zz" * 16))
    with pytest.raises(SetupError, match="unknown dice"):
        Game.new(Options(players=3, dice="dice-bag"))
    Game.new(Options(players=3, dice=BLAKE2B, key="ab" * 16))  # 128 bits are enough


def test_the_commitment_binds_the_seed_and_the_generator():
    strong_options = Options(players=3, dice=BLAKE2B, key=KEY_HEX)
    prefix = b"judges-and-kings/dice-seed-commitment/v1\x00"
    assert commitment(strong_options) == hashlib.sha256(prefix + b"blake2b\x00" + KEY_HEX.encode()).hexdigest()
    assert seed_text(strong_options) == KEY_HEX
    assert seed_text(Options(seed=7)) == "7"
    values = {
        commitment(strong_options),
        commitment(Options(dice=BLAKE2B, key=KEY_HEX.upper())),
        commitment(Options(dice=BLAKE2B, key="ff" + KEY_HEX[2:])),
        commitment(Options(seed=7)),
        commitment(Options(seed=8)),
    }
    assert len(values) == 4  # the key's text is normalized: upper case is the same key


def test_the_view_shows_the_commitment_and_the_seed_only_at_the_end():
    game = Game.new(Options(players=3, dice=BLAKE2B, key=KEY_HEX, round_limit=1))
    view = game.view(0)
    assert view.dice == DiceInfo(generator=BLAKE2B, commitment=commitment(game.state.options), seed=None)
    assert view.state.options.key is None and view.state.options.seed == 0
    assert view.state.rng == 0
    assert KEY_HEX not in msgspec.json.encode(view).decode()
    assert isinstance(dice_for(game.state), StrongDice)
    game = play_game(game.state.options, [make_bot("random", seat) for seat in range(3)])
    assert game.is_over
    assert game.view(1).dice.seed == KEY_HEX
