"""The hand tables' cache: one-shot commands load it without numpy, and an unwritable cache
directory costs one warning, not a rebuild on every command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-c", "from interpreter.cli import main; main()"]
HAND = "1122m 3345p 67789s 9s"


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)


def test_warm_cache_loads_without_numpy() -> None:
    env = dict(os.environ)
    probe = "import sys; from handcore import discards; print('numpy' in sys.modules)"
    run(*CLI, "hand", HAND, env=env)  # warm the cache, building it if needed
    assert run(sys.executable, "-c", probe, env=env).stdout.strip() == "False"


def test_unwritable_cache_warns_once_and_falls_back(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "MJRULES_CACHE_DIR": str(blocker / "cache"), "TMPDIR": str(scratch)}
    reference = run(*CLI, "hand", HAND, env=dict(os.environ)).stdout

    first = run(*CLI, "hand", HAND, env=env)
    assert first.returncode == 0
    warnings = [line for line in first.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, first.stderr
    assert str(blocker / "cache") in warnings[0] and str(scratch) in warnings[0]
    assert first.stdout == reference

    second = run(*CLI, "hand", HAND, env=env)  # loaded from the fallback: no rebuild, no warning
    assert second.returncode == 0 and second.stderr == ""
    assert second.stdout == reference
    assert list(scratch.glob("mjrules-cache-*/suit-tables-*.bin"))
