"""`mjrules simulate` under faults: signals, a killed parent, dying workers, a full disk,
a bad scheduler, too many workers.  Whatever ends a run, what is on disk is a valid file
of every finished hand, or a folder of valid parts, and --resume completes it to the
rows of an uninterrupted run."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import socket
import sys
import threading
import time

import pyarrow.parquet as pq
import pytest

from dsl.problems import RulesetError
from interpreter import simulate as sim
from tests.faults import conftest as fault
from tests.simulate.conftest import mjrules

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc, sets rlimits")
ARGS = (*fault.RUN, "--games", str(fault.GAMES), "--workers", "2", "--chunk", "4")


def same_rows(path, reference) -> bool:
    if path.suffix == ".parquet":
        return pq.read_table(path).equals(pq.read_table(reference))
    return path.read_bytes() == reference.read_bytes()


def resumed(out, reference, **kw):
    """Resume the run at ``out``: its rows and summary are the uninterrupted run's."""
    process = fault.start(*ARGS, "--out", str(out), "--resume", "--json", **kw)
    stdout, stderr = fault.finish(process)
    assert process.returncode == 0, stderr
    ref_file, ref_summary = reference
    assert same_rows(out, ref_file)
    assert {**json.loads(stdout), "out": None} == {**ref_summary, "out": None}
    assert not out.with_name(out.name + ".partial").exists()


def no_process_left(session: int, seconds: float = 5) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := fault.session_processes(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.mark.parametrize("ext", ["parquet", "csv"])
def test_sigkill_keeps_the_finished_chunks_and_no_process(tmp_path, reference, ext):
    out = tmp_path / f"r.{ext}"
    run = fault.start(*ARGS, "--out", str(out))
    fault.wait_for_parts(out, 3, run)
    os.kill(run.pid, signal.SIGKILL)  # the parent only: its workers must follow by themselves
    run.wait()
    assert no_process_left(run.pid) == []  # forkserver, resource tracker, workers
    assert not out.exists()
    at = 0
    for part in fault.parts(out):  # valid files of consecutive hands from 0
        a, b = (int(n) for n in part.name.split(".")[0].split("-")[1:])
        assert a == at and list(sim.read_results(part)["index"]) == list(range(a, b))
        at = b
    assert 0 < at < fault.GAMES
    resumed(out, reference(ext))


def test_workers_in_the_middle_of_a_long_chunk_exit_with_their_parent():
    run = fault.start(*fault.RUN, "--games", "100000", "--workers", "2", "--chunk", "50000")
    deadline = time.monotonic() + 30
    while len(fault.session_processes(run.pid)) < 5:  # it, forkserver, resource tracker, workers
        assert run.poll() is None and time.monotonic() < deadline, fault.finish(run)
        time.sleep(0.1)
    time.sleep(1)  # the workers are playing their 50,000 hands each
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    assert no_process_left(run.pid) == []


def test_sigterm_closes_a_valid_file_that_resume_completes(tmp_path, reference):
    out = tmp_path / "r.jsonl"
    run = fault.start(*ARGS, "--out", str(out))
    fault.wait_for_parts(out, 3, run)
    run.send_signal(signal.SIGTERM)
    _, stderr = fault.finish(run)
    assert run.returncode == 128 + signal.SIGTERM, stderr
    assert "interrupted after" in stderr and "Traceback" not in stderr
    indices = [json.loads(line)["index"] for line in out.read_text().splitlines()]
    assert 0 < len(indices) < fault.GAMES and indices == list(range(len(indices)))
    assert f"{len(indices):,} hands kept in {out}" in stderr
    assert not fault.parts(out) and no_process_left(run.pid) == []
    resumed(out, reference("jsonl"))


@pytest.fixture
def default_sighup():
    """SIGHUP at its default while a test runs: a suite started under ``nohup`` ignores it,
    and simulate rightly leaves an ignored signal ignored."""
    outer = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGHUP, outer)


def test_sighup_stops_once_the_chunk_in_hand_is_written(tmp_path, default_sighup):
    out, seen, before = tmp_path / "r.parquet", [], signal.getsignal(signal.SIGHUP)

    def hang_up(rows):  # called while the chunk is being written and counted
        seen.append(rows)
        if len(seen) == 2:
            os.kill(os.getpid(), signal.SIGHUP)

    with pytest.raises(sim.Stopped) as stop:
        sim.simulate("sichuan/blog5", 40, 5, "random", workers=1, chunk=4, out=out,
                 progress=False, on_chunk=hang_up)  # fmt: skip
    assert stop.value.signum == signal.SIGHUP
    assert pq.read_table(out).column("index").to_pylist() == list(range(8))
    assert signal.getsignal(signal.SIGHUP) == before


def test_a_dead_workers_chunk_is_played_again_on_a_new_worker(tmp_path, reference):
    out, died = tmp_path / "r.parquet", tmp_path / "died"
    hook = fault.hook_env(tmp_path, FAULT_HAND="9", FAULT_ONCE=str(died))
    run = fault.start(*ARGS, "--out", str(out), env=hook)
    _, stderr = fault.finish(run)
    assert run.returncode == 0, stderr
    assert died.exists()  # the worker playing hand 9 did die
    assert same_rows(out, reference("parquet")[0])


