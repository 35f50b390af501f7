"""Hand-core speed on one core: complete-check, shanten and the discard table, against `mahjong`.

Prints calls per second for each operation on the same random hands, and the ratio of
this project's shanten to the `mahjong` package's `calculate_shanten` (regular and
seven-pairs forms, no thirteen orphans: the same question), measured in the same run with
the two timed pass by pass in alternating order.  With wild tiles (癞子): the same
operations on hands of one to four wilds and other random tiles, against the wild-free
path on wild-free hands, timed pass by pass in turn in the same way.  Also prints how
long the per-suit tables take to build from nothing and to load from the cache, and the
CPU time of a one-shot `mjrules hand` command on a warm cache.

Shanten and the discard table remember what they worked out per suit (a few hundred
distance vectors, and suit keys that recur across hands).  So that the figures are not
those of a lookup of the very same hand, every measured pass uses hands never seen before;
a warm-up pass over other hands first fills the memos as a long simulation would.

    python bench/hand_core.py [--hands 20000] [--repeat 5] [--warmup 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence


def rate(function: Callable[[object], object], passes: Sequence[Sequence[object]]) -> float:
    """Best calls per second over the passes, each over its own items."""
    best = 0.0
    for items in passes:
        start = time.perf_counter()
        for item in items:
            function(item)
        best = max(best, len(items) / (time.perf_counter() - start))
    return best


def paired_rates(
    ours: Callable[[object], object],
    theirs: Callable[[object], object],
    passes: Sequence[tuple[Sequence[object], Sequence[object]]],
) -> tuple[float, float, float]:
    """(our best rate, their best rate, median per-pass ratio), timed pass by pass in turn.

    Each pass gives both functions the same hands (in their own encodings), and which of the
    two runs first alternates, so that load on the machine weighs on both alike.  Timed in
    CPU time of this process: on a shared machine, time spent waiting for a core is not
    counted against either.
    """
    mine, other, ratios = [], [], []
    for i, (our_items, their_items) in enumerate(passes):
        timed = [(ours, our_items, mine), (theirs, their_items, other)]
        for function, items, rates in timed if i % 2 == 0 else timed[::-1]:
            start = time.process_time()
            for item in items:
                function(item)
            rates.append(len(items) / (time.process_time() - start))
        ratios.append(mine[-1] / other[-1])
    return max(mine), max(other), sorted(ratios)[len(ratios) // 2]


def hand_command_cpu(runs: int = 5) -> float:
    """Least CPU seconds (user + system) of `mjrules hand` in a fresh process, warm cache."""
    code = "from interpreter.cli import main; main()"
    command = [sys.executable, "-c", code, "hand", "1122m 3345p 67789s 9s"]
    subprocess.run(command, capture_output=True, check=True)  # the cache is warm
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def table_build_seconds() -> tuple[float, float, float]:
    """(build from nothing, load from cache, peak MiB while building) in fresh processes."""
    code = (
        "import resource, time; t = time.perf_counter(); "
        "from handcore.suit_tables import suit_tables; suit_tables(); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "MJRULES_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            runs.append((float(out[0]), int(out[1]) / 1024))
    return runs[0][0], runs[1][0], runs[0][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from mahjong.shanten import Shanten

    from handcore import discards, shapes
    from handcore.tiles import STANDARD

    rng = random.Random(args.seed)
    wall = [tile for tile in range(27) for _ in range(4)]

    def hand_set(count: int) -> list[list[int]]:
        return [rng.sample(wall, 13 + i % 2) for i in range(count)]

    def wild_set(count: int) -> list[tuple[tuple[int, ...], int]]:
        """(keys of the other tiles, wilds): 1 to 4 wilds in turn, 13 or 14 tiles in all."""
        hands = []
        for i in range(count):
            wilds = 1 + i % 4
            other = rng.sample(wall, 13 + i // 4 % 2 - wilds)
            hands.append((shapes.keys_of(STANDARD.counts(other)), wilds))
        return hands

    warmup = hand_set(args.warmup)
    for hand in warmup:
        keys = shapes.keys_of(STANDARD.counts(hand))
        shapes.shanten(keys, 0, "distinct")
        if len(hand) == 14:
            discards.discard_table(keys)
    for keys, wilds in wild_set(args.warmup):
        shapes.shanten(keys, 0, "distinct", wilds)
        if shapes._tally(keys)[0] + wilds == 14:
            discards.discard_table(keys, wilds=wilds)
    passes = [hand_set(args.hands) for _ in range(args.repeat)]
    keys = [[shapes.keys_of(STANDARD.counts(h)) for h in hands] for hands in passes]
    keys14 = [[k for k, h in zip(ks, hands, strict=True) if len(h) == 14]
              for ks, hands in zip(keys, passes, strict=True)]  # fmt: skip
    tiles_34 = [[STANDARD.counts(h) + [0] * 7 for h in hands] for hands in passes]
    wild_passes = [wild_set(args.hands) for _ in range(args.repeat)]
    wild14 = [[h for h in hands if shapes._tally(h[0])[0] + h[1] == 14] for hands in wild_passes]

    build, load, peak = table_build_seconds()
    complete = rate(shapes.is_complete, keys)
    ours, theirs, ratio = paired_rates(
        lambda k: shapes.shanten(k, 0, "distinct"),
        lambda t: Shanten.calculate_shanten(t, use_chiitoitsu=True, use_kokushi=False),
        list(zip(keys, tiles_34, strict=True)),
    )
    command_cpu = hand_command_cpu()
    table = rate(discards.discard_table, keys14)
    wild_rows = [
        (
            "complete-check",
            lambda h: shapes.is_complete_with_wilds(h[0], h[1]),
            lambda k: shapes.is_complete(k),
            list(zip(wild_passes, keys, strict=True)),
        ),
        (
            "shanten, standard + seven pairs",
            lambda h: shapes.shanten(h[0], 0, "distinct", h[1]),
            lambda k: shapes.shanten(k, 0, "distinct"),
            list(zip(wild_passes, keys, strict=True)),
        ),
        (
            "discard table, 14-tile hand",
            lambda h: discards.discard_table(h[0], wilds=h[1]),
            lambda k: discards.discard_table(k),
            list(zip(wild14, keys14, strict=True)),
        ),
    ]
    wild_rates = [(name, *paired_rates(*timed)) for name, *timed in wild_rows]

    print(f"hands: {args.hands} random 13/14-tile hands from 108 tiles per pass, seed {args.seed}")
    print(
        f"python {sys.version.split()[0]}, best of {args.repeat} passes over new hands "
        f"after {args.warmup} warm-up hands, one core"
    )
    print()
    print(f"{'operation':<44}{'calls/s':>14}{'target':>12}")
    print(f"{'complete-check (per-suit keys)':<44}{complete:>14,.0f}{'3,000,000':>12}")
    print(f"{'shanten, standard + seven pairs (mjrules)':<44}{ours:>14,.0f}")
    print(f"{'shanten, calculate_shanten (mahjong pkg)':<44}{theirs:>14,.0f}")
    print(f"{'  ratio mjrules / mahjong (median pass)':<44}{ratio:>13.1f}x{'>= 10x':>12}")
    print(f"{'discard table, 14-tile hand':<44}{table:>14,.0f}{'20,000':>12}")
    print()
    print("wild tiles: 1-4 wilds and other random tiles, against the wild-free path, same run")
    print(f"{'operation':<44}{'with wilds':>14}{'wild-free':>12}{'ratio':>8}")
    for name, with_wilds, wild_free, ratio in wild_rates:
        print(f"{name:<44}{with_wilds:>14,.0f}{wild_free:>12,.0f}{ratio:>7.2f}x")
    print()
    print(
        f"tables: build {build:.2f} s from nothing (peak {peak:.0f} MiB), load {load:.3f} s cached"
    )
    print(f"`mjrules hand`, one shot on a warm cache: {command_cpu:.3f} s CPU (target 0.15 s)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process peak memory: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
