"""interpreter.simulate.Writer: chunks as parts, joined at the end; metadata; resume."""

from __future__ import annotations

import re

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from interpreter.simulate import (
    ROW_LIMIT,
    SimulationError,
    Writer,
    make_spec,
    missing,
    simulate,
)


@pytest.fixture(scope="module")
def rows():
    return simulate("sichuan/blog5", 12, 5, "random", workers=1, progress=False).to_dict("records")


def test_parts_while_running_one_file_with_the_metadata_at_the_end(tmp_path, rows):
    out = tmp_path / "r.parquet"
    writer = Writer(out, 4, {"mjrules.note": "paired with r2"})
    writer.write(rows[:5])
    writer.write(rows[5:])
    folder = tmp_path / "r.parquet.partial"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["_run.json", "rows-0000000000-0000000005.parquet",
                     "rows-0000000005-0000000012.parquet"]  # fmt: skip
    assert list(pd.read_parquet(folder)["index"]) == list(range(12))  # a dataset meanwhile
    assert not out.exists()
    writer.close()
    assert not folder.exists()
    table = pq.read_table(out)
    assert table.column("index").to_pylist() == list(range(12))
    assert table.schema.metadata[b"mjrules.note"] == b"paired with r2"


def test_resume_fills_the_gaps_of_a_folder(tmp_path, rows):
    out = tmp_path / "r.jsonl"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    first = Writer(out, 4, spec=spec)
    first.write(rows[:4])
    first.write(rows[8:])  # hands 4-7 lost; then the process is killed: no close
    with pytest.raises(SimulationError, match="holds the rows of a stopped run"):
        Writer(out, 4, spec=spec)
    other, _ = make_spec("sichuan/blog5", 6, "random")
    with pytest.raises(SimulationError, match="seed 6"):
        Writer(out, 4, spec=other, resume=True)
    again = Writer(out, 4, spec=spec, resume=True)
    assert again.ranges == [(0, 4), (8, 12)] and missing(12, again.ranges) == [(4, 8)]
    assert [r["index"] for part in again.read_back() for r in part] == [*range(4), *range(8, 12)]
    again.write(rows[4:8])
    again.close()
    assert list(pd.read_json(out, lines=True)["index"]) == list(range(12))


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_a_part_changed_by_hand_stops_the_resume_and_is_left_as_it_was(tmp_path, rows, ext):
    """Read back before anything is joined: the folder stays, and no file is made of it."""
    out = tmp_path / f"r.{ext}"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])  # then the process is killed: no close
    part = tmp_path / f"r.{ext}.partial" / f"rows-0000000000-0000000004.{ext}"
    part.write_bytes(b"a,b\n1,\xff\n")
    said = rf"0000000004\.{ext} is not a {ext} file of results .*; remove it to play its hands"
    with pytest.raises(SimulationError, match=said):
        simulate("sichuan/blog5", 12, 5, "random", workers=1, out=out, progress=False,
                 resume=True)  # fmt: skip
    assert part.read_bytes() == b"a,b\n1,\xff\n" and not out.exists()


