"""Hostile input never gets a traceback: ruleset ids and paths stay inside the search path,
event logs are checked against their schema within bounds, and option and bot values parse
by their declared types and ranges (ASCII digits only)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl.ruleset import SHIPPED, available_ids, check_ruleset, load
from interpreter.agents import PARAMS, make_agent
from interpreter.engine import ReplayError, play, replay
from interpreter.engine.events import MAX_LINE, TYPES, read_log, to_jsonl
from interpreter.engine.log_schema import SCHEMA, event_problem

REPO = Path(__file__).resolve().parents[2]
SECRET = "hunter2-do-not-print"


def mjrules(*args: str, cwd: Path, env: dict[str, str] | None = None):
    """The command line from ``cwd``, with this tree's code and nothing installed."""
    environ = {k: v for k, v in os.environ.items() if k != "MJRULES_RULESETS"}
    environ.update(PYTHONPATH=str(REPO), **(env or {}))
    command = [sys.executable, "-c", "from interpreter.cli import main; main()", *args]
    return subprocess.run(
        command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=120
    )


def refused(result) -> str:
    """A refusal: exit 1, a message, no traceback, no secret."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert SECRET not in result.stderr + result.stdout
    return result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A user's folder: a house variant of a shipped ruleset, and a file that is no ruleset."""
    (tmp_path / "rulesets" / "house").mkdir(parents=True)
    (tmp_path / "rulesets" / "house" / "ours.yaml").write_text(
        "extends: changsha/qq2014\nruleset: {title: {zh: 我们的, en: ours}}\n"
        "options:\n  birds: {default: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "secret.yaml").write_text(f"password: {SECRET}\nuser: me\n", encoding="utf-8")
    (tmp_path / "secret").write_text(f"password: {SECRET}\n", encoding="utf-8")
    return tmp_path


# --- the search path --------------------------------------------------------------------------


def test_a_user_ruleset_extends_a_shipped_one_from_its_own_folder(folder: Path) -> None:
    result = mjrules("validate", "house/ours", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert "ok: house/ours" in result.stdout


def test_mjrules_rulesets_folders_come_before_the_shipped_ones(folder: Path, tmp_path_factory):
    other = tmp_path_factory.mktemp("mine")
    (other / "changsha").mkdir()
    shipped = (SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8")
    (other / "changsha" / "qq2014.yaml").write_text(
        shipped.replace("en: Changsha mahjong 2014 (QQ)", "en: my 2014"), encoding="utf-8"
    )  # the same id as a shipped ruleset: the user's folder wins
    (other / "solo.yaml").write_text("extends: sichuan/blog5\n", encoding="utf-8")
    env = {"MJRULES_RULESETS": os.pathsep.join([str(other), str(folder / "nowhere")])}
    listed = mjrules("list", "--json", cwd=folder, env=env)
    assert listed.returncode == 0, listed.stderr
    rows = {row["id"]: row for row in json.loads(listed.stdout)}
    assert rows["house/ours"]["from"] == "./rulesets"
    assert rows["house/ours"]["title"] == {"zh": "我们的", "en": "ours"}
    assert rows["solo"]["from"] == str(other) and rows["solo"]["valid"]
    assert rows["changsha/qq2014"]["from"] == str(other)  # shadows the shipped one
    assert rows["changsha/qq2014"]["title"]["en"] == "my 2014"
    assert rows["sichuan/blog5"]["from"] == "shipped"
    assert rows["changsha/base"]["abstract"]
    text = mjrules("list", cwd=folder, env=env).stdout
    assert "house/ours" in text and "我们的 / ours" in text and "[./rulesets]" in text


def test_a_ruleset_may_build_on_the_shipped_one_of_its_own_id(folder: Path) -> None:
    (folder / "rulesets" / "changsha").mkdir()
    (folder / "rulesets" / "changsha" / "qq2014.yaml").write_text(
        "extends: changsha/qq2014\noptions:\n  birds: {default: 4}\n", encoding="utf-8"
    )
    result = mjrules("explain", "changsha/qq2014", "--json", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["options"]["birds"] == 4
    assert load("changsha/qq2014").option_values["birds"] == 2  # the shipped one, unchanged


def test_list_in_an_empty_folder_shows_the_shipped_rulesets(tmp_path: Path) -> None:
    listed = mjrules("list", "--json", cwd=tmp_path)
    rows = json.loads(listed.stdout)
    assert [r["id"] for r in rows] == available_ids(SHIPPED)
    assert {r["from"] for r in rows} == {"shipped"} and all(r["valid"] for r in rows)


# --- containment --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref",
    ["{secret}", "../secret", "../../{name}/secret", "./secret", "rulesets/../secret", "a\\b"],
)
def test_ids_never_leave_the_search_path(folder: Path, ref: str) -> None:
    ref = ref.format(secret=folder / "secret", name=folder.name)
    message = refused(mjrules("validate", ref, cwd=folder / "rulesets"))
    assert "no ruleset" in message


def test_a_symlink_in_a_rulesets_folder_does_not_lead_out(folder: Path) -> None:
    (folder / "rulesets" / "link.yaml").symlink_to(folder / "secret.yaml")
    assert "no ruleset 'link'" in refused(mjrules("validate", "link", cwd=folder))


@pytest.mark.parametrize("given", ["secret.yaml", "{abs}", "../{name}/secret.yaml"])
def test_a_file_that_is_not_a_ruleset_is_never_quoted(folder: Path, given: str) -> None:
    given = given.format(abs=folder / "secret.yaml", name=folder.name)
    message = refused(mjrules("validate", given, cwd=folder))
    assert "not a ruleset (its content is not shown)" in message
    assert "password" not in message


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("../../secret.yaml", "not a ruleset"),  # read (relative), but never quoted
        ("{abs}", "a file names another by a relative path only"),
        ("../../../../../../../../../../etc/hostname.yaml", "no such file"),
        ("../../nothing.yaml", "no such file"),
    ],
)
def test_extends_reaches_files_only_by_a_relative_path(folder, target, expected) -> None:
    target = target.format(abs=folder / "secret.yaml")
    (folder / "rulesets" / "house" / "bad.yaml").write_text(f"extends: {target}\n")
    message = refused(mjrules("validate", "house/bad", cwd=folder))
    assert expected in message and "password" not in message


def test_a_yaml_syntax_error_outside_the_search_path_is_not_quoted(folder: Path) -> None:
    (folder / "notes.yaml").write_text(f"key: [{SECRET}\n", encoding="utf-8")
    assert "not a ruleset" in refused(mjrules("validate", "notes.yaml", cwd=folder))


def test_a_ruleset_with_an_error_outside_the_search_path_is_still_explained(folder: Path) -> None:
    (folder / "mine.yaml").write_text("extends: changsha/qq2014\nbirdz: 2\n", encoding="utf-8")
    message = refused(mjrules("validate", "mine.yaml", cwd=folder))
    assert "unknown key 'birdz'" in message and "    birdz: 2" in message


@pytest.mark.parametrize(
    "ref", ["a" * 300, "a" * 300 + ".yaml", "a/" * 3000 + "b", "a/" * 3000 + "b.yaml", "x\0y"]
)
def test_long_or_odd_names_get_a_message(folder: Path, ref: str) -> None:
    loaded = check_ruleset(ref)
    assert not loaded.ok and "no ruleset" in loaded.problems[0].message
    assert len(loaded.problems[0].format()) < 600
    if "\0" not in ref:  # a NUL cannot be a command-line argument
        assert "no ruleset" in refused(mjrules("validate", ref, cwd=folder))


def test_a_scenario_names_its_ruleset_by_id_or_by_a_path_beside_it(folder: Path) -> None:
    scenario = (REPO / "docs" / "scenarios" / "qq2014-birds.yaml").read_text(encoding="utf-8")
    (folder / "s").mkdir()
    (folder / "s" / "house.yaml").write_text(
        "extends: changsha/qq2014\nruleset: {title: {zh: 家, en: home}}\n", encoding="utf-8"
    )
    for ref, ok in [("house.yaml", True), (str(folder / "s" / "house.yaml"), False),
                    (str(folder / "secret"), False), ("../secret.yaml", False)]:  # fmt: skip
        path = folder / "s" / "case.yaml"
        path.write_text(scenario.replace("ruleset: changsha/qq2014", f"ruleset: {ref}"), "utf-8")
        result = mjrules("settle", str(path), cwd=folder)
        if ok:
            assert result.returncode == 0, result.stderr
        else:
            refused(result)


# --- event logs ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def events() -> list[dict]:
    return play(load("changsha/qq2014"), seed=4, agents="random", hands=1)[1]


def test_the_schema_covers_every_event_type() -> None:
    assert set(SCHEMA) == set(TYPES)


@pytest.mark.parametrize("ruleset_id", [i for i in available_ids(SHIPPED) if "/base" not in i])
def test_every_event_the_engine_writes_fits_the_schema(ruleset_id: str) -> None:
    rules = load(ruleset_id)
    opts = [f"{n}=true" for n, o in rules.options.items() if o.type == "bool"]
    for settings_ in ([], opts):
        for agents in ("random", "efficiency"):
            _, log = play(load(ruleset_id, settings=settings_), 9, agents, hands=2)
            assert [e for e in log if event_problem(e)] == []


def _mutations(event: dict) -> list[dict]:
    """The event with each field dropped, and with each field of the wrong type or size."""
    out = []
    for key in event:
        if key == "type":
            continue
        out.append({k: v for k, v in event.items() if k != key})
        for bad in (None, "x", -1, 2**70, 1.5, True, [], {}, [[[]]], "9z", "x" * 5000):
            out.append({**event, key: bad})
    return out


def _replay_text(text: str, tmp_path: Path) -> str:
    """The CLI's answer to a log, in process: read_log then replay, as `mjrules replay` does."""
    path = tmp_path / "log.jsonl"
    path.write_text(text, encoding="utf-8")
    try:
        replay(read_log(path))
    except (ValueError, ReplayError) as error:
        return str(error)
    return ""


def test_every_malformed_field_gets_a_message(events: list[dict], tmp_path: Path) -> None:
    first_of_each = {e["type"]: i for i, e in reversed(list(enumerate(events)))}
    tried = 0
    for index in first_of_each.values():
        for bad in _mutations(events[index]):
            changed = [*events[:index], bad, *events[index + 1 :]]
            message = _replay_text(to_jsonl(changed), tmp_path)
            tried += 1
            if bad == events[index] or (bad["type"] == "start" and not event_problem(bad)):
                continue  # unchanged, or a start of the right types: the tamper tests' part
            assert message, bad
    assert tried > 300


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_start_events_never_raise_a_traceback(data, events: list[dict]) -> None:
    start = events[0]
    key = data.draw(st.sampled_from(sorted(start)))
    value = data.draw(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
            max_leaves=8,
        )
    )
    with contextlib.suppress(ReplayError):
        replay([{**start, key: value}, *events[1:]])


