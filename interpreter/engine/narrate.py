"""An event log told as people read a game: one line per thing that happened."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from interpreter.tiles import STANDARD


def narrate(events: Iterable[dict[str, Any]], unicode: bool = False) -> str:
    """The events as text; with ``unicode``, tiles as tile characters instead of notation."""

    def tiles(text: str) -> str:
        if not unicode or not text:
            return text
        return STANDARD.format_unicode(STANDARD.parse(text, check_copies=False), sort=False)

    lines: list[str] = []
    for event in events:
        kind = event["type"]
        seat = event.get("seat")
        if kind == "start":
            chosen = ", ".join(f"{k}={v}" for k, v in event["options"].items())
            lines.append(
                f"== hand {event['hand'] + 1}: {event['ruleset']}, dealer seat {event['dealer']}"
                + (f" ({chosen})" if chosen else "")
            )
        elif kind == "deal":
            lines.append(f"dice {event['dice'][0]}+{event['dice'][1]}, {event['wall']} tiles left")
            lines.extend(f"  seat {i}: {tiles(h)}" for i, h in enumerate(event["hands"]))
        elif kind == "opening":
            found = ", ".join(h["name"] for h in event["hands"])
            birds = [tiles(t) for t in event["birds"]] + [f"die {d}" for d in event["dice"]]
            hits = ", ".join(f"seat {s} x{n}" for s, n in event["hits"].items())
            lines.append(
                f"seat {seat} holds an opening hand: {found}"
                + (f"; birds {' '.join(birds)}: {hits or 'no hits'}" if birds else "")
                + ("; paid at the end" if event["settle"] == "at_end" else "")
            )
        elif kind == "exchange":
            die = f" (die {event['dice'][0]})" if event.get("dice") else ""
            lines.append(f"exchange {event['direction']}{die}:")
            lines.extend(
                f"  seat {i} gives {tiles(g)}, receives {tiles(r)}"
                for i, (g, r) in enumerate(zip(event["gave"], event["received"], strict=True))
            )
        elif kind == "draw":
            last = " (last tile)" if event.get("last_tile") else ""
            lines.append(f"seat {seat} draws {tiles(event['tile'])}{last}")
        elif kind == "discard":
            shown = " (shown)" if event.get("exposed") else ""
            lines.append(f"seat {seat} discards {tiles(event['tile'])}{shown}")
        elif kind == "claim":
            lines.append(
                f"seat {seat} {event['kind']}s {tiles(event['tile'])} from seat {event['from']}"
            )
        elif kind == "kong":
            tile = tiles(event["tile"]) if event.get("tile") else "(face down)"
            lines.append(f"seat {seat} declares a {event['kind']} kong of {tile}")
        elif kind == "replacement":
            dice = f" (dice {'+'.join(map(str, event['dice']))})" if event.get("dice") else ""
            drawn = " ".join(tiles(t) for t in event["tiles"])
            lines.append(f"seat {seat} draws {drawn} by {event['method']}{dice}")
        elif kind == "win":
            lines.extend(_win_lines(event, tiles))
        elif kind == "bird":
            hits = ", ".join(f"seat {s} x{n}" for s, n in event["hits"].items()) or "no hits"
            lines.append(f"birds {' '.join(tiles(t) for t in event['tiles'])}: {hits}")
        elif kind == "payment":
            lines.append(
                f"  seat {event['from']} pays seat {event['to']} {event['amount']}"
                f"  ({'; '.join(event['reasons'])})"
            )
        elif kind == "end":
            deltas = "  ".join(f"{d:+d}" for d in event["deltas"])
            lines.append(
                f"end ({event['reason']}): {deltas}; next dealer seat {event['next_dealer']}"
            )
    return "\n".join(lines)


def _win_lines(event: dict[str, Any], tiles: Callable[[str], str]) -> list[str]:
    how = "self-drawn" if event.get("from") is None else f"on seat {event['from']}'s tile"
    context = f" [{', '.join(event['context'])}]" if event.get("context") else ""
    lines = []
    for win in event["hands"]:
        found = ", ".join(f"{h['name']} {h['value']}" for h in win["hands"])
        lines.append(
            f"seat {win['seat']} wins {how} {tiles(win['win_tile'])}{context}: "
            f"{found}; total {win['total']}"
        )
    return lines
