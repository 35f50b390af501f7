"""Per-suit tables, built once, that answer hand questions without search.

A suit's tiles are kept as a *key*: the base-5 number whose digit ``r`` is how many tiles
of rank ``r + 1`` the hand holds (0 to 4 copies, nine ranks).  Adding a tile of rank ``r``
adds ``POW[r]`` to the key.  For every key the tables hold:

- ``completion``: 0 if the suit's tiles cannot all be split into melds and at most one
  pair, 1 if they split into melds only, 2 if into melds and one pair;
- ``splits``: for complete keys, every way to split them (``SuitSplit``);
- ``distance``: for ``m`` melds (0..4) and ``h`` pairs (0..1), how many tiles must be
  added so that the suit *contains* ``m`` melds and ``h`` pairs.  Shanten combines these
  across suits (see ``shapes``).  Keys with the same ten distances share an id.
- ``tally``: how many tiles the key holds, its pairs (a four-of-a-kind is two), its
  distinct pairs and its distinct ranks, packed in bit fields so that the tallies of a
  hand's suits add up with one sum (see ``untally``).
- ``wilds_needed``: the fewest wild tiles that complete the suit exactly as melds only
  (``c0``) and as melds and a pair (``c1``), read from ``distance`` (an honour key's
  wilds stand for honours only); packed for the
  complete-check with wilds (see ``unpack_wilds_needed``).

Honours make pungs and pairs but no sequences.  An honour block's key is ``HONOUR`` plus the
same base-5 number over its seven ranks (1z..7z), so the tables cover the suits' keys and
then the honours' keys, and every question is asked of a hand's keys alike.

The distance table is computed with vectorised passes over all 5**9 keys (numpy) and
cached on disk under the user cache directory as raw arrays, which load without numpy: a
one-shot command such as ``mjrules hand`` pays neither numpy's import nor a decompression.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

RANKS = 9
COPIES = 4
BASE = COPIES + 1
POW = tuple(BASE**r for r in range(RANKS))
KEY_SPACE = BASE**RANKS
HONOUR_RANKS = 7
HONOUR = KEY_SPACE
"""Added to the key of an honour block: its entries follow the suits' in every table."""
TABLE_SIZE = KEY_SPACE + BASE**HONOUR_RANKS
MAX_MELDS = 4
MAX_SUIT_TILES = 3 * MAX_MELDS + 2
TABLE_VERSION = "8"

# Bit fields of a tally: tiles (6 bits), pairs (5), distinct pairs (4), kinds (5).  The
# sums over a hand's suits stay inside their fields: a hand has at most 14 tiles.
_PAIRS_AT, _DISTINCT_AT, _KINDS_AT = 6, 11, 15


def untally(tally: int) -> tuple[int, int, int, int]:
    """(tiles, pairs, distinct pairs, kinds) from a tally or a sum of tallies."""
    return (
        tally & 63,
        tally >> _PAIRS_AT & 31,
        tally >> _DISTINCT_AT & 15,
        tally >> _KINDS_AT & 31,
    )


# wilds_needed packs c0 in bits 0-4 and c1 - c0 + 32 above; 31 means "no number of wilds".
WILDS_NONE = 31
WILDS_EXTRA_AT = 5
WILDS_EXTRA_BIAS = 32


def unpack_wilds_needed(value: int) -> tuple[int, int]:
    """(c0, c1) of a ``wilds_needed`` entry; 31 when the suit cannot be completed so."""
    c0 = value & WILDS_NONE
    return c0, min(WILDS_NONE, c0 + (value >> WILDS_EXTRA_AT) - WILDS_EXTRA_BIAS)


CHOW = "chow"
PUNG = "pung"


@dataclass(frozen=True, slots=True)
class SuitSplit:
    """One way to split a suit's tiles: an optional pair rank and melds as (kind, first rank)."""

    pair: int | None
    melds: tuple[tuple[str, int], ...]


def key_of(counts: tuple[int, ...] | list[int]) -> int:
    """The key of a suit's nine counts."""
    return sum(n * p for n, p in zip(counts, POW, strict=False))


