"""DESIGN.md principle 1: the engine and the DSL name no region and no hand type.

Everything a house rule may change lives in rulesets/; code under dsl/ and interpreter/
must work for a ruleset it has never heard of.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = re.compile(
    r"changsha|sichuan|chengdu|xuezhan|长沙|四川|成都|血战|qing_?yi_?se|peng_?peng|qi_?xiao_?dui"
    r"|jiang_?jiang|清一色|碰碰|七小对|将将胡|板板胡|六六顺|天胡|地胡",
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


def test_the_check_sees_the_code():
    assert len(list(code_files())) >= 20
