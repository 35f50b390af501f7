"""The bots choose only legal actions, in every shipped ruleset, and are deterministic."""

from __future__ import annotations

import pytest

from dsl.ruleset import available_ids, default_root, load
from interpreter.agents import AGENTS, make_agent
from interpreter.engine import Game, play
from interpreter.engine.events import to_jsonl
from interpreter.engine.rules import Rules

BOTS = ("efficiency", "value", "defensive")


def playable() -> list[str]:
    return [
        rid
        for rid in available_ids(default_root())
        if not (load(rid, compile=False).get("ruleset") or {}).get("abstract")
    ]


class Checked:
    """Wraps a bot: every answer must be one of the legal actions."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.decisions = 0

    def act(self, observation, legal):
        choice = self.bot.act(observation, legal)
        assert choice in legal, f"{type(self.bot).__name__} chose {choice}, legal: {legal}"
        self.decisions += 1
        return choice


def test_registered() -> None:
    for name in BOTS:
        assert name in AGENTS
        make_agent(name, 3)


def test_parameters_by_name() -> None:
    bot = make_agent("defensive:defence=0.25,kong_policy=never", 1)
    assert bot.defence == 0.25 and bot.kong_policy == "never"
    with pytest.raises(ValueError):
        make_agent("value:no_such=1")
    with pytest.raises(ValueError):
        make_agent("defensive:defence=2")


@pytest.mark.parametrize("rid", playable())
def test_only_legal_actions(rid: str) -> None:
    ruleset = load(rid)
    seats = Rules(ruleset).players
    lineup = [*BOTS, "random"]
    for hand in range(4):
        names = (lineup[hand:] + lineup[:hand])[:seats]
        agents = [
            Checked(make_agent(n, 10 * hand + s, **({"ruleset": ruleset} if n in BOTS else {})))
            for s, n in enumerate(names)
        ]
        game = Game(ruleset, 1000 + hand, hand % seats)
        while (seat := game.to_move()) is not None:
            legal = game.legal_actions(seat)
            game.apply(agents[seat].act(game.observation(seat), legal), seat)
        assert sum(game.result().deltas) == 0


@pytest.mark.parametrize("rid", ["changsha/qq2014", "sichuan/blog5"])
def test_same_seed_same_log(rid: str) -> None:
    ruleset = load(rid)

    def log() -> str:
        agents = [make_agent(n, 7 + s, ruleset=ruleset) for s, n in enumerate((*BOTS, "value"))]
        _, events = play(ruleset, 42, agents, hands=2)
        return to_jsonl(events)

    assert log() == log()
