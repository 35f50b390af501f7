"""``mjrules tune``: a bot's parameters searched in duplicate format, the parameter file it
writes, that file loaded by ``--agents BOT:FILE``, and files printed side by side."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from itertools import pairwise

import pytest
import yaml

from interpreter.agents import PARAMS, expand_agent, read_params
from interpreter.simulate import split_agents
from tests.simulate.conftest import MJRULES, mjrules

QQ, BLOG5 = "changsha/qq2014", "sichuan/blog5"
SMALL = ["--budget", "3", "--games", "4", "--workers", "1"]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    """The efficiency bot tuned on changsha/qq2014 (3 trials, 4 walls), as the CLI wrote it."""
    path = tmp_path_factory.mktemp("tune") / "qq.yaml"
    result = mjrules("tune", QQ, "--agents", "efficiency", *SMALL, "--out", str(path))
    assert result.returncode == 0, result.stderr
    return path, result


def test_tuning_writes_a_parameter_file_with_its_provenance(tuned):
    path, result = tuned
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["bot"] == "efficiency" and data["field"] == "efficiency"
    assert set(data["parameters"]) == set(PARAMS["efficiency"])
    for name, value in data["parameters"].items():
        PARAMS["efficiency"][name].check(name, value)  # every value in its declared range
    assert data["ruleset"] == QQ and len(data["ruleset_hash"]) == 16
    assert data["options"]["birds"] == 2 and data["changed"] == {}
    assert (data["budget"], data["walls"], data["seed"], data["check_walls"]) == (3, 4, 1, 4)
    assert data["check_seed"] not in (1, 2)  # the gain is measured on other walls
    low, high = data["ci95"]
    assert low <= data["gain"] <= high
    # the first trial is the field's own parameters: the best is at least as good
    assert data["tuned_gain"] >= 0
    progress = result.stderr.splitlines()
    assert progress[0].startswith("trial 1/3: +0.000 points a hand")
    assert progress[0].endswith("efficiency:kong_policy=no_worse,kong_option=0,claims=helps")
    assert [line[:10] for line in progress[:3]] == ["trial 1/3:", "trial 2/3:", "trial 3/3:"]
    assert "best parameters:" in result.stdout and f"written to {path}" in result.stdout


def test_the_same_seed_writes_the_same_file(tuned, tmp_path):
    path, _ = tuned
    again = tmp_path / "qq.yaml"
    result = mjrules("tune", QQ, "--agents", "efficiency", *SMALL, "--out", str(again))
    assert result.returncode == 0, result.stderr
    body = path.read_text(encoding="utf-8").split("\n", 1)[1]  # after the comment naming it
    assert again.read_text(encoding="utf-8").split("\n", 1)[1] == body


def test_the_file_loads_wherever_agents_are_given(tuned):
    path, _ = tuned
    params = yaml.safe_load(path.read_text(encoding="utf-8"))["parameters"]
    inline = "efficiency:" + ",".join(f"{k}={v}" for k, v in params.items())
    assert split_agents(f"simple,efficiency:{path}") == ["simple", inline]
    assert expand_agent(f"efficiency:{path};claims=never").endswith(",claims=never")
    simulate = mjrules("simulate", QQ, "--agents", f"efficiency:{path}", "--games", "4",
                       "--workers", "1", "--json")  # fmt: skip
    assert simulate.returncode == 0, simulate.stderr
    assert json.loads(simulate.stdout)["agents"] == [inline] * 4  # the parameters, recorded
    play = mjrules("play", QQ, "--agents", f"efficiency:{path},simple,simple,simple")
    assert play.returncode == 0, play.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bot: efficiency\nparameters: {claims: sometimes}\n",
         "parameters: claims=sometimes: expected one of"),
        ("bot: efficiency\nparameters: {defence: 0.5}\n",
         "parameters: the efficiency bot has no parameter 'defence'"),
        ("bot: value\nparameters: {}\n", "the parameters of the value bot, not of 'efficiency'"),
        ("bot: efficiency\n  parameters: {}\n", "bad.yaml:2:13: YAML syntax: mapping "
         "values are not allowed in this context; expected the indentation of its siblings"),
        ("- just a list\n", "expected a mapping with 'bot' and 'parameters'"),
        ("bot: efficiency\nparameters: {claims: [helps, never]}\n",
         "parameters: claims is a list: expected one of helps, pungs, never"),
        ("bot: efficiency\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
         + "".join(f"{b}: &{b} [{', '.join(['*' + a] * 10)}]\n" for a, b in pairwise("abcde"))
         + "parameters: {claims: *e}\n",  # 100,000 values if expanded: refused unread
         "too many values (50000 at most, aliases counted as what they expand to)"),
    ],
)  # fmt: skip
def test_a_bad_parameter_file_is_refused_with_its_location(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.yaml") as caught:
        read_params(str(path), "efficiency")
    assert message in str(caught.value)
    result = mjrules("simulate", QQ, "--agents", f"efficiency:{path}", "--games", "2")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert str(path) in result.stderr and message in result.stderr


def test_a_parameter_file_not_in_utf8_is_refused_with_its_name(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("bot: efficiency\nparameters: {claims: né}\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.yaml:2:\d+: file is not valid UTF-8"):
        read_params(str(path), "efficiency")


def test_ctrl_c_in_a_trial_stops_tune_without_a_traceback(tmp_path):
    """Optuna logs a trial that raises, with its traceback: Ctrl-C in one is told once."""
    process = subprocess.Popen(
        [*MJRULES, "tune", QQ, "--agents", "value", "--budget", "1000", "--games", "20",
         "--workers", "1", "--out", str(tmp_path / "t.yaml")],
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as in a terminal
    )  # fmt: skip
    try:
        assert process.stderr is not None
        while not process.stderr.readline().startswith("trial 2/"):
            assert process.poll() is None
        process.send_signal(signal.SIGINT)  # in trial 3, most likely in its hands
        said = process.stderr.read()
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in said and said.endswith("mjrules: interrupted\n"), said


BETWEEN_TRIALS = """\
import os, signal, sys
import click
from interpreter.cli import main

