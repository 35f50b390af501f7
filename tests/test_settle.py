"""Settlement: scenario checks, the documented example, and properties over every ruleset."""

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dsl.problems import RulesetError
from dsl.ruleset import available_ids, default_root, load
from handcore.tiles import STANDARD
from interpreter.scenario import ScenarioError, read_scenario_text
from interpreter.settle import SettlementError, settle

REPO = Path(__file__).resolve().parents[1]
MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=60, cwd=REPO)


def test_documented_example_prints_what_the_doc_shows():
    doc = (REPO / "docs" / "SCENARIO.md").read_text(encoding="utf-8")
    shown = re.search(r"\$ mjrules settle (\S+)\n(.*?)```", doc, re.S)
    result = run("settle", shown.group(1))
    assert result.returncode == 0, result.stderr
    assert result.stdout == shown.group(2)


def test_json_output_has_the_documented_keys():
    import json

    data = json.loads(run("settle", "docs/scenarios/qq2014-birds.yaml", "--json").stdout)
    assert set(data) >= {"wins", "payments", "deltas"}
    assert set(data["wins"][0]) >= {"seat", "hands", "total"}
    assert set(data["wins"][0]["hands"][0]) >= {"id", "name", "value"}
    assert set(data["payments"][0]) >= {"from", "to", "amount", "reasons"}
    assert sum(data["deltas"]) == 0


def test_options_from_the_command_line_change_the_result():
    one = run("settle", "docs/scenarios/qq2014-birds.yaml", "--set", "birds=0", "--json")
    assert '"birds": {}' in one.stdout


GOOD = """\
ruleset: changsha/qq2014
dealer: 0
wins:
  - seat: 1
    hand: "123s 456s 789s 234s 55s"
    win_tile: 5s
"""


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (GOOD.replace("123s 456s", "123x 456s"), ":5:15", "have no suit"),
        (GOOD.replace("55s", "5s"), ":5:11", "13 concealed tiles with 0 meld(s)"),
        (GOOD.replace("seat: 1", "seat: 7"), ":4:11", "seat 7 is not a seat 0..3"),
        (GOOD.replace("123s 456s 789s", "111s 111s 789s"), ":4:5", "copy 6 of 1s"),
        (
            GOOD.replace("win_tile: 5s", "win_tile: 9m"),
            ":5:11",
            "winning tile 9m is not in the hand",
        ),
        (GOOD + "birds: [5s, 5s, 5s]\n", ":7:13", "copy 5 of 5s"),
        (
            GOOD + "visible: [5s, 1m, 5s]\n",
            ":7:19",
            "copy 5 of 5s, counting hands, melds, birds and visible tiles",
        ),
        (GOOD.replace("dealer: 0", "dealr: 0"), ":2:1", "did you mean 'dealer'"),
        (GOOD + "    context: [kongdraw]\n", ":7:15", "did you mean 'kong_draw'"),
        # Seats that contradict each other (issue 10).
        (GOOD + "in_game: [0, 2, 3]\n", ":7:10", "in_game leaves out seat 1, the winner"),
        (
            GOOD + "    from: 3\nin_game: [0, 1, 2]\n",
            ":8:10",
            "in_game leaves out seat 3, the discarder",
        ),
        (
            GOOD + 'unfinished:\n  - {seat: 1, hand: "123m 456m 789m 234p 5p"}\n',
            ":8:5",
            "unfinished: seat 1 also wins (wins)",
        ),
        (
            GOOD + 'unfinished:\n  - {seat: 2, hand: "123m 456m 789m 234p 5p"}\n'
            '  - {seat: 2, hand: "123p 456p 789p 234m 5m"}\n',
            ":9:5",
            "unfinished: seat 2 is given twice",
        ),
        (
            GOOD + "in_game: [0, 1, 3]\n"
            'unfinished:\n  - {seat: 2, hand: "123m 456m 789m 234p 5p"}\n',
            ":9:5",
            "unfinished: seat 2 is not in in_game",
        ),
        (
            GOOD + "in_game: [0, 1, 2]\nkongs: [{seat: 3, kind: concealed}]\n",
            ":8:16",
            "kongs: seat 3 is not in in_game",
        ),
        (
            GOOD + "in_game: [0, 1, 2]\nkongs: [{seat: 2, kind: direct, from: 3}]\n",
            ":8:39",
            "kongs: from 3 is not in in_game",
        ),
        (
            GOOD + "kongs: [{seat: 2, kind: direct, from: 2}]\n",
            ":7:39",
            "a player cannot make a kong on their own discard",
        ),
    ],
)
def test_bad_scenarios_are_refused_with_their_place(text, where, message):
    with pytest.raises(ScenarioError) as error:
        read_scenario_text(text, "s.yaml")
    report = error.value.format()
    assert f"s.yaml{where}" in report
    assert message in report


