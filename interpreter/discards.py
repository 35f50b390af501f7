"""Which discard keeps a hand closest to ready, and with how many live tiles (牌效率).

For every distinct tile of a hand that must discard, the table gives the shanten after
the discard and the *accepted tiles*: draws that lower it, each with the number of copies
still live (not in the hand, the discard included, and not already visible).

A draw changes one suit's key only.  What drawing into a suit does depends on the suit's
*signature* (its distance id and the ids after each possible draw) and on the distance
vector of the rest of the hand; both take few values (98,791 signatures, a few hundred
vectors), so the answer is remembered per (signature, rest, melds) and shared by every
hand and every discard that meets it again.  Accepted tiles are kept as a bit mask over
tile ids; the tuples of tiles and live copies are built only when asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

from interpreter import shapes
from interpreter.shapes import Keys, SevenPairsForm
from interpreter.suit_tables import COPIES, MAX_MELDS, POW, RANKS
from interpreter.tiles import Tile

_DISTANCE_ID = shapes._DISTANCE_ID
_SIGNATURE = shapes._T.signature
_SIGNATURES = shapes._T.signatures
_VECTORS = shapes._VECTORS
_combine = shapes._combine
_COMBINED = shapes._COMBINED
_EMPTY = _DISTANCE_ID[0]
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


_drawing_memo: dict[int, tuple[int, int]] = {}
_Discards = tuple[tuple[int, tuple[tuple[int, int, int], ...]], ...]
_rows_memo: dict[int, _Discards] = {}
_seven_memo: dict[int, int] = {}
_digits_memo: dict[int, tuple[int, ...]] = {}


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


def _drawing(signature: int, rest: int, slot: int) -> tuple[int, int]:
    """(hand distance, ranks whose draw lowers it) for a suit of ``signature`` when the rest
    of the hand combines to the distance vector ``rest``."""
    memo_key = (signature * 4096 + rest) * 16 + slot
    found = _drawing_memo.get(memo_key)
    if found is None:
        own, *grown = _SIGNATURES[signature]
        combined = _COMBINED.get
        distance = _VECTORS[combined(own << 16 | rest) or _combine(own, rest)][slot]
        mask = 0
        for rank, after in enumerate(grown):
            if (
                after >= 0
                and _VECTORS[combined(after << 16 | rest) or _combine(after, rest)][slot] < distance
            ):
                mask |= 1 << rank
        found = _remember(_drawing_memo, memo_key, (distance, mask))
    return found


def _room(key: int, copies: int) -> int:
    """Ranks of which a suit holds fewer than ``copies``: the ones that can still be drawn."""
    mask = 0
    for rank, held in enumerate(_digits(key)):
        if held < copies:
            mask |= 1 << rank
    return mask


def _discard_rows(key: int) -> _Discards:
    """The discards a suit offers, grouped by the suit's distance id after the discard:
    (that id, and for each rank: the rank, the copies held and the signature after)."""
    found = _rows_memo.get(key)
    if found is None:
        groups: dict[int, list[tuple[int, int, int]]] = {}
        for rank, held in enumerate(_digits(key)):
            if held:
                after = key - POW[rank]
                groups.setdefault(_DISTANCE_ID[after], []).append((rank, held, _SIGNATURE[after]))
        rows = tuple((after_id, tuple(group)) for after_id, group in groups.items())
        found = _remember(_rows_memo, key, rows)
    return found


def _seven_pairs_mask(key: int, form: SevenPairsForm, new_kind_helps: bool, copies: int) -> int:
    """Ranks of one suit whose draw lowers the seven-pairs shanten.

    With quads a tile held an odd number of times makes a pair.  With distinct pairs a
    single makes a pair, and a new kind helps while fewer than seven kinds are held.
    """
    memo_key = ((key * 2 + (form == "quads")) * 2 + new_kind_helps) * 8 + copies
    found = _seven_memo.get(memo_key)
    if found is not None:
        return found
    mask = 0
    for rank, n in enumerate(_digits(key)):
        if n < copies and (
            n % 2 == 1 if form == "quads" else n == 1 or (n == 0 and new_kind_helps)
        ):
            mask |= 1 << rank
    return _remember(_seven_memo, memo_key, mask)


def _combined(ids: Sequence[int], skip: set[int]) -> int:
    """Distance-vector id of the suits not in ``skip`` taken together."""
    acc = _EMPTY
    for suit, suit_id in enumerate(ids):
        if suit not in skip:
            acc = _combine(acc, suit_id)
    return acc


_layout_memo: dict[tuple[int, ...], tuple[list[int], list[list[int]]]] = {}


def _layout(ids: tuple[int, ...]) -> tuple[list[int], list[list[int]]]:
    """For suits of distance ids ``ids``: the rest of the hand without each suit, and
    without each pair of suits (``[suit][other]``)."""
    found = _layout_memo.get(ids)
    if found is None:
        suits = range(len(ids))
        found = _remember(
            _layout_memo,
            ids,
            (
                [_combined(ids, {s}) for s in suits],
                [[_combined(ids, {s, o}) for o in suits] for s in suits],
            ),
        )
    return found


def accepted_tiles(
    keys: Keys,
    melds: int = 0,
    form: SevenPairsForm | None = "quads",
    copies: int = COPIES,
) -> tuple[int, list[int]]:
    """Shanten of a hand about to draw (3n+1 tiles), and per suit the ranks that would lower it."""
    slot = 2 * (MAX_MELDS - melds) + 1
    rests = _layout(tuple(_DISTANCE_ID[key] for key in keys))[0]
    distance = 0
    masks = []
    for key, rest in zip(keys, rests, strict=True):
        distance, mask = _drawing(_signature(key), rest, slot)
        masks.append(mask if copies == COPIES else mask & _room(key, copies))
    standard = distance - 1
    seven = None if form is None else shapes.shanten_seven_pairs(keys, form, melds)
    if seven is None or standard < seven:
        return standard, masks
    new_kind_helps = form == "distinct" and shapes._tally(keys)[3] < 7
    seven_masks = [_seven_pairs_mask(key, form, new_kind_helps, copies) for key in keys]
    if seven < standard:
        return seven, seven_masks
    return seven, [a | b for a, b in zip(masks, seven_masks, strict=True)]


def _signature(key: int) -> int:
    signature = _SIGNATURE[key]
    if signature < 0:
        raise ValueError(f"a suit holding {sum(_digits(key))} tiles cannot draw another")
    return signature


def _live_of(keys: Keys, visible: Sequence[int] | None, copies: int) -> list[int]:
    """Live copies of every tile: not in the hand and not visible elsewhere."""
    live = [copies - n for key in keys for n in _digits(key)]
    if visible is not None:
        live = [n - v if n > v else 0 for n, v in zip(live, visible, strict=False)]
    return live


def discard_table(
    keys: Keys,
    melds: int = 0,
    visible: Sequence[int] | None = None,
    form: SevenPairsForm | None = "quads",
    copies: int = COPIES,
) -> list[DiscardOption]:
    """Every distinct discard of a hand that must discard (3n+2 tiles), best first.

    Best means lowest shanten, then most live accepted tiles, then most kinds accepted.
    ``visible`` counts tiles seen outside the hand (discards, others' melds), by tile.
    """
    slot = 2 * (MAX_MELDS - melds) + 1
    ids = tuple(_DISTANCE_ID[key] for key in keys)
    rests, pair_rests = _layout(ids)
    signatures = [_SIGNATURE[key] for key in keys]
    live = _live_of(keys, visible, copies)
    suit_live = [live[base : base + RANKS] for base in range(0, len(live), RANKS)]
    tiles, quad_pairs, distinct_pairs, kinds = shapes._tally(keys)
    if tiles > _HAND_TILES:
        raise ValueError(f"a hand that must discard holds at most {_HAND_TILES} tiles")
    seven_after = (
        _seven_pairs_after(form, quad_pairs if form == "quads" else distinct_pairs, kinds, copies)
        if form is not None and not melds and tiles == _HAND_TILES
        else _NO_SEVEN_PAIRS
    )
    drawing = _drawing_memo.get
    seven_parts: dict[tuple[int, int, bool], tuple[int, int]] = {}
    options = []
    for suit, key in enumerate(keys):
        rest = rests[suit]
        base = suit * RANKS
        own_live = suit_live[suit].__getitem__
        for after_id, rows in _discard_rows(key):
            # Discards that leave their suit with the same distance id help the other
            # suits by the same draws.
            other_mask, other_live = _other_suits(
                signatures, pair_rests[suit], suit, after_id, slot, keys, copies, suit_live
            )
            for rank, held, after_signature in rows:
                found = drawing((after_signature * 4096 + rest) * 16 + slot)
                distance, own = found or _drawing(after_signature, rest, slot)
                if copies != COPIES:
                    own &= _room(key - POW[rank], copies)
                shanten = distance - 1
                seven = seven_after[held]
                if seven > shanten:
                    live_total = other_live + sum(map(own_live, _RANKS_IN_MASK[own]))
                    mask = other_mask | own << base
                else:
                    # Seven pairs is as near (its draws help too) or nearer (instead).
                    both = seven == shanten
                    shanten = seven
                    new_kind_helps = form == "distinct" and kinds - (held == 1) < 7
                    part = (suit, after_id if both else -1, new_kind_helps)
                    others = seven_parts.get(part)
                    if others is None:
                        others = seven_parts[part] = _seven_pairs_beside(
                            keys, suit, other_mask if both else 0, form, new_kind_helps, copies,
                            suit_live,
                        )  # fmt: skip
                    own = _seven_pairs_mask(key - POW[rank], form, new_kind_helps, copies) | (
                        own if both else 0
                    )
                    mask = others[0] | own << base
                    live_total = others[1] + sum(map(own_live, _RANKS_IN_MASK[own]))
                options.append(DiscardOption(base + rank, shanten, live_total, mask, live))
    options.sort(key=_best_first)
    return options


def _best_first(option: DiscardOption) -> tuple[int, int, int, int]:
    return option.shanten, -option.live_total, -option.mask.bit_count(), option.discard


def _other_suits(
    signatures: Sequence[int],
    pair_rests: Sequence[int],
    suit: int,
    after_id: int,
    slot: int,
    keys: Keys,
    copies: int,
    suit_live: Sequence[Sequence[int]],
) -> tuple[int, int]:
    """After a discard leaves ``suit`` with distance id ``after_id``: the tiles of the other
    suits whose draw helps (a mask over tile ids) and their live copies."""
    mask = 0
    total = 0
    for other, signature in enumerate(signatures):
        if other == suit:
            continue
        rest = _COMBINED.get(after_id << 16 | pair_rests[other]) or _combine(
            after_id, pair_rests[other]
        )
        found = _drawing_memo.get((signature * 4096 + rest) * 16 + slot)
        ranks = (found or _drawing(signature, rest, slot))[1]
        if copies != COPIES:
            ranks &= _room(keys[other], copies)
        mask |= ranks << other * RANKS
        total += sum(map(suit_live[other].__getitem__, _RANKS_IN_MASK[ranks]))
    return mask, total


def _seven_pairs_beside(
    keys: Keys,
    suit: int,
    standard: int,
    form: SevenPairsForm,
    new_kind_helps: bool,
    copies: int,
    suit_live: Sequence[Sequence[int]],
) -> tuple[int, int]:
    """The tiles of the suits other than ``suit`` whose draw helps seven pairs, with the
    standard form's ``standard`` (a mask over tile ids) added, and their live copies."""
    mask = 0
    total = 0
    for other, key in enumerate(keys):
        if other != suit:
            ranks = _seven_pairs_mask(key, form, new_kind_helps, copies)
            ranks |= standard >> other * RANKS & _SUIT_MASK
            mask |= ranks << other * RANKS
            total += sum(map(suit_live[other].__getitem__, _RANKS_IN_MASK[ranks]))
    return mask, total


_seven_after_memo: dict[tuple[str, int, int, int], list[int]] = {}
_NO_SEVEN_PAIRS = [_HAND_TILES] * (COPIES + 1)


def _seven_pairs_after(form: SevenPairsForm, pairs: int, kinds: int, copies: int) -> list[int]:
    """Seven-pairs shanten after discarding a tile held ``held`` times, by ``held``.

    With one tile fewer it depends only on that count: a pair is lost from an even count
    (quads) or from a plain pair (distinct), a kind from a single.
    """
    memo_key = (form, pairs, kinds, copies)
    found = _seven_after_memo.get(memo_key)
    if found is None:
        found = _seven_after_memo[memo_key] = [_HAND_TILES] + [
            shapes.seven_pairs_shanten(
                form,
                pairs - (held % 2 == 0 if form == "quads" else held == 2),
                kinds - (held == 1),
            )
            for held in range(1, copies + 1)
        ]
    return found