echo = click.echo

def echo_then_stop(message=None, *args, **kwargs):  # trial 2 is done, trial 3 not begun
    echo(message, *args, **kwargs)
    if str(message).startswith("trial 2/"):
        os.kill(os.getpid(), getattr(signal, os.environ["STOP_WITH"]))

click.echo = echo_then_stop
sys.argv[0] = "mjrules"
main()
"""


def _signals_as_in_a_terminal() -> None:
    """The stop signals' default dispositions in the child: under nohup or in a shell's
    background job SIGHUP or SIGINT start ignored, and the program rightly keeps them so."""
    for sig in (signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_between_trials_says_what_is_kept(tmp_path, name):
    """SIGTERM or SIGHUP between two trials (outside any run of hands) ended tune at once,
    without a word."""
    out = tmp_path / "t.yaml"
    result = subprocess.run(
        [sys.executable, "-c", BETWEEN_TRIALS, "tune", QQ, "--agents", "efficiency",
         "--budget", "4", "--games", "4", "--workers", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "STOP_WITH": name},
        preexec_fn=_signals_as_in_a_terminal,
    )  # fmt: skip
    assert result.returncode == 128 + getattr(signal, name), result.stderr
    assert result.stderr.endswith(
        "stopped after 2 of 4 trials: no parameter file written; the best so far, trial 1, "
        "+0.000 points a hand on the tuning walls (not measured on new walls): --agents "
        "efficiency:kong_policy=no_worse,kong_option=0,claims=helps\nmjrules: interrupted\n"
    ), result.stderr
    assert not out.exists()


def test_missing_files_and_bad_input_exit_1_without_a_traceback(tmp_path):
    missing = tmp_path / "none.yaml"
    for args in [
        ("simulate", QQ, "--agents", f"value:{missing}", "--games", "2"),
        ("play", QQ, "--agents", f"value:{missing}"),
        ("tactics", QQ, "--agents", f"value:{missing}", "--policy", "hazard=0,1", "--games", "2"),
        ("tune", QQ, "--agents", "random", *SMALL),
        ("tune", QQ, "--agents", "value:hazard=2", *SMALL),
        ("tune", QQ, "--agents", "efficiency"),
        ("tune", "--show", str(missing)),
    ]:
        result = mjrules(*args)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (args, result.stderr)
        assert result.stderr.startswith("mjrules: error: "), result.stderr
    said = mjrules("tune", QQ, "--agents", "value", *SMALL, "--out", str(missing.parent / "no" /
                   "t.yaml"), "--scheduler", "tcp://127.0.0.1:9").stderr  # fmt: skip
    assert "t.yaml: its folder does not exist" in said  # before the trials, not after
    said = mjrules("tune", QQ, "--agents", "random", *SMALL).stderr
    assert "the random bot has no parameters to tune" in said
    assert "cannot read the parameter file" in mjrules(
        "simulate", QQ, "--agents", f"value:{missing}", "--games", "2").stderr  # fmt: skip


def test_parameter_files_side_by_side(tuned, tmp_path):
    path, _ = tuned
    other = tmp_path / "blog5.yaml"
    other.write_text(
        "bot: defensive\nruleset: sichuan/blog5\nchanged: {}\nparameters:\n"
        "  defence: 0.25\n  claims: never\ngain: 0.5\nci95: [0.1, 0.9]\nfield: defensive\n"
        "budget: 20\nwalls: 200\n",
        encoding="utf-8",
    )
    result = mjrules("tune", "--show", str(path), str(other))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == [QQ, BLOG5]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert rows["bot"] == ["efficiency", "defensive"]
    assert rows["claims"] == [data["parameters"]["claims"], "never"]
    assert rows["defence"] == ["—", "0.25"]
    assert rows["kong_option"] == [str(data["parameters"]["kong_option"]), "—"]
    assert rows["against"] == ["efficiency", "defensive"]
    assert "+0.500 [+0.100, +0.900]" in result.stdout
    shown = json.loads(mjrules("tune", "--show", str(path), str(other), "--json").stdout)
    assert [d["bot"] for d in shown] == ["efficiency", "defensive"]


def test_without_optuna_tune_says_how_to_install_it(monkeypatch):
    from interpreter.compare import Setting
    from interpreter.tune import TuneUnavailable, tune

    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna fails
    with pytest.raises(TuneUnavailable, match=r"pip install 'mjrules\[tune\]'"):
        tune(Setting(QQ), "efficiency", 3, 4, 1, 4)


def test_an_item_without_a_value_is_read_as_a_parameter_file():
    with pytest.raises(ValueError, match="hazard: cannot read the parameter file"):
        expand_agent("value:hazard")
    assert expand_agent("value:hazard=0.5") == "value:hazard=0.5"
    assert expand_agent("simple") == "simple"


def test_an_agent_name_is_written_one_way():
    """``simple:`` played the same games as ``simple`` but was kept apart in the results
    cache (and named so in the summary)."""
    from interpreter.simulate import make_spec

    assert expand_agent("value:") == expand_agent("value: ;") == "value"
    assert expand_agent("value:hazard=0.5;") == "value:hazard=0.5"
    assert expand_agent("value:hazard=0.5; claim_margin=1") == "value:hazard=0.5,claim_margin=1"
    assert split_agents("simple:,value:") == ["simple", "value"]
    assert make_spec(QQ, 1, "simple:")[0].agents == make_spec(QQ, 1, "simple")[0].agents


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("simple:,", "an empty parameter after 'simple:'"),
        ("value:,", "an empty parameter after 'value:'"),
        ("value:hazard=0.5,,claim_margin=1", "an empty parameter after 'value:hazard=0.5'"),
        ("random,,simple", "an empty agent name after 'random'"),
        (",simple", "an empty agent name;"),
    ],
)
def test_an_empty_item_is_named_with_the_form_expected(text, said):
    """Each was "unknown agent ''" (or "',claim_margin=1'"): ',' separates agents and
    parameters alike, and the empty item was taken for an agent's name.  The message names
    the option the agents were given to."""
    from interpreter.simulate import SimulationError, make_spec

    with pytest.raises(ValueError, match=f"^--agents '{text}': {said}") as error:
        split_agents(text)
    assert "write each agent as NAME or NAME:key=value,…" in str(error.value)
    with pytest.raises(SimulationError, match="an empty"):
        make_spec(QQ, 1, text)


@pytest.mark.parametrize("flag", ["--agents", "--skill"])
def test_an_unknown_agent_is_named_with_the_option_it_was_given_to(flag):
    """Before, "unknown agent 'nobody'" named no option, unlike an empty item's message."""
    from interpreter.simulate import SimulationError, make_spec

    said = f"^{flag} 'value,nobody:hazard=1': unknown agent 'nobody'; agents are defensive, "
    with pytest.raises(ValueError, match=said):
        split_agents("value,nobody:hazard=1", flag=flag)
    with pytest.raises(SimulationError, match=r"^--agents 'random,nobody,random,random': unknown"):
        make_spec(QQ, 1, ["random", "nobody", "random", "random"])


def test_numbers_round_trip_through_a_file(tmp_path):
    """Numbers are written as agent names read them (no exponent), and come back equal."""
    from interpreter.agents import make_agent, param_text

    assert [param_text(x) for x in (0.1 + 0.2, 1e-7, 3.0, 2, "never")] == [
        "0.3", "0", "3", "2", "never"]  # fmt: skip
    path = tmp_path / "v.json"
    path.write_text('{"bot": "value", "parameters": {"value_threshold": 12.3456, '
                    '"self_draw_share": 0.05, "hazard": 0.0001}}', encoding="utf-8")  # fmt: skip
    agent = make_agent(f"value:{path}")
    assert (agent.value_threshold, agent.hazard) == (12.3456, 0.0001)
    assert make_agent(f"value:{path},hazard=0.5").hazard == 0.5  # an override after the file
