"""The bots' valuation of candidate wins: microseconds a question, answered by a fresh valuer.

Run: python bench/valuation.py [--hands N] [--bot value] [--seed S] [--passes P]
                               [--against TREE] [RULESET ...]

Plays ``--hands`` hands with four copies of ``--bot`` and records every distinct question
its valuer is asked for the hand types of a candidate win (the hand with the winning tile,
its melds, how it is won), in the order asked.  Each pass then answers them all with a
valuer built on a newly loaded ruleset, so that none of its memos holds an answer: the
miss path of ``Valuer._hand_types`` that new hands take in a game.  Each pass is a process
of its own, which answers the questions once untimed first, so that the hand core's suit
memos are warm, as in a long run.  Times are CPU time of the process.

``--against TREE`` times another source tree (a checkout of an earlier commit, say) on
the same questions, a pass of each by turns, and prints the ratio: the reference run side
by side.  Both print a digest of the answers (hand types found and combined values),
which must agree.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ("changsha/qq2014", "sichuan/blog5")


def record(rid: str, bot: str, hands: int, seed: int) -> list[tuple]:
    """The distinct hand-type questions of ``hands`` hands of ``bot``, in the order asked."""
    from dsl.ruleset import load
    from interpreter.agents import make_agent
    from interpreter.engine.game import Game, run
    from interpreter.engine.rules import Rules
    from interpreter.valuation import valuer

    ruleset = load(rid)
    asked: dict[tuple, None] = {}
    v = valuer(ruleset)
    answer = v._hand_types

    def remembered(keys, melds, tile, facts):
        asked.setdefault((keys, melds, tile, facts), None)
        return answer(keys, melds, tile, facts)

    v._hand_types = remembered  # type: ignore[method-assign]
    rules = Rules(ruleset)
    bots = [make_agent(bot, s, ruleset=ruleset) for s in range(4)]
    for h in range(hands):
        run(Game(ruleset, seed * 1_000_000 + h, h % 4, rules=rules), bots)
    return list(asked)


def answer_all(rid: str, questions: list[tuple]) -> tuple[float, str]:
    """(CPU seconds, digest) of a fresh valuer answering ``questions``, after another has
    answered them untimed (it fills the hand core's memos as a long run has them)."""
    from dsl.ruleset import load
    from interpreter.valuation import Valuer

    warm = Valuer(load(rid))  # kept alive: the ruleset memos are keyed by the object's id
    for q in questions:
        warm._hand_types(*q)
    v = Valuer(load(rid))
    start = time.process_time()
    found = [v._hand_types(*q) for q in questions]
    elapsed = time.process_time() - start
    text = repr([None if r is None else (r.hands, r.total) for r in found])
    return elapsed, hashlib.sha256(text.encode()).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--bot", default="value")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another source tree to time beside")
    parser.add_argument("--answer", nargs=2, help=argparse.SUPPRESS)  # RULESET FILE: one pass
    args = parser.parse_args()

    if args.answer:  # a pass for --against, run in the other tree
        rid, path = args.answer
        elapsed, digest = answer_all(rid, pickle.loads(Path(path).read_bytes()))
        print(elapsed, digest)
        return

    sys.path.insert(0, str(ROOT))
    print(
        f"{'ruleset':<18} {'questions':>9} {'per hand':>8} {'µs each':>8} "
        + (f"{'reference':>9} {'ratio':>6}  " if args.against else "")
        + "digest"
    )
    for rid in args.rulesets:
        questions = record(rid, args.bot, args.hands, args.seed)
        with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as f:
            f.write(pickle.dumps(questions))
        trees = [ROOT, args.against] if args.against else [ROOT]
        times: list[list[float]] = [[] for _ in trees]
        digests = set()
        for _ in range(args.passes):
            for tree, found in zip(trees, times, strict=True):
                out = subprocess.run(
                    [sys.executable, __file__, "--answer", rid, f.name],
                    env={**os.environ, "PYTHONPATH": str(tree.resolve())},
                    cwd=tree,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.split()
                found.append(float(out[0]))
                digests.add(out[1])
        here, there = times[0], times[-1]
        os.unlink(f.name)
        n = len(questions)
        each = statistics.median(here) / n * 1e6
        row = f"{rid:<18} {n:9d} {n / args.hands:8.0f} {each:8.1f} "
        if args.against:
            ref = statistics.median(there) / n * 1e6
            row += f"{ref:9.1f} {ref / each:5.2f}×  "
        agreed = "" if len(digests) == 1 else " ANSWERS DIFFER"
        print(row + ", ".join(sorted(digests)) + agreed, flush=True)


if __name__ == "__main__":
    main()
