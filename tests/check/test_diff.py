"""``mjrules diff``: the semantic difference of two rulesets, each difference with a witness."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.ruleset import load
from interpreter.check.diff import semantic_diff
from interpreter.cli import cli


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_two_changsha_versions_show_their_contradictions() -> None:
    result = _run("diff", "changsha/full2007", "changsha/qq2014", "--json")
    assert result.exit_code == 0
    found = json.loads(result.stdout)["differences"]
    what = {d["what"]: d for d in found}
    # C-20: qq2014 takes the last two tiles as 海底, full2007 one (RULES.md).
    last = what["wall_end.last_tiles changed (C-20)"]
    assert (last["a"], last["b"]) == (1, 2)
    # C-21: qq2014 has 龙七对 (a quad in seven pairs), full2007 a plain 七小对; the same hand
    # is accepted by full2007's 七小对 and not by qq2014's (seven_pairs(quads: false)).
    assert any(w.startswith("龙七对 longqidui") and "only in changsha/qq2014" in w for w in what)
    seven = next(d for w, d in what.items() if w.startswith("七小对 qixiaodui"))
    assert "condition differs" in seven["what"] and "changsha/full2007 only" in seven["witness"]
    # C-12: 开杠 draws one tile (full2007) or two (qq2014).
    assert what["kongs.replacement.kaigang.tiles changed (C-12)"]["b"] == 2
    assert any(d["area"] == "payments" for d in found)


def test_one_ruleset_under_two_option_sets() -> None:
    a = load("changsha/qq2014")
    b = load("changsha/qq2014", settings=["bird_effect=plus_one"])
    found = semantic_diff(a, b, hands=200).differences
    assert {d.area for d in found} == {"payments", "mechanics"}
    assert [d.what for d in found if d.area == "mechanics"] == ["options.bird_effect.value changed"]
    # 001_76942f0387627e0c.txt line 136: 平胡 self-drawn by the dealer, 2 from each; two birds
    # on one payer: ×2×2 = 8 (鸟上鸟, the default) against ×(1+2) = 6 (plus_one).
    row = next(d for d in found if "dealer wins, self-drawn, birds on seat 2 ×2" in d.what)
    assert row.a[2] == -8 and row.b[2] == -6
    assert sum(row.a) == sum(row.b) == 0


def test_a_ruleset_does_not_differ_from_itself() -> None:
    a = load("sichuan/blog5")
    assert semantic_diff(a, a, hands=150).differences == []
    assert _run("diff", "sichuan/blog5", "nowhere/missing").exit_code == 1


def test_each_option_shows_what_its_readings_change() -> None:
    result = _run("diff", "changsha/qq2014", "--each-option", "--json")
    assert result.exit_code == 0
    by_setting = {
        d["b"].rsplit(" with ", 1)[1]: d["differences"] for d in json.loads(result.stdout)
    }
    # C-22: 全求人 is an option; without it the hand type is gone, and its hands no longer win.
    gone = by_setting["quanqiuren=false"]
    assert any(d["what"].startswith("全求人 quanqiuren") for d in gone)
    assert any(d["area"] == "wins" for d in gone)
    # C-08: ×2 per bird or ×(1+n): only payments change.
    assert {d["area"] for d in by_setting["bird_effect=plus_one"]} == {"payments", "mechanics"}


def test_a_wrong_setting_is_told_with_its_side_and_its_flag() -> None:
    result = _run("diff", "changsha/qq2014", "--set-b", "birdz=2")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "B (changsha/qq2014): <command line>:1:9: error: unknown option 'birdz'\n"
        "    --set-b birdz=2\n            ^^^^^\n"
    )
    # Both sides wrong: each is told, A's with --set-a, B's (another ruleset) with --set-b.
    result = _run(
        "diff", "changsha/qq2014", "sichuan/blog5", "--set-a", "birds=3", "--set-b", "birds=1"
    )
    assert result.exit_code == 1
    assert "A (changsha/qq2014): <command line>:1:15: error: '3' is not allowed" in result.stderr
    assert "    --set-a birds=3\n" in result.stderr
    assert "B (sichuan/blog5): <command line>:1:9: error: unknown option 'birds'" in result.stderr
    assert "--set " not in result.stderr
    # A ruleset B shares with A is told once.
    result = _run("diff", "nowhere/missing", "--set-b", "birds=1")
    assert result.exit_code == 1
    assert result.stderr.count("no ruleset 'nowhere/missing'") == 1
