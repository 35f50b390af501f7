"""A game as one self-contained web page: step through it, or see it inline in Jupyter.

The log is replayed by the engine (so the page shows the state the rules made, and a log
that does not replay is refused), and the table is kept after every decision: each
seat's concealed tiles, melds, river and won tiles, the wall count, the running scores,
and what happened since the last step as the narration tells it, claims and payments
marked.  Seen from one seat (``seat``), the others' concealed tiles, deals and draws are
left out of the page's data altogether, and shown face down; at a hand's end every hand
is shown.  The page needs no network: its CSS, script and data are inline.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from handcore.tiles import EVERY, STANDARD
from interpreter.choices import declaration_names
from interpreter.engine.actions import Action
from interpreter.engine.events import read_log
from interpreter.engine.game import Game
from interpreter.engine.narrate import WINDS, narrate
from interpreter.engine.replay import find_ruleset, replay
from interpreter.engine.rules import Rules
from interpreter.human import told

_MARK = {"claim": "claim", "kong": "claim", "win": "win", "payment": "pay", "bird": "pay"}


def frames(events: Sequence[dict[str, Any]], seat: int | None = None) -> dict[str, Any]:
    """The table after every decision of every hand in ``events`` (a checked log)."""
    replay(events)  # raises ReplayError when the log does not replay
    steps: list[dict[str, Any]] = []
    starts = [i for i, e in enumerate(events) if e["type"] == "start"]
    ruleset = find_ruleset(events[0])
    rules = Rules(ruleset)
    totals = [0] * rules.players
    names = declaration_names(ruleset)
    for number, first in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(events)
        start = events[first]
        game = Game(ruleset, start["seed"], start["dealer"], rules=rules, hand=start.get("hand", 0),
                    first_dealer=events[starts[0]]["dealer"],
                    dealers=start.get("dealers", ()))  # fmt: skip
        shown = 0
        acts = [e for e in events[first:end] if e["type"] == "act"]
        for act in [None, *acts]:
            if act is not None:
                game.apply(Action.from_json(act["action"]), act["seat"])
            new = game.events[shown:]
            shown = len(game.events)
            steps.append(_step(game, start, new, number, totals, seat, act, names))
        totals = [a + b for a, b in zip(totals, game.deltas, strict=True)]
    return {
        "ruleset": ruleset.id,
        "players": rules.players,
        "seat": seat,
        "winds": WINDS[: rules.players],
        "steps": steps,
    }


def _step(
    game: Game,
    start: dict[str, Any],
    new: list[dict[str, Any]],
    number: int,
    totals: list[int],
    seat: int | None,
    act: dict[str, Any] | None,
    names: Mapping[str, str],
) -> dict[str, Any]:
    over = game.is_over()
    lines = []
    for event in new:
        if event["type"] in ("act", "phase"):
            continue
        start_line = event["type"] == "start"
        text = narrate([event]) if start_line else told(start, event, seat, False, names)
        for line in filter(None, text.splitlines()):
            lines.append({"text": line, "mark": _MARK.get(event["type"], "")})
    seats = []
    for q, p in enumerate(game.players):
        hidden = seat is not None and q != seat and not over
        seats.append({
            "hand": [] if hidden else [EVERY.name(t) for t in p.hand()],
            "hidden": sum(p.counts) if hidden else 0,
            "melds": [
                {"kind": m.kind, "tiles": [EVERY.name(t) for t in m.tiles],
                 "down": m.concealed and hidden and not game.rules.concealed_shown}
                for m in p.melds
            ],
            "river": [EVERY.name(t) for t in p.discards],
            "won": [EVERY.name(t) for t in p.won],
            "flowers": [EVERY.name(t) for t in p.flowers],
            "out": not p.in_game,
            "void": None if p.void is None else STANDARD.suits[p.void].names[0],
            "score": totals[q] + game.deltas[q],
        })  # fmt: skip
    return {
        "hand": number + 1,
        "dealer": game.dealer,
        "wall": game.wall.drawable,
        "to_move": game.to_move(),
        "acted": None if act is None else act["seat"],
        "lines": lines,
        "seats": seats,
        "over": over,
    }


class GameView:
    """A game's page: ``save`` writes it, Jupyter shows it inline (``_repr_html_``)."""

    def __init__(self, events: Sequence[dict[str, Any]], seat: int | None = None) -> None:
        self.data = frames(events, seat)

    @classmethod
    def from_log(cls, path: str, seat: int | None = None) -> GameView:
        return cls(read_log(path), seat)

    def html(self) -> str:
        data = json.dumps(self.data, ensure_ascii=False).replace("</", "<\\/")
        title = html.escape(f"{self.data['ruleset']}: {len(self.data['steps'])} steps")
        return _PAGE.replace("__TITLE__", title).replace("__DATA__", data)

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.html())

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{html.escape(self.html())}" style="width:100%;height:720px;'
            'border:0" sandbox="allow-scripts"></iframe>'
        )


