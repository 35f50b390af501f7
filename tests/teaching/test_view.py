"""`mjrules view`: a log as one self-contained page, checked in headless Chromium."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.ruleset import load
from interpreter.engine import play
from interpreter.engine.events import write_log

MJRULES = [sys.executable, "-c", "from interpreter.cli import main; main()"]
REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def run(*args):
    return subprocess.run([*MJRULES, *args], capture_output=True, text=True, cwd=REPO, timeout=120)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Two hands of sichuan/blog5 (seed 3): claims, wins and payments happen in them."""
    path = tmp_path_factory.mktemp("view") / "game.jsonl"
    result, events = play(load("sichuan/blog5"), 3, "efficiency", hands=2)
    write_log(events, str(path))
    return path, result, events


def embedded(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="game">(.*?)</script>', page, re.S)
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_page_is_self_contained_and_follows_the_game(game, tmp_path):
    path, result, events = game
    out = tmp_path / "game.html"
    done = run("view", str(path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=|https?:|@import", page)  # nothing fetched
    data = embedded(page)
    acts = sum(e["type"] == "act" for e in events)
    assert len(data["steps"]) == acts + 2  # the deal of each hand, then every decision
    assert data["steps"][-1]["over"] and [s["score"] for s in data["steps"][-1]["seats"]] == list(
        result.scores
    )
    first = data["steps"][0]
    deal = next(e for e in events if e["type"] == "deal")
    assert first["wall"] == deal["wall"]
    assert [" ".join(s["hand"]) for s in first["seats"]] == [
        " ".join(re.findall(r"\d[mps]", _spread(h))) for h in deal["hands"]
    ]
    marks = {line["mark"] for step in data["steps"] for line in step["lines"]}
    assert {"claim", "win", "pay"} <= marks


def _spread(notation: str) -> str:
    """``113m`` → ``1m 1m 3m``."""
    return " ".join(f"{d}{g[-1]}" for g in notation.split() for d in g[:-1])


def test_one_seat_view_leaves_others_tiles_out_of_the_page(game, tmp_path):
    path = game[0]
    out = tmp_path / "south.html"
    assert run("view", str(path), "-o", str(out), "--seat", "南").returncode == 0
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["seat"] == 1
    for step in data["steps"]:
        for q, seat in enumerate(step["seats"]):
            if q != 1 and not step["over"]:
                assert seat["hand"] == [] and seat["hidden"] > 0
        for line in step["lines"]:
            assert not re.match(r"(东0|西2|北3)\S* draws \d", line["text"])


def test_jupyter_shows_it_inline(game):
    """A notebook cell ending in a GameView displays the page (a sandboxed frame)."""
    import nbformat
    from nbclient import NotebookClient

    cell = (
        f"import sys; sys.path.insert(0, {str(REPO)!r})\n"
        "from interpreter.view import GameView\n"
        f"GameView.from_log({str(game[0])!r}, seat=0)"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    shown = notebook.cells[0].outputs[0]["data"]["text/html"]
    assert shown.startswith("<iframe srcdoc=") and "&lt;script" in shown
    assert "<script" not in shown  # the page is escaped inside the frame
    assert "seen from" in shown


def test_bad_input_exits_1(tmp_path):
    missing = run("view", str(tmp_path / "none.jsonl"), "-o", str(tmp_path / "x.html"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "deal"}\n')
    bad = run("view", str(broken), "-o", str(tmp_path / "x.html"))
    assert bad.returncode == 1 and "does not replay" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian package: chromium)")
def test_rendered_in_headless_chromium(game, tmp_path):
    out = tmp_path / "game.html"
    assert run("view", str(game[0]), "-o", str(out)).returncode == 0
    data = embedded(out.read_text(encoding="utf-8"))
    step = next(
        i for i, s in enumerate(data["steps"]) if any(x["mark"] == "pay" for x in s["lines"])
    )
    url = f"{out.as_uri()}#step={step + 1}"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,760"]
    dom = subprocess.run(
        [CHROMIUM, *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120
    ).stdout
    assert f"step {step + 1} / {len(data['steps'])}" in dom  # the script ran, at that step
    assert f'<b id="wall">{data["steps"][step]["wall"]}</b>' in dom
    assert re.search(r'<div class="pay">\s*\S+ pays ', dom)  # payments shown as they happen
    assert dom.count('class="seat') == 4 and "庄</span>" in dom
    for wind in "东南西北":
        assert f'<div class="name">{wind}' in dom
    shot = tmp_path / "shot.png"
    subprocess.run(
        [CHROMIUM, *flags, f"--screenshot={shot}", url], capture_output=True, timeout=120
    )
    from matplotlib.image import imread

    pixels = imread(str(shot))
    assert pixels.shape[:2] == (760, 1280)
    colours = {tuple(p) for p in pixels[::8, ::8, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 20  # tiles, text and felt, not a blank page
