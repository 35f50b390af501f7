"""Every example in README.md and docs/*.md runs, as a reader would run it: each document's
examples in order, in a fresh working folder outside the clone, with nothing installed but
the code on PYTHONPATH.

- Shell lines (in ``sh`` blocks or bare blocks) run their ``mjrules`` commands; other
  commands (``pip``, ``python bench/...``) are not run.  In a ``$ mjrules ...`` session the
  lines that follow are the expected output, compared exactly.
- ``python`` blocks run as scripts; ``yaml`` blocks that begin ``# file: NAME`` are written
  to ``rulesets/NAME`` (the tutorial's steps) and must load without a problem; other ``yaml``
  blocks must parse.
- Scaled down, by one rule: ``--games N`` and ``games=N`` run with at most ``GAMES`` hands (a
  command that plays hands without ``--games`` is given ``GAMES``),
  and ``simulate``, ``compare``, ``sweep`` and ``tactics`` on one worker unless ``--workers``
  is given (the rows are the same for any number of workers; starting a pool costs more than
  these few hands); ``tactics`` plays each value in every seat of a wall, so it gets at most
  ``GAMES // 4`` walls, and so does each trial of ``tune``.  Results are kept in the working
  folder, not the user's cache.
- A block preceded by ``<!-- not run: REASON -->`` is not run (say why; keep them few).
- The working folder holds a copy of ``docs/scenarios``, the example files the docs settle.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from dsl.ruleset import check_ruleset
from dsl.yaml_source import load_text

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
GAMES = 40
NOT_RUN = re.compile(r"<!-- not run: (.+?) -->\s*$")


@dataclass(frozen=True)
class Block:
    line: int  # of the opening fence
    info: str
    text: str
    skip: str  # the reason it is not run, or ''


def blocks(path: Path) -> list[Block]:
    out = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NOT_RUN.match(before)
        out.append(
            Block(i + 1, fence.group(1), "\n".join(lines[i + 1 : end]) + "\n",
                  marker.group(1) if marker else "")
        )  # fmt: skip
        i = end + 1
    return out


def scaled(text: str) -> str:
    """The documented scale-down: at most GAMES hands per simulation."""
    text = re.sub(r"--games (\d+)", lambda m: f"--games {min(int(m[1]), GAMES)}", text)
    return re.sub(r"\bgames=(\d+)", lambda m: f"games={min(int(m[1]), GAMES)}", text)


def commands(text: str) -> list[tuple[list[str], str | None]]:
    """The mjrules commands of a shell block, each with its expected output (sessions)."""
    out: list[tuple[list[str], str | None]] = []
    session = any(line.startswith("$ ") for line in text.splitlines())
    expected: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        if session and not line.startswith("$ "):
            expected.append(line)
            continue
        if expected and out:
            out[-1] = (out[-1][0], "\n".join(expected) + "\n")
        expected = []
        if "mjrules" not in line:
            continue
        for part in line.removeprefix("$ ").split("&&"):
            words = shlex.split(part, comments=True)
            if words[:1] == ["mjrules"]:
                args = shlex.split(scaled(shlex.join(words[1:])))
                if args[:1] in (["simulate"], ["compare"], ["sweep"], ["tactics"], ["tune"]):
                    args += [] if "--games" in args else ["--games", str(GAMES)]
                    args += [] if "--workers" in args else ["--workers", "1"]
                if args[0] in ("tactics", "tune"):
                    at = args.index("--games") + 1
                    args[at] = str(min(int(args[at]), GAMES // 4))
                out.append((args, "" if session else None))
    if expected and out:
        out[-1] = (out[-1][0], "\n".join(expected) + "\n")
    return out


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MJRULES_RULESETS"}
    env["PYTHONPATH"] = str(REPO)
    return env


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**environment(), "MJRULES_RESULTS": str(cwd / "results")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def run_block(doc: Path, block: Block, cwd: Path) -> None:
    where = f"{doc.name}:{block.line}"
    if block.info in ("yaml", "yml"):
        first = block.text.split("\n", 1)[0]
        if first.startswith("# file: "):
            name = first.removeprefix("# file: ").strip()
            path = cwd / "rulesets" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.text, encoding="utf-8")
            loaded = check_ruleset(str(path))  # its parent: a shipped id
            problems = "\n".join(p.format() for p in loaded.problems)
            assert loaded.ok and not problems, f"{where}: {problems}"
            return
        load_text(block.text, where)
        return
    if block.info == "python":
        result = run([sys.executable, "-c", scaled(block.text)], cwd)
        assert result.returncode == 0, f"{where}:\n{result.stderr}"
        return
    if block.info in ("sh", "bash", "console", ""):
        for args, expected in commands(block.text):
            result = run([sys.executable, "-c", "from interpreter.cli import main; main()", *args],
                         cwd)  # fmt: skip
            said = f"{where}: mjrules {shlex.join(args)}\n{result.stderr}"
            assert result.returncode == 0 and "Traceback" not in result.stderr, said
            if expected:
                assert result.stdout == expected, said


def copy_examples(cwd: Path) -> None:
    shutil.copytree(REPO / "docs" / "scenarios", cwd / "docs" / "scenarios")


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_example_runs(doc: Path, tmp_path: Path) -> None:
    copy_examples(tmp_path)
    for block in blocks(doc):
        if not block.skip:
            run_block(doc, block, tmp_path)


def test_few_blocks_are_not_run_and_each_says_why() -> None:
    skipped = [(d.name, b.line, b.skip) for d in DOCS for b in blocks(d) if b.skip]
    assert len(skipped) <= 3, skipped
    assert all(len(reason) > 10 for _, _, reason in skipped)


def test_the_collector_sees_the_examples() -> None:
    readme = blocks(REPO / "README.md")
    assert sum(len(commands(b.text)) for b in readme if b.info == "sh") >= 12
    assert sum(b.info == "python" for b in readme) >= 2
    session = next(b for b in blocks(REPO / "docs" / "SCENARIO.md") if "$ mjrules" in b.text)
    [(args, expected)] = commands(session.text)
    assert args[0] == "settle" and expected and expected.startswith("ruleset")
    assert commands("pip install . && mjrules simulate x --games 2000  # note\n") == [
        (["simulate", "x", "--games", str(GAMES), "--workers", "1"], None)
    ]
    assert commands("mjrules tactics x --policy p=1,2 --games 100\n") == [
        (["tactics", "x", "--policy", "p=1,2", "--games", str(GAMES // 4), "--workers", "1"], None)
    ]
    assert commands("mjrules tune x --budget 4 --games 100\n") == [
        (["tune", "x", "--budget", "4", "--games", str(GAMES // 4), "--workers", "1"], None)
    ]
