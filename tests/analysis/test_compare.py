"""``mjrules compare`` and ``mjrules sweep`` on real hands: a known effect is found, a ruleset
against itself shows none, every input error is a message."""

from __future__ import annotations

import json
import math
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from interpreter.cli import cli
from interpreter.compare import adjust, hand_table, metrics, paired_effects, sweep_values
from interpreter.simulate import simulate
from tests.simulate.conftest import mjrules

QQ = "changsha/qq2014"


def _effects(data):
    return {e["metric"]: e for e in data["effects"]}


def test_two_birds_against_none_move_more_points(tmp_path):
    """Birds (扎鸟) pay more on the same wins: found on 200 hands of random bots, while how
    the hands end does not change at all (birds are turned after the win)."""
    plot = tmp_path / "effects.png"
    result = mjrules(
        "compare", QQ, "--set-a", "birds=0", "--games", "200", "--agents", "random",
        "--workers", "2", "--json", "--plot", str(plot),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["a"]["options"]["birds"] == 0 and data["b"]["options"]["birds"] == 2
    assert data["a"]["ruleset"] == data["b"]["ruleset"] == QQ
    assert data["a"]["ruleset_hash"] != data["b"]["ruleset_hash"]
    assert data["agents"] == ["random"] * 4 and data["master_seed"] == 1
    assert data["hands"] == 200 and data["shared_walls"] and data["correction"] == "holm"
    effects = _effects(data)
    moved = effects["points_moved_mean"]
    assert moved["significant"] and moved["diff"] > 0 and moved["ci95"][0] > 0
    assert moved["diff"] == pytest.approx(moved["b"] - moved["a"], abs=1e-5)
    birds = effects["bird_hits_per_hand"]
    assert birds["a"] == 0 and birds["b"] > 0 and birds["significant"]
    for same in ("no_winner", "self_draw_share", "win_rate_0", "claims_per_hand"):
        assert effects[same]["diff"] == 0 and not effects[same]["significant"]
        assert effects[same]["ci95"] == [0, 0]
    assert effects["points_moved_max"]["method"] == "bootstrap"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_ruleset_against_itself_changes_nothing():
    result = mjrules("compare", QQ, "--games", "12", "--agents", "random", "--workers", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == lines[1].replace("B:", "A:", 1)
    assert lines[0].startswith(f"A: {QQ} (default options; ruleset hash ")
    assert "12 hands each, master seed 1, the same walls" in lines[2]
    assert lines[3].startswith("bots: random at every seat; the figures describe these bots")
    assert lines[5].startswith("* significant at 5% after Holm's correction for ")
    table = lines[lines.index("") + 2 :]
    assert len(table) > 20
    for line in table:
        assert line.endswith(("+0.0 pp [+0.0, +0.0]", "+0.00 [+0.00, +0.00]")), line


def test_a_ruleset_against_itself_on_other_walls_flags_at_most_the_nominal_rate():
    """Hands of one ruleset split at random into two halves paired by position (each hand is
    played from its own seed, so each split is a run against a run on other seeds): the rule
    cannot differ, so over 100 splits Holm's marks appear in at most about 5% of them."""
    df = simulate(QQ, games=400, seed=5, agents="random", workers=1, progress=False)
    hands = df.to_dict("records")
    rng, reps, flagged = np.random.default_rng(11), 100, 0
    for r in range(reps):
        order = rng.permutation(len(hands))
        a = hand_table([hands[i] for i in order[:200]], 4)
        b = hand_table([hands[i] for i in order[200:]], 4)
        effects = paired_effects(a, b, metrics(4, (a, b), {}), seed=r, resamples=200)
        adjust(effects)
        flagged += any(e.significant for e in effects)
    assert flagged / reps <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps)


def test_sweep_draws_each_curve_through_the_reference(tmp_path):
    plot = tmp_path / "sweep.svg"
    result = mjrules(
        "sweep", QQ, "--vary", "birds=0,4", "--metric", "bird_hits_per_hand",
        "--metric", "points_moved_mean", "--games", "40", "--agents", "random",
        "--workers", "1", "--json", "--plot", str(plot),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["reference"]["options"]["birds"] == 2 and data["hands_per_setting"] == 40
    points = data["points"]
    assert [(p["value"], p["reference"]) for p in points] == [
        ("0", False),
        ("2", True),
        ("4", False),
    ]
    none, four = _effects(points[0]), _effects(points[2])
    assert none["bird_hits_per_hand"]["b"] == 0 < none["bird_hits_per_hand"]["a"]
    assert none["points_moved_mean"]["diff"] < 0 < four["points_moved_mean"]["diff"]
    assert none["points_moved_mean"]["a"] == four["points_moved_mean"]["a"]  # one reference
    assert plot.read_text().lstrip().startswith("<?xml")


def test_sweep_all_varies_every_option():
    result = mjrules("sweep", QQ, "--vary", "all", "--metric", "no_winner", "--games", "3",
                     "--agents", "random", "--workers", "1")  # fmt: skip
    assert result.returncode == 0, result.stderr
    from dsl.ruleset import load

    for name, option in load(QQ).options.items():
        for value in option.possible_values():
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            assert (f"\n{name}={shown}\n" in result.stdout) == (value != option.default)


def test_sweep_plays_each_value_once_however_often_it_is_named():
    """A value written twice (4, 04), an option named twice or also by ``all``: one curve,
    each value once, so no setting is played twice nor counted twice by Holm's correction."""
    from dsl.ruleset import load

    qq = load(QQ)
    assert sweep_values(qq, ["birds=4,04,4"]) == {"birds": ["2", "4"]}
    assert sweep_values(qq, ["birds=0", "birds=4,0"]) == {"birds": ["0", "2", "4"]}
    every = sweep_values(qq, ["all"])
    assert sweep_values(qq, ["all", "birds=4"]) == every == sweep_values(qq, ["birds=4", "all"])
    assert every["birds"] == ["0", "1", "2", "4", "6"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", QQ, "--set-a", "nope=1"], "unknown option 'nope'"),
        (
            ["compare", QQ, "--set-b", "birdz=2"],
            "B (changsha/qq2014): <command line>:1:9: error: unknown option 'birdz'\n"
            "    --set-b birdz=2\n            ^^^^^",
        ),
        (
            ["compare", QQ, "--set-a", "birds=3"],
            "A (changsha/qq2014): <command line>:1:15: "
            "error: '3' is not allowed for option 'birds'\n    --set-a birds=3",
        ),
        (
            ["compare", QQ, "--preset", "tame", "--preset-b", "nope"],
            "B (changsha/qq2014): <command line>:1:12: error: unknown preset 'nope'\n"
            "    --preset-b nope",
        ),
        (
            ["compare", QQ, "sichuan/blog5", "--set", "birds=2"],
            "B (sichuan/blog5): <command line>:1:7: error: unknown option 'birds'\n"
            "    --set birds=2",
        ),
        (["compare", QQ, "--games", "1"], "--games must be at least 2"),
        (
            ["compare", QQ, "--agents", "value,nobody"],
            "--agents 'value,nobody': unknown agent 'nobody'",
        ),
        (["compare", "nowhere/none"], "nowhere/none"),
        (["sweep", QQ, "--vary", "birds=3"], "'3' is not a value of option 'birds'"),
        (["sweep", QQ, "--vary", "bird=1"], "did you mean 'birds'?"),
        (["sweep", QQ, "--vary", "birds"], "write NAME=V1,V2,… or all"),
        (["sweep", QQ, "--vary", "birds=2,2"], "--vary birds=2: only the reference value"),
        (
            ["sweep", QQ, "--set", "birds=4", "--vary", "birds=4", "--vary", "cap=none,6he"],
            "--vary birds=4: only the reference value",
        ),
        (["sweep", QQ, "--vary", "birds=0", "--metric", "nope"], "unknown metric 'nope'"),
        (
            ["sweep", QQ, "--vary", "birds=0", "--metric", "hand_type:nope"],
            "--metric hand_type:nope: changsha/qq2014 has no hand type 'nope'; its ids: pinghu, ",
        ),
    ],
)
def test_bad_input_is_a_message(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_plot_without_matplotlib_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    plot = tmp_path / "p.png"
    result = CliRunner().invoke(cli, ["compare", QQ, "--games", "2", "--plot", str(plot)])
    assert result.exit_code == 1
    assert "--plot needs matplotlib: pip install 'mjrules[plot]'" in result.output
    assert not plot.exists()


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("effects.txt", "effects.txt: end the name with .png, .svg or .pdf (formats: "),
        ("effects", "effects: end the name with .png"),
        ("nowhere/effects.png", "there is no folder "),
    ],
)
def test_a_plot_that_cannot_be_written_is_refused_before_a_hand_is_played(tmp_path, plot, message):
    """Checked first: a scheduler that is not there would be the error otherwise."""
    for command in (["compare", QQ], ["sweep", QQ, "--vary", "birds=4"],
                    ["tactics", QQ, "--policy", "claims=never,helps"]):  # fmt: skip
        result = CliRunner().invoke(cli, [*command, "--plot", str(tmp_path / plot),
                                          "--scheduler", "tcp://127.0.0.1:9"])  # fmt: skip
        assert result.exit_code == 1 and message in result.output, result.output


