"""Flowers (花牌): a flower a player receives is set aside, shown, and replaced by a tile
from the tail of the wall (补花), again while the replacement is a flower.  The engine's
mechanic for every tile set with flowers; what flowers are worth is the ruleset's."""

from __future__ import annotations

from handcore.tiles import Tile
from interpreter.engine import events
from interpreter.engine.state import Table


def set_aside(t: Table, seat: int, tile: Tile) -> Tile | None:
    """The tile ``seat`` holds instead of ``tile`` (``tile`` itself unless it is a flower);
    None when a flower finds the wall empty."""
    flower_from = t.rules.flower_from
    w = t.wall
    while tile >= flower_from:
        t.players[seat].flowers.append(tile)
        replacement = w.draw_tail() if w.drawable else None
        t.events.append(events.flower(seat, tile, replacement))
        if replacement is None:
            return None
        tile = replacement
    return tile


def replaced(t: Table, seat: int, tiles: list[Tile]) -> list[Tile]:
    """``tiles`` with each flower set aside and replaced (those the wall cannot replace
    dropped)."""
    if all(tile < t.rules.flower_from for tile in tiles):
        return tiles
    kept = (set_aside(t, seat, tile) for tile in tiles)
    return [tile for tile in kept if tile is not None]
