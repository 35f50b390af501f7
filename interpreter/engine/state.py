"""The pieces of a hand's state: each player's tiles, a claim round, the result."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dsl.situation import HandMeld
from interpreter import shapes
from interpreter.engine.actions import Action
from interpreter.settle import Settlement
from interpreter.suit_tables import counts_of
from interpreter.tiles import RANKS, STANDARD, Tile

if TYPE_CHECKING:
    from interpreter.engine.rules import Rules

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)
EMPTY: frozenset[str] = frozenset()
NAMES = tuple(STANDARD.name(t) for t in range(STANDARD.kinds))
tile_name = NAMES.__getitem__
"""A tile in notation (``5m``), looked up."""
TILES = {name: t for t, name in enumerate(NAMES)}


class IllegalAction(ValueError):
    """An action that is not legal now; the game is unchanged."""


def fmt(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return STANDARD.format(tiles) if tiles else ""


@lru_cache(maxsize=1 << 14)
def _suit_notation(suit: int, key: int) -> str:
    """The tiles of one suit's key in notation (``1135m``), kept: every hand's suits are
    written at the deal and at the end, and the same few suits come back often."""
    return fmt([suit * RANKS + rank for rank, n in enumerate(counts_of(key)) for _ in range(n)])


@dataclass
class Player:
    counts: list[int]
    keys: tuple[int, ...]
    melds: tuple[HandMeld, ...] = ()
    """Replaced, never changed in place: ``may_win_with_one_more`` keeps its answer while
    this tuple is the same one."""
    discards: list[Tile] = field(default_factory=list)
    won: list[Tile] = field(default_factory=list)
    in_game: bool = True
    locked: bool = False
    void: int | None = None
    lock_all: bool = False
    lock_tiles: set[Tile] = field(default_factory=set)
    lock_value: int = -1
    turns: int = 0
    _hope: tuple[tuple[int, ...], tuple[HandMeld, ...], bool] = ((), (), True)

    def may_win_with_one_more(self, keys: tuple[int, ...], rules: Rules) -> bool:
        """``rules.may_win_with_one_more`` for concealed ``keys`` and this player's melds,
        kept while both are unchanged (a hand is asked on every discard until it changes)."""
        cached, melds, answer = self._hope
        if melds is not self.melds or cached != keys:
            melds = self.melds
            answer = rules.may_win_with_one_more(keys, melds)
            self._hope = (keys, melds, answer)
        return answer

    def add(self, tile: Tile, n: int = 1) -> None:
        self.counts[tile] += n
        self.keys = shapes.add_tile(self.keys, tile, n)

    def take(self, tiles: list[Tile]) -> None:
        """Add several tiles at once (the deal)."""
        counts = self.counts
        for tile in tiles:
            counts[tile] += 1
        self.keys = shapes.keys_of(counts)

    def hand(self) -> list[Tile]:
        return [t for t, n in enumerate(self.counts) for _ in range(n)]

    def notation(self) -> str:
        """The concealed tiles in notation, as ``fmt(self.hand())`` writes them."""
        return " ".join(_suit_notation(s, key) for s, key in enumerate(self.keys) if key)

    def clear_lock(self) -> None:
        self.lock_all = False
        self.lock_tiles.clear()
        self.lock_value = -1


@dataclass
class Round:
    """Others answering one tile: a discard, a robbable kong, a last tile, a kong tile; or,
    in a joint round, several at once (``tiles``: the 开杠 tiles, 海底 tiles taken together)."""

    tile: Tile
    discarder: int
    context: frozenset[str]
    then: str
    options: dict[int, list[Action]]
    queue: list[int]
    values: dict[int, int]
    data: tuple[Any, ...] = ()
    choices: dict[int, Action] = field(default_factory=dict)
    tiles: tuple[Tile, ...] = ()
    """Every tile of a joint round (empty: the round is on ``tile`` alone)."""
    win_tiles: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    """In a joint round, the tiles each seat offered a win would win on."""

    def claimed(self, action: Action) -> Tile:
        """The tile a claim takes: the round's, or in a joint round the one the action names
        (a pung's or kong's tile, a chow's ``option``)."""
        if not self.tiles:
            return self.tile
        return TILES[action.option] if action.kind == "chow" else action.tile


@dataclass(frozen=True)
class GameResult:
    reason: str
    """How the hand ended: ``win``, ``one_left``, ``wall`` (the wall ran out, 黄庄)."""
    dealer: int
    next_dealer: int
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    settlements: tuple[Settlement, ...]
    next_dealers: frozenset[int] = frozenset()
    """Every seat dealing the next hand, ``next_dealer`` included (several: 通庄)."""
