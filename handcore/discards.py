"""Which discard keeps a hand closest to ready, and with how many live tiles (牌效率).

For every distinct tile of a hand that must discard, the table gives the shanten after
the discard and the *accepted tiles*: draws that lower it, each with the number of copies
still live (not in the hand, the discard included, and not already visible).

A draw changes one suit's key only.  What drawing into a suit does depends on the suit's
*signature* (its distance id and the ids after each possible draw) and on the distance
vector of the rest of the hand; both take few values (121,947 signatures, a few hundred
vectors), so the answer is remembered per (signature, rest, melds) and shared by every
hand and every discard that meets it again.  Accepted tiles are kept as a bit mask over
tile ids, so that one popcount counts their live copies (see ``_unary``) and the
seven-pairs draws after a discard are the whole hand's with the discarded tile's bit
redone; the tuples of tiles and live copies are built only when asked for.

With wilds (see ``shapes``) the keys hold the other tiles: a draw lowers the standard
shanten exactly when it lowers the non-wild tiles' distance, so the same answers serve,
the shanten less the wilds.  Wilds are never among the discards listed; drawing a wild
lowers the shanten whenever drawing some tile does.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from typing import NamedTuple, TypeVar

from handcore import shapes
from handcore.shapes import Keys, SevenPairsForm
from handcore.suit_tables import COPIES, MAX_MELDS, POW, RANKS, ranks_of
from handcore.tiles import Tile

_DISTANCE_ID = shapes._DISTANCE_ID
_T = shapes._T
_SIGNATURE = _T.signature
_SIGNATURES = _T.signatures
_VECTORS = shapes._VECTORS
_combine = shapes._combine
_EMPTY = _DISTANCE_ID[0]
_SUIT_COLUMNS = tuple(zip(*_T.distance_vectors, strict=True))
"""By slot of a distance vector: each suit distance id's value there."""
_NO_DRAW = 255
if len(_T.distance_vectors) >= _NO_DRAW:
    raise AssertionError("suit distance ids no longer fit in a byte")
# A memo key of ``_distances``: rest * _REST_STEP + slot.
_REST_STEP = 1 << 4
_HAND_TILES = 3 * MAX_MELDS + 2

K = TypeVar("K")
V = TypeVar("V")
_MEMO_LIMIT = 1_000_000
_SUIT_MASK = (1 << RANKS) - 1
_RANKS_IN_MASK = [tuple(r for r in range(RANKS) if mask >> r & 1) for mask in range(1 << RANKS)]


class DiscardOption(NamedTuple):
    """One discard: the shanten it leaves, the tiles that would then help and their live copies."""

    discard: Tile
    shanten: int
    live_total: int
    """Live copies of all accepted tiles together."""
    mask: int
    """Accepted tiles as bits by tile id (bit ``t`` for tile ``t``)."""
    live_of: Sequence[int]
    """Live copies of every tile of the hand's tile set, by tile id."""

    @property
    def accepted(self) -> tuple[Tile, ...]:
        """The accepted tiles, in tile order."""
        return _tiles_in(self.mask)

    @property
    def live(self) -> tuple[int, ...]:
        """Live copies of each accepted tile, in the same order."""
        return tuple(map(self.live_of.__getitem__, _tiles_in(self.mask)))


def _tiles_in(mask: int) -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    base = 0
    while mask:
        tiles.extend(base + r for r in _RANKS_IN_MASK[mask & _SUIT_MASK])
        mask >>= RANKS
        base += RANKS
    return tuple(tiles)


_drawing_memo: dict[bytes, int] = {}
_distances_memo: dict[int, bytes] = {}
_joined_memo: dict[int, bytes] = {}
_Discards = tuple[tuple[int, tuple[tuple[int, int, int], ...]], ...]
_rows_memo: dict[int, _Discards] = {}
_seven_memo: dict[int, int] = {}
_digits_memo: dict[int, tuple[int, ...]] = {}
_held_memo: dict[int, bytes] = {}
_signature_memo: dict[int, bytes] = {}


