"""Shared helpers for the simulation tests."""

from __future__ import annotations

import subprocess
import sys

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]


def mjrules(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, timeout=timeout)
