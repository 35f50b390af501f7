"""The pieces of a hand's state: each player's tiles, a claim round, the result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dsl.situation import HandMeld
from interpreter import shapes
from interpreter.engine.actions import Action
from interpreter.settle import Settlement
from interpreter.suit_tables import MAX_MELDS
from interpreter.tiles import STANDARD, Tile

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)
EMPTY: frozenset[str] = frozenset()
NAMES = tuple(STANDARD.name(t) for t in range(STANDARD.kinds))
tile_name = NAMES.__getitem__
"""A tile in notation (``5m``), looked up."""


class IllegalAction(ValueError):
    """An action that is not legal now; the game is unchanged."""


def fmt(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return STANDARD.format(tiles) if tiles else ""


@dataclass
class Player:
    counts: list[int]
    keys: tuple[int, ...]
    melds: list[HandMeld] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    won: list[Tile] = field(default_factory=list)
    in_game: bool = True
    locked: bool = False
    void: int | None = None
    lock_all: bool = False
    lock_tiles: set[Tile] = field(default_factory=set)
    lock_value: int = -1
    turns: int = 0
    mask: int = 0
    """Bit t set when tile t is among the concealed tiles."""
    size: int = 0
    """How many concealed tiles."""
    _hopeless: tuple[tuple[int, ...], int, bool] = ((), -1, False)

    def cannot_complete(self) -> bool:
        """True when no one tile added makes the concealed tiles complete (melds and a pair,
        or seven pairs): a cheap answer from the tables, kept while the hand is unchanged."""
        keys, melds, answer = self._hopeless
        if keys != self.keys or melds != len(self.melds):
            answer = _hopeless(self.keys, len(self.melds))
            self._hopeless = (self.keys, len(self.melds), answer)
        return answer

    def add(self, tile: Tile, n: int = 1) -> None:
        counts = self.counts
        counts[tile] += n
        self.size += n
        if counts[tile]:
            self.mask |= 1 << tile
        else:
            self.mask &= ~(1 << tile)
        self.keys = shapes.add_tile(self.keys, tile, n)

    def hand(self) -> list[Tile]:
        return [t for t, n in enumerate(self.counts) for _ in range(n)]

    def clear_lock(self) -> None:
        self.lock_all = False
        self.lock_tiles.clear()
        self.lock_value = -1


def _hopeless(keys: tuple[int, ...], melds: int) -> bool:
    size, pairs, _, _ = shapes._tally(keys)
    if size % 3 != 1 or size > 3 * MAX_MELDS + 1:
        return False  # not a hand waiting for one tile: no quick answer
    needed = (size - 1) // 3
    if shapes._hand_distances(keys)[2 * needed + 1] <= 1:
        return False  # one tile may complete the standard form
    return melds > 0 or size != 13 or pairs < 6  # no seven pairs either


@dataclass
class Round:
    """Others answering one tile: a discard, a robbable kong, a last tile, a kong tile."""

    tile: Tile
    discarder: int
    context: frozenset[str]
    then: str
    options: dict[int, list[Action]]
    queue: list[int]
    values: dict[int, int]
    data: tuple[Any, ...] = ()
    choices: dict[int, Action] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    reason: str
    """How the hand ended: ``win``, ``one_left``, ``wall`` (the wall ran out, 黄庄)."""
    dealer: int
    next_dealer: int
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    settlements: tuple[Settlement, ...]
