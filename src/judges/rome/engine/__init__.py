"""The Republic of Rome rules engine (Early Republic): pure and deterministic.

`RomeGame` (game.py) is the entry point: `RomeGame.new(RomeOptions(players=5, seed=1))`, then
`pending`, `legal_actions(seat)` and `apply(action)`; docs/architecture.md maps the modules.
"""