def counts_of(key: int) -> list[int]:
    """The nine counts of a suit key."""
    return [(key // p) % BASE for p in POW]


def ranks_of(key: int) -> int:
    """How many ranks a block of this key has: 9 for a suit, 7 for the honours."""
    return HONOUR_RANKS if key >= HONOUR else RANKS


def _meld_shapes(honours: bool = False) -> list[tuple[tuple[str, int], tuple[int, ...]]]:
    """The melds of a block, as counts by rank: pungs, and chows in a suit."""
    shapes = []
    for rank in range(HONOUR_RANKS if honours else RANKS):
        counts = [0] * RANKS
        counts[rank] = 3
        shapes.append(((PUNG, rank + 1), tuple(counts)))
    for rank in range(0 if honours else RANKS - 2):
        counts = [0] * RANKS
        counts[rank] = counts[rank + 1] = counts[rank + 2] = 1
        shapes.append(((CHOW, rank + 1), tuple(counts)))
    return shapes


@cache
def suit_splits() -> dict[int, tuple[SuitSplit, ...]]:
    """Every way to split every complete suit or honour key, generated forwards from melds
    (no search)."""
    splits: dict[int, list[SuitSplit]] = {}
    for honours in (False, True):
        shapes = _meld_shapes(honours)
        for n_melds in range(MAX_MELDS + 1):
            for melds in combinations_with_replacement(shapes, n_melds):
                base = (
                    [sum(c) for c in zip(*(s for _, s in melds), strict=True)] if melds else [0] * 9
                )
                if max(base) > COPIES:
                    continue
                names = tuple(name for name, _ in melds)
                for pair in (None, *range(HONOUR_RANKS if honours else RANKS)):
                    counts = list(base)
                    if pair is not None:
                        counts[pair] += 2
                        if counts[pair] > COPIES:
                            continue
                    splits.setdefault(key_of(counts) + HONOUR * honours, []).append(
                        SuitSplit(None if pair is None else pair + 1, names)
                    )
    return {key: tuple(ways) for key, ways in splits.items()}


def _digits(ranks: int = RANKS) -> np.ndarray:
    """digits[r, key]: copies of rank r + 1 in each key of a block of ``ranks`` ranks (a row
    of zeros for each rank the block lacks)."""
    import numpy as np

    keys = np.arange(BASE**ranks, dtype=np.int32)
    digits = np.zeros((RANKS, BASE**ranks), dtype=np.int8)
    for rank, power in enumerate(POW[:ranks]):
        digits[rank] = (keys // power) % BASE
    return digits


def _build_distance(digits: np.ndarray, honours: bool = False) -> np.ndarray:
    """distance[m * 2 + h, key]: tiles to add until the suit holds m melds and h pairs.

    First ``contains[m, h]`` (the suit already holds them) by peeling one meld at a time,
    then the distance by relaxing ``d(v) = 1 + min over ranks r of d(v + r)`` until it
    settles.  Both are whole-array shifts, since ``v + rank r`` is ``key + POW[r]``.
    """
    import numpy as np

    n = digits.shape[1]
    ranks = HONOUR_RANKS if honours else RANKS
    has_pair = (digits >= 2).any(axis=0)
    contains = np.zeros((MAX_MELDS + 1, 2, n), dtype=bool)
    contains[0, 0] = True
    contains[0, 1] = has_pair
    meld_masks = []
    for (kind, first), counts in _meld_shapes(honours):
        del kind, first
        mask = np.ones(n, dtype=bool)
        for rank, need in enumerate(counts):
            if need:
                mask &= digits[rank] >= need
        meld_masks.append((mask, key_of(counts)))
    for m in range(1, MAX_MELDS + 1):
        for h in (0, 1):
            acc = np.zeros(n, dtype=bool)
            previous = contains[m - 1, h]
            for mask, offset in meld_masks:
                shifted = np.zeros(n, dtype=bool)
                shifted[offset:] = previous[: n - offset]
                acc |= mask & shifted
            contains[m, h] = acc
    far = np.int8(64)
    distance = np.where(contains.reshape(2 * (MAX_MELDS + 1), n), 0, far).astype(np.int8)
    room = [digits[rank] < COPIES for rank in range(ranks)]
    while True:
        best = np.full_like(distance, far)
        for rank, offset in enumerate(POW[:ranks]):
            step = np.full_like(distance, far)
            step[:, : n - offset] = distance[:, offset:]
            step[:, ~room[rank]] = far
            np.minimum(best, step, out=best)
        updated = np.minimum(distance, best + 1)
        if np.array_equal(updated, distance):
            return distance
        distance = updated


def _signatures(
    digits: np.ndarray, tiles: np.ndarray, distance_id: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per key, an id of (its distance id, and the distance id after each possible draw).

    What a draw into a suit does depends only on these ten ids and the rest of the hand, and
    far fewer signatures exist than keys: drawing decisions are remembered per signature.
    A rank already held four times has -1 (no fifth copy can be drawn), and so has a rank
    the block lacks (8z, 9z).
    """
    import numpy as np

    rows = []
    drawables = []
    for start, ranks in ((0, RANKS), (HONOUR, HONOUR_RANKS)):
        drawable = start + np.flatnonzero(tiles[start : start + BASE**ranks] < MAX_SUIT_TILES)
        block = np.full((len(drawable), RANKS + 1), -1, dtype=np.int16)
        block[:, 0] = distance_id[drawable]
        for rank, power in enumerate(POW[:ranks]):
            full = digits[rank, drawable] >= COPIES
            grown = np.where(full, 0, drawable + power)
            block[:, rank + 1] = np.where(full, -1, distance_id[grown])
        rows.append(block)
        drawables.append(drawable)
    unique, inverse = np.unique(np.concatenate(rows), axis=0, return_inverse=True)
    signature = np.full(TABLE_SIZE, -1, dtype=np.int32)
    signature[np.concatenate(drawables)] = inverse.reshape(-1)
    return signature, unique


def _cache_dirs() -> list[Path]:
    """Where the tables are kept: the user cache (or ``MJRULES_CACHE_DIR``), then a
    per-user temporary folder used when the first cannot be written."""
    from platformdirs import user_cache_dir

    root = os.environ.get("MJRULES_CACHE_DIR") or user_cache_dir("mjrules")
    user = getattr(os, "getuid", lambda: "user")()
    return [Path(root), Path(tempfile.gettempdir()) / f"mjrules-cache-{user}"]


def _cache_name() -> str:
    stamp = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    return f"suit-tables-v{TABLE_VERSION}-{stamp}-{sys.byteorder}.bin"


# A cache file is one JSON header line listing (name, typecode, rows, width) per table, then
# the tables' bytes in that order, in this machine's byte order.
_TYPECODES = {1: "b", 2: "h", 4: "i"}


def _read_cache(path: Path) -> dict[str, array | list[tuple[int, ...]]] | None:
    """The tables from a cache file, or None when it is missing, short or of another layout."""
    try:
        with path.open("rb") as file:
            header = json.loads(file.readline())
            tables: dict[str, array | list[tuple[int, ...]]] = {}
            for name, code, rows, width in header:
                values = array(code)
                values.fromfile(file, rows * width)
                rows_of = [iter(values)] * width  # one iterator: consecutive runs of `width`
                tables[name] = values if width == 1 else list(zip(*rows_of, strict=True))
            if file.read(1):
                return None
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return tables


def _write_cache(path: Path, arrays: dict[str, np.ndarray]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = [
        [name, _TYPECODES[a.dtype.itemsize], a.shape[0], a.shape[1] if a.ndim == 2 else 1]
        for name, a in arrays.items()
    ]
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with partial.open("wb") as file:
        file.write(json.dumps(header).encode() + b"\n")
        for values in arrays.values():
            file.write(values.tobytes())
    partial.replace(path)
    for stale in path.parent.glob("suit-tables-*"):
        if stale != path and ".tmp" not in stale.name:  # an older version's tables
            stale.unlink(missing_ok=True)


def _load_or_build() -> dict[str, array | list[tuple[int, ...]]]:
    name = _cache_name()
    primary, fallback = _cache_dirs()
    for folder in (primary, fallback):
        tables = _read_cache(folder / name)
        if tables is not None:
            return tables
    if sys.stderr.isatty():
        print("mjrules: building the hand tables once (a few seconds)...", file=sys.stderr)
    arrays = _build_arrays()
    try:
        _write_cache(primary / name, arrays)
    except OSError as error:
        where = f"keeping them in {fallback}"
        try:
            _write_cache(fallback / name, arrays)
        except OSError:
            where = "every command will build them again"
        print(
            f"mjrules: warning: cannot write the hand tables to {primary}"
            f" ({error.strerror or error}); {where}",
            file=sys.stderr,
        )
    return {table: _as_list(values) for table, values in arrays.items()}


def _build_arrays() -> dict[str, np.ndarray]:
    import numpy as np

    suited, honours = _digits(), _digits(HONOUR_RANKS)
    digits = np.concatenate((suited, honours), axis=1)
    distance = np.concatenate(
        (_build_distance(suited), _build_distance(honours, honours=True)), axis=1
    )
    tiles = digits.sum(axis=0, dtype=np.int16)
    in_hand = tiles <= MAX_SUIT_TILES
    melds = tiles // 3
    with_pair = tiles % 3 == 2
    slot = np.clip(2 * melds + with_pair, 0, 2 * MAX_MELDS + 1)
    whole = (
        (tiles % 3 != 1)
        & (melds <= MAX_MELDS)
        & (np.take_along_axis(distance, slot[None, :].astype(np.int64), axis=0)[0] == 0)
    )
    completion = np.where(whole, np.where(with_pair, 2, 1), 0).astype(np.int8)
    vectors, ids = np.unique(distance[:, in_hand].T, axis=0, return_inverse=True)
    distance_id = np.zeros(TABLE_SIZE, dtype=np.int16)
    distance_id[in_hand] = ids.reshape(-1)
    signature, signatures = _signatures(digits, tiles, distance_id)
    needed = []
    for h in (0, 1):
        # k wilds complete the suit exactly to m melds and h pairs when adding k tiles
        # lets it contain them and leaves no tile over: distance == 3m + 2h - tiles.
        best = np.full(TABLE_SIZE, WILDS_NONE, dtype=np.int16)
        for m in range(MAX_MELDS + 1):
            k = 3 * m + 2 * h - tiles
            exact = (k >= 0) & (distance[2 * m + h] == k)
            best = np.where(exact & (k < best), k, best)
        needed.append(best)
    arrays = {
        "completion": completion,
        "distance_id": distance_id,
        "distance_vectors": vectors.astype(np.int8),
        "signature": signature,
        "signatures": signatures,
        "tally": (
            tiles.astype(np.int32)
            | (digits // 2).sum(axis=0, dtype=np.int32) << _PAIRS_AT
            | (digits >= 2).sum(axis=0, dtype=np.int32) << _DISTINCT_AT
            | (digits > 0).sum(axis=0, dtype=np.int32) << _KINDS_AT
        ),
        "wilds_needed": needed[0] | (needed[1] - needed[0] + WILDS_EXTRA_BIAS) << WILDS_EXTRA_AT,
    }
    return arrays


@dataclass(frozen=True)
class SuitTables:
    """The per-suit tables as Python arrays: read as fast as lists, loaded with one copy."""

    completion: Sequence[int]
    distance_id: Sequence[int]
    distance_vectors: list[tuple[int, ...]]
    signature: Sequence[int]
    """Per key with fewer than 14 tiles, an index into ``signatures`` (-1 otherwise)."""
    signatures: list[tuple[int, ...]]
    """(distance id, distance id after drawing each rank or -1), shared by many keys."""
    tally: Sequence[int]
    wilds_needed: Sequence[int]


def _as_list(values: np.ndarray) -> array | list[tuple[int, ...]]:
    """A built table in the form a cache file loads to (when no cache can be written)."""
    if values.ndim == 2:
        return [tuple(row) for row in values.tolist()]
    typed = array(_TYPECODES[values.dtype.itemsize])
    typed.frombytes(values.tobytes())
    return typed


@cache
def suit_tables() -> SuitTables:
    """The tables, built on first use (or loaded from the cache) and shared by everything."""
    return SuitTables(**_load_or_build())
