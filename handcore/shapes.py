"""Hand shapes: is it complete, how does it split, how far from ready, what does it wait on.

A hand's concealed tiles are kept as per-suit keys (``suit_tables``); ``melds`` is the
number of melds already exposed, so the concealed tiles must make ``4 - melds`` melds
and a pair.  Every answer is read from the per-suit tables and combined across suits:
nothing here searches.

Two seven-pairs forms exist: ``"distinct"`` (seven different pairs, as in Japanese rules)
and ``"quads"`` (a four-of-a-kind counts as two pairs, as most Chinese rules allow).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Literal, NamedTuple

from handcore.suit_tables import (
    HONOUR,
    MAX_MELDS,
    POW,
    RANKS,
    ranks_of,
    suit_splits,
    suit_tables,
    untally,
)
from handcore.tiles import EVERY, Tile, TileSet

Keys = tuple[int, ...]
SevenPairsForm = Literal["quads", "distinct"]

_T = suit_tables()
_COMPLETION = _T.completion
_DISTANCE_ID = _T.distance_id
_TALLY = _T.tally
_SLOTS = 2 * (MAX_MELDS + 1)

# Distance vectors of single suits, then of suits combined; ids index _VECTORS.
_VECTORS: list[tuple[int, ...]] = list(_T.distance_vectors)
_VECTOR_ID: dict[tuple[int, ...], int] = {v: i for i, v in enumerate(_VECTORS)}
_COMBINED: dict[int, int] = {}  # a << 16 | b: a few hundred vectors exist in all
_HAND: dict[tuple[int, ...], tuple[int, ...]] = {}


class Meld(NamedTuple):
    """A meld inside a split hand: ``kind`` is "chow" or "pung", ``tile`` its lowest tile."""

    kind: str
    tile: Tile


class Decomposition(NamedTuple):
    """One way to split a complete hand: the pair and the concealed melds."""

    pair: Tile
    melds: tuple[Meld, ...]


class SevenPairs(NamedTuple):
    """A seven-pairs hand: its pairs (a four-of-a-kind appears twice) and how many quads it uses."""

    pairs: tuple[Tile, ...]
    quads_as_pairs: int


def keys_of(counts: Sequence[int], tileset: TileSet = EVERY) -> Keys:
    """Per-suit keys of a count vector indexed by tile (nine ranks per block).

    The honour block (by default the fourth, after 万 筒 条, as every ruleset lays tiles
    out) gets an honour key; flowers, never held, get none.
    """
    keys = []
    honours = tileset.honour_block
    for block in range(min(len(counts) // RANKS, tileset.hand_blocks)):
        start = block * RANKS
        key = HONOUR if block == honours else 0
        for rank in range(RANKS):
            key += counts[start + rank] * POW[rank]
        keys.append(key)
    return tuple(keys)


def counts_of(keys: Keys) -> list[int]:
    """The count vector of per-suit keys."""
    return [(key // p) % 5 for key in keys for p in POW]


def add_tile(keys: Keys, tile: Tile, n: int = 1) -> Keys:
    """Keys with ``n`` copies of ``tile`` added (negative ``n`` removes)."""
    suit, rank = divmod(tile, RANKS)
    changed = list(keys)
    changed[suit] += n * POW[rank]
    return tuple(changed)


def tile_count(keys: Keys, tile: Tile) -> int:
    suit, rank = divmod(tile, RANKS)
    return (keys[suit] // POW[rank]) % 5


def is_complete(keys: Keys) -> bool:
    """Complete in the standard form: melds and exactly one pair (any number of melds)."""
    product_ = 1
    for key in keys:
        product_ *= _COMPLETION[key]
    return product_ == 2


def decompositions(keys: Keys) -> list[Decomposition]:
    """Every split of a complete hand into a pair and melds; empty if it is not complete."""
    if not is_complete(keys):
        return []
    splits = suit_splits()
    per_suit = [splits[key] if key else (None,) for key in keys]
    result = []
    for choice in product(*per_suit):
        pair: Tile = -1
        melds: list[Meld] = []
        for suit, split in enumerate(choice):
            if split is None:
                continue
            base = suit * RANKS - 1
            if split.pair is not None:
                pair = base + split.pair
            melds.extend(Meld(kind, base + rank) for kind, rank in split.melds)
        result.append(Decomposition(pair, tuple(melds)))
    return result


def seven_pairs(keys: Keys, form: SevenPairsForm = "quads") -> SevenPairs | None:
    """The hand as seven pairs, or None.  A 14-tile concealed hand is needed."""
    tiles, pairs, distinct, _ = _tally(keys)
    if tiles != 14 or (pairs if form == "quads" else distinct) != 7:
        return None
    tiles: list[Tile] = []
    quads = 0
    for tile, n in enumerate(counts_of(keys)):
        tiles.extend([tile] * (n // 2))
        quads += n == 4
    return SevenPairs(tuple(tiles), quads)


def _tally(keys: Keys) -> tuple[int, int, int, int]:
    """(tiles, pairs counting quads as two, distinct pairs, kinds) of a whole hand."""
    total = 0
    for key in keys:
        total += _TALLY[key]
    return untally(total)


def _combine(a: int, b: int) -> int:
    """Id of the distance vector of two tile groups taken together (min-plus convolution)."""
    found = _COMBINED.get(a << 16 | b)
    if found is not None:
        return found
    va, vb = _VECTORS[a], _VECTORS[b]
    combined = []
    for m in range(MAX_MELDS + 1):
        for h in (0, 1):
            combined.append(
                min(
                    va[2 * m1 + h1] + vb[2 * (m - m1) + h - h1]
                    for m1 in range(m + 1)
                    for h1 in range(h + 1)
                )
            )
    vector = tuple(combined)
    found = _VECTOR_ID.setdefault(vector, len(_VECTORS))
    if found == len(_VECTORS):
        _VECTORS.append(vector)
    _COMBINED[a << 16 | b] = found
    return found


def _hand_distances(keys: Keys) -> tuple[int, ...]:
    """For m melds and h pairs, tiles missing from the hand: the suits' vectors combined."""
    ids = tuple(_DISTANCE_ID[key] for key in keys)
    found = _HAND.get(ids)
    if found is None:
        acc = ids[0]
        for other in ids[1:]:
            acc = _combine(acc, other)
        found = _HAND[ids] = _VECTORS[acc]
    return found