def test_a_log_played_with_an_unknown_option_value_gets_a_message(events: list[dict]) -> None:
    """Told as the log's options, not as a ``--set`` never typed."""
    start = {**events[0], "options": {**events[0]["options"], "birds": 3}}
    with pytest.raises(ReplayError, match="the log's options: birds=3 is not allowed by "
                       "changsha/qq2014: expected one of 0, 1, 2, 4, 6"):  # fmt: skip
        replay([start, *events[1:]])


def test_a_log_replayed_with_rules_lacking_its_options_says_so(
    events: list[dict], tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(to_jsonl(events), encoding="utf-8")
    said = refused(mjrules("replay", str(log), "--ruleset", "sichuan/blog5", cwd=tmp_path))
    assert "does not replay: the log's options: sichuan/blog5 has no option 'bird_effect'" in said
    assert "--set" not in said


def test_an_action_for_a_seat_out_of_the_table_gets_a_message(events: list[dict]) -> None:
    index = next(i for i, e in enumerate(events) if e["type"] == "act")
    with pytest.raises(ReplayError):
        replay([*events[:index], {**events[index], "seat": 9}, *events[index + 1 :]])
    with pytest.raises(ReplayError, match="dealer seat 7"):
        replay([{**events[0], "dealer": 7}, *events[1:]])


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    for depth in (9, 100_000):
        line = '{"type":"start","x":' + "[" * depth + "]" * depth + "}\n"
        assert "nested deeper than 8" in _replay_text(line, tmp_path)


def test_a_long_line_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    with open(path, "w") as handle:
        handle.write('{"type":"start","x":"' + "a" * (20 * MAX_LINE) + '"}\n')
    tracemalloc.start()
    with pytest.raises(ValueError, match="line 1: longer than"):
        read_log(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4 * MAX_LINE


def test_bytes_that_are_not_utf8_are_refused(events: list[dict], tmp_path: Path) -> None:
    path = tmp_path / "bin.jsonl"
    path.write_bytes(to_jsonl(events[:1]).encode() + b"\xff\xfe\n")
    with pytest.raises(ValueError, match="line 2: not UTF-8"):
        read_log(path)


def test_replay_of_a_game_played_from_a_file(folder: Path, tmp_path_factory) -> None:
    parent = (SHIPPED / "changsha" / "qq2014.yaml").read_text(encoding="utf-8")
    mine = folder / "mine.yaml"
    mine.write_text(parent, encoding="utf-8")
    played = mjrules("play", "mine.yaml", "--seed", "3", "--log", "g.jsonl", cwd=folder)
    assert played.returncode == 0, played.stderr
    start = json.loads((folder / "g.jsonl").read_text().splitlines()[0])
    assert start["ruleset_file"] == str(mine) and start["ruleset_sha256"].startswith("sha256:")
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "g.jsonl").write_bytes((folder / "g.jsonl").read_bytes())
    result = mjrules("replay", "g.jsonl", "--quiet", cwd=elsewhere)
    assert result.returncode == 0 and "every event the same" in result.stdout, result.stderr
    # a copy of the rules under another name replays with --ruleset; an edit is named as such
    (elsewhere / "copy.yaml").write_bytes(mine.read_bytes())
    result = mjrules("replay", "g.jsonl", "--ruleset", "copy.yaml", "--quiet", cwd=elsewhere)
    assert result.returncode == 0, result.stderr
    mine.write_text(mine.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    message = refused(mjrules("replay", "g.jsonl", cwd=elsewhere))
    assert "has changed since the log was written" in message and "--ruleset" in message
    mine.write_text(f"password: {SECRET}\n", encoding="utf-8")
    message = refused(mjrules("replay", "g.jsonl", cwd=elsewhere))
    assert "does not load here" in message


def test_a_game_played_by_id_logs_no_file(events: list[dict]) -> None:
    assert "ruleset_file" not in events[0]
    assert events[0]["ruleset_sha256"] == load("changsha/qq2014").sha256


# --- option and bot values ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["１", "２", "٢", "1_0", "0x2", "2.0", "", "nan", " ", "2" * 30])
def test_set_takes_ascii_digits_only(text: str) -> None:
    loaded = check_ruleset("changsha/qq2014", settings=[f"birds={text}"])
    assert not loaded.ok
    assert "is not allowed for option 'birds'" in loaded.problems[0].message


def test_set_still_takes_plain_values() -> None:
    assert load("changsha/qq2014", settings=["birds= 4", "santong=no"]).option_values["birds"] == 4


@pytest.mark.parametrize(
    "text", ["nan", "inf", "-1", "1e308", "1e3", "１", "0.５", "2", "-0", "+", ".", "0x1", "1_0"]
)
def test_bot_parameters_have_declared_ranges(text: str) -> None:
    number = {"-0": 0, "-1": -1, "2": 2}.get(text)  # the texts written as plain numbers
    for name, params in PARAMS.items():
        for key, param in params.items():
            if param.choices:
                continue
            fits = number is not None and param.low <= number <= param.high
            if fits:
                make_agent(f"{name}:{key}={text}")
            else:
                with pytest.raises(ValueError, match=re.escape(f"{key}={text}: expected")):
                    make_agent(f"{name}:{key}={text}")
    with pytest.raises(ValueError, match="hazard=nan"):
        make_agent("value", hazard=float("nan"))
    with pytest.raises(ValueError, match=r"push=1\.5: expected a whole number from 0 to 8"):
        make_agent("defensive", push=1.5)
    assert make_agent("defensive", push=2.0).push == 2


def test_bot_parameters_on_the_command_line(tmp_path: Path) -> None:
    for agents in ("value:hazard=nan", "defensive:push=-1", "value:claim_margin=1e308"):
        message = refused(
            mjrules("simulate", "sichuan/blog5", "--games", "1", "--agents", agents, cwd=tmp_path)
        )
        assert "expected a" in message
