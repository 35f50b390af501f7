"""An agent that picks uniformly among the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from interpreter.engine.actions import Action


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = Random(seed)

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)
