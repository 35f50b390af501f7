"""Agents: given only their observation and the legal actions, they choose one.

The contract (as in PettingZoo's classic games): ``act(observation, legal) -> Action``,
where ``legal`` is never empty and the answer must be one of its elements.  Bots and their
parameters are listed in docs/AGENTS.md.
"""

from __future__ import annotations

from typing import Any

from interpreter.agents.defensive import DefensiveAgent
from interpreter.agents.efficiency import EfficiencyAgent
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.simple import SimpleAgent
from interpreter.agents.value import ValueAgent

AGENTS = {
    "random": RandomAgent,
    "simple": SimpleAgent,
    "efficiency": EfficiencyAgent,
    "value": ValueAgent,
    "defensive": DefensiveAgent,
}


def make_agent(name: str, seed: int = 0, **params: Any) -> Any:
    """An agent by name, with its own seeded randomness and keyword parameters.

    ``name`` may carry parameters after a colon: ``"defensive:defence=0.5"``,
    ``"value:value_threshold=1.5;claim_margin=1"`` (parameters apart by ``,`` or ``;``).
    """
    base, _, spec = name.partition(":")
    for item in filter(None, spec.replace(";", ",").split(",")):
        key, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"agent parameter {item!r}: expected name=value")
        params[key.strip()] = _parse(text.strip())
    try:
        cls = AGENTS[base]
    except KeyError:
        raise ValueError(f"no agent {base!r}; expected one of {', '.join(AGENTS)}") from None
    try:
        return cls(seed, **params)
    except TypeError as error:
        raise ValueError(f"agent {base!r}: {error}") from None


def _parse(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


__all__ = [
    "AGENTS", "DefensiveAgent", "EfficiencyAgent", "RandomAgent", "SimpleAgent", "ValueAgent",
    "make_agent",
]  # fmt: skip