def test_hands_lost_twice_are_named_and_the_others_kept(tmp_path, reference):
    out = tmp_path / "r.parquet"
    run = fault.start(*ARGS, "--out", str(out), env=fault.hook_env(tmp_path, FAULT_HAND="9"))
    stdout, stderr = fault.finish(run)
    assert run.returncode == 1 and stdout == ""
    assert "4 hands not played (index 8-11)" in stderr and "Traceback" not in stderr
    assert f"the other {fault.GAMES - 4:,} hands are kept in {out}" in stderr
    kept = pq.read_table(out).column("index").to_pylist()
    assert kept == [i for i in range(fault.GAMES) if not 8 <= i < 12]
    resumed(out, reference("parquet"))


def _file_size_limit(size: int):
    def apply() -> None:  # in the child: writes beyond `size` bytes fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return apply


def test_a_full_disk_leaves_every_finished_chunk_in_a_valid_file(tmp_path, reference):
    out = tmp_path / "r.csv"
    limit = 50_000  # every chunk fits, the whole file does not
    assert reference("csv")[0].stat().st_size > limit
    run = fault.start(*ARGS, "--out", str(out), preexec_fn=_file_size_limit(limit))
    _, stderr = fault.finish(run)
    assert run.returncode == 1 and "Traceback" not in stderr
    assert f"cannot write {out}: File too large" in stderr
    assert f"the {fault.GAMES:,} hands finished are kept in {out}.partial" in stderr
    assert sorted(os.listdir(tmp_path)) == ["r.csv.partial"]  # no cut file, no hidden one
    at = 0
    for part in fault.parts(out):
        assert list(sim.read_results(part)["index"]) == list(range(at, at + 4))
        at += 4
    assert at == fault.GAMES
    resumed(out, reference("csv"))


def test_a_chunk_cut_by_a_full_disk_is_not_left_behind(tmp_path):
    out = tmp_path / "r.csv"
    run = fault.start(*ARGS, "--out", str(out), preexec_fn=_file_size_limit(1000))
    _, stderr = fault.finish(run)
    assert run.returncode == 1 and "Traceback" not in stderr
    assert "File too large; no hand was kept" in stderr
    assert os.listdir(tmp_path) == []


def test_a_full_disk_in_the_middle_keeps_the_chunks_before(tmp_path, monkeypatch):
    out, calls = tmp_path / "r.csv", []
    write_rows = sim.Writer._write_rows

    def third_fails(self, path, rows):
        calls.append(path)
        if len(calls) == 3:  # a cut row, then the disk is full
            with open(path, "w") as handle:
                handle.write("index,seed\n8,")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write_rows(self, path, rows)

    monkeypatch.setattr(sim.Writer, "_write_rows", third_fails)
    with pytest.raises(sim.OutputError, match="No space left on device; the 8 hands finished are"):
        sim.simulate("sichuan/blog5", 20, 5, "random", workers=1, chunk=4, out=out, progress=False)
    assert list(sim.read_results(out)["index"]) == list(range(8))
    assert os.listdir(tmp_path) == ["r.csv"]


def test_resume_checks_the_rows_are_this_runs(tmp_path):
    out = tmp_path / "r.jsonl"
    small = (*fault.RUN, "--games", "8", "--workers", "1", "--out", str(out))
    assert mjrules(*small).returncode == 0
    before = out.read_bytes()
    other = mjrules(*small, "--seed", "6", "--resume")
    assert other.returncode == 1 and "Traceback" not in other.stderr
    assert f"cannot resume from {out}: its row of hand 0 is not from a run of " in other.stderr
    again = mjrules(*small, "--resume")  # already complete: the same file
    assert again.returncode == 0 and out.read_bytes() == before
    (tmp_path / "r.jsonl.partial").mkdir()
    fresh = mjrules(*small)
    assert fresh.returncode == 1 and "holds the rows of a stopped run" in fresh.stderr
    assert "--resume needs the --out" in mjrules(*fault.RUN, "--resume").stderr


def test_workers_beyond_the_machine_are_refused(tmp_path):
    too_many = str(4 * (os.cpu_count() or 1) + 1)
    result = mjrules(
        *fault.RUN, "--games", "2", "--workers", too_many, "--out", str(tmp_path / "r.csv")
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"--workers {too_many} is more than this machine can run" in result.stderr
    assert os.listdir(tmp_path) == []


def test_a_service_that_is_not_dask_on_the_scheduler_port(tmp_path):
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:  # an HTTP server, say
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                connection.recv(1024)
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=answer, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        result = mjrules(*fault.RUN, "--games", "2", "--scheduler", address,
                         "--out", str(tmp_path / "r.csv"))  # fmt: skip
    finally:
        server.close()
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"no Dask scheduler at {address}" in result.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("address", ["notaurl", "tcp://host:abc", "foo://host:8786"])
def test_a_scheduler_address_that_is_none_says_so(tmp_path, address):
    """Nothing answered: the address itself is wrong, not the service behind it."""
    result = mjrules(*fault.RUN, "--games", "2", "--scheduler", address)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"--scheduler {address}: not an address such as tcp://host:8786 (" in result.stderr


def test_an_error_in_a_worker_reaches_the_caller_as_itself():
    spec = sim.Spec("nowhere/nothing", (), None, 1, ("random",) * 4)  # fails in the workers only
    with pytest.raises(RulesetError, match="nowhere/nothing"):
        list(sim.iter_chunks(spec, 8, workers=2, chunk=2))
