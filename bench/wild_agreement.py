"""Wild tiles against brute-force substitution, on more random hands than the tests run.

For each wild count 0 to 4, ``--hands`` random hands (13 and 14 tiles in turn, the other
tiles drawn from the 108 suited tiles) are checked as tests/test_wilds.py checks them:
shanten, complete-check, splits, seven pairs, waits and accepted tiles in every
seven-pairs form, against trying every tile for every wild.  Prints the hands that agree.

    python bench/wild_agreement.py [--hands 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from handcore.tiles import STANDARD
    from tests.test_wilds import disagreements

    rng = random.Random(args.seed)
    wall = [tile for tile in range(27) for _ in range(4)]
    total = agreed = 0
    for wilds in range(5):
        start = time.process_time()
        ok = 0
        for i in range(args.hands):
            counts = STANDARD.counts(rng.sample(wall, 13 + i % 2 - wilds))
            found = disagreements(counts, wilds)
            ok += not found
            if found:
                print(f"  {STANDARD.format(STANDARD.tiles_of(counts))} + {wilds} wilds: {found}")
        took = time.process_time() - start
        print(f"{wilds} wilds: {ok} of {args.hands} hands agree ({took:.0f} s CPU)")
        total += args.hands
        agreed += ok
    print(f"all: {agreed} of {total} hands agree, seed {args.seed}")


if __name__ == "__main__":
    main()
