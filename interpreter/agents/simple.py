"""Win when possible; otherwise pass on claims, take the last tile, and discard by a fixed order.

The order: the discard that leaves the hand fewest tiles from ready (shanten), ties
broken towards the tile of highest index.  No kongs, no claims but wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from handcore import shapes
from interpreter.agents import reading
from interpreter.engine.actions import Action


class SimpleAgent:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        for kind in ("win", "take"):
            if kind in kinds:
                return kinds[kind]
        if observation.get("choice") is not None:
            return reading.choose(observation, legal)
        discards = [a for a in legal if a.kind == "discard"]
        if not discards:
            return kinds.get("pass", legal[0])
        tileset = reading.tileset_of(observation)
        keys = shapes.keys_of(tileset.counts(observation["hand"]), tileset)
        melds = len(observation["melds"][observation["seat"]])
        form = None if melds else "quads"
        best = min(
            discards,
            key=lambda a: (shapes.shanten(shapes.add_tile(keys, a.tile, -1), melds, form), -a.tile),
        )
        return best
