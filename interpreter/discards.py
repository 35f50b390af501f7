"""Which discard keeps a hand closest to ready, and with how many live tiles (牌效率).

For every distinct tile of a hand that must discard, the table gives the shanten after
the discard and the *accepted tiles*: draws that lower it, each with the number of copies
still live (not in the hand, the discard included, and not already visible).

A draw changes one suit's key only, so for each suit the other suits are combined into
one distance vector, and what helps the suit is read from a memo keyed by (suit key,
the other suits' vector): a few hundred vectors exist, and suit keys recur across hands.
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

V = TypeVar("V")
_MEMO_LIMIT = 1_000_000
_RANKS_IN_MASK = [tuple(r for r in range(RANKS) if mask >> r & 1) for mask in range(1 << RANKS)]


class SuitHelp(NamedTuple):
    """What drawing into one suit does, given the rest of the hand."""

    distance: int
    """Tiles the whole hand lacks (shanten + 1)."""
    mask: int
    """Ranks of the suit whose draw lowers ``distance``."""
    tiles: tuple[Tile, ...]
    live: tuple[int, ...]
    """Copies of each of ``tiles`` that the suit does not hold."""
    live_total: int


class DiscardOption(NamedTuple):
    """One discard: the shanten it leaves, the tiles that would then help and their live copies."""

    discard: Tile
    shanten: int
    accepted: tuple[Tile, ...]
    live: tuple[int, ...]
    """Live copies of each accepted tile, in the same order."""
    live_total: int


_help_memo: dict[int, SuitHelp] = {}
_drawing_memo: dict[int, tuple[int, int]] = {}
_discards_memo: dict[int, tuple[tuple[int, int, int, SuitHelp, tuple[int, int]], ...]] = {}
_seven_memo: dict[int, int] = {}
_tiles_of_mask: dict[int, tuple[Tile, ...]] = {}
_not_held: dict[int, tuple[int, ...]] = {}


def _remember(memo: dict[int, V], key: int, value: V) -> V:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def _in_mask(
    suit: int, key: int, mask: int, copies: int
) -> tuple[tuple[Tile, ...], tuple[int, ...]]:
    """The tiles of ``suit`` in ``mask``, and how many copies of each ``key`` does not hold."""
    tiles = _tiles_of_mask.get(suit << RANKS | mask)
    if tiles is None:
        tiles = tuple(suit * RANKS + r for r in _RANKS_IN_MASK[mask])
        _tiles_of_mask[suit << RANKS | mask] = tiles
    not_held = _not_held.get(key * 8 + copies)
    if not_held is None:
        not_held = tuple(copies - (key // p) % 5 for p in POW)
        _remember(_not_held, key * 8 + copies, not_held)
    return tiles, tuple(map(not_held.__getitem__, _RANKS_IN_MASK[mask]))


def _suit_help(suit: int, key: int, others: int, slot: int, copies: int) -> SuitHelp:
    """Drawing into ``suit`` (holding ``key``) when the other suits combine to ``others``."""
    memo_key = (((key * 4096 + others) * 16 + slot) * 8 + copies) * 8 + suit
    found = _help_memo.get(memo_key)
    if found is not None:
        return found
    signature = _SIGNATURE[key] if copies == COPIES else -1
    if signature >= 0:
        distance, mask = _drawing(signature, others, slot)
    else:
        distance = _VECTORS[_combine(_DISTANCE_ID[key], others)][slot]
        mask = 0
        for rank in range(RANKS):
            if (key // POW[rank]) % 5 < copies:
                grown = _DISTANCE_ID[key + POW[rank]]
                if _VECTORS[_combine(grown, others)][slot] < distance:
                    mask |= 1 << rank
    tiles, live = _in_mask(suit, key, mask, copies)
    return _remember(_help_memo, memo_key, SuitHelp(distance, mask, tiles, live, sum(live)))


def _drawing(signature: int, others: int, slot: int) -> tuple[int, int]:
    """(hand distance, ranks whose draw lowers it) for every key of one signature."""
    memo_key = (signature * 4096 + others) * 16 + slot
    found = _drawing_memo.get(memo_key)
    if found is None:
        own, *grown = _SIGNATURES[signature]
        distance = _VECTORS[_combine(own, others)][slot]
        mask = 0
        for rank, after in enumerate(grown):
            if after >= 0 and _VECTORS[_combine(after, others)][slot] < distance:
                mask |= 1 << rank
        found = _remember(_drawing_memo, memo_key, (distance, mask))
    return found


def _suit_discards(
    suit: int, key: int, others: int, slot: int, copies: int, form: SevenPairsForm | None
) -> tuple[tuple[int, int, int, SuitHelp, tuple[int, int]], ...]:
    """For each rank the suit holds: (rank, copies held, the suit's distance id after the
    discard, what drawing into the suit then does, and the ranks that then help seven
    pairs without and with new kinds helping).  Live copies count the discard as seen."""
    form_code = {None: 0, "quads": 1, "distinct": 2}[form]
    memo_key = ((((key * 4096 + others) * 16 + slot) * 8 + copies) * 8 + suit) * 4 + form_code
    found = _discards_memo.get(memo_key)
    if found is None:
        rows = []
        for rank in range(RANKS):
            held = (key // POW[rank]) % 5
            if held:
                after = key - POW[rank]
                draw = _suit_help(suit, after, others, slot, copies)
                live = _in_mask(suit, key, draw.mask, copies)[1]
                draw = draw._replace(live=live, live_total=sum(live))
                seven = (0, 0)
                if form is not None:
                    seven = (
                        _seven_pairs_mask(after, form, False, copies),
                        _seven_pairs_mask(after, form, True, copies),
                    )
                rows.append((rank, held, _DISTANCE_ID[after], draw, seven))
        found = _remember(_discards_memo, memo_key, tuple(rows))
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
    for rank in range(RANKS):
        n = (key // POW[rank]) % 5
        if n < copies and (
            n % 2 == 1 if form == "quads" else n == 1 or (n == 0 and new_kind_helps)
        ):
            mask |= 1 << rank
    return _remember(_seven_memo, memo_key, mask)


def _others_combined(ids: Sequence[int], skip: int) -> int:
    """Distance-vector id of every suit but ``skip`` taken together."""
    rest = [*ids[:skip], *ids[skip + 1 :]]
    if not rest:
        return _DISTANCE_ID[0]
    acc = rest[0]
    for suit_id in rest[1:]:
        acc = _combine(acc, suit_id)
    return acc


_Parts = tuple[tuple[Tile, ...], tuple[int, ...], tuple[Tile, ...], tuple[int, ...], int]
"""Accepted tiles and live copies of the suits before and after one suit, and their live total."""
_OtherSuits = tuple[list[SuitHelp | None], _Parts]


def _other_suits(
    keys: Keys, ids: Sequence[int], suit: int, after_id: int, slot: int, copies: int
) -> _OtherSuits:
    """After a discard leaves ``suit`` with vector ``after_id``: what drawing into each
    other suit does, and their accepted tiles and live copies before and after ``suit``."""
    helps: list[SuitHelp | None] = [None] * len(keys)
    before: tuple[Tile, ...] = ()
    before_live: tuple[int, ...] = ()
    after: tuple[Tile, ...] = ()
    after_live: tuple[int, ...] = ()
    total = 0
    for other, other_key in enumerate(keys):
        if other == suit:
            continue
        others = after_id
        for third, third_id in enumerate(ids):
            if third != suit and third != other:
                others = _combine(others, third_id)
        help_ = helps[other] = _suit_help(other, other_key, others, slot, copies)
        total += help_.live_total
        if other < suit:
            before += help_.tiles
            before_live += help_.live
        else:
            after += help_.tiles
            after_live += help_.live
    return helps, (before, before_live, after, after_live, total)


def _with_seven_pairs_in_other_suits(
    keys: Keys,
    helps: Sequence[SuitHelp | None],
    form: SevenPairsForm,
    new_kind_helps: bool,
    both: bool,
    copies: int,
) -> _Parts:
    """The other suits' accepted tiles when seven pairs is the nearer form (or ties, ``both``)."""
    before: tuple[Tile, ...] = ()
    before_live: tuple[int, ...] = ()
    after: tuple[Tile, ...] = ()
    after_live: tuple[int, ...] = ()
    gap = False
    for suit, help_ in enumerate(helps):
        if help_ is None:
            gap = True
            continue
        mask = _seven_pairs_mask(keys[suit], form, new_kind_helps, copies)
        if both:
            mask |= help_.mask
        tiles, live = _in_mask(suit, keys[suit], mask, copies)
        if gap:
            after += tiles
            after_live += live
        else:
            before += tiles
            before_live += live
    return before, before_live, after, after_live, sum(before_live) + sum(after_live)


