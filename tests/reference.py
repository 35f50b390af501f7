"""Plain recursive hand answers, written independently of the tables, to test them against.

Slow and obvious on purpose: the lowest held tile must belong to some block (or be
thrown away), and every possibility is tried.  Count vectors hold the 27 suited tiles and,
when longer, honours from tile 27 on, which make no chows.
"""

from __future__ import annotations

from functools import cache

KINDS = 27
HONOURS_FROM = 27


def _blocks_with(tile: int) -> list[tuple[str, tuple[int, ...]]]:
    """Pair, pung and the chows (same suit) that contain ``tile``."""
    rank = tile % 9
    blocks = [("pair", (tile, tile)), ("pung", (tile, tile, tile))]
    for start in (rank - 2, rank - 1, rank) if tile < HONOURS_FROM else ():
        if 0 <= start <= 6:
            first = tile - rank + start
            blocks.append(("chow", (first, first + 1, first + 2)))
    return blocks


def decompositions(counts: list[int]) -> set[tuple[int, tuple[tuple[str, int], ...]]]:
    """Every (pair, sorted melds) split of all the tiles into melds and exactly one pair."""
    found: set[tuple[int, tuple[tuple[str, int], ...]]] = set()

    def walk(held: list[int], pair: int | None, melds: list[tuple[str, int]]) -> None:
        lowest = next((t for t in range(len(held)) if held[t]), None)
        if lowest is None:
            if pair is not None:
                found.add((pair, tuple(sorted(melds))))
            return
        for kind, tiles in _blocks_with(lowest):
            if kind == "chow" and tiles[0] != lowest:
                continue  # the lowest tile can only start a chow
            if kind == "pair" and pair is not None:
                continue
            rest = list(held)
            if any(rest[t] - tiles.count(t) < 0 for t in set(tiles)):
                continue
            for t in tiles:
                rest[t] -= 1
            if kind == "pair":
                walk(rest, lowest, melds)
            else:
                walk(rest, pair, [*melds, (kind, lowest)])

    walk(list(counts), None, [])
    return found


def is_complete(counts: list[int]) -> bool:
    return bool(decompositions(counts))


def distance(counts: list[int], melds: int, pairs: int) -> int:
    """Fewest tiles to add so that the hand holds ``melds`` melds and ``pairs`` pairs.

    Walks the tile kinds in order and chooses, at each kind, a pung or not, the pair or
    not, and how many chows start there; the target may hold at most four of a kind.
    The cost is what the target holds beyond the hand.
    """

    @cache
    def go(tile: int, chows_from_last: int, chows_from_before: int, m: int, h: int) -> int:
        if tile == len(counts):
            return 0 if m == h == 0 and chows_from_last == chows_from_before == 0 else BIG
        rank = tile % 9
        best = BIG
        for pung in (0, 1):
            for pair in (0, 1):
                for start in range(0, 5):
                    if start and (rank > 6 or tile >= HONOURS_FROM):
                        break
                    used = pung + pair + start
                    if used > m + h or pair > h or pung + start > m:
                        break
                    need = 3 * pung + 2 * pair + start + chows_from_last + chows_from_before
                    if need > 4:
                        break
                    if rank == 0 and (chows_from_last or chows_from_before):
                        continue  # chows never cross a suit
                    cost = max(0, need - counts[tile])
                    rest = go(tile + 1, start, chows_from_last, m - pung - start, h - pair)
                    best = min(best, cost + rest)
        return best

    return go(0, 0, 0, melds, pairs)


BIG = 10**6


def shanten_standard(counts: list[int], exposed: int = 0) -> int:
    return distance(counts, 4 - exposed, 1) - 1


def shanten_seven_pairs(counts: list[int], quads: bool) -> int:
    """Seven pairs from 13 or 14 concealed tiles, counting pairs by hand."""
    pairs = sum(n // 2 for n in counts) if quads else sum(n >= 2 for n in counts)
    if quads:
        return 6 - min(pairs, 7)
    kinds = sum(n > 0 for n in counts)
    return 6 - pairs + max(0, 7 - kinds)
