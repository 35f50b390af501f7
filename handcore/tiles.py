"""Tiles and their notation: ``123m 456p 789s``, ``123万 456筒 789条`` and the Unicode tiles.

A tile is a small int, ``suit * 9 + rank - 1``, so a hand can be kept as a count vector
indexed by tile.  The tile set is data (a ruleset may use two suits, or fewer copies);
suits carry the letters and Chinese names that the notation accepts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Tile = int
RANKS = 9


class TileError(ValueError):
    """Bad tile notation: says where (0-based ``position`` in ``text``) and what was expected."""

    def __init__(self, text: str, position: int, problem: str, expected: str = "") -> None:
        self.text = text
        self.position = position
        self.problem = problem
        self.expected = expected
        message = f"{problem} at column {position + 1}"
        if expected:
            message += f"; expected {expected}"
        super().__init__(message)

    def pointer(self) -> str:
        """The text with a caret under the offending position, for people."""
        return f"  {self.text}\n  {' ' * display_width(self.text[: self.position])}^"


def display_width(text: str) -> int:
    """Columns a terminal gives ``text``: CJK and tile characters take two."""
    return sum(2 if ord(ch) >= 0x1100 else 1 for ch in text)


@dataclass(frozen=True)
class Suit:
    """A suit: its letter in notation, its Chinese names, the code point of its Unicode 1-tile."""

    letter: str
    names: tuple[str, ...]
    unicode_one: int | None = None


MAN = Suit("m", ("万", "萬"), 0x1F007)
PIN = Suit("p", ("筒", "饼", "砣", "餅"), 0x1F019)
SOU = Suit("s", ("条", "索", "條"), 0x1F010)


@dataclass(frozen=True)
class TileSet:
    """Which tiles exist: suits of ranks 1 to 9, ``copies`` of each tile."""

    suits: tuple[Suit, ...] = (MAN, PIN, SOU)
    copies: int = 4
    _suffix: dict[str, int] = field(init=False, repr=False, compare=False)
    _glyph: dict[str, Tile] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.suits:
            raise ValueError("a tile set needs at least one suit")
        if not 1 <= self.copies <= 4:
            raise ValueError("a tile has 1 to 4 copies")
        suffix: dict[str, int] = {}
        glyph: dict[str, Tile] = {}
        for index, suit in enumerate(self.suits):
            for name in (suit.letter, *suit.names):
                if name in suffix:
                    raise ValueError(f"suit name {name!r} is used twice")
                suffix[name] = index
            if suit.unicode_one is not None:
                for rank in range(1, RANKS + 1):
                    glyph[chr(suit.unicode_one + rank - 1)] = index * RANKS + rank - 1
        object.__setattr__(self, "_suffix", suffix)
        object.__setattr__(self, "_glyph", glyph)

    @property
    def kinds(self) -> int:
        """Number of distinct tiles (27 for the standard set)."""
        return len(self.suits) * RANKS

    @property
    def total(self) -> int:
        """Number of physical tiles (108 for the standard set)."""
        return self.kinds * self.copies

    def tile(self, suit: int, rank: int) -> Tile:
        return suit * RANKS + rank - 1

    def suit_of(self, tile: Tile) -> int:
        return tile // RANKS

    def rank_of(self, tile: Tile) -> int:
        return tile % RANKS + 1

    def name(self, tile: Tile) -> str:
        """One tile in notation, e.g. ``5m``."""
        return f"{self.rank_of(tile)}{self.suits[self.suit_of(tile)].letter}"

    def glyph(self, tile: Tile) -> str:
        """One tile as its Unicode character (or its notation if the suit has none)."""
        one = self.suits[self.suit_of(tile)].unicode_one
        return self.name(tile) if one is None else chr(one + self.rank_of(tile) - 1)

    def parse(self, text: str, *, check_copies: bool = True) -> list[Tile]:
        """Read tiles from notation; raise :class:`TileError` with the position of the problem.

        Accepts runs of digits followed by a suit letter or Chinese suit name (``123m``,
        ``456筒``) and single Unicode tile characters, with optional white space between
        groups.  With ``check_copies``, more copies of a tile than the set has is an error.
        """
        if not isinstance(text, str):
            raise TypeError("tile notation must be a string")
        tiles: list[Tile] = []
        positions: list[int] = []
        pos = 0
        length = len(text)
        suit_names = self.suit_names()
        while pos < length:
            ch = text[pos]
            if ch.isspace() or ch in ",，":
                pos += 1
            elif ch in self._glyph:
                tiles.append(self._glyph[ch])
                positions.append(pos)
                pos += 1
            elif "0" <= ch <= "9":
                start = pos
                while pos < length and "0" <= text[pos] <= "9":
                    pos += 1
                if pos >= length or text[pos] not in self._suffix:
                    raise TileError(
                        text,
                        pos,
                        f"digits {text[start:pos]!r} have no suit"
                        if pos < length
                        else f"digits {text[start:pos]!r} at the end have no suit",
                        f"a suit after the digits ({suit_names})",
                    )
                suit = self._suffix[text[pos]]
                for offset in range(start, pos):
                    rank = ord(text[offset]) - ord("0")
                    if not 1 <= rank <= RANKS:
                        raise TileError(
                            text, offset, f"rank {rank} does not exist", f"a rank 1 to {RANKS}"
                        )
                    tiles.append(self.tile(suit, rank))
                    positions.append(offset)
                pos += 1
            else:
                raise TileError(
                    text, pos, f"unexpected {ch!r}", f"a rank 1 to {RANKS}, or a tile character"
                )
        if not tiles:
            raise TileError(text, 0, "no tiles", f"tiles such as 123m 456p ({suit_names})")
        if check_copies:
            counts = [0] * self.kinds
            for tile, where in zip(tiles, positions, strict=True):
                counts[tile] += 1
                if counts[tile] > self.copies:
                    raise TileError(
                        text,
                        where,
                        f"copy {counts[tile]} of {self.name(tile)}",
                        f"at most {self.copies} copies of a tile",
                    )
        return tiles

    def suit_names(self) -> str:
        """The accepted suit letters and names, for messages."""
        return ", ".join(f"{s.letter}/{'/'.join(s.names)}" for s in self.suits)

    def format(self, tiles: Iterable[Tile], *, sort: bool = True) -> str:
        """Tiles in notation grouped by suit: ``123m 55p``."""
        ordered = sorted(tiles) if sort else list(tiles)
        groups: list[str] = []
        run = ""
        suit = -1
        for tile in ordered:
            tile_suit = self.suit_of(tile)
            if tile_suit != suit and run:
                groups.append(run + self.suits[suit].letter)
                run = ""
            suit = tile_suit
            run += str(self.rank_of(tile))
        if run:
            groups.append(run + self.suits[suit].letter)
        return " ".join(groups)

    def format_unicode(self, tiles: Iterable[Tile], *, sort: bool = True) -> str:
        ordered = sorted(tiles) if sort else list(tiles)
        return "".join(self.glyph(tile) for tile in ordered)

    def counts(self, tiles: Iterable[Tile]) -> list[int]:
        """The count vector of ``tiles``, indexed by tile."""
        counts = [0] * self.kinds
        for tile in tiles:
            counts[tile] += 1
        return counts

    def tiles_of(self, counts: Sequence[int]) -> list[Tile]:
        """The sorted tiles of a count vector."""
        return [tile for tile, n in enumerate(counts) for _ in range(n)]


STANDARD = TileSet()
"""The 108-tile set: 万 筒 条, ranks 1 to 9, four copies each."""


WILD_MARK = "*"
"""In a hand, a wild tile (癞子) whatever tile of the set is wild."""


def parse_with_wilds(
    tileset: TileSet, text: str, wild: Tile | None = None, *, check_copies: bool = True
) -> tuple[list[Tile], int]:
    """The tiles of ``text`` other than wilds, and how many wilds: each ``*`` is one, and so is
    each copy of ``wild`` (the tile a ruleset makes wild).  Only wilds is a hand too."""
    marks = text.count(WILD_MARK)
    rest = text.replace(WILD_MARK, " ")  # columns stay where they were, for errors
    tiles = tileset.parse(rest, check_copies=check_copies) if rest.strip() or not marks else []
    if wild is None:
        return tiles, marks
    return [t for t in tiles if t != wild], marks + tiles.count(wild)
