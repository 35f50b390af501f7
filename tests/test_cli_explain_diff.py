"""`mjrules explain RULESET --diff PARENT`: only what a house file changes, end to end."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]

HOUSE = """\
extends: changsha/qq2014
ruleset:
  id: ours
  title: {zh: 我们家的长沙麻将, en: Changsha as we play it}
options:
  birds: {default: 1}
  zhuang: {name: {zh: 庄闲, en: dealer bonus}, type: bool, default: true, source: house rule}
claims:
  multiple_winners: nearest
opening_hands:
  hands:
    yizhihua: ~
hands:
  menqing:
    name: {zh: 门清自摸, en: concealed self-draw}
    class: big
    when: self_draw and count(melds, not concealed) == 0 and standard()
    source: house rule
  qingyise:
    value: 2
    source: house rule, not the 2014 text
payment:
  dealer_bonus: if option.zhuang and dealer in {winner, payer} then 1 else 0
"""

EXPECTED = """\
# 我们家的长沙麻将 / Changsha as we play it  (ours) compared with changsha/qq2014

## Options 选项

~ birds default: 2 → 1
+ zhuang added: default yes

## 吃碰杠胡 claims

multiple_winners 一炮多响: all → nearest

## 起手胡 opening_hands

hands:
  - 一枝花 / a lone tile of a suit `yizhihua` removed

## 胡牌牌型 hands

~ 清一色 / one suit `qingyise`
    value 值: `1` → `2`
+ 门清自摸 / concealed self-draw `menqing` added
    class 类: big
    when 条件: `self_draw and count(melds, not concealed) == 0 and standard()`

## 付分 payment

dealer_bonus 庄闲: `if dealer in {winner, payer} then (if count(big) > 0 then sum(big, value) \
else 1) else 0` → `if option.zhuang and dealer in {winner, payer} then 1 else 0`
"""


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=60, cwd=REPO)


def test_a_house_file_shows_only_what_it_changes(tmp_path):
    house = tmp_path / "ours.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    result = run("explain", str(house), "--diff", "changsha/qq2014")
    assert result.returncode == 0, result.stderr
    assert result.stdout == EXPECTED  # the source changed on 清一色 is not a rule change


def test_no_difference_and_a_parent_that_adds_rules():
    same = run("explain", "changsha/qq2014", "--diff", "changsha/qq2014")
    assert same.stdout.endswith("No rule differs from changsha/qq2014.\n")
    child = run("explain", "sichuan/blog5", "--diff", "sichuan/base").stdout
    assert "+ dingque added: default no" in child
    assert 'missed_win 过水: `false` → `option.guoshui == "any_tile" or (' in child
    assert "清一色" not in child  # inherited unchanged from sichuan/base


def test_json_lists_each_change_with_its_path(tmp_path):
    house = tmp_path / "ours.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    result = run("explain", str(house), "--diff", "changsha/qq2014", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["ruleset"], data["parent"]) == ("ours", "changsha/qq2014")
    changes = {tuple(c["path"]): (c["change"], c["from"], c["to"]) for c in data["changes"]}
    assert changes[("options", "birds", "default")] == ("changed", 2, 1)
    assert changes[("options", "zhuang")] == ("added", None, True)
    assert changes[("hands", "qingyise", "value")] == ("changed", "1", "2")
    assert changes[("hands", "menqing")][0] == "added"
    assert changes[("hands", "menqing", "class")] == ("set", None, "big")
    assert changes[("opening_hands", "hands", "yizhihua")][0] == "removed"
    assert changes[("claims", "multiple_winners")] == ("changed", "all", "nearest")
    assert ("hands", "menqing", "value") not in changes  # 1, the default
    assert ("payment", "dealer_bonus") in changes
    assert len(changes) == 9  # nothing else: the source changed on 清一色 is no rule


def test_bad_parent_exits_1_without_traceback():
    result = run("explain", "changsha/qq2014", "--diff", "no/such")
    assert result.returncode == 1
    assert "no/such" in result.stderr and "Traceback" not in result.stderr


EXCHANGE = """\
extends: sichuan/blog5
ruleset: {id: ours, title: 换三张}
choices:
  exchange:
    name: {zh: 换三张, en: exchange three}
    tiles: 3
    constraint: count(suits) == 1
    effect: exchange
    direction: clockwise
    source: house rule
"""


def test_an_added_entry_leaves_out_its_defaults_expressions_too(tmp_path):
    """DSL.md §3: an added entry shows its rule fields other than defaults; the loader fills
    a choice's when (and a tile choice's constraint) in as `true`, direction as clockwise."""
    house = tmp_path / "ours.yaml"
    house.write_text(EXCHANGE, encoding="utf-8")
    result = run("explain", str(house), "--diff", "sichuan/blog5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("## 选择 choices\n\n")[1] == (
        "+ 换三张 / exchange three `exchange` added\n"
        "    tiles 张数: 3\n"
        "    constraint: `count(suits) == 1`\n"
        "    effect 效果: exchange\n"
    )
    data = json.loads(run("explain", str(house), "--diff", "sichuan/blog5", "--json").stdout)
    set_ = [c["path"][-1] for c in data["changes"] if c["change"] == "set"]
    assert set_ == ["tiles", "constraint", "effect"]
