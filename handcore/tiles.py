"""Tiles and their notation: ``123m 456p 789s``, ``123万 456筒 789条``, honours ``1234567z``
or ``东南西北中发白``, flowers ``1f``..``8f`` or ``春夏秋冬梅兰竹菊``, and the Unicode tiles.

A tile is a small int, ``block * 9 + rank - 1``, so a hand can be kept as a count vector
indexed by tile.  The tile set is data (a ruleset may use two suits, fewer copies, honours
and flowers); blocks carry the letters and Chinese names that the notation accepts.
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
        """The text with a caret under the offending position, for people; of a long text,
        the ``POINTER_CHARS`` around the position, the rest cut (``…``)."""
        start = max(0, min(self.position - POINTER_CHARS // 2, len(self.text) - POINTER_CHARS))
        end = start + POINTER_CHARS
        before = ("…" if start else "") + self.text[start : self.position]
        after = self.text[self.position : end] + ("…" if end < len(self.text) else "")
        return f"  {before}{after}\n  {' ' * display_width(before)}^"


POINTER_CHARS = 60


def display_width(text: str) -> int:
    """Columns a terminal gives ``text``: CJK and tile characters take two."""
    return sum(2 if ord(ch) >= 0x1100 else 1 for ch in text)


@dataclass(frozen=True)
class Suit:
    """A block of tiles in notation: its letter, its Chinese names, the code point of its
    Unicode 1-tile, and (honours, flowers) the characters that name each tile on its own."""

    letter: str
    names: tuple[str, ...]
    unicode_one: int | None = None
    chars: tuple[str, ...] = ()
    """By rank, the characters that name that tile alone (``东東`` for 1z)."""
    glyphs: str = ""
    """By rank, the Unicode tile, when the tiles are not consecutive from ``unicode_one``."""

    @property
    def size(self) -> int:
        """How many ranks the block has: 9 for a suit, one per named tile otherwise."""
        return len(self.chars) or RANKS


MAN = Suit("m", ("万", "萬"), 0x1F007)
PIN = Suit("p", ("筒", "饼", "砣", "餅"), 0x1F019)
SOU = Suit("s", ("条", "索", "條"), 0x1F010)
HONOURS = Suit("z", ("字",), 0x1F000, ("东東", "南", "西", "北", "中", "发發", "白"))
"""The honours, 1z to 7z: the winds 东南西北 (风), then the dragons 中发白 (箭)."""
FLOWERS = Suit(
    "f",
    ("花",),
    None,
    ("春", "夏", "秋", "冬", "梅", "兰蘭", "竹", "菊"),
    "\U0001f026\U0001f027\U0001f028\U0001f029\U0001f022\U0001f023\U0001f024\U0001f025",
)
"""The flowers, 1f to 8f: the seasons 春夏秋冬, then 梅兰竹菊.  One copy of each."""

_ABSENT = {
    ch: f"{what} are not in this tile set"
    for block, what in ((HONOURS, "honour tiles"), (FLOWERS, "flowers"))
    for ch in (block.letter, *block.names, *"".join(block.chars), *block.glyphs)
}
_ABSENT.update(
    {chr(HONOURS.unicode_one + r): "honour tiles are not in this tile set" for r in range(7)}
)


@dataclass(frozen=True)
class TileSet:
    """Which tiles exist: suits of ranks 1 to ``ranks``, ``copies`` of each tile, the honours
    and flowers in play by number, and suits laid out but left out of play (缺万子).

    Tile ids are laid out in blocks of nine: the suits, then the honours, then the flowers.
    A block is there when it or a later one has tiles in play, and a suit left out keeps its
    block, so that a tile's id (and ``1m.suit``) does not depend on which of them are played.
    """

    suits: tuple[Suit, ...] = (MAN, PIN, SOU)
    copies: int = 4
    ranks: int = RANKS
    honours: tuple[int, ...] = ()
    """Honour numbers in play (1 东 ... 7 白); empty: no honour tiles."""
    flowers: tuple[int, ...] = ()
    """Flower numbers in play (1 春 ... 8 菊), one copy each; drawn and replaced in play."""
    missing: tuple[int, ...] = ()
    """Indexes of suits with no tiles in play."""
    wilds: tuple[Tile, ...] = ()
    """The wild tiles (癞子), by id: each copy held stands for a tile of the hand's choice
    (``handcore.shapes.without_wilds`` says which)."""
    _suffix: dict[str, int] = field(init=False, repr=False, compare=False)
    _glyph: dict[str, Tile] = field(init=False, repr=False, compare=False)
    _in_play: frozenset[Tile] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.suits:
            raise ValueError("a tile set needs at least one suit")
        if not 1 <= self.copies <= 4:
            raise ValueError("a tile has 1 to 4 copies")
        if not 1 <= self.ranks <= RANKS:
            raise ValueError(f"a suit has ranks 1 to N, N from 1 to {RANKS}")
        if len(set(self.missing)) == len(self.suits) or not set(self.missing) <= set(
            range(len(self.suits))
        ):
            raise ValueError("the suits left out must be some of the suits, not all")
        for numbers, block in ((self.honours, HONOURS), (self.flowers, FLOWERS)):
            if len(set(numbers)) != len(numbers) or not set(numbers) <= set(
                range(1, block.size + 1)
            ):
                raise ValueError(f"{block.letter} tiles are numbered 1 to {block.size}, once each")
        suffix: dict[str, int] = {}
        glyph: dict[str, Tile] = {}
        for index, suit in enumerate(self.blocks):
            for name in (suit.letter, *suit.names):
                if name in suffix:
                    raise ValueError(f"suit name {name!r} is used twice")
                suffix[name] = index
            base = index * RANKS
            for rank in range(1, suit.size + 1):
                if suit.glyphs:
                    glyph[suit.glyphs[rank - 1]] = base + rank - 1
                elif suit.unicode_one is not None:
                    glyph[chr(suit.unicode_one + rank - 1)] = base + rank - 1
            for rank, chars in enumerate(suit.chars, 1):
                for ch in chars:
                    glyph[ch] = base + rank - 1
        in_play = [
            self.tile(index, rank)
            for index in range(len(self.suits))
            if index not in self.missing
            for rank in range(1, self.ranks + 1)
        ]
        if self.honours:
            in_play += [self.honour_block * RANKS + n - 1 for n in sorted(self.honours)]
        if self.flowers:
            in_play += [self.flower_block * RANKS + n - 1 for n in sorted(self.flowers)]
        if not set(self.wilds) <= set(in_play) or any(
            tile // RANKS == self.flower_block for tile in self.wilds
        ):
            raise ValueError("a wild tile is a tile in play, not a flower")
        object.__setattr__(self, "_suffix", suffix)
        object.__setattr__(self, "_glyph", glyph)
        object.__setattr__(self, "_in_play", frozenset(in_play))

    @property
    def blocks(self) -> tuple[Suit, ...]:
        """The blocks of nine tile ids, in order: the suits, the honours, the flowers."""
        if self.flowers:
            return (*self.suits, HONOURS, FLOWERS)
        return (*self.suits, HONOURS) if self.honours else self.suits

    @property
    def honour_block(self) -> int | None:
        """The block of the honours (the "suit" of ``5z``), or None without honours."""
        return len(self.suits) if self.honours else None

    @property
    def flower_block(self) -> int | None:
        return len(self.suits) + 1 if self.flowers else None

    @property
    def hand_blocks(self) -> int:
        """Blocks a hand can hold (the suits and the honours; flowers are set aside)."""
        return len(self.suits) + bool(self.honours)

    @property
    def kinds(self) -> int:
        """Length of a count vector: tile ids run from 0 to ``kinds - 1`` (27 for the standard
        set; ids of tiles out of play, such as 8z or a left-out suit, are never counted)."""
        return len(self.blocks) * RANKS

    @property
    def in_play(self) -> tuple[Tile, ...]:
        """The distinct tiles in play, in id order."""
        return tuple(sorted(self._in_play))

    @property
    def total(self) -> int:
        """Number of physical tiles (108 for the standard set)."""
        return sum(self.copies_of(tile) for tile in self._in_play)

    def copies_of(self, tile: Tile) -> int:
        """Copies of a tile in play: one of a flower, ``copies`` of any other tile, 0 if absent."""
        if tile not in self._in_play:
            return 0
        return 1 if self.is_flower(tile) else self.copies

    def wall(self) -> list[Tile]:
        """Every physical tile, in id order."""
        return [tile for tile in self.in_play for _ in range(self.copies_of(tile))]

    def is_honour(self, tile: Tile) -> bool:
        return self.honours != () and tile // RANKS == self.honour_block

    def is_flower(self, tile: Tile) -> bool:
        return self.flowers != () and tile // RANKS == self.flower_block

    def playable(self) -> int:
        """The tiles a hand can hold, as bits by tile id (the masks of ``handcore.discards``)."""
        mask = 0
        for tile in self._in_play:
            if not self.is_flower(tile):
                mask |= 1 << tile
        return mask

    def tile(self, suit: int, rank: int) -> Tile:
        return suit * RANKS + rank - 1

    def suit_of(self, tile: Tile) -> int:
        return tile // RANKS

    def rank_of(self, tile: Tile) -> int:
        return tile % RANKS + 1

    def name(self, tile: Tile) -> str:
        """One tile in notation, e.g. ``5m``, ``5z`` (中), ``1f`` (春)."""
        return f"{self.rank_of(tile)}{self.blocks[self.suit_of(tile)].letter}"

    def glyph(self, tile: Tile) -> str:
        """One tile as its Unicode character (or its notation if the suit has none)."""
        block = self.blocks[self.suit_of(tile)]
        if block.glyphs:
            return block.glyphs[self.rank_of(tile) - 1]
        one = block.unicode_one
        return self.name(tile) if one is None else chr(one + self.rank_of(tile) - 1)

    def parse(self, text: str, *, check_copies: bool = True) -> list[Tile]:
        """Read tiles from notation; raise :class:`TileError` with the position of the problem.

        Accepts runs of digits followed by a suit letter or Chinese suit name (``123m``,
        ``456筒``, ``1234z``, ``12f``), single Unicode tile characters and single honour or
        flower characters (``东``, ``中``, ``春``), with optional white space between groups.
        A tile out of this set's play is an error.  With ``check_copies``, more copies of a
        tile than the set has is an error.
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
                if pos < length and text[pos] not in self._suffix and text[pos] in _ABSENT:
                    raise TileError(
                        text, pos, _ABSENT[text[pos]], f"a suit after the digits ({suit_names})"
                    )
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
                size = self.blocks[suit].size
                for offset in range(start, pos):
                    rank = ord(text[offset]) - ord("0")
                    if not 1 <= rank <= size:
                        raise TileError(
                            text, offset, f"rank {rank} does not exist", f"a rank 1 to {size}"
                        )
                    tiles.append(self.tile(suit, rank))
                    positions.append(offset)
                pos += 1
            else:
                absent = f" ({_ABSENT[ch]})" if ch in _ABSENT else ""
                raise TileError(
                    text,
                    pos,
                    f"unexpected {ch!r}{absent}",
                    f"a rank 1 to {RANKS}, or a tile character",
                )
        if not tiles:
            raise TileError(text, 0, "no tiles", f"tiles such as 123m 456p ({suit_names})")
        for tile, where in zip(tiles, positions, strict=True):
            if tile not in self._in_play:
                raise TileError(
                    text, where, f"{self.name(tile)} is not in this tile set", "a tile in play"
                )
        if check_copies:
            counts = [0] * self.kinds
            for tile, where in zip(tiles, positions, strict=True):
                counts[tile] += 1
                if counts[tile] > self.copies_of(tile):
                    raise TileError(
                        text,
                        where,
                        f"copy {counts[tile]} of {self.name(tile)}",
                        f"at most {self.copies_of(tile)} copies of a tile",
                    )
        return tiles

    def suit_names(self) -> str:
        """The accepted suit letters and names, for messages."""
        return ", ".join(f"{s.letter}/{'/'.join(s.names)}" for s in self.blocks)

    def format(self, tiles: Iterable[Tile], *, sort: bool = True) -> str:
        """Tiles in notation grouped by suit: ``123m 55p``."""
        ordered = sorted(tiles) if sort else list(tiles)
        groups: list[str] = []
        run = ""
        suit = -1
        for tile in ordered:
            tile_suit = self.suit_of(tile)
            if tile_suit != suit and run:
                groups.append(run + self.blocks[suit].letter)
                run = ""
            suit = tile_suit
            run += str(self.rank_of(tile))
        if run:
            groups.append(run + self.blocks[suit].letter)
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
WITH_HONOURS = TileSet(honours=tuple(range(1, HONOURS.size + 1)))
"""The 136-tile set: the 108 suited tiles and four of each of the seven honours."""
EVERY = TileSet(honours=WITH_HONOURS.honours, flowers=tuple(range(1, FLOWERS.size + 1)))
"""Every tile a ruleset's set may hold, with the same ids: names any tile of any game."""


WILD_MARK = "*"
"""In a hand, a wild tile (癞子) whatever tile of the set is wild."""


def parse_with_wilds(
    tileset: TileSet, text: str, wild: Tile | None = None, *, check_copies: bool = True
) -> tuple[list[Tile], int]:
    """The tiles of ``text`` other than wilds, and how many wilds: each ``*`` is one, and so is
    each copy of ``wild`` (the tile a ruleset makes wild).  Only wilds is a hand too."""
    marks = text.count(WILD_MARK)
    rest = text.replace(WILD_MARK, " ")  # columns stay where they were, for errors
    try:
        tiles = tileset.parse(rest, check_copies=check_copies) if rest.strip() or not marks else []
    except TileError as error:  # shown under the text as written, its wilds included
        raise TileError(text, error.position, error.problem, error.expected) from None
    if wild is None:
        return tiles, marks
    return [t for t in tiles if t != wild], marks + tiles.count(wild)
