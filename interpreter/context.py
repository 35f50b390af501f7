"""The situation a ruleset's expressions are evaluated in, built one way for every caller.

Settlement, the engine, the bots, advice and the checker all ask expressions about a hand
or about the table.  :func:`build_situation` builds what they ask from plain facts: the hand's
tiles (or its per-suit keys; none for a question about the table), how it was won as
context words (``kong_draw``, ``last_tile`` ...), seats and options.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from dsl.situation import Situation
from handcore import shapes
from handcore.tiles import STANDARD, Tile, TileSet
from interpreter.hand_record import CONTEXTS


@cache
def _no_hand(tileset: TileSet) -> tuple[int, ...]:
    return shapes.keys_of([0] * tileset.kinds, tileset)


def build_situation(
    *,
    tiles: Sequence[Tile] | None = None,
    keys: tuple[int, ...] | None = None,
    context: Iterable[str] = (),
    **facts: Any,
) -> Situation:
    """The situation of a hand holding ``tiles`` (or ``keys``; neither: a question about
    the table), won as ``context`` says, with the other ``facts`` (seats, options, the
    ``tileset`` ...)."""
    if keys is None:
        tileset = facts.get("tileset", STANDARD)
        keys = (
            _no_hand(tileset) if tiles is None else shapes.keys_of(tileset.counts(tiles), tileset)
        )
    if context:
        facts.update((word, True) for word in context if word in CONTEXTS)
    return Situation.of(keys, facts)
