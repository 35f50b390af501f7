"""A hand's state as plain records: the table (:class:`Table`), each player's tiles
(:class:`Player`), a claim round (:class:`Round`), the result.  The phase handlers
(``Phase``, one per phase name) are plain functions of a ``Table``; nothing here acts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from operator import mul
from random import Random
from typing import TYPE_CHECKING, Any, NamedTuple

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld
from handcore import shapes
from handcore.suit_tables import HONOUR, counts_of
from handcore.tiles import EVERY, STANDARD, Tile
from interpreter.engine.actions import Action
from interpreter.engine.facts import TableFacts
from interpreter.engine.wall import Wall
from interpreter.hand_record import Kong
from interpreter.settle import Settlement

if TYPE_CHECKING:
    from interpreter.choices import Choice
    from interpreter.engine.rules import Replacement, Rules

SUIT_LETTERS = tuple(s.letter for s in STANDARD.suits)
EMPTY: frozenset[str] = frozenset()
NAMES = tuple(EVERY.name(t) for t in range(EVERY.kinds))
tile_name = NAMES.__getitem__
"""A tile in notation (``5m``), looked up."""
TILES = {name: t for t, name in enumerate(NAMES)}
_ONE_OF = tuple((t,) for t in range(EVERY.kinds))
"""Each tile alone, to be repeated by its count (``Player.hand``)."""


class IllegalAction(ValueError):
    """An action that is not legal now; the game is unchanged."""


def fmt(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return EVERY.format(tiles) if tiles else ""


@lru_cache(maxsize=1 << 14)
def _suit_notation(suit: int, key: int) -> str:
    """The tiles of one suit's key in notation (``1135m``), kept: every hand's suits are
    written at the deal and at the end, and the same few suits come back often."""
    ranks = "".join(str(rank + 1) * n for rank, n in enumerate(counts_of(key)))
    return ranks + EVERY.blocks[suit].letter if ranks else ""


@dataclass
class Player:
    counts: list[int]
    keys: tuple[int, ...]
    melds: tuple[HandMeld, ...] = ()
    """Replaced, never changed in place: ``chances`` keeps its answer while this tuple is
    the same one."""
    discards: list[Tile] = field(default_factory=list)
    won: list[Tile] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    """Flowers drawn and set aside (补花), in the order drawn."""
    in_game: bool = True
    locked: bool = False
    void: int | None = None
    lock_tiles: set[Tile] = field(default_factory=set)
    lock_value: int = -1
    turns: int = 0
    _chances: tuple[tuple[int, ...], tuple[HandMeld, ...], int, bool] = ((), (), 0, True)

    def chances(self, keys: tuple[int, ...], rules: Rules) -> tuple[int, bool]:
        """``rules.chances`` for concealed ``keys`` and this player's melds, kept while both
        are unchanged (a hand is asked on every discard until it changes)."""
        cached, melds, waits, unshaped = self._chances
        if melds is not self.melds or cached != keys:
            melds = self.melds
            waits, unshaped = rules.chances(keys, melds)
            self._chances = (keys, melds, waits, unshaped)
        return waits, unshaped

    def may_win_on(self, tile: Tile, rules: Rules) -> bool:
        """Whether ``tile`` joining the concealed tiles may make a winning hand (``chances``;
        True: maybe)."""
        waits, unshaped = self.chances(self.keys, rules)
        return unshaped or waits >> tile & 1 == 1

    def add(self, tile: Tile, n: int = 1) -> None:
        self.counts[tile] += n
        self.keys = shapes.add_tile(self.keys, tile, n)

    def take(self, tiles: list[Tile]) -> None:
        """Add several tiles at once (the deal)."""
        counts = self.counts
        for tile in tiles:
            counts[tile] += 1
        self.keys = shapes.keys_of(counts)[: len(self.keys)]  # no empty honour key if none

    def hand(self) -> list[Tile]:
        return list(chain.from_iterable(map(mul, _ONE_OF, self.counts)))

    def notation(self) -> str:
        """The concealed tiles in notation, as ``fmt(self.hand())`` writes them."""
        return " ".join(_suit_notation(s, key) for s, key in enumerate(self.keys) if key % HONOUR)

    def clear_lock(self) -> None:
        self.lock_tiles.clear()
        self.lock_value = -1


After = Callable[["Table", int, tuple[Any, ...]], None]
"""What play does when nobody claims a round's tile: called with the table, the discarder
and the round's ``data``."""


@dataclass(slots=True)
class Round:
    """Others answering one tile: a discard, a robbable kong, a last tile, a kong tile; or,
    in a joint round, several at once (``tiles``: the 开杠 tiles, last tiles taken together)."""

    tile: Tile
    discarder: int
    context: frozenset[str]
    then: str
    """What the tile is: ``discard``, ``rob`` (a kong's tile), ``last`` (an exposed last
    tile), ``kong_tile``."""
    after: After
    options: dict[int, list[Action]]
    queue: list[int]
    values: dict[int, int]
    data: tuple[Any, ...] = ()
    choices: dict[int, Action] = field(default_factory=dict)
    tiles: tuple[Tile, ...] = ()
    """Every tile of a joint round (empty: the round is on ``tile`` alone)."""
    win_tiles: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    """In a joint round, the tiles each seat offered a win would win on."""
    kinds: tuple[str, ...] = ()
    """The claims the round was opened for (``reopen`` asks them again)."""

    def claimed(self, action: Action) -> Tile:
        """The tile a claim takes: the round's, or in a joint round the one the action names
        (a pung's or kong's tile, a chow's ``option``)."""
        if not self.tiles:
            return self.tile
        return TILES[action.option] if action.kind == "chow" else action.tile


