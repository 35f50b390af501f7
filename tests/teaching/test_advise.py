"""`mjrules advise`: readiness, chances, value and danger as the ruleset counts them."""

import json
import subprocess
import sys
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.ruleset import load
from handcore import shapes
from handcore.tiles import STANDARD
from interpreter.advise import AdviceError, Option, _recommend, advise, observation, parse_melds
from interpreter.agents import reading

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]
ISSUE_HAND = "123m 456p 789s 11m 23p"  # ready in shape on 1p 4p (mjrules hand)


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=120)


def position(ruleset, text, **kw):
    rules = load(ruleset)
    return advise(rules, observation(rules, STANDARD.parse(text), **kw), samples=40)


def test_three_suits_never_win_where_a_win_must_lack_a_suit():
    # seeds/002_c4a44432eae6dd73.txt:5 "必须缺缺一门才能能胡牌" (sichuan: a win lacks a suit)
    only = position("sichuan/blog5", ISSUE_HAND).options[0]
    assert only.distance == 3  # 789s to replace, 23p to complete
    assert "条 to give up" in only.refused
    assert all(t // 9 != 2 for t, _ in only.accepted)  # no 条 helps


def test_a_pair_off_258_is_not_ready_where_a_plain_win_needs_it():
    # seeds/000_825dba35fdb6fcc9.txt:19 "小胡要2、5、8作将" (changsha)
    advice = position("changsha/qq2014", ISSUE_HAND)
    only = advice.options[0]
    assert only.distance == 1
    assert "ready in shape on 1p 4p 7p" in only.refused
    assert advice.reason.startswith("never wins as it stands")
    accepted = {STANDARD.name(t) for t, _ in only.accepted}
    assert {"2m", "2p", "5p"} <= accepted  # each can give a 2/5/8 pair
    assert "9s" not in accepted


def test_hand_type_without_shape_is_ready():
    # seeds/000_825dba35fdb6fcc9.txt:37 "将将胡：玩家手上每一张牌都为2、5、8"
    only = position("changsha/qq2014", "2258m 2258p 22588s").options[0]
    assert shapes.shanten(shapes.keys_of(STANDARD.counts(STANDARD.parse("2258m 2258p 22588s")))) > 1
    assert only.distance == 0
    waits = {STANDARD.name(t) for t, _ in only.accepted}
    assert waits == {f"{r}{s}" for r in "258" for s in "mps"}
    assert only.hands[0][0] == "将将胡"


def test_ready_chance_is_hypergeometric_and_value_is_settled():
    advice = position("sichuan/blog5", "123m 456m 789m 11p 23p")
    only = advice.options[0]
    assert only.distance == 0 and only.live == 6  # 1p (two left) and 4p (four)
    unseen = 108 - 13
    assert only.p_win == pytest.approx(1 - comb(unseen - 6, 8) / comb(unseen, 8))
    assert "exact" in only.method
    rules = load("sichuan/blog5")
    f = reading.facts(rules)
    view = reading.View.of(observation(rules, STANDARD.parse("123m 456m 789m 11p 23p")))
    keys = shapes.add_tile(view.keys, STANDARD.parse("1p")[0])
    assert only.value == pytest.approx(f.points(view, keys, (), STANDARD.parse("1p")[0], True))
    assert only.ev == pytest.approx(only.p_win * only.value)


def test_one_suit_pays_more_than_speed():
    """The same tiles ready in one suit are worth more (清一色) under the ruleset's values."""
    one = position("sichuan/blog5", "1112345678999m").options[0]
    two = position("sichuan/blog5", "1112345678m 999p").options[0]
    assert one.hands[0][0].startswith("清一色")
    assert one.value > two.value > 0


def test_danger_reads_rivers():
    # With a long river, a tile 南 threw (现物) is safer against it than one it did not.
    river = "19m 19p 19s 28m 28p 28s 37m"
    advice = position(
        "sichuan/blog5", "1123m 2356p 455788s", rivers={1: STANDARD.parse(river)}, wall=20
    )
    danger = {STANDARD.name(o.discard): o.danger for o in advice.options}
    assert 0 < danger["8s"] < danger["5s"]


def test_melds_are_parsed_and_counted():
    assert [m.kind for m in parse_melds("555p 789s 2222m")] == ["pung", "chow", "kong"]
    with pytest.raises(AdviceError):
        parse_melds("79s")
    with pytest.raises(AdviceError):
        position("sichuan/blog5", "123m")


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(range(18)), min_size=14, max_size=14))
def test_ready_means_the_ruleset_accepts_a_win(tiles):
    """Two suits (so a sichuan win may hold): distance 0 exactly when some tile wins by
    the engine's own test, and never nearer than the shape allows."""
    if max(STANDARD.counts(tiles)) > 4:
        return
    rules = load("sichuan/blog5")
    advice = advise(rules, observation(rules, tiles), draws=2, samples=10)
    f = reading.facts(rules)
    for o in advice.options:
        keys = shapes.add_tile(shapes.keys_of(STANDARD.counts(tiles)), o.discard, -1)
        assert o.distance >= shapes.shanten(keys, 0, f.form)
        wins = any(
            f.points(reading.View.of(observation(rules, tiles)), shapes.add_tile(keys, t), (), t, s)
            for t in range(27)
            if shapes.tile_count(keys, t) < 4
            for s in (True, False)
        )
        assert (o.distance == 0) == wins


