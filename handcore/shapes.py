"""Hand shapes: is it complete, how does it split, how far from ready, what does it wait on.

A hand's concealed tiles are kept as per-suit keys (``suit_tables``); ``melds`` is the
number of melds already exposed, so the concealed tiles must make ``4 - melds`` melds
and a pair.  Every answer is read from the per-suit tables and combined across suits:
nothing here searches.

Two seven-pairs forms exist: ``"distinct"`` (seven different pairs, as in Japanese rules)
and ``"quads"`` (a four-of-a-kind counts as two pairs, as most Chinese rules allow).

Wild tiles (癞子): a hand is its keys without the wilds plus ``wilds``, how many it holds.
A wild stands for any tile of the suits, never for a fifth copy of one.  The distance
tables answer this exactly: the hand's non-wild tiles need ``d`` tiles added to hold the
melds and the pair, and ``w`` wilds supply ``w`` of them, so the shanten is ``d - w - 1``
(complete when ``d <= w``) — the least over every way to replace the wilds by tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from math import comb
from typing import Literal, NamedTuple

from handcore.suit_tables import (
    HONOUR,
    MAX_MELDS,
    POW,
    RANKS,
    WILDS_EXTRA_AT,
    WILDS_EXTRA_BIAS,
    WILDS_NONE,
    ranks_of,
    suit_splits,
    suit_tables,
    untally,
)
from handcore.tiles import EVERY, STANDARD, Tile, TileSet

Keys = tuple[int, ...]
SevenPairsForm = Literal["quads", "distinct"]

_T = suit_tables()
_COMPLETION = _T.completion
_DISTANCE_ID = _T.distance_id
_TALLY = _T.tally
_WILDS_NEEDED = _T.wilds_needed
_NO_EXTRA = 1 << 16  # above every wilds_needed value
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
    """One way to split a complete hand: the pair and the concealed melds, and the tiles the
    hand's wilds stand for in this split (the pair and melds include them)."""

    pair: Tile
    melds: tuple[Meld, ...]
    wilds: tuple[Tile, ...] = ()


class SevenPairs(NamedTuple):
    """A seven-pairs hand: its pairs (a four-of-a-kind appears twice), how many quads it uses
    and the tiles its wilds stand for (the pairs include them)."""

    pairs: tuple[Tile, ...]
    quads_as_pairs: int
    wilds: tuple[Tile, ...] = ()


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


