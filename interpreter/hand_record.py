"""What happened in one hand, as settlement reads it: the hand record.

The engine builds one when a hand is won, a kong made or the wall runs out; bots build one
to price a win or a kong; the checker builds them to try a ruleset's payments; a scenario
file (``interpreter.scenario``) is read into one.  Settlement takes only this record, so
it never depends on where the hand came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dsl.problems import Location
from dsl.situation import NOBODY, HandMeld
from handcore.tiles import EVERY, Tile, TileSet

CONTEXTS = ("kong_draw", "kong_discard", "robbing_kong", "last_tile", "first_turn", "opening")
"""How a hand can be won besides self-draw or discard: the flags of ``Win.context``."""
KONG_KINDS = ("direct", "added", "concealed")


@dataclass(frozen=True)
class Win:
    seat: int
    concealed: tuple[Tile, ...]
    """Concealed tiles without the winning tile(s)."""
    melds: tuple[HandMeld, ...]
    win_tiles: tuple[Tile, ...]
    discarder: int | None
    context: frozenset[str]
    location: Location
    """Where the win comes from, for messages (a place in a scenario file, or a label)."""

    @property
    def self_draw(self) -> bool:
        return self.discarder is None


@dataclass(frozen=True)
class Unfinished:
    """A player still in the game when the wall ran out (or a seat left): their concealed
    tiles and melds."""

    seat: int
    concealed: tuple[Tile, ...]
    melds: tuple[HandMeld, ...]
    location: Location


@dataclass(frozen=True)
class Dealt:
    """A seat's tiles as dealt (13, or the dealer's 14), stated to hold opening hands (起手胡)."""

    seat: int
    tiles: tuple[Tile, ...]
    location: Location


@dataclass(frozen=True)
class Kong:
    seat: int
    kind: str
    """One of ``KONG_KINDS``."""
    provider: int | None
    in_game: frozenset[int] | None = None
    """Seats still in when the kong was made, who paid its money (None: the record's)."""
    from_draw: bool = False
    """An added or concealed kong made with the tile just drawn (摸杠)."""


@dataclass(frozen=True)
class HandRecord:
    players: int
    dealer: int
    in_game: frozenset[int]
    """Seats still playing when the wins happen (all, unless some already won and left)."""
    wins: tuple[Win, ...] = ()
    birds: tuple[Tile, ...] = ()
    bird_dice: tuple[int, ...] = ()
    kongs: tuple[Kong, ...] = ()
    unfinished: tuple[Unfinished, ...] = ()
    """Players still in when the wall ran out (or ``leaver`` left), for the payments then."""
    dealers: frozenset[int] = frozenset()
    """Every seat dealing this hand: the dealer, and more under rules with several dealers."""
    paid_kongs: tuple[Kong, ...] = ()
    """Kongs whose money was paid earlier (in play, when each was made): not paid again, but
    a payment rule ``over: kong`` may take their money up (move it to a winner, return it)."""
    kong_provider: int = NOBODY
    """Whose discard made the kong whose replacement (or the discard after it) is won on."""
    last_tile_taker: int = NOBODY
    last_tile_offered: int = NOBODY
    visible: tuple[Tile, ...] = ()
    """The tiles face up on the table when the hand is won, the winning tile left out."""
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """Each choice's value per seat (``choice.NAME(seat)``); a choice left out has its default."""
    false_wins: tuple[int, ...] = ()
    """Seats that claimed a win their hand does not make (诈胡), for the rules at false_win."""
    leaver: int = NOBODY
    """The seat that left the hand before its end (逃跑), for the rules at escape."""
    wall_left: int = 0
    """The tiles left to draw when ``leaver`` left."""
    wilds: tuple[Tile, ...] | None = None
    """The wild tiles chosen at the deal (``tiles.wilds.indicator``); None: the ruleset's."""
    opening: tuple[Dealt, ...] = ()
    """The dealt hands holding opening hands (起手胡), paid on the deal before anything else."""
    opening_birds: tuple[Tile, ...] = ()
    opening_bird_dice: tuple[int, ...] = ()
    """The birds of the opening hands: tiles (``opening_hands.birds: wall``) or dice."""

    def __post_init__(self) -> None:
        if not self.dealers:
            object.__setattr__(self, "dealers", frozenset({self.dealer}))


def meld_text(meld: HandMeld, tileset: TileSet = EVERY) -> str:
    """A meld as scenario files and settlement output write it: ``pung 999s``,
    ``concealed kong 1111m`` (``dsl.situation.read_meld`` reads it back)."""
    hidden = "concealed " if meld.kind == "kong" and meld.concealed else ""
    return f"{hidden}{meld.kind} {tileset.format(meld.tiles)}"
