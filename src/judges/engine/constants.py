"""Every number of the rules in one place.

[D] numbers are the project's design (rules brief), tunable without touching logic.
[M] numbers come from the owner's manual and are binding; they live here too so that
nothing in the engine is a magic number.
"""

RULES_VERSION = 1  # bumped whenever a rule change would alter the replay of an old log

# --- Players and setup ---------------------------------------------------------------
MIN_PLAYERS = 2  # [D] 2 only for quick games
MAX_PLAYERS = 6  # [D]
START_COINS = 0  # [D] treasury at setup
START_CARDS = 1  # [D] intrigue cards dealt at setup
START_VILLAGES = 2  # [D] home villages each player starts with
START_GARRISON = 2  # [D] troops in each starting village
START_GENERALS = 2  # [D] generals placed on the first starting village
CANAANITE_GARRISON = 3  # [D] troops of a Canaanite-held village
CANAANITE_CITY_GARRISON = 4  # [D] troops of a Canaanite-held city (which also has walls)
CANAANITE_CITY_WALLS = True  # [D] a Canaanite-held city starts with walls
DEFAULT_WAVE_PAIRS = 1  # [M] invader pairs per wave on the default difficulty (2 = hard)
MAX_WAVE_PAIRS = 2  # [M]
SIMULATION_ROUND_LIMIT = 60  # [D] round cap used by simulations (no cap by default)

# --- Pieces ----------------------------------------------------------------------------
MAX_GENERALS = 6  # [D] generals per player
VILLAGE_MAX_DEVELOPMENTS = 1  # [D]
CITY_MAX_DEVELOPMENTS = 3  # [D]
MAX_WALLS = 1  # [D] walls per settlement
PROPHET_TOKENS = 2  # [D] prophets in the supply
ANOINTED_TOKENS = 1  # [D]
HAND_LIMIT = 5  # [D] intrigue cards in hand

# --- Intrigue deck [D]: card -> copies (30 cards) ----------------------------------------
DECK = {
    "tax": 5,
    "plague": 3,
    "abundance": 4,
    "famine": 4,
    "sandstorm": 2,
    "assassin": 4,
    "revolt": 4,
    "prophet": 2,
    "anointing": 2,
}

# --- Income [M] ------------------------------------------------------------------------
VILLAGE_INCOME = 1  # [M]
CITY_INCOME = 2  # [M]
DEVELOPMENT_INCOME = 2  # [M] per development
ABUNDANCE_BONUS = 1  # [M]
FAMINE_PENALTY = 1  # [M]
DOWRY = 6  # [M] coins everyone receives in round 1
DOWRY_ROUND = 1  # [M]
TAX_MULTIPLIER = 2  # [M] the tax collector gets double the value of each settlement
MIN_SETTLEMENT_VALUE = 0  # [D] income value never goes below this

# --- Wrath of God ---------------------------------------------------------------------
WRATH_THRESHOLD = 13  # [M] the meter reaching this declares a judgment
WRATH_CANAANITE_PRESENCE = 1  # [M] per round while Canaanites hold a settlement of Israel or Judah
WRATH_MERCENARY = 1  # [D] per mercenary hired
WRATH_ASSASSINATION = 2  # [D] per general killed by an assassin
WRATH_ASSASSIN_EXPOSED = 1  # [D] per exposed attempt
WRATH_PLUNDER = 1  # [D] per plundered settlement
WRATH_PROPHET_KILLED = 3  # [D] per general carrying a prophet who dies
WRATH_TAX = 1  # [D] per tax card played

# --- Events ------------------------------------------------------------------------------
# [M] d6 face -> terrain when an event card lands
EVENT_TERRAIN_BY_DIE = {1: "plain", 2: "plain", 3: "mountains", 4: "mountains", 5: "desert", 6: "desert"}
SANDSTORM_TERRAIN = "desert"  # [M]
PLAGUE_TROOP_LOSS_MAX_DIE = 3  # [D] a garrison or army loses half its troops on a d6 of 1..this
PLAGUE_GENERAL_DEATH_MAX_DIE = 1  # [D] a general dies on a d6 of 1..this

# --- Victory ----------------------------------------------------------------------------
POINTS_TO_WIN = 3  # [M]
POINTS_PER_JUDGE = 1  # [M]
POINTS_KING = 1  # [M]
POINTS_TABERNACLE = 1  # [M]
SETTLEMENTS_TO_SUSTAIN_JUDGE = 4  # [M] standing settlements a region needs to keep its judge
MIN_SUSTAINING_REGIONS = 3  # [M] fewer regions able to sustain a judge: collapse of the regions

# --- Phase 2 Intrigue [D] ---------------------------------------------------------------
FREE_DRAW = 1  # cards every living player draws at the start of Intrigue
CARDS_PER_TURN = 2  # cards a player may play in one Intrigue turn
TAXES_PER_REGION = 1  # Tax cards per region per round
ASSASSIN_KILL_MIN_DIE = 5  # d6 at least this: the target dies
ASSASSIN_EXPOSED_MAX_DIE = 2  # d6 at most this: the assassin is exposed
ASSASSIN_EXPOSED_FINE = 3  # coins the exposed assassin pays the target's owner
REVOLT_TROOPS_PLACED = 1  # troops of the rebel's colour left in a successful revolt

# --- Phase 4 Acquisitions [D]: item -> cost in coins ---------------------------------------
COSTS = {
    "troop": 1,
    "mercenary": 2,
    "development": 4,
    "wall": 10,
    "general": 6,
    "card": 3,
}

# --- Phase 5 Movement [D] ----------------------------------------------------------------
MOVEMENT_POINTS = 3  # per general per Movement phase
TERRAIN_MOVE_COST = {"plain": 1, "desert": 1, "mountains": 2}

# --- Phase 6 Combat [D] --------------------------------------------------------------------
ATTACKER_HIT_MIN = 5  # attackers hit on 5-6
DEFENDER_HIT_MIN = 5  # defenders hit on 5-6
WALLS_HIT_MIN = 4  # defenders behind walls hit on 4-6
KING_EXTRA_DICE = 1  # the King's general rolls this many extra dice
INVADER_DICE = 4  # an invader pair rolls 4 dice
INVADER_HIT_MIN = 4  # hitting on 4-6
INVADER_PAIR_STRENGTH = 2  # hits that destroy a pair (two invaders) [rules reference]
CANAANITE_HIT_MIN = 5  # a Canaanite garrison hits like any defender (4-6 behind walls)
PLUNDER_MULTIPLIER = 3  # plunder gains 3 x the settlement's income value
MAX_BATTLE_ROUNDS = 100  # a safety bound; every round of dice removes something on average