@pytest.mark.parametrize(
    ("ext", "damage", "said"),
    [
        ("jsonl", lambda lines: ["[" * 100_000], "line 1 is nested too deeply"),
        (
            "jsonl",
            lambda lines: [lines[0], '"' + "a" * ROW_LIMIT + '"'],
            "line 2 is over 1,048,576 characters",
        ),
        (
            "jsonl",
            lambda lines: ["[1]", *lines[1:]],
            "no row of hand 0 with the run's columns in its place",
        ),
        (
            "jsonl",
            lambda lines: [lines[0], lines[2], lines[1], lines[3]],
            "no row of hand 1 with the run's columns in its place",
        ),
        ("jsonl", lambda lines: lines[:3], "it holds 3 of its 4 hands"),
        (
            "csv",
            lambda lines: [lines[0], lines[1].replace('"[', '"' + "[" * 100_000, 1)],
            "row 1, column .* is nested too deeply",
        ),
        ("csv", lambda lines: [*lines[:2], "a" * ROW_LIMIT], "row 2 is over 1,048,576 characters"),
        (
            "csv",
            lambda lines: [lines[0], '"\n",' * (ROW_LIMIT // 4 + 1)],  # short lines, one row
            "row 1 is over 1,048,576 characters",
        ),
        (
            "csv",
            lambda lines: [lines[0], lines[1] + "a" * 200_000],
            r"row 1: field larger than field limit \(131072\)",
        ),
        (
            "csv",
            lambda lines: [lines[0], lines[1] + ",1", *lines[2:]],
            "row 1 has 48 values for 47 columns",
        ),
    ],
)
def test_a_damaged_part_is_named_not_a_traceback(tmp_path, rows, ext, damage, said):
    """Before, a line nested deeply ended in a RecursionError's traceback, a line (or a CSV
    row) was read whole however long, and a line that is no row of the part's hands in a
    KeyError or TypeError's from the summary."""
    out = tmp_path / f"r.{ext}"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])  # then the process is killed: no close
    part = tmp_path / f"r.{ext}.partial" / f"rows-0000000000-0000000004.{ext}"
    text = "\n".join(damage(part.read_text(encoding="utf-8").splitlines())) + "\n"
    part.write_text(text, encoding="utf-8")
    with pytest.raises(SimulationError, match=rf"0000000004\.{ext} is not a {ext} file of "
                       rf"results \({said}\); remove it"):  # fmt: skip
        simulate("sichuan/blog5", 12, 5, "random", workers=1, out=out, progress=False,
                 resume=True)  # fmt: skip
    assert part.read_text(encoding="utf-8") == text and not out.exists()


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_a_part_reads_back_as_its_rows_were(tmp_path, rows, ext):
    out = tmp_path / f"r.{ext}"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])
    again = Writer(out, 4, spec=spec, resume=True)
    back = [row for part in again.read_back() for row in part]
    assert back == rows[:4]
    assert [type(v) for v in back[0].values()] == [type(v) for v in rows[0].values()]


@pytest.mark.parametrize(
    ("ext", "column", "value", "said"),
    [
        ("jsonl", "winners", 5, "5 is not of type list[int]"),
        ("jsonl", "delta_2", "12", "'12' is not of type int"),
        ("jsonl", "drawn", 1, "1 is not of type bool"),
        ("jsonl", "n_wins", 1.0, "1.0 is not of type int"),
        ("jsonl", "dealt_0", None, "None is not of type str"),
        ("jsonl", "win_hands", [["pinghu", 3]], "[['pinghu', 3]] is not of type list[list[str]]"),
        ("csv", "winners", 5, "5 is not of type list[int]"),
        ("csv", "delta_2", "abc", "'abc' is not of type int"),
        ("csv", "drawn", "yes", "'yes' is not of type bool"),
        ("csv", "hand_types", [1], "[1] is not of type list[str]"),
    ],
)
def test_a_value_of_another_type_is_named_not_a_traceback(tmp_path, rows, ext, column, value, said):
    """Before, a part with the run's columns and hands but a value of another type was kept
    as it was, and simulate's summary ended in a TypeError's traceback."""
    _resume_refuses_row_3(tmp_path, rows, ext, column, value, f"{said}); remove it")


def _resume_refuses_row_3(tmp_path, rows, ext: str, column: str, value, said: str) -> None:
    """A stopped run's part whose row 3 holds ``value`` in ``column``: resuming refuses it,
    naming the part, the row, the column and ``said``, and writes no output."""
    out = tmp_path / f"r.{ext}"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    changed = [dict(row) for row in rows[:4]]
    changed[2][column] = value
    Writer(out, 4, spec=spec).write(changed)  # then the process is killed: no close
    with pytest.raises(SimulationError, match=re.escape(
        f"0000000004.{ext} is not a {ext} file of results (row 3, column {column}: {said}"
    )):  # fmt: skip
        simulate("sichuan/blog5", 12, 5, "random", workers=1, out=out, progress=False,
                 resume=True)  # fmt: skip
    assert not out.exists()


SEATS_OF_4 = "a seat of the run's 4 players (0 to 3)"


