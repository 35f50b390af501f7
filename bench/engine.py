"""Hands per second played by the generic engine with random (and simple) agents, one core.

Run: python bench/engine.py [--hands N] [--agent random|simple] [RULESET ...].  Every
non-abstract shipped ruleset by default; one line per ruleset: hands/s, decisions per hand,
and how the hands ended.  The warm-up plays other walls than the timed hands.  Pin to one
core with ``taskset -c 0``.

``--reference TREE`` times this checkout against another one (a git worktree of an older
commit) side by side: ``--passes`` passes, each a new seed; in each, every ruleset is
played by the two trees one right after the other, each in a fresh process of its own
with its own rulesets, which tree goes first alternating.  It prints both rates and their
ratio per pass, then the median ratio per ruleset (above 1: this tree is faster).
``--cpu`` times with ``time.process_time`` instead of the wall clock, which other jobs on
a shared machine disturb less.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
TARGET = 500


def _shipped(tree: Path) -> list[str]:
    """The ids of the non-abstract rulesets of ``tree``."""
    from dsl.ruleset import available_ids, load

    root = tree / "rulesets"
    return [
        rid
        for rid in available_ids(root)
        if not (load(rid, root=root, compile=False).get("ruleset") or {}).get("abstract")
    ]


def rates(tree: Path, ids: list[str], hands: int, agent: str, seed: int, cpu: bool):
    """(ruleset id, hands/s, decisions per hand, ends) for the code and rulesets of ``tree``."""
    from dsl.ruleset import load
    from interpreter.engine import play

    try:
        from handcore.suit_tables import suit_splits
    except ImportError:  # trees before the hand core had its own package
        from interpreter.suit_tables import suit_splits

    suit_splits()  # the splits table is built on first use: not part of any ruleset's time
    root = tree / "rulesets"
    clock = time.process_time if cpu else time.perf_counter
    for rid in ids or _shipped(tree):
        ruleset = load(rid, root=root)
        play(ruleset, seed + 7919, agent, hands=3)  # warm up on other walls
        start = clock()
        result, events = play(ruleset, seed, agent, hands=hands)
        elapsed = clock() - start
        acts = sum(e["type"] == "act" for e in events) / hands
        ends = Counter(h.reason for h in result.hands)
        yield rid, hands / elapsed, acts, dict(sorted(ends.items()))


def child(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    """Run this script on ``tree``'s code in a fresh process; its rates by ruleset."""
    command = [sys.executable, __file__, "--json", "--tree", str(tree), "--hands", str(args.hands),
               "--agent", args.agent, "--seed", str(args.seed), *(["--cpu"] if args.cpu else []),
               *args.rulesets]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def compare(args: argparse.Namespace) -> None:
    reference = Path(args.reference).resolve()
    sys.path.insert(0, str(HERE))  # this process only lists the rulesets; children play
    ids = args.rulesets or _shipped(HERE)
    ratios: dict[str, list[float]] = {}
    print(f"this tree {HERE}, reference {reference}; {args.agent} agents, {args.hands} hands, "
          f"{'CPU' if args.cpu else 'wall-clock'} hands/s")  # fmt: skip
    print(f"{'pass':>4} {'seed':>6} {'ruleset':<20} {'this':>8} {'reference':>9} {'ratio':>6}")
    first_seed = args.seed
    for number in range(args.passes):
        args.seed = first_seed + 1000 * number
        for index, rid in enumerate(ids):
            args.rulesets = [rid]
            pair = [HERE, reference] if (number + index) % 2 == 0 else [reference, HERE]
            got = {tree: child(tree, args)[rid] for tree in pair}
            this, ref = got[HERE], got[reference]
            ratios.setdefault(rid, []).append(this / ref)
            print(f"{number:>4} {args.seed:>6} {rid:<20} {this:8.0f} {ref:9.0f} {this / ref:6.3f}",
                  flush=True)  # fmt: skip
    print("median ratio (this / reference) by ruleset:")
    for rid, values in ratios.items():
        print(
            f"  {rid:<20} {statistics.median(values):.3f}  "
            f"(min {min(values):.3f}, max {max(values):.3f}, {len(values)} passes)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--agent", default="random", choices=("random", "simple"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", action="store_true", help="time CPU, not the wall clock")
    parser.add_argument("--reference", help="another checkout to time side by side")
    parser.add_argument("--passes", type=int, default=6, help="passes with --reference")
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.reference:
        compare(args)
        return
    tree = Path(args.tree).resolve() if args.tree else HERE
    lines = rates(tree, args.rulesets, args.hands, args.agent, args.seed, args.cpu)
    if args.json:
        print(json.dumps({rid: rate for rid, rate, _acts, _ends in lines}))
        return
    print(f"{'ruleset':<20} {'hands/s':>8} {'acts/hand':>9}  ends ({args.agent} agents, "
          f"{args.hands} hands, target ≥ {TARGET}/s)")  # fmt: skip
    for rid, rate, acts, ends in lines:
        print(f"{rid:<20} {rate:8.0f} {acts:9.0f}  {ends}")


if __name__ == "__main__":
    main()
