"""Running `mjrules simulate` under faults: in its own session, signalled, with hooks."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.simulate.conftest import MJRULES, mjrules

ROOT = Path(__file__).resolve().parents[2]
GAMES = 400
RUN = ("simulate", "sichuan/blog5", "--agents", "random", "--seed", "5")
"""The run every fault test interrupts: 400 random-agent hands in chunks of 4."""

HOOK = '''\
"""Loaded by every Python process of the run (PYTHONPATH): a worker playing hand
FAULT_HAND kills itself, every time or (FAULT_ONCE, a marker file) the first time only."""
import os
import signal

if "FAULT_HAND" in os.environ:
    import interpreter.simulate as sim

    _play_hand = sim.play_hand

    def play_hand(spec, index):
        once = os.environ.get("FAULT_ONCE")
        if index == int(os.environ["FAULT_HAND"]) and not (once and os.path.exists(once)):
            if once:
                open(once, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return _play_hand(spec, index)

    sim.play_hand = play_hand
'''


def start(*args: str, env: dict[str, str] | None = None, **popen: object) -> subprocess.Popen:
    """`mjrules ARGS` in a session of its own (its pid is the session id)."""
    return subprocess.Popen(
        [*MJRULES, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, cwd=ROOT, env={**os.environ, **(env or {})}, **popen,
    )  # fmt: skip


def finish(process: subprocess.Popen, timeout: float = 60) -> tuple[str, str]:
    try:
        return process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def parts(out: Path) -> list[Path]:
    folder = out.with_name(out.name + ".partial")
    return sorted(folder.glob("rows-*")) if folder.is_dir() else []


def wait_for_parts(out: Path, count: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while len(parts(out)) < count:
        assert process.poll() is None, finish(process)
        assert time.monotonic() < deadline, "the run wrote no chunk in time"
        time.sleep(0.05)


def session_processes(session: int) -> list[int]:
    """The live (not zombie) processes of a session."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == session and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def hook_env(tmp_path: Path, **env: str) -> dict[str, str]:
    """The environment that loads HOOK into every process of the run."""
    folder = tmp_path / "hook"
    folder.mkdir(exist_ok=True)
    (folder / "sitecustomize.py").write_text(HOOK)
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]), **env}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run's file (by extension) and JSON summary."""
    made: dict[str, tuple[Path, dict]] = {}

    def get(ext: str) -> tuple[Path, dict]:
        if ext not in made:
            out = tmp_path_factory.mktemp("reference") / f"reference.{ext}"
            result = mjrules(*RUN, "--games", str(GAMES), "--workers", "1", "--out", str(out),
                             "--json")  # fmt: skip
            assert result.returncode == 0, result.stderr
            made[ext] = out, json.loads(result.stdout)
        return made[ext]

    return get
