"""A tile set with honours and flowers, declared in a ruleset: the wall, the deal, claims,
wins, the flower mechanic (补花) and the logs all take it from the ruleset."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dsl.ruleset import check_ruleset, load
from handcore.tiles import EVERY
from interpreter.engine import replay
from interpreter.engine.log_schema import event_problem
from interpreter.engine.narrate import narrate
from interpreter.engine.rules import Rules
from interpreter.hand_record import HandRecord, Win
from interpreter.settle import settle
from tests.engine.helpers import rigged, tiles
from tests.engine.test_invariants import checked_game

HONOURS = Path(__file__).parents[1] / "data" / "rulesets" / "honours.yaml"


@pytest.fixture(scope="module")
def ruleset():
    return load(str(HONOURS))


def test_the_wall_holds_the_declared_set(ruleset):
    rules = Rules(ruleset)
    wall = Counter(rules.all_tiles)
    assert len(rules.all_tiles) == 144
    assert {EVERY.name(t): n for t, n in wall.items() if t >= 27} == {
        **{f"{n}z": 4 for n in range(1, 8)},
        **{f"{n}f": 1 for n in range(1, 9)},
    }
    # no chow takes an honour or a flower
    assert all(not rules.chows[t] for t in range(27, ruleset.tileset.kinds))


@pytest.mark.parametrize(
    ("agent", "games"),
    [
        ("random", 6),
        ("simple", 6),
        ("efficiency", 6),
        ("value", 2),
        ("defensive", 2),
        ("strategy", 2),
    ],
)
def test_games_keep_every_tile_and_replay(ruleset, agent, games):
    flowers = honour_melds = 0
    for seed in range(games):
        game = checked_game(ruleset, seed, agent)
        assert replay(game.events, ruleset).hands == 1
        assert all(event_problem(e) == "" for e in game.events)
        narrate(game.events)
        for p in game.players:
            assert all(t >= 36 for t in p.flowers) and not any(p.counts[36:])
            honour_melds += sum(m.tile >= 27 for m in p.melds)
            assert all(m.kind != "chow" or m.tile < 27 for m in p.melds)
        flowers += sum(len(p.flowers) for p in game.players)
        for e in game.events:
            if e["type"] == "claim" and e["kind"] == "chow":
                assert e["tile"][-1] in "mps"
    assert flowers > 0  # the random walls do deal and draw flowers
    if agent in ("efficiency", "value"):  # a bot that claims pungs makes some of honours
        assert honour_melds > 0


def test_a_flower_drawn_is_set_aside_and_replaced_from_the_tail(ruleset):
    game = rigged(ruleset, {0: "123m 456p 789s 1122z 5z"}, draws="3f", tail="77m")
    game.apply(game.legal_actions(0)[0], 0)  # the dealer discards; seat 1 draws the flower
    while game.to_move() != 1 or game.phase != "turn":
        seat = game.to_move()
        game.apply(next(a for a in game.legal_actions(seat) if a.kind == "pass"), seat)
    draw, flower = [e for e in game.events if e["type"] in ("draw", "flower")][-2:]
    assert draw == {"type": "draw", "seat": 1, "tile": "3f", "source": "front", "last_tile": False}
    assert flower == {"type": "flower", "seat": 1, "tile": "3f", "replacement": "7m"}
    observed = game.observation(1)
    assert EVERY.name(observed["drawn"]) == "7m"
    assert observed["flowers"][1] == tuple(tiles("3f"))
    assert "sets aside the flower 3f, draws 7m from the tail" in narrate(game.events)


def test_dealt_flowers_are_replaced_from_the_dealer_on(ruleset):
    dealt = {0: "1f 123m 456p 789s 123z", 2: "2f 5f 12m 34p 56s 77z 5z"}
    game = rigged(ruleset, dealt, tail="9999m")
    flowers = [
        (e["seat"], e["tile"], e["replacement"]) for e in game.events if e["type"] == "flower"
    ]
    assert flowers == [(0, "1f", "9m"), (2, "2f", "9m"), (2, "5f", "9m")]
    deal = next(e for e in game.events if e["type"] == "deal")
    assert "f" not in " ".join(deal["hands"])
    assert sum(game.players[0].counts) == 14 and sum(game.players[2].counts) == 13


def test_an_honour_pung_wins_and_settles(ruleset):
    # 小胡 with a pung of 中 and a 2/5/8 pair of 2m: honours make pungs
    win = Win(1, tuple(tiles("123m 456p 789s 555z 2m")), (), tuple(tiles("2m")), 0,
              frozenset(), ())  # fmt: skip
    settlement = settle(ruleset, HandRecord(4, 0, frozenset(range(4)), wins=(win,)))
    assert [h.id for h in settlement.wins[0].hands] == ["pinghu"]
    assert settlement.deltas[1] > 0


@pytest.mark.parametrize(
    ("tiles_yaml", "message"),
    [
        ("honours: [东, 9z]", "'9z' is not one of the allowed values"),
        ("flowers: [春, 菊花]", "'菊花' is not one of the allowed values"),
        ("suits: []\n  honours: true", "no tile set"),
    ],
)
def test_a_bad_tile_set_is_an_error_with_its_place(tmp_path, tiles_yaml, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"format: 2\nextends: changsha/basic\ntiles:\n  {tiles_yaml}\n", "utf-8")
    problems = [p for p in check_ruleset(str(path)).problems if p.is_error]
    assert problems and message in problems[0].message
    assert problems[0].location.line >= 3


def test_another_seat_sees_the_flower_but_not_its_replacement(ruleset):
    from interpreter.human import told

    game = rigged(ruleset, {0: "1f 123m 456p 789s 123z"}, tail="9999m")
    start = game.events[0]
    flower = next(e for e in game.events if e["type"] == "flower")
    seen = told(start, flower, 0, False)
    assert seen.endswith("sets aside the flower 1f, draws 9m from the tail")
    assert told(start, flower, 1, False).endswith("sets aside the flower 1f")


def test_a_scenario_with_honours_settles_under_its_ruleset(tmp_path):
    import subprocess
    import sys

    scenario = tmp_path / "honours.yaml"
    scenario.write_text(
        'version: 1\ndealer: 0\nwins:\n  - seat: 1\n    hand: "123m 456p 789s 中中中 22m"\n'
        "    win_tile: 2m\n    from: 0\n",
        "utf-8",
    )
    mjrules = [sys.executable, "-c", "from interpreter.cli import main; main()", "settle"]
    done = subprocess.run(
        [*mjrules, str(scenario), "--ruleset", str(HONOURS)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "hand 123m 456p 789s 555z 22m" in done.stdout and "小胡 1" in done.stdout
    refused = subprocess.run(
        [*mjrules, str(scenario), "--ruleset", "changsha/basic"], capture_output=True, text=True
    )
    assert refused.returncode == 1
    assert "5:27: error: unexpected '中' (honour tiles are not in this tile set)" in refused.stderr


def test_a_set_with_only_some_honours_deals_and_plays_them_alone(tmp_path):
    path = tmp_path / "red.yaml"
    path.write_text(
        f"format: 2\nextends: {HONOURS.name}\ntiles:\n  honours: [中]\n  flowers: false\n", "utf-8"
    )
    (tmp_path / HONOURS.name).write_text(HONOURS.read_text("utf-8"), "utf-8")
    red = load(str(path))
    assert red.tileset.total == 112
    assert {EVERY.name(t) for t in Rules(red).all_tiles if t >= 27} == {"5z"}
    for seed in range(3):
        game = checked_game(red, seed, "efficiency")
        seen = {EVERY.name(t) for p in game.players for t in (*p.hand(), *p.discards)}
        assert not {name for name in seen if name.endswith(("z", "f"))} - {"5z"}


def test_a_flower_among_the_last_tiles_taken_together_finds_no_replacement(tmp_path):
    from interpreter.engine.actions import Action
    from tests.engine.helpers import tsumogiri

    path = tmp_path / "qq_flower.yaml"
    path.write_text("format: 2\nextends: changsha/qq2014\ntiles:\n  flowers: [春]\n", "utf-8")
    game = rigged(load(str(path)), {}, last="1f 5m")
    tsumogiri(game, lambda g: g.phase == "last_offer")
    seat = game.to_move()
    game.apply(Action("take"), seat)
    flower = [e for e in game.events if e["type"] == "flower"]
    assert flower == [{"type": "flower", "seat": seat, "tile": "1f", "replacement": None}]
    assert [EVERY.name(t) for t in game.state.kong_tiles] == ["5m"]
    assert game.census() == Counter(Rules(game.ruleset).all_tiles)


def test_the_learning_environment_sizes_its_spaces_by_the_tile_set():
    import numpy as np

    from interpreter.env import MahjongSeat, observation_size

    env = MahjongSeat(str(HONOURS), bots="efficiency")
    assert "discard 5z" in env.aec.actions.index and "pung 7z" in env.aec.actions.index
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (observation_size(4, 45),)
    rng = np.random.default_rng(0)
    for _ in range(500):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, over, _, info = env.step(action)
        assert "illegal" not in info
        if over:
            break
    assert over


def test_an_option_can_put_the_honours_in_play(tmp_path):
    path = tmp_path / "optional.yaml"
    path.write_text(
        "format: 2\nextends: changsha/basic\noptions:\n  zipai:\n"
        "    name: {zh: 带字牌, en: with honours}\n    type: bool\n    default: false\n"
        "    source: house rule\ntiles:\n  honours: option.zipai\n",
        "utf-8",
    )
    assert load(str(path)).tileset.total == 108
    assert load(str(path), settings=["zipai=true"]).tileset.total == 136
