"""Several hands in a row: the dealer passes by the ruleset's ``dealer.next``, scores run on."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import IO, Any

from dsl.ruleset import Ruleset
from interpreter.engine.events import write_log
from interpreter.engine.game import Game, GameResult, run
from interpreter.engine.rules import Rules


@dataclass(frozen=True)
class MatchResult:
    ruleset: str
    seed: int
    hands: tuple[GameResult, ...]
    scores: tuple[int, ...]
    """Each seat's total over the hands."""

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "scores": list(self.scores),
            "hands": [
                {"dealer": h.dealer, "reason": h.reason, "winners": list(h.winners),
                 "deltas": list(h.deltas), "next_dealer": h.next_dealer}
                for h in self.hands
            ],
        }  # fmt: skip


def first_dealer(rules: Rules, rng: Random) -> int:
    """``dealer.first``: random or by dice draws a seat; the room's creator or first seated is 0."""
    if rules.first_dealer in ("random", "dice"):
        return rng.randrange(rules.players)
    return 0


def play(
    ruleset: Ruleset,
    seed: int,
    agents: Sequence[Any] | str = "random",
    hands: int = 1,
    log: str | IO[str] | None = None,
    watch: Callable[[Game], None] | None = None,
) -> tuple[MatchResult, list[dict[str, Any]]]:
    """Play ``hands`` hands; return the match result and the event list (also written to ``log``).

    ``agents`` is one agent per seat, or agent names, or one name for every seat; named agents
    are seeded from ``seed`` and their seat.  ``watch`` is shown each hand before it is
    played (a person at the table follows it).
    """
    from interpreter.agents import make_agent  # agents import the engine's actions

    rules = Rules(ruleset)
    n = rules.players
    if isinstance(agents, str):
        agents = [agents] * n
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for {n} seats")
    players = [
        make_agent(a, seed * 16 + i) if isinstance(a, str) else a for i, a in enumerate(agents)
    ]
    rng = Random(seed)
    dealer = first = first_dealer(rules, rng)
    dealers: frozenset[int] = frozenset()
    scores = [0] * n
    events: list[dict[str, Any]] = []
    results = []
    for number in range(hands):
        game = Game(ruleset, rng.getrandbits(48), dealer, rules=rules, hand=number,
                    first_dealer=first, dealers=dealers)  # fmt: skip
        if watch is not None:
            watch(game)
        result = run(game, players)
        events.extend(game.events)
        results.append(result)
        scores = [a + b for a, b in zip(scores, result.deltas, strict=True)]
        dealer, dealers = result.next_dealer, result.next_dealers
        if result.reason == "escape":  # a player left the table: the match is over
            break
    if log is not None:
        write_log(events, log)
    return MatchResult(ruleset.id, seed, tuple(results), tuple(scores)), events