def keys_of_tiles(tiles: Iterable[Tile], tileset: TileSet = STANDARD) -> Keys:
    """The per-suit keys of ``tiles`` (``keys_of`` their counts, without building them)."""
    keys = [0] * tileset.hand_blocks
    if tileset.honour_block is not None:
        keys[tileset.honour_block] = HONOUR
    for tile in tiles:
        keys[tile // RANKS] += POW[tile % RANKS]
    return tuple(keys)


@cache
def _wild_layout(tileset: TileSet) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """Where a tile set's wild tiles sit in the keys (block, power of the rank), and the
    block to cut the keys at when the only honours in play are wild (their block then holds
    nothing, and a wild must not stand for an honour there)."""
    places = tuple((tile // RANKS, POW[tile % RANKS]) for tile in tileset.wilds)
    block = tileset.honour_block
    honours = {t for t in tileset.in_play if tileset.is_honour(t)}
    return places, block if block is not None and honours <= set(tileset.wilds) else None


def without_wilds(keys: Keys, tileset: TileSet) -> tuple[Keys, int]:
    """A hand's keys without its wild tiles (``tileset.wilds``), and how many it holds: the
    form every shape question takes a hand with wilds in (``wilds=``)."""
    if not tileset.wilds:
        return keys, 0
    places, cut = _wild_layout(tileset)
    bare = list(keys)
    held = 0
    for block, power in places:
        if block < len(bare):
            n = (bare[block] // power) % 5
            held += n
            bare[block] -= n * power
    return tuple(bare[:cut] if cut is not None else bare), held


def with_wilds(keys: Keys, wilds: int, tileset: TileSet) -> Keys:
    """``keys`` (``without_wilds`` of a hand) with ``wilds`` copies of the set's first wild
    tile put back: a hand as held, for the questions that read its tiles."""
    tile = tileset.wilds[0]
    block = tile // RANKS
    full = list(keys)
    while len(full) <= block:
        full.append(HONOUR if len(full) == tileset.honour_block else 0)
    full[block] += wilds * POW[tile % RANKS]
    return tuple(full)


_SUIT_COUNTS: dict[int, tuple[int, ...]] = {}
_SUIT_COUNTS_KEPT = 100_000


def suit_counts(key: int) -> tuple[int, ...]:
    """The counts by rank of one suit's key: kept, as hands share their suits (the bots
    read a hand's counts at every step of their search)."""
    found = _SUIT_COUNTS.get(key)
    if found is None:
        if len(_SUIT_COUNTS) >= _SUIT_COUNTS_KEPT:
            _SUIT_COUNTS.clear()
        found = _SUIT_COUNTS[key] = tuple((key // p) % 5 for p in POW)
    return found


def counts_of(keys: Keys) -> list[int]:
    """The count vector of per-suit keys."""
    counts: list[int] = []
    for key in keys:
        counts += _SUIT_COUNTS.get(key) or suit_counts(key)
    return counts


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


def is_complete_with_wilds(keys: Keys, wilds: int) -> bool:
    """``is_complete`` for a hand holding ``wilds`` wilds besides ``keys`` (a function of its
    own, so that the wild-free check stays as quick as it was)."""
    # The wilds complete every suit as melds but one, which takes the pair; wilds left over
    # (three at a time) make melds of their own.
    melds_only = 0
    extra = _NO_EXTRA
    for key in keys:
        value = _WILDS_NEEDED[key]
        melds_only += value & WILDS_NONE
        if value < extra:
            extra = value
    needed = melds_only + (extra >> WILDS_EXTRA_AT) - WILDS_EXTRA_BIAS
    return needed <= wilds and (wilds - needed) % 3 == 0


def decompositions(keys: Keys, wilds: int = 0) -> list[Decomposition]:
    """Every split of a complete hand into a pair and melds; empty if it is not complete.

    With wilds, every way to replace them by tiles that completes the hand, each split.
    """
    if wilds:
        return _wild_decompositions(keys, wilds) if is_complete_with_wilds(keys, wilds) else []
    if not is_complete(keys):
        return []
    result = []
    for choice in product(*[suit_parts(suit, key) for suit, key in enumerate(keys) if key]):
        pair: Tile = -1
        melds: tuple[Meld, ...] = ()
        for part_pair, part_melds in choice:
            if part_pair >= 0:
                pair = part_pair
            melds += part_melds
        result.append(Decomposition(pair, melds))
    return result


_PARTS: dict[tuple[int, int], tuple[tuple[Tile, tuple[Meld, ...]], ...]] = {}
""":func:`suit_parts`' answers (a few thousand complete keys in each block at most)."""


def suit_parts(suit: int, key: int) -> tuple[tuple[Tile, tuple[Meld, ...]], ...]:
    """The splits of block ``suit``'s complete ``key`` as (the pair's tile or -1, the
    melds), in tile ids: worked out once per block and key, shared by every hand holding it."""
    found = _PARTS.get((suit, key))
    if found is None:
        base = suit * RANKS - 1
        found = _PARTS[(suit, key)] = tuple(
            (
                -1 if split.pair is None else base + split.pair,
                tuple(Meld(kind, base + rank) for kind, rank in split.melds),
            )
            for split in suit_splits()[key]
        )
    return found


def _wild_decompositions(keys: Keys, wilds: int) -> list[Decomposition]:
    """The splits of a complete hand with wilds: per suit, the ways ``k`` wilds complete it
    (as melds, or melds and the pair), combined so that the wilds add up and one suit holds
    the pair; then each completed hand's splits."""
    options = []  # per suit: (wilds used, completion, completed key, the tiles they stand for)
    for suit, key in enumerate(keys):
        held = [(key // p) % 5 for p in POW]
        base = key - key % HONOUR  # an honour block's wilds stand for honours only
        found = []
        for k in range(wilds + 1):
            for ranks in combinations_with_replacement(range(ranks_of(key)), k):
                counts = list(held)
                for rank in ranks:
                    counts[rank] += 1
                if max(counts) > 4:
                    continue
                grown = base + sum(n * p for n, p in zip(counts, POW, strict=True))
                if _COMPLETION[grown]:
                    stand = tuple(suit * RANKS + rank for rank in ranks)
                    found.append((k, _COMPLETION[grown], grown, stand))
        options.append(found)
    result = []
    for choice in product(*options):
        if sum(c[0] for c in choice) != wilds or [c[1] for c in choice].count(2) != 1:
            continue
        stand = tuple(tile for c in choice for tile in c[3])
        result.extend(
            Decomposition(d.pair, d.melds, stand)
            for d in decompositions(tuple(c[2] for c in choice))
        )
    return result


def seven_pairs(keys: Keys, form: SevenPairsForm = "quads", wilds: int = 0) -> SevenPairs | None:
    """The hand as seven pairs, or None.  A 14-tile concealed hand is needed.

    Wilds first pair the tiles held alone (an odd number of times, with quads); the others
    make pairs of the lowest tiles the hand does not hold.
    """
    tiles, pairs, distinct, _ = _tally(keys)
    if tiles + wilds != 14 or (pairs if form == "quads" else distinct) + wilds < 7:
        return None
    counts = counts_of(keys)
    lone = [t for t, n in enumerate(counts) if (n % 2 if form == "quads" else n == 1)]
    if len(lone) > wilds or (form == "distinct" and max(counts) > 2):
        return None
    stand = lone + [t for t, n in enumerate(counts) if not n][: (wilds - len(lone)) // 2] * 2
    for tile in stand:
        counts[tile] += 1
    result: list[Tile] = []
    quads = 0
    for tile, n in enumerate(counts):
        result.extend([tile] * (n // 2))
        quads += n == 4
    return SevenPairs(tuple(result), quads, tuple(sorted(stand)))


def _tally(keys: Keys) -> tuple[int, int, int, int]:
    """(tiles, pairs counting quads as two, distinct pairs, kinds) of a whole hand."""
    total = 0
    for key in keys:
        total += _TALLY[key]
    return untally(total)


_SPLITS = tuple(
    tuple((2 * m1 + h1, 2 * (m - m1) + h - h1) for m1 in range(m + 1) for h1 in range(h + 1))
    for m in range(MAX_MELDS + 1)
    for h in (0, 1)
)
"""By slot ``2 * m + h`` of a distance vector (m melds, h pairs): the pairs of slots of two
groups of tiles whose melds and pairs add up to it."""


def _combine(a: int, b: int) -> int:
    """Id of the distance vector of two tile groups taken together (min-plus convolution;
    the same either way round, so remembered both ways)."""
    found = _COMBINED.get(a << 16 | b)
    if found is not None:
        return found
    va, vb = _VECTORS[a], _VECTORS[b]
    vector = tuple([min([va[i] + vb[j] for i, j in pairs]) for pairs in _SPLITS])
    found = _VECTOR_ID.setdefault(vector, len(_VECTORS))
    if found == len(_VECTORS):
        _VECTORS.append(vector)
    _COMBINED[a << 16 | b] = _COMBINED[b << 16 | a] = found
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


def shanten_standard(keys: Keys, melds: int = 0, wilds: int = 0) -> int:
    """Shanten of the standard form: tiles to exchange, minus one (-1 complete, 0 ready)."""
    return _hand_distances(keys)[2 * (MAX_MELDS - melds) + 1] - wilds - 1


def shanten_seven_pairs(
    keys: Keys, form: SevenPairsForm = "quads", melds: int = 0, wilds: int = 0
) -> int | None:
    """Shanten of the seven-pairs form, or None when melds are exposed or tiles are too few."""
    tiles, pairs, distinct, kinds = _tally(keys)
    if melds or tiles + wilds < 13:
        return None
    if form == "quads":
        return seven_pairs_shanten(form, pairs, kinds, wilds, tiles - 2 * pairs)
    return seven_pairs_shanten(form, distinct, kinds, wilds, kinds - distinct)


def seven_pairs_shanten(
    form: SevenPairsForm, pairs: int, kinds: int, wilds: int = 0, lone: int = 0
) -> int:
    """Seven-pairs shanten from the pairs (as ``form`` counts them) and the distinct tiles held.

    Each wild pairs a ``lone`` tile (held an odd number of times with quads, once with
    distinct pairs), or else starts a new kind that the next wild pairs.
    """
    while wilds:
        wilds -= 1
        if lone:
            lone -= 1
            pairs += 1
        else:
            lone += 1
            kinds += 1
    if form == "quads":
        return 6 - min(pairs, 7)
    return 6 - pairs + max(0, 7 - kinds)


def shanten(
    keys: Keys, melds: int = 0, form: SevenPairsForm | None = "quads", wilds: int = 0
) -> int:
    """The smaller of the standard and (unless ``form`` is None) the seven-pairs shanten."""
    best = _hand_distances(keys)[2 * (MAX_MELDS - melds) + 1] - wilds - 1
    if form is not None and not melds and best >= 0:
        seven = shanten_seven_pairs(keys, form, 0, wilds)
        if seven is not None and seven < best:
            best = seven
    return best


def is_winning(keys: Keys, form: SevenPairsForm | None = "quads", wilds: int = 0) -> bool:
    """Complete in the standard form, or as seven pairs when ``form`` allows it."""
    complete = is_complete_with_wilds(keys, wilds) if wilds else is_complete(keys)
    return complete or (form is not None and seven_pairs(keys, form, wilds) is not None)


def waits(
    keys: Keys,
    form: SevenPairsForm | None = "quads",
    copies: int = 4,
    playable: int = -1,
    wilds: int = 0,
) -> list[Tile]:
    """Tiles that would complete the hand; a tile the hand holds all copies of is no wait,
    nor one out of ``playable`` (bits by tile id, ``TileSet.playable()``: all by default).

    With wilds these are the tiles other than a wild; drawing a wild completes every ready hand.
    """
    if not wilds and no_wait(keys, form):
        return []
    result = []
    for suit, key in enumerate(keys):
        for rank in range(ranks_of(key)):
            if (key // POW[rank]) % 5 >= copies:
                continue
            tile = suit * RANKS + rank
            if not playable >> tile & 1:
                continue
            if is_winning(add_tile(keys, tile), form, wilds):
                result.append(tile)
    return result


def completing(keys: Keys, seven_pairs: bool = False) -> int:
    """The tiles one more copy of which makes the hand complete (``is_complete``), with
    ``seven_pairs`` also seven pairs of the "quads" form, as bits by tile id; a tile held
    four times is none.  Read from the tables: only a block that is not melds alone, or
    melds and the pair, can take the tile."""
    done = [_COMPLETION[key] for key in keys]
    found = 0
    for block, key in enumerate(keys):
        others = 1
        for i, c in enumerate(done):
            if i != block:
                others *= c
        if others not in (1, 2):
            continue
        want = 3 - others  # the block must end with the pair (2) or melds alone (1)
        for rank in range(ranks_of(key)):
            p = POW[rank]
            if (key // p) % 5 < 4 and _COMPLETION[key + p] == want:
                found |= 1 << (block * RANKS + rank)
    if seven_pairs:
        size, pairs, _, _ = _tally(keys)
        if size == 13 and pairs == 6:  # the one tile held an odd number of times
            counts = counts_of(keys)
            found |= 1 << next(t for t, n in enumerate(counts) if n % 2)
    return found


def no_wait(keys: Keys, form: SevenPairsForm | None) -> bool:
    """True when no one tile added can complete the hand, read from the tables: most hands
    are not ready, and trying each of the 27 tiles costs far more."""
    size, pairs, _, _ = _tally(keys)
    if size % 3 != 1:
        return True  # a complete hand has 3n + 2 tiles
    if form is not None and size == 13 and pairs >= 6:
        return False  # one tile may make seven pairs (a distinct pair is also one here)
    if [_COMPLETION[key] for key in keys].count(0) >= 2:
        return True  # one tile mends one suit at most
    needed = (size - 1) // 3
    return needed <= MAX_MELDS and _hand_distances(keys)[2 * needed + 1] > 1


def count_complete_hands(
    size: int = 14,
    suits: int = 3,
    form: Literal["standard"] | SevenPairsForm = "standard",
    wilds: int = 0,
    *,
    ready: bool = False,
    dealt: bool = False,
) -> int:
    """How many distinct concealed hands of ``size`` tiles over ``suits`` suits are complete
    (or, with ``ready``, are ready: shanten 0), ``wilds`` of the tiles being wilds.

    With ``dealt``, hands are counted as dealt from the physical tiles: a kind held ``c``
    times in ``C(4, c)`` ways, and the wilds as ``wilds`` of four wild tiles.  Counted from
    the tables: suit keys grouped by tile count and distance id (standard) or tally (seven
    pairs, which needs 13 or 14 tiles), the groups of the suits then combined.
    """
    seven = form != "standard"
    if seven and size + ready != 14:
        raise ValueError("seven pairs are counted over 14-tile hands (13 with ready)")
    target = 0 if ready else -1
    slot = 2 * ((size - 1) // 3) + 1
    need = size - wilds
    last = {}  # the last suit's groups by tile count
    for m, stat, ways in _suit_groups(seven, dealt):
        last.setdefault(m, []).append((stat, ways))
    count = 0
    for (n, stat), ways in _combined_groups(suits - 1, seven, dealt).items():
        for suit_stat, suit_ways in last.get(need - n, ()):
            if seven:
                tiles, quad_pairs, distinct, kinds = untally(stat + suit_stat)
                if form == "quads":
                    pairs, lone = quad_pairs, tiles - 2 * quad_pairs
                else:
                    pairs, lone = distinct, kinds - distinct
                shanten_ = seven_pairs_shanten(form, pairs, kinds, wilds, lone)
            else:
                shanten_ = _VECTORS[_combine(stat, suit_stat)][slot] - wilds - 1
            if shanten_ == target:
                count += ways * suit_ways
    return count * comb(4, wilds) if dealt else count


@cache
def _combined_groups(suits: int, seven: bool, dealt: bool) -> dict[tuple[int, int], int]:
    """Hands over ``suits`` suits of at most 14 tiles by (tiles, stat): how many (or their
    dealt ways), stat being the combined distance id or the summed tally."""
    ways = {(0, 0 if seven else _DISTANCE_ID[0]): 1}
    for _ in range(suits):
        grown: dict[tuple[int, int], int] = {}
        for (n, stat), count in ways.items():
            for m, suit_stat, suit_count in _suit_groups(seven, dealt):
                if n + m <= 3 * MAX_MELDS + 2:
                    key = (n + m, stat + suit_stat if seven else _combine(stat, suit_stat))
                    grown[key] = grown.get(key, 0) + count * suit_count
        ways = grown
    return ways


@cache
def _suit_groups(seven: bool, dealt: bool) -> tuple[tuple[int, int, int], ...]:
    """(tiles, stat, number of keys or their dealt ways) over the keys of at most 14 tiles."""
    import numpy as np

    tally = np.frombuffer(_TALLY, dtype=np.int32)[:HONOUR]  # suits only
    tiles = tally & 63
    keep = tiles <= 3 * MAX_MELDS + 2
    distance_id = np.frombuffer(_DISTANCE_ID, dtype=np.int16)[:HONOUR]
    stat = tally if seven else distance_id.astype(np.int64)
    weight = np.ones(len(tally), dtype=np.float64)
    if dealt:
        keys = np.arange(len(tally))
        for power in POW:
            weight *= np.array([comb(4, c) for c in range(5)])[keys // power % 5]
    code = stat.astype(np.int64)[keep] * 16 + tiles[keep]
    unique, inverse = np.unique(code, return_inverse=True)
    totals = np.bincount(inverse.reshape(-1), weights=weight[keep])  # exact below 2**53
    return tuple((int(c % 16), int(c // 16), round(w)) for c, w in zip(unique, totals, strict=True))
