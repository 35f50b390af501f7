"""DESIGN.md principle 1: the engine and the DSL name no region and no hand type.

Everything a house rule may change lives in rulesets/; code under dsl/ and interpreter/
must work for a ruleset it has never heard of.  Settlement rules (查叫, 花猪, 退税, kong
money ...) are ruleset text too: interpreter/ names none of them, in code or in strings.
The last tile (海底) and birds (扎鸟) are also mechanics the engine plays, under those
English names; only their Chinese and pinyin names are rule terms.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = re.compile(
    r"changsha|sichuan|chengdu|xuezhan|长沙|四川|成都|血战|qing_?yi_?se|peng_?peng|qi_?xiao_?dui"
    r"|jiang_?jiang|清一色|碰碰|七小对|将将胡|板板胡|六六顺|天胡|地胡",
    re.IGNORECASE,
)


RULE_TERMS = re.compile(
    r"查叫|查大叫|花猪|退税|呼叫转移|杠上炮|杠上花|海底|扎鸟|刮风|下雨"
    r"|cha_?(da_?)?jiao|hua_?zhu|tui_?shui|hu_?jiao_?zhuan_?yi|gang_?shang_?(pao|hua)|hai_?di"
    r"|zha_?niao|gua_?feng|xia_?yu"
    r"|flower.?pig|ready.?check|kong.?money|refund|transfer",
    re.IGNORECASE,
)


def code_files():
    for folder in ("handcore", "dsl", "interpreter"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".lark"):
                yield path


def test_code_names_no_region_and_no_hand_type():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in code_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert found == []


def interpreter_files():
    return [p for p in code_files() if p.relative_to(ROOT).parts[0] == "interpreter"]


def test_interpreter_names_no_settlement_rule():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in interpreter_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if RULE_TERMS.search(line)
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    ['reason = "退税: returned"', "if rules.get('flower_pig'):", "# 呼叫转移", "haidi = 1",
     "kong_money = []", 'f"{x} transferred"'],
)  # fmt: skip
def test_a_rule_term_is_caught(line):
    assert RULE_TERMS.search(line)


def test_the_check_sees_the_code():
    assert len(list(code_files())) >= 20
