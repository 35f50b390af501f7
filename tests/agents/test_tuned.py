"""The shipped parameter files (``--agents strategy:tuned``), the default bot of ``simulate``
and ``play``, and tune's safeguard: a best trial that does not gain on the check walls leaves
the field's parameters in the file."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from dsl.ruleset import SHIPPED, load
from interpreter.agents import (
    PARAMS,
    TUNED,
    StrategyAgent,
    expand_agent,
    make_agent,
    param_file,
    param_text,
    shipped_params,
    shipped_rulesets,
    tuned_file,
)
from interpreter.default_agents import DEFAULT_AGENTS
from tests.simulate.conftest import mjrules

QQ, BLOG5 = "changsha/qq2014", "sichuan/blog5"
DEFAULTS = {
    k: p.default
    for k, p in inspect.signature(StrategyAgent).parameters.items()
    if k in PARAMS["strategy"]
}


def as_agent(params: dict[str, Any]) -> str:
    return "strategy:" + ",".join(f"{k}={param_text(v)}" for k, v in params.items())


def test_the_shipped_rulesets_are_those_one_can_play():
    ids = shipped_rulesets()
    assert {QQ, BLOG5, "hunan/zhuanzhuan", "house/sichuan_xueliu"} <= set(ids)
    assert "changsha/base" not in ids and "sichuan/base" not in ids  # abstract
    assert len(ids) >= 17


def test_every_shipped_ruleset_has_its_tuned_file():
    ids = shipped_rulesets()
    files = sorted(p.relative_to(TUNED / "strategy").with_suffix("").as_posix()
                   for p in (TUNED / "strategy").rglob("*.yaml"))  # fmt: skip
    assert files == ids, "python bench/tune_all.py writes the missing files"
    for ruleset in ids:
        check_tuned_file(ruleset)


def check_tuned_file(ruleset: str) -> None:
    path = tuned_file("strategy", ruleset)
    data = param_file(str(path))  # every parameter known and in its range
    assert (data["bot"], data["field"], data["ruleset"]) == ("strategy", "strategy", ruleset)
    assert data["changed"] == {} and data["preset"] is None  # tuned on the ruleset's defaults
    assert data["budget"] >= 8 and data["walls"] >= 20 and data["check_walls"] >= 100
    low, high = data["ci95"]
    assert low <= data["gain"] <= high
    if data["kept_field"]:  # the defaults, hazard left to the bot (automatic)
        assert data["gain"] <= 0 and "hazard" not in data["parameters"]
        changed = {k: v for k, v in data["parameters"].items() if v != DEFAULTS[k]}
        assert not changed, f"{path}: the strategy bot's defaults changed: re-run bench/tune_all.py"
    else:
        assert data["gain"] > 0 and data["parameters"] == data["best_trial"]
    rules = load(ruleset)
    assert expand_agent("strategy:tuned", rules) == as_agent(data["parameters"])
    agent = make_agent("strategy:tuned", 0, ruleset=rules)
    for name, value in {**DEFAULTS, **data["parameters"]}.items():
        assert getattr(agent, name) == value, name


def test_the_files_are_outside_the_ruleset_search_path():
    from dsl.ruleset import available_ids

    assert SHIPPED not in tuned_file("strategy", QQ).parents
    assert not [i for i in available_ids() if i.startswith(("tuned", "strategy"))]


def test_a_ruleset_of_ones_own_plays_the_defaults_and_says_so(tmp_path):
    """A copy of a shipped ruleset read from a path is not the shipped ruleset: no file."""
    mine = tmp_path / "mine.yaml"
    mine.write_text((SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8"), "utf-8")
    assert shipped_params("strategy", load(str(mine))) is None
    assert expand_agent("strategy:tuned,alert=0.3", load(str(mine))) == "strategy:alert=0.3"
    for args in (("simulate", str(mine), "--games", "4", "--workers", "1"),
                 ("play", str(mine), "--seed", "3")):  # fmt: skip
        result = mjrules(*args)
        assert result.returncode == 0, result.stderr
        assert (f"mjrules: note: no tuned parameters of the strategy bot are shipped for {mine}: "
                "it plays its defaults") in result.stderr  # fmt: skip
        assert "bots: strategy" in result.stdout and "bots: strategy:" not in result.stdout
    named = mjrules("simulate", QQ, "--games", "2", "--workers", "1", "--agents", "strategy")
    assert "note:" not in named.stderr  # only BOT:tuned is said


def test_compare_sweep_and_tune_say_so_too(tmp_path, monkeypatch, capsys):
    """Before, only simulate and play said that ``BOT:tuned`` plays its defaults on a ruleset
    of one's own: compare (its --agents and its --skill, for the side it is), sweep and tune
    played them without a word."""
    from interpreter import simulate as sim
    from interpreter.compare import Setting
    from interpreter.tune import tune

    mine = tmp_path / "mine.yaml"
    mine.write_text((SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8"), "utf-8")
    note = (f"mjrules: note: no tuned parameters of the strategy bot are shipped for {mine}: "
            "it plays its defaults")  # fmt: skip
    run = ("--games", "2", "--workers", "1", "--no-cache")
    both = mjrules("compare", QQ, str(mine), "--agents", "strategy:tuned", "--skill",
                   "strategy:tuned,random", *run)  # fmt: skip
    assert both.returncode == 0, both.stderr
    assert note in both.stderr and both.stderr.count("note:") == 1  # B's, once for both options
    skill = mjrules("compare", str(mine), QQ, "--skill", "strategy:tuned,random", *run)
    assert skill.returncode == 0, skill.stderr
    assert note in skill.stderr and skill.stderr.count("note:") == 1  # A's
    swept = mjrules("sweep", str(mine), "--agents", "strategy:tuned", "--vary", "birds=1,2", *run)
    assert swept.returncode == 0, swept.stderr
    assert note in swept.stderr and swept.stderr.count("note:") == 1

    def run_to(spec, count, players, sink, *args, **kw):  # no hands played
        sink([{"index": i, spec.agents[0]: 0.0} for i in range(count)])

    monkeypatch.setattr(sim, "run_to", run_to)
    tune(Setting(str(mine)), "strategy:tuned", 1, 2, 1, 2)
    assert note in capsys.readouterr().err


def test_tuned_needs_a_ruleset_to_read():
    with pytest.raises(ValueError, match="'tuned' reads the shipped parameters of the ruleset "
                       "played, and none is known here"):  # fmt: skip
        expand_agent("strategy:tuned")


def test_tactics_plays_each_rulesets_own_tuned_parameters(tmp_path):
    """Before, ``tactics --agents strategy:tuned`` was refused ("none is known here"): the
    field was read without a ruleset.  Each ruleset is played by its own tuned field, the
    policy's value set on top of its parameters; a ruleset of one's own, with no shipped
    file, plays the defaults and says so."""
    mine = tmp_path / "mine.yaml"
    mine.write_text((SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8"), "utf-8")
    tuned = expand_agent("strategy:tuned", load(QQ))
    assert tuned.startswith("strategy:value_threshold=") and "alert=" in tuned
    args = ["tactics", QQ, str(mine), "--agents", "strategy:tuned", "--policy", "alert=0,1",
            "--games", "2", "--workers", "1", "--no-cache"]  # fmt: skip
    result = mjrules(*args, "--json")
    assert result.returncode == 0, result.stderr
    note = (f"mjrules: note: no tuned parameters of the strategy bot are shipped for {mine}: "
            "it plays its defaults")  # fmt: skip
    assert note in result.stderr and result.stderr.count("note:") == 1
    data = json.loads(result.stdout)
    assert data["field"] == "strategy:tuned"
    qq, own = data["rulesets"]
    assert (qq["field"], own["field"]) == (tuned, "strategy")
    on_top = tuned.replace(f"alert={shipped_params('strategy', load(QQ))['alert']}", "alert=1")
    assert on_top != tuned
    assert [r["agent"] for r in qq["rows"]] == [on_top.replace("alert=1", "alert=0"), on_top]
    assert [r["agent"] for r in own["rows"]] == ["strategy:alert=0", "strategy:alert=1"]
    text = mjrules(*args).stdout.splitlines()
    assert text[0] == "each value played by one seat against 3 strategy:tuned bots, in every seat,"
    played = [line for line in text if line.startswith("field played: ")]
    assert played == [f"field played: {tuned} (strategy:tuned read for this ruleset)",
                      "field played: strategy (strategy:tuned read for this ruleset)"]  # fmt: skip


def test_simulate_and_play_default_to_the_tuned_strategy_bot(tmp_path):
    assert DEFAULT_AGENTS == "strategy:tuned"
    tuned = expand_agent(DEFAULT_AGENTS, load(BLOG5))
    assert tuned.startswith("strategy:value_threshold=")
    out = tmp_path / "r.jsonl"
    result = mjrules("simulate", BLOG5, "--games", "4", "--workers", "1", "--json",
                     "--out", str(out))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["agents"] == [tuned] * 4  # the parameters played
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["agents"] for r in rows} == {json.dumps([tuned] * 4)}
    played = mjrules("play", QQ, "--seed", "2")
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines()[-1] == f"bots: {expand_agent(DEFAULT_AGENTS, load(QQ))}"
    assert "note:" not in played.stderr + result.stderr


def test_the_api_defaults_to_the_tuned_strategy_bot():
    from interpreter.simulate import simulate

    rows = simulate(BLOG5, 2, 1, workers=1, progress=False)
    assert set(rows["agents"]) == {json.dumps([expand_agent(DEFAULT_AGENTS, load(BLOG5))] * 4)}


# --- tune's safeguard: the hands are stubbed, the choice is tune's own ----------------------


def stub_tune(monkeypatch, check_gain: float, tuning_gain: float = 1.0):
    """``tune`` on qq2014 with every candidate scoring ``tuning_gain`` points a hand over the
    field on the tuning walls and ``check_gain`` on the check walls."""
    from interpreter import simulate as sim
    from interpreter.compare import Setting
    from interpreter.tune import tune

    def run_to(spec, count, players, sink, *args, **kw):
        (agent,) = spec.agents
        gain = 0.0 if agent == spec.field else tuning_gain if spec.seed == 1 else check_gain
        sink([{"index": i, agent: gain + (i % 3)} for i in range(count)])

    monkeypatch.setattr(sim, "run_to", run_to)
    return tune(Setting(QQ), "strategy", 3, 4, 1, 6)


def test_a_best_trial_that_loses_on_the_check_walls_leaves_the_defaults(monkeypatch, tmp_path):
    from interpreter.tune import write

    result = stub_tune(monkeypatch, check_gain=-0.5)
    assert result.tuned_gain == 1.0 and result.gain.diff == pytest.approx(-0.5)
    assert result.kept_field and result.best != result.parameters
    assert "hazard" in result.best  # the trials search it ...
    assert result.parameters == {k: v for k, v in DEFAULTS.items() if k != "hazard"}
    assert "the file keeps the field's parameters" in result.to_text()
    path = tmp_path / "kept.yaml"
    write(result, str(path))
    data = param_file(str(path))
    assert data["kept_field"] and data["best_trial"] == result.best and data["gain"] == -0.5
    agent = make_agent(f"strategy:{path}")
    assert vars(agent) == vars(StrategyAgent())  # ... but keeping them means the defaults


def test_a_best_trial_that_gains_on_the_check_walls_is_written(monkeypatch):
    result = stub_tune(monkeypatch, check_gain=0.25)
    assert not result.kept_field and result.parameters == result.best
    assert result.to_json()["gain"] == 0.25
    assert "keeps the field's" not in result.to_text()


def test_when_no_trial_beats_the_field_nothing_is_measured_again(monkeypatch):
    result = stub_tune(monkeypatch, check_gain=5.0, tuning_gain=-1.0)
    assert result.kept_field and result.best == result.parameters
    assert (result.gain.diff, result.gain.low, result.gain.high) == (0, 0, 0)
    assert "no trial beat the field on the tuning walls" in result.to_text()
    assert "new walls" not in result.to_text()


def test_compare_plays_each_ruleset_with_its_own_tuned_parameters():
    result = mjrules("compare", QQ, BLOG5, "--agents", "strategy:tuned", "--games", "2",
                     "--workers", "1", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    a, b = data["a"]["agents"], data["b"]["agents"]
    assert a == [expand_agent("strategy:tuned", load(QQ))] * 4
    assert b == [expand_agent("strategy:tuned", load(BLOG5))] * 4 and a != b
    assert data["agents"] == a  # the first side's, as before