@dataclass(slots=True)
class Choosing:
    """The choices made at one moment (before or after the deal): those still to come, the
    one being made, the seats it asks, each seat's options (by their text), and what play
    does once they are all made (``then``: the deal, or the dealer's first turn)."""

    queue: list[Choice]
    then: Callable[[Table], None]
    current: Choice | None = None
    asked: list[int] = field(default_factory=list)
    offered: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    reason: str
    """How the hand ended: ``win``, ``one_left``, ``wall`` (the wall ran out, 黄庄), ``escape``
    (a seat left)."""
    dealer: int
    next_dealer: int
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    settlements: tuple[Settlement, ...]
    next_dealers: frozenset[int] = frozenset()
    """Every seat dealing the next hand, ``next_dealer`` included (several: 通庄)."""


class Phase(NamedTuple):
    """A phase's handlers: the actions open to the seat to move, and carrying one out."""

    legal: Callable[[Table, int], list[Action]]
    act: Callable[[Table, int, Action], None]


@dataclass(slots=True, eq=False)
class Table:
    """Everything about one hand, as plain data: what the rules say (``rules``), the wall,
    the players' tiles, whose move it is in which phase, and what has happened (events,
    payments).  Every part of the engine reads and changes this record; only the phase
    handlers and the functions they call change it."""

    ruleset: Ruleset
    rules: Rules
    seed: int
    rng: Random
    dealer: int
    n: int
    wall: Wall
    players: list[Player]
    events: list[dict[str, Any]]
    facts: TableFacts
    """What the ruleset's table facts read, recorded as play goes (``facts``)."""
    dealers: frozenset[int] = frozenset()
    """Every seat dealing this hand: ``dealer``, and more under several-dealer rules (通庄)."""
    phase: str = "deal"
    current: int = 0
    """The seat to move, outside claim rounds (the claim round's queue says who answers)."""
    deltas: list[int] = field(default_factory=list)
    settlements: list[Settlement] = field(default_factory=list)
    win_events: list[tuple[tuple[int, ...], int | None]] = field(default_factory=list)
    """Each win: its winners and discarder (None: self-drawn)."""
    drawn: Tile | None = None
    draw_ctx: frozenset[str] = EMPTY
    kong_provider: int | None = None
    kong_self_draw: bool = True
    after_kong: bool = False
    claims_made: bool = False
    round: Round | None = None
    kong_tiles: list[Tile] = field(default_factory=list)
    """Tiles shown apart: a kong's replacement tiles, or last tiles taken together."""
    kong_method: Replacement | None = None
    indicator: Tile | None = None
    """The tile turned up after the deal to choose the wild tile (``tiles.wilds.indicator``)."""
    chosen_wilds: tuple[Tile, ...] | None = None
    """The wild tiles it chose (None: the ruleset's own, if any)."""
    last_drawn: list[Tile] = field(default_factory=list)
    offer_passes: int = 0
    birds_taken: list[Tile] = field(default_factory=list)
    kongs: list[Kong] = field(default_factory=list)
    """Kongs made whose money their maker still holds (payment rules may take it up later)."""
    reason: str = ""
    next_dealer: int = 0
    """Who deals the next hand, worked out when the hand ends."""
    next_dealers: frozenset[int] = frozenset()
    """Every seat dealing the next hand, ``next_dealer`` included (``dealer.also``)."""
    opening_held: frozenset[int] = frozenset()
    """The seats whose dealt tiles hold opening hands, declared or not."""
    opening_due: Settlement | None = None
    """Opening-hand payments kept for the end of the hand (``settle: at_end``)."""
    held: dict[int, Action] = field(default_factory=dict)
    """Choices made at once (the ruleset's ``choices``), unseen until every seat has chosen."""
    choosing: Choosing | None = None
    """The choices being made, in a choice's phase (None: none)."""
    chosen: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    """Each choice's value per seat (``choice.NAME(seat)``), once revealed."""
    declared: set[tuple[int, str]] = field(default_factory=set)
    """The (seat, declaration) pairs declared in this hand."""
    exchanged: dict[int, tuple[list[Tile], list[Tile]]] = field(default_factory=dict)
    """Each seat's (given, received) tiles once the exchange is done."""
    win_values: dict[tuple[Any, ...], int | None] = field(default_factory=dict)
    """Win values worked out in this hand, by everything they depend on."""
    in_game_seats: frozenset[int] = frozenset()
    orders: list[list[int]] = field(default_factory=list)
    """For each seat, the seats still in the hand after it, nearest first."""
    claimers: dict[str, list[list[int]]] = field(default_factory=dict)
    """For each claim kind and discarder, the seats its ``from`` lets claim a tile."""
    legal: tuple[int, list[Action]] | None = None
    """The legal actions of the seat to move, once worked out (until the next action)."""
    rivers_read: Any = None
    """The rivers as observations last read them from ``events`` (``observation.Rivers``)."""


def to_move(t: Table) -> int | None:
    """The seat whose decision it is, or None when the hand is over."""
    phase = t.phase
    if phase == "over":
        return None
    if phase == "claim":
        assert t.round is not None
        return t.round.queue[0]
    return t.current


def seating(t: Table) -> None:
    """Work out who is still in the hand and the seat orders after each seat (at the start,
    and when winners leave)."""
    players = t.players
    t.in_game_seats = frozenset(s for s, p in enumerate(players) if p.in_game)
    n = t.n
    t.orders = [
        [s for i in range(1, n) if players[s := (seat + i) % n].in_game] for seat in range(n)
    ]
    t.claimers = {
        kind: [order[:1] if source == "previous" else order for order in t.orders]
        for kind, (source, _) in t.rules.claims.items()
    }