def shanten_standard(keys: Keys, melds: int = 0) -> int:
    """Shanten of the standard form: tiles to exchange, minus one (-1 complete, 0 ready)."""
    return _hand_distances(keys)[2 * (MAX_MELDS - melds) + 1] - 1


def shanten_seven_pairs(keys: Keys, form: SevenPairsForm = "quads", melds: int = 0) -> int | None:
    """Shanten of the seven-pairs form, or None when melds are exposed or tiles are too few."""
    tiles, pairs, distinct, kinds = _tally(keys)
    if melds or tiles < 13:
        return None
    return seven_pairs_shanten(form, pairs if form == "quads" else distinct, kinds)


def seven_pairs_shanten(form: SevenPairsForm, pairs: int, kinds: int) -> int:
    """Seven-pairs shanten from the pairs (as ``form`` counts them) and the distinct tiles held."""
    if form == "quads":
        return 6 - min(pairs, 7)
    return 6 - pairs + max(0, 7 - kinds)


def shanten(keys: Keys, melds: int = 0, form: SevenPairsForm | None = "quads") -> int:
    """The smaller of the standard and (unless ``form`` is None) the seven-pairs shanten."""
    best = _hand_distances(keys)[2 * (MAX_MELDS - melds) + 1] - 1
    if form is not None and not melds and best >= 0:
        seven = shanten_seven_pairs(keys, form)
        if seven is not None and seven < best:
            best = seven
    return best


def is_winning(keys: Keys, form: SevenPairsForm | None = "quads") -> bool:
    """Complete in the standard form, or as seven pairs when ``form`` allows it."""
    return is_complete(keys) or (form is not None and seven_pairs(keys, form) is not None)


def waits(
    keys: Keys, form: SevenPairsForm | None = "quads", copies: int = 4, playable: int = -1
) -> list[Tile]:
    """Tiles that would complete the hand; a tile the hand holds all copies of is no wait,
    nor one out of ``playable`` (bits by tile id, ``TileSet.playable()``: all by default)."""
    result = []
    for suit, key in enumerate(keys):
        for rank in range(ranks_of(key)):
            if (key // POW[rank]) % 5 >= copies:
                continue
            tile = suit * RANKS + rank
            if not playable >> tile & 1:
                continue
            if is_winning(add_tile(keys, tile), form):
                result.append(tile)
    return result


def count_complete_hands(
    size: int = 14, suits: int = 3, form: Literal["standard"] | SevenPairsForm = "standard"
) -> int:
    """How many distinct concealed hands of ``size`` tiles over ``suits`` suits are complete.

    Counted from the tables: suit keys are tallied by tile count, then the tallies of the
    suits are combined.  For the standard form exactly one suit holds the pair.
    """
    # by_size[n][p]: suit keys of n tiles that are complete, holding p pairs (0 or 1)
    by_size = [[0, 0] for _ in range(size + 1)]
    for key, tally in enumerate(_TALLY):
        if key >= HONOUR:  # suits only
            break
        n, pairs, distinct, _ = untally(tally)
        if n > size:
            continue
        if form == "standard":
            if _COMPLETION[key]:
                by_size[n][_COMPLETION[key] - 1] += 1
        elif 2 * (pairs if form == "quads" else distinct) == n:
            by_size[n][0] += 1
    # combine suit by suit: ways[n][p] hands of n tiles with p pairs among the suits so far
    ways = [[1, 0]] + [[0, 0] for _ in range(size)]
    for _ in range(suits):
        grown = [[0, 0] for _ in range(size + 1)]
        for n, (none, one) in enumerate(ways):
            for m, (suit_none, suit_one) in enumerate(by_size[: size + 1 - n]):
                grown[n + m][0] += none * suit_none
                grown[n + m][1] += none * suit_one + one * suit_none
        ways = grown
    return ways[size][1] if form == "standard" else ways[size][0]