def test_cli_two_rulesets_and_json():
    sichuan = run("advise", "sichuan/blog5", ISSUE_HAND, "--samples", "20")
    assert sichuan.returncode == 0, sichuan.stderr
    assert "never wins as it stands" in sichuan.stdout and "条 to give up" in sichuan.stdout
    data = json.loads(
        run(
            "advise", "sichuan/blog5", "123m 456m 789m 11p 23p 5s", "--json", "--samples", "20"
        ).stdout
    )
    assert data["recommend"] == "5s"
    assert data["options"][0]["accepted"] == {"1p": 2, "4p": 4}
    assert data["options"][0]["method"].startswith("exact")


@pytest.mark.parametrize(
    "args, message",
    [
        (["sichuan/blog5", "123x"], "have no suit"),
        (["sichuan/blog5", "123m"], "expected 13 or 14"),
        (["sichuan/blog5", ISSUE_HAND, "--seat", "中"], "seat '中'"),
        (["sichuan/blog5", ISSUE_HAND, "--melds", "12m"], "meld '12m'"),
        (["sichuan/blog5", ISSUE_HAND, "--void", "z"], "--void 'z'"),
        (["nope/none", ISSUE_HAND], "no ruleset"),
        (["sichuan/blog5", "1111m 456p 789s 23p 5p", "--visible", "1m"],
         "1m is held 4 time(s) (hand and melds) and seen 1 time(s) (visible and rivers): "
         "only 4 copies exist"),
        (["sichuan/blog5", "1111m 456p 789s 23p", "--melds", "111m"], "1m is held 7 time(s)"),
        (["sichuan/blog5", ISSUE_HAND, "--river", "南:2m", "--river", "南:222m"],
         "2m is held 1 time(s) (hand and melds) and seen 4 time(s)"),  # one river, given twice
    ],
)  # fmt: skip
def test_cli_errors_exit_1(args, message):
    result = run("advise", *args)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_likely_ready_opponent_makes_the_advice_name_a_safer_tile():
    """西 has four melds shown (a lone tile left: ready); its river holds 5s and 8s."""
    rules = load("sichuan/blog5")
    hand = STANDARD.parse("1123m 2356p 455788s")
    obs = observation(rules, hand, rivers={2: STANDARD.parse("5s 8s 9p 1p")}, wall=20)
    melds = [(), (), tuple(("pung", t, False) for t in STANDARD.parse("1s 3s 6s 9s")), ()]
    obs["melds"] = tuple(melds)
    advice = advise(rules, obs, samples=40)
    danger = {STANDARD.name(o.discard): o.danger for o in advice.options}
    assert danger["8s"] < danger["2m"] and danger["5s"] < danger["6p"]  # 现物 against 西
    quiet = position("sichuan/blog5", "1123m 2356p 455788s")
    assert max(o.danger for o in quiet.options) < min(danger.values())


def test_the_recommendation_names_a_safer_tile_worth_nearly_as_much():
    def option(tile, ev, danger):
        return Option(STANDARD.parse(tile)[0], 1, [], ev=ev, danger=danger)

    best, reason = _recommend([option("1m", 1.0, 0.6), option("9s", 0.8, 0.1),
                               option("5p", 0.5, 0.0)])  # fmt: skip
    assert STANDARD.name(best.discard) == "1m"
    assert "dangerous (0.60): 9s is safer (0.10) for expected 0.80" in reason
    _, calm = _recommend([option("1m", 1.0, 0.1), option("9s", 0.8, 0.0)])
    assert "safer" not in calm
