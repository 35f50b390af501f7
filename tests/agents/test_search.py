"""The search bot: its sampled worlds hold every tile once and show the seat exactly what it
sees; its choices depend on its observation and seed only; it plays whole hands."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from dsl.ruleset import load
from handcore import shapes
from handcore.suit_tables import RANKS
from interpreter.agents import make_agent
from interpreter.agents.search import SearchAgent, known_world, sample_world
from interpreter.engine.game import Game, census, run
from interpreter.engine.observation import Observation
from interpreter.engine.state import TILES, Table
from tests.simulate.conftest import mjrules

RULESETS = ("changsha/qq2014", "sichuan/blog5")


def position(
    rid: str, seed: int, moves: int, phase: str = "turn", settings: tuple[str, ...] = ()
) -> tuple[Game, int]:
    """A game played by the strategy bot up to the first decision of ``phase`` with more
    than one action after ``moves`` decisions; with the seat to move."""
    ruleset = load(rid, settings=settings)
    game = Game(ruleset, seed, seed % 4)
    bot = make_agent("strategy", 0, ruleset=ruleset)
    done = 0
    while (seat := game.to_move()) is not None:
        legal = game.legal_actions(seat)
        if done >= moves and game.phase == phase and len(legal) > 1:
            return game, seat
        game.apply(bot.act(game.observation(seat), legal), seat)
        done += 1
    pytest.skip("the hand ended first")


def public(t: Table, seat: int) -> dict:
    return dict(Observation(t, seat))


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("seed,moves,phase", [(3, 10, "turn"), (9, 30, "turn"), (5, 6, "claim")])
@pytest.mark.parametrize("progress", [0.0, 4.0])
def test_worlds_hold_every_tile_once_and_show_what_the_seat_sees(
    rid, seed, moves, phase, progress
) -> None:
    game, seat = position(rid, seed, moves, phase)
    t = game.state
    before = public(t, seat)
    hands = [list(p.hand()) for p in t.players]
    rng = Random(1)
    differs = 0
    for _ in range(6):
        w = sample_world(t, seat, rng, progress)
        assert census(w) == Counter(game.rules.all_tiles)
        assert public(w, seat) == before  # the observation is the same in the world
        assert [sum(p.counts) for p in w.players] == [sum(p.counts) for p in t.players]
        assert w.wall.taken == t.wall.taken and w.wall.left == t.wall.left
        assert w.players[seat].hand() == hands[seat]
        differs += any(w.players[q].hand() != hands[q] for q in range(t.n) if q != seat)
        if phase == "claim":  # the round is asked again of the sampled hands, the seat first
            assert w.round.queue[0] == seat and not w.round.choices
            assert w.round.options[seat] == t.round.options[seat]
    assert differs  # hidden tiles are dealt anew
    assert public(t, seat) == before and [p.hand() for p in t.players] == hands  # unchanged


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("seed,moves,phase", [(3, 10, "turn"), (9, 30, "turn"), (5, 6, "claim")])
def test_known_worlds_keep_every_hand_and_deal_only_the_wall_anew(rid, seed, moves, phase) -> None:
    game, seat = position(rid, seed, moves, phase)
    t = game.state
    before = public(t, seat)
    hands = [list(p.hand()) for p in t.players]
    untaken = [x for x, gone in zip(t.wall.tiles, t.wall.taken, strict=True) if not gone]
    walls = set()
    for i in range(4):
        w = known_world(t, seat, Random(i))
        assert census(w) == Counter(game.rules.all_tiles)
        assert public(w, seat) == before
        assert [list(p.hand()) for p in w.players] == hands
        assert [p.melds for p in w.players] == [p.melds for p in t.players]
        left = [x for x, gone in zip(w.wall.tiles, w.wall.taken, strict=True) if not gone]
        assert sorted(left) == sorted(untaken)  # the wall's tiles, in another order
        walls.add(tuple(left))
    assert len(walls) > 1


@pytest.mark.parametrize("progress", [0.0, 4.0])
def test_a_seat_that_threw_its_void_suit_out_holds_none_of_it(progress) -> None:
    found = 0
    for seed in range(1, 6):
        game, seat = position("sichuan/blog5", seed, 24, settings=("dingque=yes",))
        t = game.state
        for q, p in enumerate(t.players):
            last = [e for e in t.events if e["type"] == "discard" and e["seat"] == q]
            if q == seat or p.void is None or not p.in_game or not last:
                continue
            if TILES[last[-1]["tile"]] // RANKS == p.void:
                continue  # its last discard was of its void suit: it may hold more
            found += 1
            for i in range(4):
                w = sample_world(t, seat, Random(i), progress)
                assert not any(w.players[q].counts[p.void * RANKS : (p.void + 1) * RANKS])
    assert found


@pytest.mark.parametrize("rid", RULESETS)
def test_hands_that_played_a_while_are_dealt_nearer_ready(rid) -> None:
    """With ``progress`` each other hand is the nearest to ready of several deals: after
    some turns the others' hands are nearer ready than hands dealt once (about 2 tiles
    from ready), as the hands they really hold are."""

    def away(progress: float) -> float:
        found = []
        for seed in (9, 11, 13):
            game, seat = position(rid, seed, 30)
            t = game.state
            for i in range(8):
                w = sample_world(t, seat, Random(i), progress)
                for q, p in enumerate(w.players):
                    if q != seat and p.in_game and p.turns >= 4:
                        found.append(shapes.shanten(p.keys, len(p.melds), None))
        assert len(found) >= 48
        return sum(found) / len(found)

    blind, built = away(0.0), away(4.0)
    assert built < blind - 0.5, (blind, built)


@pytest.mark.parametrize("rid", RULESETS)
def test_the_risk_guard_searches_no_discard_riskier_than_the_strategy_bots(rid) -> None:
    ruleset = load(rid)
    bot = make_agent("strategy", 0, ruleset=ruleset)
    free = make_agent("search:width=8", 1, ruleset=ruleset)
    guarded = make_agent("search:width=8,guard=risk", 1, ruleset=ruleset)
    narrowed = 0
    for seed in (1, 2):
        game = Game(ruleset, seed, seed % 4)
        while (seat := game.to_move()) is not None:
            legal = game.legal_actions(seat)
            obs = game.observation(seat)
            choice = bot.act(obs, legal)
            if game.phase == "turn" and len(legal) > 1:
                found = guarded.candidates(obs, legal, choice)
                if found != free.candidates(obs, legal, choice):
                    narrowed += 1
                    limit = bot.deal_in(obs, choice.tile)[1]
                    assert not found or found[0] == choice  # none: nothing searched
                    assert all(
                        a.kind == "discard" and bot.deal_in(obs, a.tile)[1] <= limit for a in found
                    )
            game.apply(choice, seat)
    assert narrowed >= 5
    with pytest.raises(ValueError, match="guard"):
        make_agent("search:guard=always", 1, ruleset=ruleset)


@pytest.mark.parametrize("rid", RULESETS)
def test_the_choice_depends_on_the_observation_not_the_hidden_truth(rid) -> None:
    for seed, moves in ((4, 12), (6, 20)):
        game, seat = position(rid, seed, moves)
        t = game.state
        # Another truth the seat cannot tell from this one: hidden tiles dealt again.
        other = sample_world(t, seat, Random(77))
        assert any(other.players[q].hand() != t.players[q].hand() for q in range(t.n))
        legal = game.legal_actions(seat)
        chosen = []
        for table in (t, other):
            bot = make_agent("search:budget=3,near=8", 5, ruleset=game.ruleset)
            chosen.append(bot.act(Observation(table, seat), legal))
            # the worlds it samples are the same too
            w = sample_world(table, seat, Random(9))
            chosen.append((*(tuple(p.hand()) for p in w.players), tuple(w.wall.tiles)))
        assert chosen[0] == chosen[2] and chosen[1] == chosen[3]


def test_same_seed_same_choices_and_a_budget_of_zero_is_the_strategy_bot() -> None:
    ruleset = load("changsha/qq2014")

    def events(first: str) -> list:
        agents = [make_agent(first, 7, ruleset=ruleset)]
        agents += [make_agent("strategy", s, ruleset=ruleset) for s in (1, 2, 3)]
        game = Game(ruleset, 21, 0)
        run(game, agents)
        return game.events

    once = events("search:budget=2")
    assert events("search:budget=2") == once
    assert events("search:budget=0") == events("strategy")


def test_candidates_are_few_and_legal() -> None:
    game, seat = position("changsha/qq2014", 3, 10)
    bot = SearchAgent(0, budget=1, width=3, near=8, ruleset=game.ruleset)
    legal = game.legal_actions(seat)
    obs = game.observation(seat)
    choice = bot.strategy.act(obs, legal)
    found = bot.candidates(obs, legal, choice)
    assert found[0] == choice and 1 < len(found) <= 3 and all(a in legal for a in found)
    assert len(set(found)) == len(found)
    assert bot.act(dict(obs), legal) == choice  # a plain mapping: the strategy bot's choice


def test_an_alternative_is_taken_only_for_a_gain_beyond_its_noise() -> None:
    bot = SearchAgent(0, confidence=1.0)
    steady = [[0, 1, 2], [1, 2, 3], [-2, -1, 0], [4, 5, 5]]  # +1 and +1.75 in every world
    assert bot.pick(steady) == 2
    lucky = [[0, 8, 0], [0, -7, 0], [0, 6, 0], [0, -6, 0]]  # mean +0.25, error 3.6
    assert bot.pick(lucky) == 0
    assert SearchAgent(0, confidence=0).pick(lucky) == 1
    assert bot.pick([[3, 1], [2, 0]]) == 0  # worse in every world


def test_simulate_with_the_search_bot(tmp_path) -> None:
    result = mjrules(
        "simulate", "changsha/qq2014", "--games", "1", "--seed", "5", "--workers", "1",
        "--agents", "search:budget=1,strategy,strategy,strategy",
        "--out", str(tmp_path / "r.jsonl"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "seat 0 search:budget=1" in result.stdout
    bad = mjrules("simulate", "changsha/qq2014", "--games", "1", "--agents", "search:budget=-1")
    assert bad.returncode == 1 and "budget=-1: expected a whole number" in bad.stderr