def _fold_seven_pairs(
    standard: int, masks: list[int], seven: int | None, seven_masks: list[int]
) -> tuple[int, list[int]]:
    """The better form's shanten and helpful ranks; both forms' ranks when they tie."""
    if seven is None or standard < seven:
        return standard, masks
    if seven < standard:
        return seven, seven_masks
    return seven, [a | b for a, b in zip(masks, seven_masks, strict=True)]


def accepted_tiles(
    keys: Keys,
    melds: int = 0,
    form: SevenPairsForm | None = "quads",
    copies: int = 4,
) -> tuple[int, list[int]]:
    """Shanten of a hand about to draw (3n+1 tiles), and per suit the ranks that would lower it."""
    slot = 2 * (MAX_MELDS - melds) + 1
    ids = [_DISTANCE_ID[key] for key in keys]
    helps = [
        _suit_help(suit, key, _others_combined(ids, suit), slot, copies)
        for suit, key in enumerate(keys)
    ]
    masks = [h.mask for h in helps]
    seven = None if form is None else shapes.shanten_seven_pairs(keys, form, melds)
    if seven is None:
        return helps[0].distance - 1, masks
    new_kind_helps = form == "distinct" and shapes._tally(keys)[3] < 7
    seven_masks = [_seven_pairs_mask(key, form, new_kind_helps, copies) for key in keys]
    return _fold_seven_pairs(helps[0].distance - 1, masks, seven, seven_masks)