def test_visible_tiles_count_beyond_the_exposed_melds_they_may_list():
    """``visible`` lists every tile face up, the winner's pung 999s among them: those three
    are counted once; a fourth 9s is the last copy, a fifth one too many."""
    text = GOOD.replace('"123s 456s 789s 234s 55s"', '"123s 456s 234s 55s"\n    melds: [pung 999s]')
    seen = read_scenario_text(text + "visible: [9s, 9s, 9s, 9s, 1m]\n", "s.yaml")
    assert seen.hand.visible.count(STANDARD.parse("9s")[0]) == 4
    with pytest.raises(ScenarioError) as error:
        read_scenario_text(text + "visible: [9s, 9s, 9s, 9s, 9s]\n", "s.yaml")
    assert "s.yaml:8:27: error: copy 5 of 9s" in error.value.format()


def test_a_hand_that_does_not_win_is_refused(tmp_path):
    path = tmp_path / "nowin.yaml"
    path.write_text(GOOD.replace("55s", "56s").replace("win_tile: 5s", "win_tile: 6s"))
    result = run("settle", str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    # told as every located problem is: its place, error:, then the line quoted
    assert result.stderr == (
        f"mjrules: error: {path}:4:5: error: the hand of seat 1 does not win under "
        "changsha/qq2014 (no hand type applies with 6s)\n      - seat: 1\n        ^\n"
    )


def test_bad_scenario_exits_1_without_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD.replace("seat: 1", "seat: 9"))
    result = run("settle", str(path))
    assert result.returncode == 1
    assert "bad.yaml:4:11: error: seat 9" in result.stderr
    assert "Traceback" not in result.stderr
    assert run("settle", str(tmp_path / "missing.yaml")).returncode == 1