@pytest.mark.parametrize(
    "args",
    [
        ["compare", QQ, "changsha/base"],
        ["sweep", "changsha/base", "--vary", "all"],
        ["tactics", QQ, "changsha/base", "--policy", "claims=never,helps"],
        ["tune", "changsha/base", "--budget", "1"],
    ],
)
def test_an_abstract_ruleset_is_refused_before_a_hand_is_played(args):
    """Its hands would fail midway (tactics and tune ended in a TypeError)."""
    result = CliRunner().invoke(cli, [*args, "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert "changsha/base is abstract (ruleset.abstract: true)" in result.output


def test_match_hands_beyond_the_hands_played_is_refused():
    result = CliRunner().invoke(cli, ["compare", QQ, "--games", "8", "--match-hands", str(10**20)])
    assert result.exit_code == 1
    assert "--match-hands 100,000,000,000,000,000,000 is more than the 8 hands played" in (
        result.output
    )


def test_the_same_comparison_on_one_worker_all_cores_or_dask():
    from distributed import Client, LocalCluster

    from interpreter.compare import Run, Setting, compare

    a, b = Setting(QQ, ("birds=0",)), Setting(QQ, ("birds=4",))

    def run(**where):
        return compare(a, b, 24, 9, "random", Run(progress=False, **where)).to_json()

    one = run(workers=1)
    assert run(workers=2) == one
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        assert run(scheduler=client) == one
