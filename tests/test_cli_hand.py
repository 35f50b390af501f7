"""`mjrules hand` end to end, as a user runs it: output, JSON, errors and exit codes."""

import json
import subprocess
import sys
import time

import pytest

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=60)


def test_ready_hand_prints_waits_with_live_copies():
    result = run("hand", "123m 456m 789m 234p 5p")
    assert result.returncode == 0, result.stderr
    assert "0 (ready)" in result.stdout
    assert "waits    2p(3) 5p(3)   6 live" in result.stdout


def test_json_has_shanten_waits_and_discards():
    result = run("hand", "1122m 3345p 67789s 9s", "--visible", "9s 9s", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["shanten"] == {"standard": 1, "seven_pairs": 1, "min": 1}
    best = data["discards"][0]
    assert best["discard"] == "3p"
    assert {"tile": "9s", "live": 0} in best["accepted"]
    assert best["live"] == sum(a["live"] for a in best["accepted"])


def test_chinese_notation_and_exposed_melds():
    result = run("hand", "123万 55筒 789条", "--melds", "2", "--json")
    data = json.loads(result.stdout)
    assert data["complete"] is True
    assert data["decompositions"][0]["pair"] == "5p"


def test_seven_pairs_form_can_be_chosen():
    quads = json.loads(run("hand", "1111m 4455s 336699p", "--json").stdout)
    distinct = json.loads(
        run("hand", "1111m 4455s 336699p", "--seven-pairs", "distinct", "--json").stdout
    )
    assert quads["seven_pairs"]["quads_as_pairs"] == 1
    assert distinct["seven_pairs"] is None
    assert distinct["shanten"]["seven_pairs"] == 1


def test_wild_marked_with_a_star_is_in_the_waits_and_splits():
    # 112s and a wild: 11s pair with 2s* as a chow or pung, or 12s* a chow with 1s paired.
    result = run("hand", "123m 456p 789s 11s 2s *")
    assert result.returncode == 0, result.stderr
    assert "13 concealed, 1 wild(s)" in result.stdout
    assert "waits    1s(2) 2s(3) 3s(4) 4s(4) *(3)   16 live" in result.stdout
    data = json.loads(run("hand", "123m 456p 789s 11s 2s **", "--json").stdout)
    assert data["complete"] is True and data["wilds"] == 2 and data["wild_tile"] is None
    assert {"pair": "1s", "melds": [{"kind": "chow", "tile": "1m"}, {"kind": "chow", "tile": "4p"},
            {"kind": "chow", "tile": "1s"}, {"kind": "chow", "tile": "7s"}],
            "wilds_as": ["1s", "3s"]} in data["decompositions"]  # fmt: skip


def test_wild_tile_named_by_option_is_never_a_plain_tile():
    # 11p 1s and a wild (5m): 11p pair with 1s* or 111p with 1s* as the pair, ...
    result = run("hand", "123m 456p 789s 11p 1s 5m", "--wild", "5m")
    assert result.returncode == 0, result.stderr
    assert "(* = 5m)" in result.stdout
    assert "waits    1p(2) 1s(3) 2s(4) 3s(4) *(3)   16 live" in result.stdout
    table = json.loads(run("hand", "123m 456p 789s 11p 1s 5s 5m", "--wild", "5m", "--json").stdout)
    assert table["wild_tile"] == "5m"
    assert all(a["tile"] != "5m" for d in table["discards"] for a in d["accepted"])
    assert {"tile": "*", "live": 3} in table["discards"][0]["accepted"]


def test_wild_free_json_keeps_its_keys():
    data = json.loads(run("hand", "123m 456m 789m 234p 5p", "--json").stdout)
    assert "wilds" not in data and "wild_tile" not in data


def test_advise_with_wilds_gives_the_shape_and_a_discard():
    result = run("advise", "sichuan/blog5", "123m 456p 789s 11p 1s 5s *")
    assert result.returncode == 0, result.stderr
    assert "shape only" in result.stdout
    assert "recommend 1s" in result.stdout  # keeps 5s* open on 3s 4s 6s 7s


def test_advise_reads_the_rulesets_own_wild_tile():
    result = run("advise", "hunan/hongzhong", "123m 456p 789s 11p 1s 5s 中")
    assert result.returncode == 0, result.stderr
    assert "1 wild(s) (* = 5z)" in result.stdout  # 红中 is wild there: never a plain 5z
    assert "recommend 1s" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "123m 456p 78s *****"], "5 wild(s) held and 0 visible: only 4 copies"),
        (["hand", "123m 456p 78s 11m 9s **", "--visible", "***"], "2 wild(s) held and 3 visible"),
        (["hand", "123m 456p 789s 1m *", "--wild", "1m2m"], "expected one tile"),
        (["hand", "12*m 456p 789s 1m *"], "digits '12' have no suit at column 3"),
        (
            ["hand", "**m 456p 789s"],
            "column 3; expected a rank 1 to 9, or a tile character\n  **m 456p 789s\n    ^",
        ),  # the wilds shown as written
        (
            ["hand", "123m " * 2000],
            "copy 5 of 1m at column 21; expected at most 4 copies of a tile\n  "
            + "123m " * 12
            + "…\n"
            + " " * 22
            + "^\n",
        ),  # 60 of its 10,000 characters
        (["hand", "123m 0p"], "rank 0 does not exist at column 6"),
        (["hand", "11111m 2345p 6789s"], "copy 5 of 1m"),
        (["hand", "123m"], "3 concealed tiles with 0 exposed meld(s)"),
        (["hand", "123m 456m 789m 234p 5p", "--visible", "5p 5p 5p 5p"], "only 4 copies exist"),
        (["hand", "123m 456m 789m 234p 5p", "--melds", "7"], "--melds must be 0 to 4"),
        (["hand"], "Missing argument 'TILES'"),
        (["hand", "12m", "--melds", "x"], "is not a valid integer"),
        (["nosuch"], "No such command 'nosuch'"),
    ],
)
def test_invalid_input_exits_1_with_a_message_and_no_traceback(args, message):
    result = run(*args)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_help_is_fast_and_lists_commands():
    start = time.perf_counter()
    result = run("--help")
    elapsed = time.perf_counter() - start
    assert result.returncode == 0
    assert "hand" in result.stdout
    assert elapsed < 2.0  # generous for loaded CI machines; bench/ measures the real figure
    assert run("hand", "--help").returncode == 0