def test_the_options_of_a_scenario_are_checked_at_their_place_in_the_file(tmp_path):
    path = tmp_path / "options.yaml"
    path.write_text(THREE_SUITS + "options: {zimo: jiafan, cap_fan: 99}\n")
    result = run("settle", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{path}:8:34: error: '99' is not allowed for option 'cap_fan'" in result.stderr
    assert "--set" not in result.stderr  # never typed
    path.write_text(THREE_SUITS + "options:\n  zimo_x: 1\n")
    result = run("settle", str(path))
    assert f"{path}:9:3: error: unknown option 'zimo_x'" in result.stderr
    assert "did you mean 'zimo'?" in result.stderr


def test_a_choice_the_ruleset_lacks_is_refused_at_its_place(tmp_path):
    """A misspelt choice would leave every seat at the default, silently."""
    path = tmp_path / "choices.yaml"
    path.write_text(GOOD.replace("changsha/qq2014", "house/changsha_piao")
                    + "choices: {paio: [0, 2, 1, 3]}\n")  # fmt: skip
    result = run("settle", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{path}:7:11: error: choices: the ruleset has no choice 'paio'" in result.stderr
    assert "did you mean 'piao'?" in result.stderr


@pytest.mark.parametrize(
    ("chosen", "col", "shown"),
    [("[0, 2, 1, 7]", 27, "7"), ("[0, true, 1, 3]", 21, "true"), ("[0, 2, 5m, 3]", 24, "5m")],
)
def test_a_choice_value_the_ruleset_does_not_offer_is_refused_at_its_place(
    tmp_path, chosen, col, shown
):
    """A stake of 7 where 飘 offers 0 to 3 (or true, read as 1) would be settled as given."""
    path = tmp_path / "choices.yaml"
    path.write_text(GOOD.replace("changsha/qq2014", "house/changsha_piao")
                    + f"choices: {{piao: {chosen}}}\n")  # fmt: skip
    result = run("settle", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    seat = chosen.strip("[]").split(", ").index(shown)
    assert (f"{path}:7:{col}: error: choice 'piao': seat {seat} cannot choose {shown}\n"
            in result.stderr)  # fmt: skip
    assert "expected: one of 0, 1, 2, 3" in result.stderr


def test_a_void_suit_is_one_of_the_suits_in_play(tmp_path):
    path = tmp_path / "void.yaml"
    one_suit = GOOD.replace("changsha/qq2014", "sichuan/blog5") + "options: {dingque: true}\n"
    path.write_text(one_suit + "choices: {void: [m, p, m, 3]}\n")
    result = run("settle", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{path}:8:27: error: choice 'void': seat 3 cannot choose 3" in result.stderr
    assert "expected: one of m, p, s" in result.stderr
    path.write_text(one_suit + "choices: {void: [m, p, m, p]}\n")
    assert run("settle", str(path)).returncode == 0


THREE_SUITS = """\
ruleset: sichuan/blog5
dealer: 0
wins:
  - seat: 1
    hand: "123m 456p 789s 234s 55s"
    win_tile: 5s
    from: 2
"""


def test_a_win_holding_every_suit_is_refused_under_void_suit():
    # 必须缺一门才能胡牌 (001_76942f0387627e0c.txt ◆基本规则 line 19): sichuan/base sets
    # restrictions.win_requires: count(suits) < 3; a complete hand in all three suits does
    # not win.
    with pytest.raises(
        SettlementError, match=r"<scenario>:4:5: .*win_requires is false \(count\(suits\) < 3\)"
    ):
        settle(load("sichuan/blog5"), read_scenario_text(THREE_SUITS).hand)
    two_suits = THREE_SUITS.replace("123m 456p", "123p 456p")
    assert settle(load("sichuan/blog5"), read_scenario_text(two_suits).hand).deltas == [0, 1, -1, 0]


def test_win_requires_and_min_value_are_applied(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: changsha/qq2014\n"
        "ruleset: {title: {zh: 自摸才胡, en: self-draw only}}\n"
        "restrictions: {win_requires: self_draw}\n"
    )
    on_discard = GOOD + "    from: 2\n"
    with pytest.raises(SettlementError, match=r"win_requires is false \(self_draw\)"):
        settle(load(str(house)), read_scenario_text(on_discard).hand)
    assert settle(load(str(house)), read_scenario_text(GOOD).hand).wins[0].seat == 1
    house.write_text(
        "extends: changsha/qq2014\n"
        "ruleset: {title: {zh: 起胡, en: minimum}}\n"
        "scoring: {min_value: 2}\n"
    )
    with pytest.raises(SettlementError, match=r"value 1 is below scoring\.min_value 2"):
        settle(load(str(house)), read_scenario_text(GOOD).hand)


def test_settle_and_play_refuse_an_abstract_ruleset(tmp_path):
    path = tmp_path / "abstract.yaml"
    path.write_text(THREE_SUITS.replace("blog5", "base").replace("123m 456p", "123p 456p"))
    result = run("settle", str(path))
    assert result.returncode == 1
    assert f"{path}: ruleset: sichuan/base is abstract" in result.stderr
    assert "Traceback" not in result.stderr
    for args in (["settle", str(path), "--ruleset", "sichuan/base"], ["play", "sichuan/base"]):
        result = run(*args)
        assert result.returncode == 1 and "sichuan/base is abstract" in result.stderr, args
        assert "Traceback" not in result.stderr


def test_a_ruleset_not_found_is_reported_at_the_scenarios_ruleset_line(tmp_path):
    """Ids are looked up from the current folder, not beside the scenario: say so, there."""
    path = tmp_path / "house.yaml"
    path.write_text(THREE_SUITS.replace("sichuan/blog5", "house/cs_menqing"))
    result = run("settle", str(path))
    assert result.returncode == 1
    assert f"{path}:1:10: error: no ruleset 'house/cs_menqing'" in result.stderr
    assert "ruleset: house/cs_menqing" in result.stderr  # the line, quoted
    assert "$MJRULES_RULESETS" in result.stderr.split("expected: ")[1]
    assert "Traceback" not in result.stderr


def test_an_empty_scenario_names_everything_that_would_do():
    """false_wins, escape or opening_hands alone make a scenario too (docs/SCENARIO.md)."""
    with pytest.raises(ScenarioError) as error:
        read_scenario_text("ruleset: sichuan/blog5\ndealer: 0\n")
    shown = error.value.format()
    needs = "wins, unfinished hands at the end of the wall, false_wins, escape or opening_hands"
    assert f"error: a scenario needs {needs}" in shown
    for key in ("wins:", "unfinished:", "false_wins:", "escape:", "opening_hands:"):
        assert key in shown.split("expected: ")[1], key
    opening = 'opening_hands: [{seat: 1, hand: "1111m 234m 567m 99s 1s"}]\n'
    for alone in ("false_wins: [1]\n", "escape: {seat: 1, wall: 3}\n", opening):
        read_scenario_text("ruleset: sichuan/blog5\ndealer: 0\n" + alone)


def test_payment_reasons_leave_out_hand_types_worth_0():
    """As the win line does (README, docs/SCENARIO.md); the JSON keeps them in ``hands``."""
    scenario = read_scenario_text(
        THREE_SUITS.replace("123m 456p", "123s 456s").replace("from: 2\n", "")
    )
    result = settle(load("sichuan/blog5"), scenario.hand)
    assert [(h.name, h.value) for h in result.wins[0].hands] == [("清一色", 3), ("杠 / 根", 0)]
    assert {p.reasons[0] for p in result.payments} == {"清一色 3 (total 3)"}
    assert result.to_json()["wins"][0]["hands"][1]["value"] == 0


def test_inconsistent_scenario_exits_1_naming_file_and_field(tmp_path):
    path = tmp_path / "both.yaml"
    path.write_text(THREE_SUITS + "in_game: [0, 2, 3]\n")
    result = run("settle", str(path))
    assert result.returncode == 1
    assert f"{path}:8:10: error: in_game leaves out seat 1" in result.stderr
    assert "Traceback" not in result.stderr
    path.write_text(THREE_SUITS)
    result = run("settle", str(path))
    assert result.returncode == 1
    refused = "error: the hand of seat 1 does not win under sichuan/blog5"
    assert f"{path}:4:5: {refused}" in result.stderr
    assert "restrictions.win_requires" in result.stderr and "Traceback" not in result.stderr


# ---- properties over every shipped ruleset ----------------------------------------------------

RULESETS = [i for i in available_ids(default_root()) if not i.endswith("/base")]


def table(ruleset) -> tuple[int, list[int]]:
    """The ruleset's seats and tiles (three seats, two suits under 三人两房)."""
    suits = ruleset.get("tiles.suits") or "mps"
    kinds = [t for t in range(27) if "mps"[t // 9] in suits]
    return int(ruleset.get("players.count") or 4), kinds


@st.composite
def finished_hands(draw, players: int, kinds: list[int]):
    """A complete hand of the table's tiles and seats: four melds and a pair, some melds
    exposed, a winning tile, birds."""
    counts = [0] * 27
    melds = []
    runs = [("pung", t) for t in kinds] + [("chow", t) for t in kinds if t % 9 <= 6]
    for _ in range(4):
        kind, tile = draw(st.sampled_from(runs))
        tiles = [tile] * 3 if kind == "pung" else [tile, tile + 1, tile + 2]
        for t in tiles:
            counts[t] += 1
        melds.append((kind, tile, tiles))
    pair = draw(st.sampled_from(kinds))
    counts[pair] += 2
    assume(max(counts) <= 4)
    exposed = draw(st.integers(0, 2))
    concealed = [t for _, _, tiles in melds[exposed:] for t in tiles] + [pair, pair]
    win_tile = draw(st.sampled_from(concealed))
    winner = draw(st.integers(0, players - 1))
    discarder = draw(st.sampled_from([None] + [s for s in range(players) if s != winner]))
    birds = draw(st.lists(st.sampled_from(kinds), max_size=6))
    assume(all(counts[t] + birds.count(t) <= 4 for t in birds))
    exposed_text = [f"{kind} {STANDARD.format(tiles)}" for kind, _, tiles in melds[:exposed]]
    lines = [
        f"players: {players}",
        f"dealer: {draw(st.integers(0, players - 1))}",
        "wins:",
        f"  - seat: {winner}",
        f'    hand: "{STANDARD.format(concealed)}"',
        f"    melds: {exposed_text!r}".replace("'", '"'),
        f"    win_tile: {STANDARD.name(win_tile)}",
    ]
    if discarder is not None:
        lines.append(f"    from: {discarder}")
    lines.append(f"birds: [{', '.join(STANDARD.name(t) for t in birds)}]")
    return "\n".join(lines) + "\n"


@cache
def loaded(ruleset_id: str, setting: str | None = None):
    """A shipped ruleset loaded once for all of a property test's examples."""
    return load(ruleset_id, settings=[setting] if setting else [])


@pytest.mark.parametrize("ruleset_id", RULESETS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_payments_balance_are_positive_and_capped(ruleset_id, data):
    rules = loaded(ruleset_id)
    scenario = read_scenario_text(data.draw(finished_hands(*table(rules))))
    try:
        result = settle(rules, scenario.hand)
    except SettlementError:
        assume(False)  # not a winning hand under this ruleset
    assert sum(result.deltas) == 0
    assert all(p.amount > 0 for p in result.payments)
    assert all(p.payer != p.payee for p in result.payments)


CAPPED = [
    (ruleset_id, f"{name}={value}")
    for ruleset_id in RULESETS
    for name, option in load(ruleset_id).options.items()
    if name.startswith("cap")
    for value in option.allowed
    if value not in (0, "none")
]


@pytest.mark.parametrize(("ruleset_id", "setting"), CAPPED)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_caps_hold(ruleset_id, setting, data):
    rules = loaded(ruleset_id, setting)
    try:
        result = settle(rules, read_scenario_text(data.draw(finished_hands(*table(rules)))).hand)
    except SettlementError:
        assume(False)
    wins = [p for p in result.payments if p.cap]
    assert all(p.amount <= p.cap for p in wins)


def test_every_capped_ruleset_is_checked():
    assert {r for r, _ in CAPPED} >= {"changsha/qq2014", "sichuan/blog5"}


def test_kong_money_paid_earlier_moves_to_the_winner_on_the_kong_discard():
    # 呼叫转移: seat 1 made a direct kong on seat 3's tile (paid then), then dealt in.
    from dataclasses import replace as with_fields

    from interpreter.hand_record import Kong

    text = """\
ruleset: sichuan/blog5
dealer: 0
wins:
  - seat: 2
    hand: "123m 456m 789m 234p 55p"
    win_tile: 5p
    from: 1
    context: [kong_discard]
"""
    scenario = with_fields(read_scenario_text(text).hand, paid_kongs=(Kong(1, "direct", 3),))
    moved = [
        p
        for p in settle(load("sichuan/blog5", settings=["transfer=true"]), scenario).payments
        if p.reasons == ("kong money transferred",)
    ]
    assert [(p.payer, p.payee, p.amount) for p in moved] == [(1, 2, 2)]  # 直杠 2 from seat 3
    kept = settle(load("sichuan/blog5", settings=["transfer=false"]), scenario)
    assert all(p.reasons != ("kong money transferred",) for p in kept.payments)
    assert all("kong)" not in p.reasons[0] for p in kept.payments)  # not paid a second time


KONG_DRAW = """\
ruleset: sichuan/app
dealer: 0
wins:
  - seat: 1
    hand: "123m 456m 234p 55p"
    melds: ["concealed kong 9999m"]
    win_tile: 5p
    context: [kong_draw]
"""


def test_a_modifier_replaces_another(tmp_path):
    """杠上花 is a self-draw: a house rule counts its 番 instead of 自摸加番's, not both."""
    house = tmp_path / "house.yaml"
    house.write_text(
        "extends: sichuan/app\n"
        "ruleset: {title: {zh: 杠上花不加自摸, en: kong draw without the self-draw fan}}\n"
        "modifiers: {gangshanghua: {replaces: [zimo]}}\n"
    )
    scenario = read_scenario_text(KONG_DRAW).hand
    jiafan = ["zimo=jiafan"]
    both = settle(load("sichuan/app", settings=jiafan), scenario).wins[0]
    alone = settle(load(str(house), settings=jiafan), scenario).wins[0]
    both_values = {h.id: h.value for h in both.hands}
    assert both_values["gangshanghua"] == both_values["zimo"] == 1
    assert {h.id: h.value for h in alone.hands} == {
        k: v for k, v in both_values.items() if k != "zimo"
    }
    assert alone.total == both.total - 1
    house.write_text(house.read_text().replace("[zimo]", "[zimoo]"))
    with pytest.raises(RulesetError, match="'zimoo' is not a modifier"):
        load(str(house))


def test_a_payment_to_the_pot_is_shown_and_leaves_the_players():
    path = "tests/scenarios/changsha/points20/escape_70_to_no_one.yaml"
    text = run("settle", path)
    assert text.returncode == 0, text.stderr
    assert "西2 pays the pot 70  (逃跑、断线、强退扣除 70 分 (escape))" in text.stdout
    assert text.stdout.rstrip().endswith("pot       +70 (paid to no seat)")
    data = json.loads(run("settle", path, "--json").stdout)
    assert data["payments"] == [
        {"from": 2, "to": "pot", "amount": 70, "reasons": ["逃跑、断线、强退扣除 70 分 (escape)"]}
    ]
    assert data["deltas"] == [0, 0, -70, 0]


def test_escape_and_false_wins_are_checked_at_their_place():
    text = "ruleset: changsha/points20\nin_game: [0, 1, 2]\nescape: {seat: 3, wall: 2}\n"
    with pytest.raises(ScenarioError, match=r"<scenario>:3:9: error: escape: seat 3 is not in"):
        read_scenario_text(text)
    text = "ruleset: sichuan/app\nescape: {seat: 1}\nunfinished:\n  - {seat: 1, hand: 123m}\n"
    with pytest.raises(ScenarioError, match="seat 1 left"):
        read_scenario_text(text)
    with pytest.raises(ScenarioError, match="escape is"):
        read_scenario_text("ruleset: sichuan/app\nescape: 2\n")