@pytest.mark.parametrize(
    ("ext", "column", "value", "said"),
    [
        ("jsonl", "dealer", 9, f"9 is not {SEATS_OF_4}"),
        ("jsonl", "winners", [7], f"7 is not {SEATS_OF_4}"),
        ("jsonl", "callers", [0, -1], f"-1 is not {SEATS_OF_4}"),
        ("jsonl", "opening_seats", [4], f"4 is not {SEATS_OF_4}"),
        ("jsonl", "win_from", [-2], f"-2 is not -1 or {SEATS_OF_4}"),
        ("jsonl", "delta_1", 1 << 63, f"{1 << 63} is not an int64 (-{1 << 63} to {(1 << 63) - 1})"),
        ("jsonl", "n_wins", 1 << 15, f"{1 << 15} is not an int16 (-{1 << 15} to {(1 << 15) - 1})"),
        ("csv", "dealer", 4, f"4 is not {SEATS_OF_4}"),
        ("csv", "winners", [1, 4], f"4 is not {SEATS_OF_4}"),
        ("csv", "points_moved", -(1 << 63) - 1, f"-{(1 << 63) + 1} is not an int64"),
        ("parquet", "dealer", 9, f"9 is not {SEATS_OF_4}"),
        ("parquet", "win_from", [-3], f"-3 is not -1 or {SEATS_OF_4}"),
    ],
)
def test_a_value_out_of_the_runs_range_is_named(tmp_path, rows, ext, column, value, said):
    """Before, a seat the run has not (a dealer 9 of 4 players) ended in an IndexError's
    traceback in simulate's summary, and a seat in a list or an integer over its column's
    type was kept silently."""
    _resume_refuses_row_3(tmp_path, rows, ext, column, value, said)


def test_a_parquet_column_of_another_type_is_named(tmp_path, rows):
    out = tmp_path / "r.parquet"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])
    part = tmp_path / "r.parquet.partial" / "rows-0000000000-0000000004.parquet"
    table = pq.read_table(part)
    at = table.schema.get_field_index("ruleset")
    pq.write_table(table.set_column(at, "ruleset", pa.array([7] * 4)), part)
    with pytest.raises(SimulationError, match=r"\(row 1, column ruleset: 7 is not of type str\)"):
        simulate("sichuan/blog5", 12, 5, "random", workers=1, out=out, progress=False,
                 resume=True)  # fmt: skip


@pytest.mark.parametrize(
    ("ext", "line", "said"),
    [
        ("jsonl", "[" * 100_000, "line 5 is nested too deeply"),
        ("csv", "a" * ROW_LIMIT, "row 5 is over 1,048,576 characters"),
    ],
)
def test_a_finished_file_resumed_is_read_bounded_too(tmp_path, rows, ext, line, said):
    out = tmp_path / f"r.{ext}"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    writer = Writer(out, 4, spec=spec)
    writer.write(rows[:4])
    writer.close()
    with out.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    said = rf"r\.{ext}: not a {ext} file of results \({said}\)$"
    with pytest.raises(SimulationError, match=said):
        Writer(out, 4, spec=spec, resume=True)


@pytest.mark.parametrize("text", ["[]", '{"format": "csv", "spec": 7}', "{bad"])
def test_a_run_file_changed_by_hand_is_named(tmp_path, rows, text):
    out = tmp_path / "r.csv"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])
    (tmp_path / "r.csv.partial" / "_run.json").write_text(text)
    with pytest.raises(SimulationError, match=r"r\.csv\.partial: _run\.json"):
        Writer(out, 4, spec=spec, resume=True)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('"' + "a" * (1 << 20) + '"', "_run.json is over 1 MB: not the description of a run"),
        ("[" * 100_000, "_run.json is nested too deeply to describe a run"),
    ],
)
def test_a_run_file_is_read_bounded(tmp_path, rows, text, said):
    """A run file of another origin was read whole, however large, and one nested deeply
    ended in a RecursionError's traceback."""
    out = tmp_path / "r.csv"
    spec, _ = make_spec("sichuan/blog5", 5, "random")
    Writer(out, 4, spec=spec).write(rows[:4])
    (tmp_path / "r.csv.partial" / "_run.json").write_text(text)
    with pytest.raises(SimulationError, match=rf"r\.csv\.partial: {said}$"):
        Writer(out, 4, spec=spec, resume=True)
