"""Adapters over the rules core: the PettingZoo AEC environment and the SB3 single-agent view."""

from .aec import IllegalAction, env, raw_env

__all__ = ["env", "raw_env", "IllegalAction"]
