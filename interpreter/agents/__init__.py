"""Agents: given only their observation and the legal actions, they choose one.

The contract (as in PettingZoo's classic games): ``act(observation, legal) -> Action``,
where ``legal`` is never empty and the answer must be one of its elements.
"""

from __future__ import annotations

from typing import Any

from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.simple import SimpleAgent

AGENTS = {"random": RandomAgent, "simple": SimpleAgent}


def make_agent(name: str, seed: int = 0) -> Any:
    """An agent by name (``random``, ``simple``), with its own seeded randomness."""
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"no agent {name!r}; expected one of {', '.join(AGENTS)}") from None


__all__ = ["AGENTS", "RandomAgent", "SimpleAgent", "make_agent"]