def _remember(memo: dict[K, V], key: K, value: V) -> V:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def _digits(key: int) -> tuple[int, ...]:
    """Copies held of each rank of a suit key."""
    found = _digits_memo.get(key)
    if found is None:
        found = _remember(_digits_memo, key, tuple((key // p) % 5 for p in POW))
    return found


def _signature_bytes(signature: int) -> bytes:
    """A signature's ten distance ids as bytes (-1, no draw, as 255): translated through
    ``_distances``, they give a suit's distances."""
    found = _signature_memo.get(signature)
    if found is None:
        found = bytes(i & _NO_DRAW for i in _SIGNATURES[signature])
        found = _remember(_signature_memo, signature, found)
    return found


def _distances(rest: int, slot: int) -> bytes:
    """By suit distance id: the hand distance at ``slot`` of a suit of that id with the rest
    of the hand of distance vector ``rest`` (255 for no id), as a ``bytes.translate`` table.

    Few (rest, slot) pairs occur, so every suit met with that rest is answered by one
    translate of its signature's bytes (see ``_drawing``) and no memo of suit and rest."""
    memo_key = rest * _REST_STEP + slot
    found = _distances_memo.get(memo_key)
    if found is None:
        other = _VECTORS[rest]
        best: list[int] = []
        for i, j in shapes._SPLITS[slot]:  # every suit id at once, a split at a time
            column = [n + other[j] for n in _SUIT_COLUMNS[i]]
            best = list(map(min, best, column)) if best else column
        table = bytearray([_NO_DRAW]) * 256
        table[: len(best)] = bytes(best)
        found = _remember(_distances_memo, memo_key, bytes(table))
    return found


def _joined_distances(suit_id: int, rest: int, slot: int) -> bytes:
    """``_distances`` with the rest of the hand a suit of distance id ``suit_id`` and the
    vector ``rest`` together, remembered as such (one lookup instead of two)."""
    found = _distances(_combine(suit_id, rest), slot)
    return _remember(_joined_memo, (suit_id << 16 | rest) * _REST_STEP + slot, found)


def _drawing(distances: bytes) -> int:
    """The hand distance and the ranks whose draw lowers it, from a suit's distances (its own,
    then after drawing each rank: a signature's bytes translated by ``_distances``), packed
    in one int, ``distance << RANKS | ranks``."""
    found = _drawing_memo.get(distances)
    if found is None:
        distance = distances[0]
        mask = 0
        for rank in range(RANKS):
            if distances[rank + 1] < distance:
                mask |= 1 << rank
        found = _remember(_drawing_memo, distances, distance << RANKS | mask)
    return found


def _signature_of(key: int) -> bytes:
    """The bytes of the signature of a suit key (see ``_signature_bytes``)."""
    return _signature_bytes(_SIGNATURE[key])


def _suit_drawing(signature: int, rest: int, slot: int) -> int:
    """``_drawing`` of a suit of ``signature`` when the rest of the hand has distance
    vector ``rest``."""
    return _drawing(_signature_bytes(signature).translate(_distances(rest, slot)))


def _room(key: int, copies: int) -> int:
    """Ranks of which a suit holds fewer than ``copies``: the ones that can still be drawn."""
    mask = 0
    for rank, held in enumerate(_digits(key)):
        if held < copies:
            mask |= 1 << rank
    return mask


def _discard_rows(key: int) -> _Discards:
    """The discards a suit offers, grouped by the suit's distance id after the discard:
    (that id, and for each rank: the rank, the copies held and the signature after, as its
    bytes (``_signature_bytes``)."""
    found = _rows_memo.get(key)
    if found is None:
        groups: dict[int, list[tuple[int, int, int]]] = {}
        for rank, held in enumerate(_digits(key)):
            if held:
                after = key - POW[rank]
                groups.setdefault(_DISTANCE_ID[after], []).append(
                    (rank, held, _signature_of(after))
                )
        rows = tuple((after_id, tuple(group)) for after_id, group in groups.items())
        found = _remember(_rows_memo, key, rows)
    return found


_SevenCounts = tuple[int, int, int]
"""Seven-pairs counts of a hand: pairs (as the form counts them), kinds, lone tiles."""


def _seven_counts(form: SevenPairsForm, tally: tuple[int, int, int, int]) -> _SevenCounts:
    tiles, quad_pairs, distinct_pairs, kinds = tally
    if form == "quads":
        return quad_pairs, kinds, tiles - 2 * quad_pairs
    return distinct_pairs, kinds, kinds - distinct_pairs


def _seven_step(form: SevenPairsForm, counts: _SevenCounts, held: int, n: int) -> _SevenCounts:
    """The counts after a tile held ``held`` times is drawn (``n`` = 1) or discarded (-1)."""
    pairs, kinds, lone = counts
    now = held + (n > 0)  # the larger of the counts before and after
    kinds += n * (now == 1)
    if form == "quads":
        return pairs + n * (now % 2 == 0), kinds, lone + (n if now % 2 else -n)
    if now == 1:
        return pairs, kinds, lone + n
    if now == 2:
        return pairs + n, kinds, lone - n
    return counts


_helps_memo: dict[tuple[str, _SevenCounts, int, int], int] = {}


def _seven_pairs_helps(form: SevenPairsForm, counts: _SevenCounts, wilds: int, copies: int) -> int:
    """Bits by copies held (0 to ``copies - 1``): whether drawing such a tile lowers the
    seven-pairs shanten.  Without wilds: with quads a tile held an odd number of times; with
    distinct pairs a single, and a new kind while fewer than seven kinds are held."""
    memo_key = (form, counts, wilds, copies)
    found = _helps_memo.get(memo_key)
    if found is None:
        now = shapes.seven_pairs_shanten(form, counts[0], counts[1], wilds, counts[2])
        found = 0
        for held in range(copies):
            pairs, kinds, lone = _seven_step(form, counts, held, 1)
            if shapes.seven_pairs_shanten(form, pairs, kinds, wilds, lone) < now:
                found |= 1 << held
        found = _remember(_helps_memo, memo_key, found)
    return found


def _seven_pairs_mask(key: int, helps: int) -> int:
    """Ranks of one suit whose draw lowers the seven-pairs shanten (``helps`` by copies held)."""
    memo_key = key << 4 | helps
    found = _seven_memo.get(memo_key)
    if found is None:
        mask = 0
        for rank, held in enumerate(_digits(key)[: ranks_of(key)]):
            if helps >> held & 1:
                mask |= 1 << rank
        found = _remember(_seven_memo, memo_key, mask)
    return found


def _seven_pairs_hand_mask(keys: Keys, helps: int) -> int:
    """Tiles of the whole hand whose draw lowers the seven-pairs shanten, as bits by tile id."""
    mask = 0
    for suit, key in enumerate(keys):
        mask |= _seven_pairs_mask(key, helps) << suit * RANKS
    return mask


_Layout = tuple[list[int], list[tuple[tuple[int, int], ...]]]
_layout_memo: dict[tuple[int, ...], _Layout] = {}


def _layout(ids: tuple[int, ...]) -> _Layout:
    """For suits of distance ids ``ids``: the rest of the hand without each suit, and for
    each suit the other suits, each with the rest of the hand without both.

    Each pair's rest is worked out once and each suit's rest is one suit more: the vectors
    combine in any order to the same one (and so the same id)."""
    found = _layout_memo.get(ids)
    if found is None:
        suits = range(len(ids))
        without: dict[tuple[int, int], int] = {}
        for s in suits:
            for o in suits[s + 1 :]:
                acc = _EMPTY
                for x in suits:
                    if x != s and x != o:
                        acc = _combine(acc, ids[x])
                without[s, o] = without[o, s] = acc
        others = [tuple((o, without[s, o]) for o in suits if o != s) for s in suits]
        rests = [_combine(ids[mine[0][0]], mine[0][1]) if mine else _EMPTY for mine in others]
        found = _remember(_layout_memo, ids, (rests, others))
    return found


def accepted_tiles(
    keys: Keys,
    melds: int = 0,
    form: SevenPairsForm | None = "quads",
    copies: int = COPIES,
    playable: int = -1,
    wilds: int = 0,
) -> tuple[int, list[int]]:
    """Shanten of a hand about to draw (3n+1 tiles), and per suit the ranks that would lower it
    (only tiles in ``playable``, bits by tile id as ``TileSet.playable()`` gives them)."""
    if playable != -1:
        shanten, masks = accepted_tiles(keys, melds, form, copies, wilds=wilds)
        return shanten, [mask & playable >> suit * RANKS for suit, mask in enumerate(masks)]
    slot = 2 * (MAX_MELDS - melds) + 1
    rests = _layout(tuple(_DISTANCE_ID[key] for key in keys))[0]
    distance = 0
    masks = []
    for key, rest in zip(keys, rests, strict=True):
        drawn = _suit_drawing(_signature(key), rest, slot)
        distance, mask = drawn >> RANKS, drawn & _SUIT_MASK
        masks.append(mask if copies == COPIES else mask & _room(key, copies))
    standard = distance - wilds - 1
    seven = None if form is None else shapes.shanten_seven_pairs(keys, form, melds, wilds)
    if seven is None or standard < seven:
        return standard, masks
    helps = _seven_pairs_helps(form, _seven_counts(form, shapes._tally(keys)), wilds, copies)
    seven_masks = [_seven_pairs_mask(key, helps) for key in keys]
    if seven < standard:
        return seven, seven_masks
    return seven, [a | b for a, b in zip(masks, seven_masks, strict=True)]


def live_accepted(
    keys: Keys,
    melds: int = 0,
    form: SevenPairsForm | None = "quads",
    visible: Sequence[int] | None = None,
    wilds: int = 0,
) -> tuple[int, int]:
    """Shanten of a hand about to draw (3n+1 tiles) and the live copies of the tiles that
    would lower it (not in the hand, and not among ``visible``, counted by tile id)."""
    shanten, masks = accepted_tiles(keys, melds, form, wilds=wilds)
    mask = 0
    for suit, suit_mask in enumerate(masks):
        mask |= suit_mask << suit * RANKS
    unary = _live_of(keys, visible, COPIES)[1]
    return shanten, (unary & mask * _copy_layers(len(keys) * RANKS)[-1]).bit_count()


def _signature(key: int) -> int:
    signature = _SIGNATURE[key]
    if signature < 0:
        raise ValueError(f"a suit holding {sum(_digits(key))} tiles cannot draw another")
    return signature


def _live_of(keys: Keys, visible: Sequence[int] | None, copies: int) -> tuple[bytes, int]:
    """Live copies of every tile (not in the hand and not visible elsewhere): by tile id,
    and in unary (see ``_unary``).

    Worked out a byte per tile, with no Python loop over the tiles: the copies held and
    those visible add up as two ints of those bytes (no byte exceeds 8, so none carries)
    and ``bytes.translate`` turns what is seen into what is live."""
    width = len(keys) * RANKS
    held = b"".join(map(_held_bytes, keys))
    if visible is None:
        seen = held
    elif len(visible) < width:  # a shorter count: its tiles alone are counted
        seen = bytes(n + v for n, v in zip(held, visible, strict=False))
    else:
        total = int.from_bytes(held, "little") + int.from_bytes(bytes(visible[:width]), "little")
        seen = total.to_bytes(width, "little")
    live = seen.translate(_live_after(copies))
    return live, _unary(live, width)


@cache
def _live_after(copies: int) -> bytes:
    """By copies seen, the copies live: a ``bytes.translate`` table."""
    return bytes(max(copies - seen, 0) for seen in range(256))


_MORE_THAN = [bytes(b"01"[n > layer] for n in range(256)) for layer in range(COPIES)]
"""By copy layer j, a ``bytes.translate`` table: "1" for a count above j, else "0"."""


def _held_bytes(key: int) -> bytes:
    """The copies held of each rank of a suit key, a byte each."""
    found = _held_memo.get(key)
    if found is None:
        found = _remember(_held_memo, key, bytes(_digits(key)))
    return found


@cache
def _copy_layers(width: int) -> list[int]:
    """By count n: bit 0 of each of n copy layers of ``width`` bits (see ``_unary``)."""
    return [sum(1 << layer * width for layer in range(n)) for n in range(COPIES + 1)]


def _unary(live: bytes, width: int) -> int:
    """Live copies in unary, so that one popcount sums them over any set of tiles.

    Copy layer ``j`` (bits ``j * width`` up) holds tile ``t``'s bit when more than ``j`` of
    its copies are live.  A mask of tiles times the repeater ``_copy_layers(width)[-1]`` is
    that mask in every layer, so the live copies of the masked tiles are
    ``(unary & mask * repeater).bit_count()``.  Each layer is read as a binary numeral
    from the counts, the last tile first.
    """
    digits = live[::-1]
    if not digits:
        return 0
    unary = 0
    for layer, more_than in enumerate(_MORE_THAN):
        unary |= int(digits.translate(more_than), 2) << layer * width
    return unary


def discard_table(
    keys: Keys,
    melds: int = 0,
    visible: Sequence[int] | None = None,
    form: SevenPairsForm | None = "quads",
    copies: int = COPIES,
    playable: int = -1,
    wilds: int = 0,
    only: int | None = None,
) -> list[DiscardOption]:
    """Every distinct discard of a hand that must discard (3n+2 tiles), best first.

    Best means lowest shanten, then most live accepted tiles, then most kinds accepted.
    ``visible`` counts tiles seen outside the hand (discards, others' melds), by tile.
    Only tiles in ``playable`` (bits by tile id, ``TileSet.playable()``) are accepted.
    ``wilds`` are held besides ``keys`` and never discarded here.  With ``only``, the
    discards of that suit (block) alone: the rows the whole table ranks among them.
    """
    slot = 2 * (MAX_MELDS - melds) + 1
    rests, others_of = _layout(tuple(_DISTANCE_ID[key] for key in keys))
    own_signature = [_signature_of(key) for key in keys]
    live, live_copies = _live_of(keys, visible, copies)
    repeater = _copy_layers(len(keys) * RANKS)[-1]
    tally = shapes._tally(keys)
    tiles = tally[0] + wilds
    if tiles > _HAND_TILES:
        raise ValueError(f"a hand that must discard holds at most {_HAND_TILES} tiles")
    seven_after = (
        _seven_pairs_after(form, _seven_counts(form, tally), wilds, copies)
        if form is not None and not melds and tiles == _HAND_TILES
        else _NO_SEVEN_PAIRS
    )
    sevens = [seven for seven, _, _ in seven_after]
    seven_masks: dict[int, int] = {}
    # With every copy in play the tables themselves refuse a fifth copy.
    full = _full_tiles(keys, copies) if copies < COPIES else 0
    trim = playable != -1
    drawing = _drawing_memo.get
    distances = _distances_memo.get
    joined = _joined_memo.get
    # Each row leads with its rank (lowest shanten, most live copies, most kinds, then by
    # tile), so that plain tuple order sorts the rows best first.
    ranked = []
    for suit, key in enumerate(keys):
        if only is not None and suit != only:
            continue
        rest = rests[suit]
        own = distances(rest * _REST_STEP + slot) or _distances(rest, slot)
        base = suit * RANKS
        others = others_of[suit]
        for after_id, rows in _discard_rows(key):
            # Discards that leave their suit with the same distance id help the other
            # suits by the same draws.
            other_mask = 0
            for other, pair_rest in others:
                at = (after_id << 16 | pair_rest) * _REST_STEP + slot
                table = joined(at) or _joined_distances(after_id, pair_rest, slot)
                pattern = own_signature[other].translate(table)
                found = drawing(pattern)
                if found is None:
                    found = _drawing(pattern)
                other_mask |= (found & _SUIT_MASK) << other * RANKS
            for rank, held, signature in rows:
                pattern = signature.translate(own)
                drawn = drawing(pattern)
                if drawn is None:
                    drawn = _drawing(pattern)
                tile = base + rank
                shanten = (drawn >> RANKS) - wilds - 1
                mask = other_mask | (drawn & _SUIT_MASK) << base
                if sevens[held] <= shanten:
                    seven, helps, pair_again = seven_after[held]
                    # Seven pairs is as near (its draws help too) or nearer (instead).
                    pairing = seven_masks.get(helps)
                    if pairing is None:
                        pairing = seven_masks[helps] = _seven_pairs_hand_mask(keys, helps)
                    pairing = pairing & ~(1 << tile) | pair_again << tile
                    mask = pairing if seven < shanten else mask | pairing
                    shanten = seven
                if full:
                    mask &= ~full | 1 << tile
                if trim:
                    mask &= playable
                live_total = (live_copies & mask * repeater).bit_count()
                ranked.append((shanten, -live_total, -mask.bit_count(), tile, mask))
    ranked.sort()
    return [
        _new_option((tile, shanten, -minus_live, mask, live))
        for shanten, minus_live, _, tile, mask in ranked
    ]


# Built straight from a tuple: NamedTuple's own __new__ is a Python call, one per row.
_new_option = partial(tuple.__new__, DiscardOption)


def _full_tiles(keys: Keys, copies: int) -> int:
    """Tiles the hand holds every copy of, as bits by tile id: they cannot be drawn."""
    full = 0
    for suit, key in enumerate(keys):
        full |= (_SUIT_MASK & ~_room(key, copies)) << suit * RANKS
    return full


_SevenAfter = list[tuple[int, int, bool]]
_seven_after_memo: dict[tuple[str, _SevenCounts, int, int], _SevenAfter] = {}
_NO_SEVEN_PAIRS: _SevenAfter = [(_HAND_TILES, 0, False)] * (COPIES + 1)


def _seven_pairs_after(
    form: SevenPairsForm, counts: _SevenCounts, wilds: int, copies: int
) -> _SevenAfter:
    """After discarding a tile held ``held`` times, by ``held``: the seven-pairs shanten,
    which draws then help (by copies held, see ``_seven_pairs_helps``), and whether drawing
    the discarded tile back helps.

    With one tile fewer these depend only on that count: a pair is lost from an even count
    (quads) or from a plain pair (distinct), a kind from a single.
    """
    memo_key = (form, counts, wilds, copies)
    found = _seven_after_memo.get(memo_key)
    if found is None:
        found = _seven_after_memo[memo_key] = [_NO_SEVEN_PAIRS[0]]
        for held in range(1, copies + 1):
            after = _seven_step(form, counts, held, -1)
            helps = _seven_pairs_helps(form, after, wilds, copies)
            found.append(
                (
                    shapes.seven_pairs_shanten(form, *after[:2], wilds, after[2]),
                    helps,
                    bool(helps >> (held - 1) & 1),
                )
            )
    return found
