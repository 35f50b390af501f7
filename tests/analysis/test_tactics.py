"""``mjrules tactics``: bot parameters compared in duplicate format, end to end."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.summary import package_version
from tests.simulate.conftest import mjrules

QQ, BLOG5 = "changsha/qq2014", "sichuan/blog5"


def _rows(ruleset):
    return {f"{r['policy']}={r['value']}": r for r in ruleset["rows"]}


def test_folding_every_hand_costs_in_sichuan(tmp_path):
    """A known effect: in 血战 a bot that folds (defence 1, never pushing) gives up the
    points its hands would win; against three such folders the defence-0 seat does far
    better, on 15 walls.  The reference value, played by the field itself, scores exactly
    zero (every hand's points sum to zero)."""
    plot = tmp_path / "tactics.png"
    result = mjrules(
        "tactics", BLOG5, "--agents", "defensive:push=0", "--policy", "defence=0,1",
        "--games", "15", "--workers", "1", "--json", "--plot", str(plot),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["field"] == "defensive:push=0" and data["walls"] == 15
    assert data["master_seed"] == 1
    assert data["policies"] == [{"name": "defence", "values": ["0", "1"], "reference": "0"}]
    [ruleset] = data["rulesets"]
    assert ruleset["ruleset"] == BLOG5 and len(ruleset["ruleset_hash"]) == 16
    assert ruleset["players"] == 4 and ruleset["hands_per_value"] == 60
    rows = _rows(ruleset)
    first, folding = rows["defence=0"], rows["defence=1"]
    assert first["reference"] and "difference" not in first
    assert folding["agent"] == "defensive:push=0,defence=1"
    diff = folding["difference"]
    assert diff["significant"] and diff["ci95"][1] < 0
    assert diff["diff"] == pytest.approx(folding["points_per_hand"] - first["points_per_hand"])
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_policy_table_across_rulesets_and_its_reuse(results_folder):
    args = ["tactics", QQ, BLOG5, "--policy", "kong_policy=no_worse,never", "--games", "4",
            "--agents", "efficiency", "--workers", "1"]  # fmt: skip
    first = mjrules(*args)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[:2] == [
        "each value played by one seat against 3 efficiency bots, in every seat,",
        f"on the same 4 walls (16 hands a value), master seed 1, mjrules {package_version()}",
    ]
    assert lines[4] == "* significant at 5% after Holm's correction for 2 differences"
    table = lines[lines.index("which policy pays under which rules: points per hand against the "
                              "policy's first value [95% CI]") + 1:]  # fmt: skip
    assert table[0].split() == ["policy", QQ, BLOG5]
    assert table[1].split() == ["kong_policy=no_worse", "(reference)", "(reference)"]
    assert table[2].startswith("kong_policy=never ")
    # the field plays the reference value itself: the points of every hand sum to zero
    assert "kong_policy=no_worse     +0.00 [+0.00, +0.00]       (reference)" in lines
    assert len(list(results_folder.glob("*.parquet"))) == 2
    again = mjrules(*args)
    assert again.stdout == first.stdout
    assert f"4 walls of {QQ} read from the results in {results_folder}" in again.stderr


def test_rulesets_of_three_and_four_seats_side_by_side():
    """Values are compared within a ruleset, so a three-seat ruleset (三人两房, two suits)
    sits beside a four-seat one: each value plays a wall in every seat of its ruleset."""
    three = "house/sichuan_sanren_liangfang"
    result = mjrules("tactics", QQ, three, "--policy", "kong_policy=no_worse,never",
                     "--games", "2", "--workers", "1", "--no-cache", "--json")  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [(r["ruleset"], r["players"], r["hands_per_value"]) for r in data["rulesets"]] == [
        (QQ, 4, 8),
        (three, 3, 6),
    ]
    text = mjrules("tactics", QQ, three, "--policy", "kong_policy=no_worse,never",
                   "--games", "2", "--workers", "1", "--no-cache").stdout.splitlines()  # fmt: skip
    assert text[:2] == [
        "each value played by one seat against efficiency bots in the other seats, in every seat,",
        "on the same 2 walls (8 hands a value with 4 seats, 6 hands a value with 3 seats), "
        f"master seed 1, mjrules {package_version()}",
    ]


def test_the_same_table_on_one_worker_two_or_dask():
    from distributed import Client, LocalCluster

    from interpreter.compare import Run, Setting
    from interpreter.tactics import tactics

    def run(**where):
        return tactics([Setting(QQ)], ["kong_policy=always,never"], "efficiency", 6, 4,
                       Run(progress=False, **where)).to_json()  # fmt: skip

    one = run(workers=1)
    assert run(workers=2) == one
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        assert run(scheduler=client) == one


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "defence=0,1"],
         "the efficiency bot has no parameter 'defence' (its parameters: kong_policy, "
         "kong_option, claims); defensive, strategy, search have it: --agents defensive"),
        (["--policy", "kong_polcy=always,never"], "did you mean 'kong_policy'?"),
        (["--policy", "kong_policy=always,sometimes"],
         "kong_policy=sometimes: expected one of never, always, no_worse"),
        (["--agents", "value", "--policy", "claim_margin=0.5,11"],
         "claim_margin=11: expected a number from 0 to 10"),
        (["--policy", "kong_policy=always"], "give at least two different values"),
        (["--agents", "value", "--policy", "hazard=0.5,0.50,0.7"],
         "'hazard=0.5,0.50,0.7': 0.50 is 0.5 again; give each value once"),
        (["--policy", "kong_policy=never,always,never"], "never is given twice"),
        (["--policy", "kong_policy"], "write NAME=V1,V2,…"),
        (["--agents", "random", "--policy", "seed=1,2"],
         "the random bot has no parameter 'seed' (its parameters: none)"),
        (["--agents", "efficiency,random", "--policy", "kong_policy=always,never"],
         "give one bot, the field every value plays against"),
        (["--agents", "nobody", "--policy", "kong_policy=always,never"],
         "--agents 'nobody': unknown agent 'nobody'; agents are defensive, "),
        (["--games", "1", "--policy", "kong_policy=always,never"], "at least 2 walls"),
        (["--set", "nope=1", "--policy", "kong_policy=always,never"], "unknown option 'nope'"),
    ],
)  # fmt: skip
def test_bad_input_is_a_message(args, message):
    result = CliRunner().invoke(cli, ["tactics", QQ, *args])
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_help_names_the_parameters():
    result = CliRunner().invoke(cli, ["tactics", "--help"])
    assert result.exit_code == 0
    said = " ".join(result.output.split())
    for words in ("kong_policy", "claim_margin", "defence", "duplicate format", "--cache"):
        assert words in said


def test_a_value_is_played_by_the_field_bot_with_that_parameter():
    from interpreter.tactics import Policy

    kong = Policy("kong_policy", ("no_worse", "never"))
    assert kong.agent("defensive:push=0", "never") == "defensive:push=0,kong_policy=never"
    assert kong.agent("efficiency:kong_policy=always", "no_worse") == (
        "efficiency:kong_policy=no_worse"
    )
    # the bot's default is the field itself, whose four seatings of a wall are one game
    assert kong.agent("efficiency", "no_worse") == "efficiency"
    assert Policy("defence", ("0.70", "1")).agent("defensive", "0.70") == "defensive"