def discard_table(
    keys: Keys,
    melds: int = 0,
    visible: Sequence[int] | None = None,
    form: SevenPairsForm | None = "quads",
    copies: int = 4,
) -> list[DiscardOption]:
    """Every distinct discard of a hand that must discard (3n+2 tiles), best first.

    Best means lowest shanten, then most live accepted tiles, then most kinds accepted.
    ``visible`` counts tiles seen outside the hand (discards, others' melds), by tile.
    """
    slot = 2 * (MAX_MELDS - melds) + 1
    ids = [_DISTANCE_ID[key] for key in keys]
    tiles, quad_pairs, distinct_pairs, kinds = shapes._tally(keys)
    seven_possible = form is not None and not melds and tiles == 14
    pairs = quad_pairs if form == "quads" else distinct_pairs
    # With one tile fewer, the seven-pairs shanten depends only on how many copies of
    # the discard were held: a pair is lost from an even count (quads) or from a plain
    # pair (distinct), a kind from a single.
    seven_after = {
        held: shapes.seven_pairs_shanten(
            form,
            pairs - (held % 2 == 0 if form == "quads" else held == 2),
            kinds - (held == 1),
        )
        for held in range(1, copies + 1)
        if seven_possible
    }
    # Discards that leave their suit with the same distance vector help the other suits
    # by the same draws: worked out once per (suit, vector).
    other_suits: dict[int, _OtherSuits] = {}
    seven_parts: dict[int, _Parts] = {}
    options = []
    for suit, key in enumerate(keys):
        for rank, held, after_id, own, own_seven in _suit_discards(
            suit, key, _others_combined(ids, suit), slot, copies, form
        ):
            others = other_suits.get(suit << 16 | after_id)
            if others is None:
                others = other_suits[suit << 16 | after_id] = _other_suits(
                    keys, ids, suit, after_id, slot, copies
                )
            helps, (before, before_live, after, after_live, others_live) = others
            shanten = own.distance - 1
            seven = seven_after.get(held)
            if seven is not None and seven <= shanten:
                # Seven pairs is as near or nearer: its draws help too, or instead.
                new_kind_helps = form == "distinct" and kinds - (held == 1) < 7
                both = seven == shanten
                mixed_key = ((suit << 16 | after_id) * 2 + both) * 2 + new_kind_helps
                mixed = seven_parts.get(mixed_key)
                if mixed is None:
                    mixed = seven_parts[mixed_key] = _with_seven_pairs_in_other_suits(
                        keys, helps, form, new_kind_helps, both, copies
                    )
                before, before_live, after, after_live, others_live = mixed
                own_mask = own_seven[new_kind_helps]
                if both:
                    own_mask |= own.mask
                own_tiles, own_live = _in_mask(suit, key, own_mask, copies)
                shanten = seven
                accepted = before + own_tiles + after
                live = before_live + own_live + after_live
                live_total = others_live + sum(own_live)
            else:
                accepted = before + own.tiles + after
                live = before_live + own.live + after_live
                live_total = others_live + own.live_total
            if visible is not None:
                live = tuple(max(n - visible[t], 0) for n, t in zip(live, accepted, strict=True))
                live_total = sum(live)
            options.append(DiscardOption(suit * RANKS + rank, shanten, accepted, live, live_total))
    options.sort(key=lambda o: (o.shanten, -o.live_total, -len(o.accepted), o.discard))
    return options