_PAGE = """<!DOCTYPE html>
<html lang="zh"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:0;background:#1e5a3c;color:#eee}
#table{display:grid;grid-template-columns:1fr 2fr 1fr;grid-template-rows:auto auto auto;
 gap:8px;padding:10px;max-width:1200px;margin:auto}
.seat{background:rgba(0,0,0,.25);border-radius:8px;padding:6px 8px;min-height:90px}
.seat.move{outline:3px solid #ffd54f}.seat.out{opacity:.55}
#s-top{grid-column:2;grid-row:1}#s-left{grid-column:1;grid-row:2}
#s-right{grid-column:3;grid-row:2}#s-bottom{grid-column:2;grid-row:3}
#centre{grid-column:2;grid-row:2;background:rgba(0,0,0,.35);border-radius:8px;padding:8px}
.name{font-weight:bold;font-size:18px}.dealer{color:#ffd54f}.score{float:right}
.row{margin:3px 0;min-height:30px}.label{font-size:11px;color:#bbb;margin-right:4px}
.t{display:inline-block;width:22px;height:30px;margin:1px;border-radius:3px;background:#fffdf5;
 color:#222;text-align:center;font-size:13px;line-height:14px;padding-top:1px;
 box-shadow:1px 1px 0 #999;vertical-align:top}
.t b{display:block;font-size:14px}.t.m b{color:#c62828}.t.p b{color:#1565c0}.t.s b{color:#2e7d32}
.t.z b,.t.f b{padding-top:6px}.t.f b{color:#6a1b9a}
.t.back{background:#2e7d32;box-shadow:1px 1px 0 #144}
.small .t{width:18px;height:25px;font-size:11px}
.meld{display:inline-block;margin-right:6px}
#lines div{padding:1px 4px;font-family:monospace;font-size:13px}
#lines .claim{background:#7b5e00}#lines .win{background:#8e2424}#lines .pay{background:#24508e}
#controls{max-width:1200px;margin:auto;padding:0 10px 10px;display:flex;gap:8px;align-items:center}
#controls button{font-size:16px}#slider{flex:1}
</style></head><body>
<div id="table">
 <div class="seat" id="s-top"></div><div class="seat" id="s-left"></div>
 <div id="centre"><div id="info"></div><div id="lines"></div></div>
 <div class="seat" id="s-right"></div><div class="seat" id="s-bottom"></div>
</div>
<div id="controls"><button id="first" title="first">«</button>
 <button id="back" title="back (←)">‹</button>
 <input type="range" id="slider" min="0" value="0">
 <button id="fwd" title="forward (→)">›</button><button id="last" title="last">»</button>
 <span id="pos"></span></div>
<script type="application/json" id="game">__DATA__</script>
<script>
const G = JSON.parse(document.getElementById("game").textContent);
const SUIT = {m: "万", p: "筒", s: "条"};
const NAMED = {z: "东南西北中发白", f: "春夏秋冬梅兰竹菊"};  // one character each
const slider = document.getElementById("slider");
slider.max = G.steps.length - 1;
function tile(name) {
  const suit = name.slice(-1);
  if (NAMED[suit]) {
    const character = NAMED[suit][name.slice(0, -1) - 1];
    return `<span class="t ${suit}" title="${name}"><b>${character}</b></span>`;
  }
  return `<span class="t ${suit}" title="${name}"><b>${name.slice(0, -1)}</b>${SUIT[suit]}</span>`;
}
function esc(text) {
  const names = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"};
  return String(text).replace(/[&<>"]/g, c => names[c]);
}
function tiles(list) { return list.map(tile).join(""); }
function name(q, dealer) {
  return `${G.winds[q]}${q}` + (q === dealer ? '<span class="dealer">庄</span>' : "");
}
function seatHtml(q, st) {
  const s = st.seats[q];
  const melds = s.melds.map(m => '<span class="meld">' +
    (m.down ? '<span class="t back"></span>'.repeat(4) : tiles(m.tiles)) + "</span>").join("");
  const hand = s.hidden ? '<span class="t back"></span>'.repeat(s.hidden) : tiles(s.hand);
  return `<div class="name">${name(q, st.dealer)}${s.out ? " (out)" : ""}` +
    `${s.void ? " 缺" + s.void : ""}` +
    `<span class="score">${s.score >= 0 ? "+" : ""}${s.score}</span></div>` +
    `<div class="row hand">${hand}</div>` +
    `<div class="row melds"><span class="label">melds</span>${melds}</div>` +
    `<div class="row small river"><span class="label">river</span>${tiles(s.river)}</div>` +
    (s.won.length ?
      `<div class="row won"><span class="label">won</span>${tiles(s.won)}</div>` : "") +
    (s.flowers.length ? `<div class="row small flowers"><span class="label">flowers</span>` +
      `${tiles(s.flowers)}</div>` : "");
}
function show(i) {
  i = Math.max(0, Math.min(G.steps.length - 1, i));
  slider.value = i;
  const st = G.steps[i];
  const me = G.seat === null ? 0 : G.seat;
  const places = ["bottom", "right", "top", "left"];
  for (let k = 0; k < 4; k++) {
    const box = document.getElementById("s-" + places[k]);
    const q = (me + k) % G.players;
    if (k >= G.players) { box.innerHTML = ""; continue; }
    box.innerHTML = seatHtml(q, st);
    box.className = "seat" + (st.to_move === q ? " move" : "") + (st.seats[q].out ? " out" : "");
    box.dataset.seat = q;
  }
  document.getElementById("info").innerHTML =
    `<b>${esc(G.ruleset)}</b> · hand ${st.hand} · 庄 ${name(st.dealer, -1)}` +
    ` · wall <b id="wall">${st.wall}</b>` +
    (G.seat === null ? " · open hands" : ` · seen from ${name(G.seat, -1)}`) +
    (st.over ? " · <b>hand over</b>" : "");
  const lines = document.getElementById("lines");
  lines.replaceChildren(...st.lines.map(l => {
    const div = document.createElement("div");
    div.className = l.mark;
    div.textContent = l.text;
    return div;
  }));
  document.getElementById("pos").textContent = `step ${i + 1} / ${G.steps.length}`;
  try { history.replaceState(null, "", "#step=" + (i + 1)); } catch (e) { /* in a frame */ }
}
const now = () => Number(slider.value);
slider.oninput = () => show(now());
document.getElementById("first").onclick = () => show(0);
document.getElementById("back").onclick = () => show(now() - 1);
document.getElementById("fwd").onclick = () => show(now() + 1);
document.getElementById("last").onclick = () => show(G.steps.length - 1);
document.onkeydown = e => {
  if (e.key === "ArrowRight") show(now() + 1);
  if (e.key === "ArrowLeft") show(now() - 1);
};
const m = /step=(\\d+)/.exec(location.hash);
show(m ? Number(m[1]) - 1 : 0);
</script></body></html>
"""
