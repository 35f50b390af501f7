"""The situation an expression is evaluated in: a win being scored, or one payment of it.

A :class:`Situation` holds the winner's hand (concealed tiles as per-suit keys, including
the winning tile, plus the declared melds), how the hand was won, the seats involved,
the option values of the game, and — once the hand types are known — which were found
and the bird hits.  Facts derived from the hand (every tile, the decompositions, the
four-of-a-kinds) are computed on first use and kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from functools import cache, cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from handcore.tiles import RANKS, STANDARD, Tile, TileError, TileSet

if TYPE_CHECKING:  # the hand tables load only when a hand is looked at
    from handcore.shapes import Keys

MELD_KINDS = ("chow", "pung", "kong")
NOBODY = -1
"""The seat value ``nobody``: no seat holds the role (nobody took the last tile, a bird
points at no one).  It is no seat: seat arithmetic on it is an error."""
POT = -2
"""The payee ``pot``: money paid into it leaves the players (a penalty no one receives)."""
WAIT_SHAPES = ("single", "closed", "edge", "two_pairs", "open")
"""How a winning tile completes a hand read as melds and a pair: the pair (单钓), the middle
of a run (卡张), the 3 of 12 or the 7 of 89 (边张), a pung from one of two pairs (对倒), either
end of a two-sided run (两面)."""


class HandMeld(NamedTuple):
    """A meld of a winning hand: ``kind`` chow/pung/kong, ``tile`` its lowest tile.

    ``concealed`` is true for melds formed in the hand and for declared concealed kongs
    (暗杠), false for melds made from another player's discard (明).
    """

    kind: str
    tile: Tile
    concealed: bool

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)


class Split(NamedTuple):
    """One way to read a complete hand: its pair and all four melds (declared ones included)."""

    pair: Tile
    melds: tuple[HandMeld, ...]


_BLOCK_READINGS: dict[tuple[int, int], tuple[tuple[Tile, tuple[HandMeld, ...]], ...]] = {}
""":func:`block_readings`' answers (as many as the hand core's ``suit_parts``)."""


def block_readings(block: int, key: int) -> tuple[tuple[Tile, tuple[HandMeld, ...]], ...]:
    """The ways block ``block``'s complete ``key`` reads as concealed melds and maybe the
    pair: (the pair's tile or -1, the melds).  A wild-free hand's readings (``splits``) are
    every combination of one reading of each block."""
    found = _BLOCK_READINGS.get((block, key))
    if found is None:
        found = _BLOCK_READINGS[(block, key)] = tuple(
            (pair, tuple(HandMeld(m.kind, m.tile, True) for m in melds))
            for pair, melds in hand_core().suit_parts(block, key)
        )
    return found


@dataclass(frozen=True)
class Situation:
    """A win being scored (or a claim, a kong payment...).  Seats are 0..players-1 in turn order.

    Fields a section does not use keep their defaults.  ``hands`` maps each hand type
    found to its value, ``hand_classes`` each hand type to its class (when the scope was
    not told), ``value`` is the combined value of the hands found, ``tile`` the tile under
    consideration (a bird tile, a claimed discard), ``kong_seat`` and ``provider`` the
    player making a kong and the one whose discard it took.  The table facts read by
    payments and ``dealer.next`` (``kong_provider``, ``last_tile_taker``,
    ``last_tile_offered``) are ``NOBODY`` when no seat holds the role; ``visible`` counts
    the copies of each tile face up on the table, the winning tile left out.
    ``missed_tiles`` and ``missed_value`` are the wins a player passed while its lock lasts
    (过水), ``stacks`` the stacks left in the wall when a kong's replacement is counted by dice.
    """

    keys: Keys
    melds: tuple[HandMeld, ...] = ()
    win_tile: Tile | None = None
    winning_tiles: int = 1
    self_draw: bool = False
    kong_draw: bool = False
    kong_discard: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    opening: bool = False
    winner: int = 0
    discarder: int | None = None
    dealer: int = 0
    dealers: frozenset[int] | None = None
    payer: int | None = None
    payee: int | None = None
    claimer: int | None = None
    kong_seat: int | None = None
    provider: int | None = None
    players: int = 4
    players_in_game: frozenset[int] | None = None
    winners: frozenset[int] | None = None
    options: Mapping[str, int | bool | str] = field(default_factory=dict)
    hands: Mapping[str, int] = field(default_factory=dict)
    hand_classes: Mapping[str, str] = field(default_factory=dict)
    value: int = 0
    bird_hits: Mapping[int, int] = field(default_factory=dict)
    tile: Tile | None = None
    bird_tiles: tuple[Tile, ...] = ()
    first_dealer: int | None = None
    dice: int = 0
    kong_provider: int = NOBODY
    last_tile_taker: int = NOBODY
    last_tile_offered: int = NOBODY
    ready: frozenset[int] = frozenset()
    opening_winners: frozenset[int] = frozenset()
    """The seats that declared opening hands (for ``dealer.next``), or in a choice after the
    deal the seats holding one, declared or not yet."""
    opening_bird_seats: frozenset[int] = frozenset()
    kong_from_draw: bool = False
    visible: Mapping[Tile, int] = field(default_factory=dict)
    tileset: TileSet = STANDARD
    seat: int | None = None
    """The seat making a choice or a declaration."""
    choices: Mapping[str, tuple] = field(default_factory=dict)
    """Each choice's value for every seat, by choice name (read as ``choice.NAME(seat)``)."""
    missed_tiles: frozenset[Tile] = frozenset()
    missed_value: int = 0
    stacks: int = 0
    settling: Mapping[str, Any] | None = None
    """What settlement knows beyond the hand, by name: ``kong_kind``, a payment's ``amount``
    before an adjustment, the ``earlier`` payment (payer, payee, amount) a rule ``over``
    takes up, the ``table`` of hands still in (ready, suits, what each could win)."""

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 8:
            raise ValueError(f"players must be 1 to 8, not {self.players}")
        for role in (
            "winner",
            "discarder",
            "dealer",
            "payer",
            "payee",
            "claimer",
            "kong_seat",
            "provider",
            "seat",
        ):
            seat = getattr(self, role)
            if seat is not None and not 0 <= seat < self.players:
                raise ValueError(f"{role} {seat} is not a seat 0..{self.players - 1}")
        for role in ("kong_provider", "last_tile_taker", "last_tile_offered"):
            seat = getattr(self, role)
            if seat != NOBODY and not 0 <= seat < self.players:
                raise ValueError(f"{role} {seat} is not a seat 0..{self.players - 1} or nobody")
        if self.first_dealer is None:
            object.__setattr__(self, "first_dealer", self.dealer)
        if self.players_in_game is None:
            object.__setattr__(self, "players_in_game", frozenset(range(self.players)))
        if self.winners is None:
            object.__setattr__(self, "winners", frozenset({self.winner}))
        if self.dealers is None:
            object.__setattr__(self, "dealers", frozenset({self.dealer}))
        if any(not 0 <= seat < self.players for seat in self.dealers):
            raise ValueError(
                f"dealers {sorted(self.dealers)} are not all seats 0..{self.players - 1}"
            )

    @classmethod
    def from_notation(
        cls,
        concealed: str,
        *,
        melds: Sequence[str] = (),
        win_tile: str | None = None,
        tileset: TileSet = STANDARD,
        **fields,
    ) -> Situation:
        """A situation from tile notation.

        ``concealed`` holds the concealed tiles *including* the winning tile; each meld is
        ``"chow 123m"``, ``"pung 999s"``, ``"kong 5555p"`` or ``"concealed kong 5555p"``.
        Other keyword arguments are fields of the situation (``self_draw=True``, ...).
        """
        tiles = tileset.parse(concealed, check_copies=False) if concealed.strip() else []
        declared = tuple(read_meld(text, tileset) for text in melds)
        everything = tiles + [t for meld in declared for t in meld.tiles]
        tileset.parse(tileset.format(everything))  # too many copies of a tile is an error
        win = None
        if win_tile is not None:
            found = tileset.parse(win_tile)
            if len(found) != 1:
                raise TileError(win_tile, 0, "the winning tile must be one tile")
            win = found[0]
            if win not in tiles:
                raise TileError(win_tile, 0, "the winning tile is not among the concealed tiles")
        return cls(
            hand_core().keys_of(tileset.counts(tiles)), declared, win, tileset=tileset, **fields
        )

    # Facts about the hand, computed on first use.

    @cached_property
    def bare(self) -> tuple[Keys, int]:
        """The concealed keys without the wild tiles (``tileset.wilds``), and how many of them
        the concealed hand holds: the hand as its shapes are read."""
        return hand_core().without_wilds(self.keys, self.tileset)

    @cached_property
    def wilds(self) -> int:
        """The wild tiles the hand holds, melds included."""
        wild = self.tileset.wilds
        return self.bare[1] + sum(t in wild for m in self.melds for t in m.tiles) if wild else 0

    @cached_property
    def concealed_tiles(self) -> tuple[Tile, ...]:
        """The concealed tiles other than wilds (``wilds`` counts those)."""
        return tuple(self.tileset.tiles_of(hand_core().counts_of(self.bare[0])))

    @cached_property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Concealed tiles and the tiles of every declared meld (a kong gives four)."""
        return tuple(sorted(self.concealed_tiles + tuple(t for m in self.melds for t in m.tiles)))

    @cached_property
    def distinct_tiles(self) -> tuple[Tile, ...]:
        return tuple(sorted(set(self.all_tiles)))

    @cached_property
    def held(self) -> Mapping[Tile, int]:
        """How many copies of each tile the hand holds, melds included."""
        counts: dict[Tile, int] = {}
        for tile in self.all_tiles:
            counts[tile] = counts.get(tile, 0) + 1
        return counts

    @cached_property
    def suits(self) -> frozenset[int]:
        """The suits of ``all_tiles`` (the honours as the block after the suits), read from
        the per-suit keys and the melds without listing the tiles: a win's restrictions ask
        it of every candidate a bot weighs."""
        honour = hand_core().HONOUR  # an honour block's key holds this mark
        found = {block for block, key in enumerate(self.bare[0]) if key % honour}
        found.update(m.tile // RANKS for m in self.melds)
        return frozenset(found)

    @cached_property
    def kongs(self) -> tuple[HandMeld, ...]:
        return tuple(m for m in self.melds if m.kind == "kong")

    @cached_property
    def roots(self) -> tuple[Tile, ...]:
        """Tiles held four times (根), declared as a kong or not: counted from the keys and
        the melds without listing the tiles (a modifier may ask it of every candidate)."""
        counts = hand_core().counts_of(self.bare[0])
        for meld in self.melds:
            for tile in meld.tiles:
                counts[tile] += 1
        return tuple(t for t, n in enumerate(counts) if n == 4)

    @cached_property
    def undeclared_roots(self) -> tuple[Tile, ...]:
        """Tiles held four times that are not a declared kong."""
        declared = {m.tile for m in self.kongs}
        return tuple(t for t in self.roots if t not in declared)

    @cached_property
    def splits(self) -> tuple[Split, ...]:
        """Every way to read the hand as a pair and melds, declared melds included; with
        wilds, every way they may stand for tiles."""
        return tuple(
            Split(d.pair, tuple(HandMeld(m.kind, m.tile, True) for m in d.melds) + self.melds)
            for d in hand_core().decompositions(*self.bare)
        )

    @cached_property
    def wait_shapes(self) -> frozenset[str]:
        """The shapes (``WAIT_SHAPES``) the winning tile completes, in every reading of the
        hand as melds and a pair; none for a hand with no such reading."""
        tile = self.win_tile
        found: set[str] = set()
        if tile is None:
            return frozenset()
        formed = len(self.melds)
        for split in self.splits:
            if split.pair == tile:
                found.add("single")
            for meld in split.melds[: len(split.melds) - formed]:
                if tile in meld.tiles:
                    found.add(_wait_shape(meld, tile))
        return frozenset(found)

    @cached_property
    def answers(self) -> dict[int, Any]:
        """Values of expressions that read the hand alone (``vocabulary.HAND_ONLY``), by the
        expression's id: each is asked once per hand, however the hand was won."""
        return {}

    def without_win_tile(self) -> Keys:
        """The concealed keys before the winning tile joined them."""
        if self.win_tile is None:
            return self.keys
        return hand_core().add_tile(self.keys, self.win_tile, -1)

    @classmethod
    def of(cls, keys: Keys, facts: Mapping[str, Any]) -> Situation:
        """``Situation(keys, **facts)``, with the same checks, made at a fraction of the
        cost: the generated ``__init__`` of a frozen dataclass sets its fifty fields one
        call at a time, and the engine and settlement make dozens of situations a hand."""
        unknown = facts.keys() - _DEFAULTS.keys()
        if unknown:
            raise TypeError(f"Situation has no field {', '.join(sorted(unknown))}")
        new = object.__new__(cls)
        state = new.__dict__
        state.update(_DEFAULTS)
        for name, factory in _FACTORIES:
            state[name] = factory()
        state["keys"] = keys
        state.update(facts)
        new.__post_init__()
        return new


_DEFAULTS: dict[str, Any] = {
    f.name: None if f.default is MISSING else f.default for f in fields(Situation)
}
"""Each field's default (None for ``keys`` and for those made by a factory)."""
_FACTORIES = tuple(
    (f.name, f.default_factory) for f in fields(Situation) if f.default_factory is not MISSING
)


def _wait_shape(meld: HandMeld, tile: Tile) -> str:
    """The shape ``tile`` completes as part of ``meld``, a meld formed in the hand."""
    if meld.kind != "chow":
        return "two_pairs"
    low = meld.tile % RANKS
    if tile == meld.tile + 1:
        return "closed"
    if (tile == meld.tile + 2 and low == 0) or (tile == meld.tile and low == RANKS - 3):
        return "edge"
    return "open"


def read_meld(text: str, tileset: TileSet) -> HandMeld:
    words = text.split()
    concealed = bool(words) and words[0] == "concealed"
    if concealed:
        words = words[1:]
    if len(words) != 2 or words[0] not in MELD_KINDS:
        raise TileError(
            text,
            0,
            "a meld is written like 'pung 999s'",
            "chow, pung, kong or concealed kong, then its tiles",
        )
    kind = words[0]
    tiles = sorted(tileset.parse(words[1], check_copies=False))
    first = tiles[0]
    if kind == "chow":
        ok = tiles == [first, first + 1, first + 2] and first % RANKS <= RANKS - 3
    else:
        ok = tiles == [first] * (4 if kind == "kong" else 3)
    if not ok:
        raise TileError(text, 0, f"{words[1]} is not a {kind}")
    if concealed and kind != "kong":
        raise TileError(text, 0, "only a kong is declared concealed")
    return HandMeld(kind, first, concealed)


@cache  # an import statement in a function is paid at every call
def hand_core() -> ModuleType:
    """The hand core, imported when first needed so that checking a ruleset stays quick."""
    from handcore import shapes

    return shapes
