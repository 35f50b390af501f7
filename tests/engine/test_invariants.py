"""Invariants over games played by agents, for every shipped ruleset and a toy one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from random import Random

import pytest

from dsl.ruleset import available_ids, default_root, load
from interpreter.engine import Action, Game, IllegalAction, play, replay
from interpreter.engine.events import read_log, to_jsonl
from interpreter.engine.rules import Rules
from interpreter.simulate import new_agent

TOY = str(Path(__file__).with_name("toy.yaml"))
MAX_DECISIONS = 5000


def playable() -> list[str]:
    ids = []
    for rid in available_ids(default_root()):
        ruleset = load(rid, compile=False)
        if not (ruleset.get("ruleset") or {}).get("abstract"):
            ids.append(rid)
    return ids


RULESETS = [*playable(), TOY]


@pytest.fixture(scope="module", params=RULESETS)
def ruleset(request):
    return load(request.param)


def checked_game(ruleset, seed: int, agent: str | Sequence[str]) -> Game:
    """Play one hand, checking the invariants at every step.  ``agent``: one name for every
    seat or one per seat, each made as simulations make it (given the ruleset if it takes it)."""
    rules = Rules(ruleset)
    every_tile = Counter(rules.all_tiles)
    rng = Random(seed)
    game = Game(ruleset, seed, rng.randrange(rules.players), rules=rules)
    names = [agent] * rules.players if isinstance(agent, str) else list(agent)
    agents = [new_agent(name, seed * 16 + i, ruleset) for i, name in enumerate(names)]
    decisions = 0
    while (seat := game.to_move()) is not None:
        assert game.census() == every_tile, "a tile is lost or doubled"
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} has no legal action in phase {game.phase}"
        for other in range(rules.players):
            if other != seat:
                assert game.legal_actions(other) == []
        if decisions % 7 == 0:  # an illegal action is refused and changes nothing
            events = len(game.events)
            wrong = next(a for a in (Action("take"), Action("void", option="x"), Action("chow", 80))
                         if a not in legal)  # fmt: skip
            with pytest.raises(IllegalAction):
                game.apply(wrong, seat)
            with pytest.raises(IllegalAction):
                game.apply(legal[0], (seat + 1) % rules.players)
            assert len(game.events) == events and game.census() == every_tile
        game.apply(agents[seat].act(game.observation(seat), legal), seat)
        decisions += 1
        assert decisions < MAX_DECISIONS, "the hand does not end"
    assert game.census() == every_tile
    result = game.result()
    assert sum(result.deltas) == 0, "payments do not balance"
    for settlement in result.settlements:
        assert sum(settlement.deltas) == 0
    assert result.reason in ("win", "one_left", "wall")
    assert 0 <= result.next_dealer < rules.players
    return game


@pytest.mark.parametrize("agent", ["random", "simple"])
def test_invariants_hold_at_every_step(ruleset, agent):
    for seed in range(4):
        game = checked_game(ruleset, seed, agent)
        assert replay(game.events, ruleset).hands == 1


def test_matches_replay_and_repeat_byte_for_byte(ruleset, tmp_path):
    log = tmp_path / "match.jsonl"
    agents = ["simple", "random", "simple", "random"][: Rules(ruleset).players]
    result, events = play(ruleset, 11, agents, hands=4, log=str(log))
    again, events_again = play(ruleset, 11, agents, hands=4)
    assert to_jsonl(events) == to_jsonl(events_again) == log.read_text(encoding="utf-8")
    assert result == again
    report = replay(read_log(str(log)), ruleset)
    assert report.hands == 4
    assert [sum(d) for d in report.deltas] == [0] * 4
    assert tuple(map(sum, zip(*report.deltas, strict=True))) == result.scores
    # the dealer of each hand is the previous hand's next dealer
    dealers = [h.dealer for h in result.hands]
    assert dealers[1:] == [h.next_dealer for h in result.hands[:-1]]


def test_a_tampered_log_does_not_replay(ruleset):
    _, events = play(ruleset, 3, "simple", hands=1)
    acts = [i for i, e in enumerate(events) if e["type"] == "act"]
    tampered = [dict(e) for e in events]
    end = next(i for i, e in enumerate(tampered) if e["type"] == "end")
    tampered[end] = {**tampered[end], "deltas": [9] * len(tampered[end]["deltas"])}
    with pytest.raises(Exception, match="differs"):
        replay(tampered, ruleset)
    cut = events[: acts[len(acts) // 2]]
    with pytest.raises(Exception, match="ends before"):
        replay(cut, ruleset)


def test_the_toy_ruleset_plays_without_engine_changes():
    toy = load(TOY)
    rules = Rules(toy)
    assert (rules.players, rules.suits, len(rules.all_tiles)) == (3, (0, 2), 72)
    assert "chow" not in rules.claims and not rules.kongs_allowed
    result, events = play(toy, 5, "simple", hands=6)
    assert any(h.reason == "win" for h in result.hands)
    birds = [e for e in events if e["type"] == "bird"]
    assert birds and all(len(e["tiles"]) == 1 for e in birds)
    assert not [e for e in events if e["type"] in ("kong", "replacement")]
    assert all(e["kind"] == "pung" for e in events if e["type"] == "claim")


@pytest.mark.parametrize(
    "settings",
    [
        ["exchange=true", "exchange_direction=dice"],
        ["exchange=true", "exchange_direction=across", "exchange_same_suit=false", "dingque=true"],
    ],
)
@pytest.mark.parametrize("agent", ["random", "simple", "value"])
def test_invariants_hold_with_the_exchange(settings, agent):
    app = load("sichuan/app", settings=settings)
    for seed in range(3):
        game = checked_game(app, seed, agent)
        assert [e["type"] for e in game.events].count("exchange") == 1
        assert replay(game.events, app).hands == 1
