"""What is not a rule but versions the engine: the replay format.

Every number of the rules lives in `judges.engine.rules.Rules` (carried by each game's
options); nothing here is read when a rule runs.
"""

RULES_VERSION = 1  # bumped whenever a rule change would alter the replay of an old log