def test_honours_put_the_136_tile_set_in_play():
    # 东东 and 中中 with three runs: ready on either pung, two copies of each left
    result = run("hand", "123m 456p 789s 东东 中中")
    assert result.returncode == 0, result.stderr
    assert "waits    1z(2) 5z(2)   4 live" in result.stdout
    data = json.loads(run("hand", "123m 456p 789s 1z 2z 中中 白", "--json").stdout)
    best = data["discards"][0]
    assert best["discard"] in ("1z", "2z", "7z") and best["shanten"] == 1
    # honours make no runs: 1z 2z 3z is three singles (a chow would make it ready)
    data = json.loads(run("hand", "123m 456p 789s 123z 5z", "--json").stdout)
    assert data["shanten"]["standard"] == 2


def test_a_flower_is_never_held():
    result = run("hand", "123m 456p 789s 11m 春")
    assert result.returncode == 1
    assert "flowers are not in this tile set" in result.stderr


def test_wilds_among_honours_stand_for_honours_too():
    # 东东 中 and a wild: ready on 东 (东东东, 中* the pair) or 中 (中中*, 东东 the pair)
    result = run("hand", "123m 456p 789s 东东 中 *")
    assert result.returncode == 0, result.stderr
    assert "waits    1z(2) 5z(3) *(3)   8 live" in result.stdout
    data = json.loads(run("hand", "123m 456p 789s 东东 中中 *", "--json").stdout)
    assert data["complete"] is True
    assert sorted((d["pair"], d["wilds_as"]) for d in data["decompositions"]) == [
        ("1z", ["5z"]),
        ("5z", ["1z"]),
    ]
    # 中 named wild: its copies are wilds, so two of them make any tile a pung
    result = run("hand", "123m 456p 789s 11z 5z 5z", "--wild", "5z")
    assert "2 wild(s) (* = 5z)" in result.stdout and " 5z(" not in result.stdout
