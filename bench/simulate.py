"""Simulation throughput: hands per second per core for each agent, and the scaling of workers.

Run: python bench/simulate.py [--hands N] [--reference-hands N] [--seed S] [RULESET ...]

For each ruleset (one Changsha and one Sichuan by default) and each agent type in
``interpreter.agents.AGENTS`` (all four seats the same agent): hands per second played by
``interpreter.simulate`` in one process (per core).  In the same run, the ``rlcard``
package's mahjong environment (``rlcard.make("mahjong")``, its random agents) is timed
as a reference over ``--reference-hands`` hands (1,000 by default: over 200 its rate
swung from 23 to 33 hands/s between runs), and each rate is also given as a ratio to it.
Last, the same simulation on two worker processes against one: the ratio of their rates
(the machine's cores permitting), per hand and as whole calls (a pool's start-up
included).  Per-hand rates leave out what a ``simulate`` call pays once (see ``rate``).

Every timing plays hands never played before in the process (a new master seed each time),
since bots remember what they worked out per hand and a replayed seed would time lookups.
The rlcard reference is timed again next to every row (``--reference-hands`` hands each
time, its environment's random stream running on) and each ratio is taken against the
reference timed beside it, so that both sides of a ratio share the machine's state.  Every
rate is the best of three timings; rates still vary about ±7% run to run.  Do not pin to
one core with ``taskset`` when the scaling line is wanted.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT = ("changsha/qq2014", "sichuan/blog5")
SEEDS = itertools.count()  # every simulate call of a run plays new hands (see fresh_seed)


def fresh_seed(base: int) -> int:
    """A master seed no earlier call of this run has used: hand i of master seed s is
    derived from (s, i), so distinct masters deal distinct hands."""
    return base * 1_000_003 + next(SEEDS)


def seconds(ruleset: str, agent: str, hands: int, seed: int, workers: int = 1) -> float:
    """The best of three timings of one ``simulate`` call, each over hands not played before."""
    from interpreter.simulate import simulate

    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        simulate(ruleset, hands, fresh_seed(seed), agent, workers=workers, progress=False)
        best = min(best, time.perf_counter() - start)
    return best


def rate(ruleset: str, agent: str, hands: int, seed: int, workers: int = 1) -> float:
    """Hands per second of ``simulate``, per hand: the time of ``hands`` hands less that of
    one hand, so that what every call pays once (loading and checking the ruleset, about
    40 ms; a pool's start-up) is left out and everything paid per hand (agents, records) is
    in."""
    seconds(ruleset, agent, 1, seed, workers)  # first use builds tables
    whole = seconds(ruleset, agent, hands, seed, workers)
    return (hands - 1) / (whole - seconds(ruleset, agent, 1, seed, workers))


class Reference:
    """The rlcard mahjong environment with random agents, timed on demand; its random stream
    runs on, so every timing plays new hands."""

    def __init__(self, seed: int) -> None:
        import rlcard
        from rlcard.agents import RandomAgent

        self.env = rlcard.make("mahjong", config={"seed": seed})
        self.env.set_agents(
            [RandomAgent(num_actions=self.env.num_actions) for _ in range(self.env.num_players)]
        )
        self.env.run(is_training=False)

    def rate(self, hands: int, clock=time.perf_counter) -> float:
        start = clock()
        for _ in range(hands):
            self.env.run(is_training=False)
        return hands / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-hands", type=int, default=300)
    parser.add_argument("--scaling-hands", type=int, default=2000)
    parser.add_argument("--scaling-agent", default="simple")
    parser.add_argument("--scaling-only", action="store_true")
    args = parser.parse_args()
    if not args.scaling_only:
        agents(args)
    ruleset, agent = args.rulesets[-1], args.scaling_agent
    hands = args.scaling_hands
    for what, measure in (
        ("per hand", lambda w: rate(ruleset, agent, hands, args.seed, w)),
        ("whole calls, pool start-up included",
         lambda w: hands / seconds(ruleset, agent, hands, args.seed, w)),
    ):  # fmt: skip
        one, two = measure(1), measure(2)
        print(f"{ruleset}, {agent}, {hands} hands ({what}): "
              f"1 worker {one:,.1f}/s, 2 workers {two:,.1f}/s, ratio {two / one:.2f}")  # fmt: skip


def agents(args: argparse.Namespace) -> None:
    from interpreter.agents import AGENTS

    try:
        reference: Reference | None = Reference(args.seed)
    except ImportError:
        reference = None
        print("rlcard is not installed (pip install '.[bench]'): no reference column")
    print(f"{'ruleset':<18} {'agent':<12} {'hands/s/core':>12} {'rlcard beside':>13} {'ratio':>7}")
    for ruleset in args.rulesets:
        for agent in AGENTS:
            r = rate(ruleset, agent, args.hands, args.seed)
            if reference is None:
                print(f"{ruleset:<18} {agent:<12} {r:>12,.1f}")
                continue
            beside = reference.rate(args.reference_hands)
            print(f"{ruleset:<18} {agent:<12} {r:>12,.1f} {beside:>13,.1f} {r / beside:>6.1f}×")


if __name__ == "__main__":
    main()
