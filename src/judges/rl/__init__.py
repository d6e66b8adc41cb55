"""Reinforcement learning: a PettingZoo AEC environment over the engine (`pip install judges[rl]`)."""

from .env import JudgesAECEnv, env, raw_env

__all__ = ["JudgesAECEnv", "env", "raw_env"]
