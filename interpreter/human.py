"""A person at the table: the game told as it happens, the legal actions numbered.

The human agent keeps the agent contract (``act(observation, legal)``) and reads its
answers from a text stream, so a game can be played in a terminal or scripted through a
pipe.  What it prints is what the seat may know: other seats' deals, draws and exchanged
tiles are hidden; its own hand, the rivers, the melds and the wall are shown before each
decision.  ``?`` prints the advice (``interpreter.advise``) for the position; a lone
legal action (a pass nobody could refuse) is taken without asking.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any

from handcore.tiles import EVERY
from interpreter.choices import declaration_names
from interpreter.engine.actions import Action
from interpreter.engine.narrate import narrate, payment_line, seat_name

if TYPE_CHECKING:
    from interpreter.engine.game import Game

_PRIVATE = {"draw", "replacement"}
"""Events whose tiles only their seat sees."""
_VERBS = {"discard": "discard", "win": "WIN (胡)", "kong": "kong (杠)", "pung": "pung (碰)",
          "chow": "chow (吃)", "pass": "pass", "take": "take the last tile"}  # fmt: skip
"""The engine's own actions; a choice of the ruleset is shown by its name (``piao 2``)."""


def _claim(obs: Any, legal: Sequence[Action]) -> Action | None:
    """``hu``: the win if the hand makes one, else a false claim (none while choosing)."""
    win = next((a for a in legal if a.kind == "win"), None)
    return win or (None if obs.get("choice") else Action("false_win"))


_OUTSIDE: dict[str, Callable[[Any, Sequence[Action]], Action | None]] = {
    "hu": _claim,
    "escape": lambda obs, legal: Action("escape"),
}
"""Answers beyond the menu: claiming a win whatever the hand, leaving the hand (the
ruleset's payment rules at ``false_win`` and ``escape`` say what they cost)."""


class Quit(Exception):
    """The person left the game (``q``) or the input ended."""


class HumanAgent:
    def __init__(
        self,
        seat: int,
        read: Callable[[], str] | None = None,
        out: IO[str] | None = None,
        unicode: bool = True,
        defaults: dict[str, Any] | None = None,
    ) -> None:
        self.seat = seat
        self.read = read or _reader(sys.stdin)
        self.out = out or sys.stdout
        self.unicode = unicode
        self.defaults = defaults
        """The ruleset's option defaults: the start line names only the options changed."""
        self.game: Game | None = None
        self.shown = 0
        self.names: dict[str, str] = {}
        """The ruleset's declarations' names by id, as the game's lines show them."""

    # --- what happened ------------------------------------------------------------------------

    def watch(self, game: Game) -> None:
        """Follow ``game`` (a new hand): what is left of the last one is told first."""
        self.flush()
        self.game, self.shown = game, 0
        self.names = declaration_names(game.state.ruleset)

    def flush(self) -> None:
        """Tell the events not yet told, as this seat may see them."""
        game = self.game
        if game is None:
            return
        events = game.events
        start = events[0]
        for event in events[self.shown :]:
            text = self._tell(start, event)
            if text:
                self._say(text)
        self.shown = len(events)

    def _tell(self, start: dict[str, Any], event: dict[str, Any]) -> str:
        if event["type"] == "start":
            return narrate([event], self.unicode, self.defaults)
        if event["type"] == "end":
            return self._settlement(start) + "\n" + narrate([start, event]).splitlines()[1]
        return told(start, event, self.seat, self.unicode, self.names)

    def _settlement(self, start: dict[str, Any]) -> str:
        """Every payment of the hand again, each with its reasons."""
        assert self.game is not None
        paid = [e for e in self.game.events if e["type"] == "payment" and e["amount"]]
        dealers, n = (start["dealer"],), start["players"]
        lines = ["settlement of the hand:"]
        lines += [
            payment_line(e["from"], e["to"], e["amount"], e["reasons"], n, dealers) for e in paid
        ] or ["  no payments"]
        return "\n".join(lines)

    # --- the contract -------------------------------------------------------------------------

    def act(self, obs: Any, legal: Sequence[Action]) -> Action:
        self.flush()
        if len(legal) == 1:
            return legal[0]
        self._say(self.table(obs))
        self._say(self.menu(legal))
        while True:
            answer = self.read().strip()
            if answer in ("q", "quit"):
                raise Quit("left the game")
            if answer == "?":
                self._say(self.advice(obs))
                continue
            if answer in _OUTSIDE:
                claim = _OUTSIDE[answer](obs, legal)
                if claim is not None:
                    return claim
                self._say("no win can be claimed while choosing")
                continue
            choice = self._choice(answer, legal)
            if choice is not None:
                return choice
            self._say(f"? {answer!r}: give a number 1-{len(legal)}, a tile to discard, ? or q")

    def _choice(self, answer: str, legal: Sequence[Action]) -> Action | None:
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        try:
            tiles = EVERY.parse(answer, check_copies=False)
        except (ValueError, TypeError):
            return None
        if len(tiles) == 1:
            return next((a for a in legal if a.kind == "discard" and a.tile == tiles[0]), None)
        return None

    # --- what the seat sees -------------------------------------------------------------------

    def tiles(self, tiles: Sequence[int], sort: bool = True) -> str:
        if not tiles:
            return "-"
        text = EVERY.format(list(tiles)) if sort else " ".join(map(EVERY.name, tiles))
        if not self.unicode:
            return text
        return f"{EVERY.format_unicode(list(tiles), sort=sort)}  {text}"

    def table(self, obs: Any) -> str:
        dealers = (obs["dealer"],)
        lines = [f"--- wall {obs['wall']} tiles ---"]
        for q in range(obs["players"]):
            melds = " ".join(
                "[" + ("暗" if t < 0 else EVERY.format(_meld_tiles(kind, t))) + "]"
                for kind, t, _ in obs["melds"][q]
            )
            river = " ".join(EVERY.glyph(t) if self.unicode else EVERY.name(t)
                             for t in obs["discards"][q])  # fmt: skip
            me = " (you)" if q == self.seat else ""
            out = "" if obs["in_game"][q] else " (out)"
            flowers = obs["flowers"][q]
            shown = f"  flowers: {self.tiles(flowers, sort=False)}" if flowers else ""
            lines.append(f"{seat_name(q, dealers)}{me}{out} {melds}  river: {river}{shown}")
        hand = self.tiles(obs["hand"])
        drawn = obs["drawn"]
        lines.append(f"your hand: {hand}" + (f"   drew {EVERY.name(drawn)}" if drawn is not None
                                              and drawn >= 0 else ""))  # fmt: skip
        pending = obs.get("choice")
        if pending:
            default = f"; default {pending['default']}" if pending["default"] is not None else ""
            what = f"{pending['tiles']} tiles to give" if pending["tiles"] else "a value"
            lines.append(
                f"choose {pending['title']} ({pending['name']}): {what}, unseen by the others "
                f"until all have chosen{default}"
            )
        claim = obs["claim"]
        if claim:
            lines.append(
                f"{seat_name(claim['from'], dealers)} discarded "
                f"{self.tiles([claim['tile']])}: claim it?"
            )
        return "\n".join(lines)

    def menu(self, legal: Sequence[Action]) -> str:
        items = []
        for i, a in enumerate(legal, 1):
            what = _VERBS.get(a.kind, a.kind)
            tile = ""
            if a.tile >= 0:
                tile = " " + (EVERY.glyph(a.tile) + EVERY.name(a.tile) if self.unicode
                              else EVERY.name(a.tile))  # fmt: skip
            option = f" ({a.option})" if a.option else ""
            items.append(f"{i}) {what}{tile}{option}")
        return "  ".join(items) + (
            "\nchoose a number (a tile name discards it; ? advice; hu claims a win; escape "
            "leaves the hand; q quits):"
        )

    def advice(self, obs: Any) -> str:
        from interpreter.advise import AdviceError, advise

        try:
            found = advise(obs["ruleset"], dict(obs), draws=6, samples=60)
        except AdviceError as error:
            return f"no advice here: {error}"
        lines = found.to_text(self.unicode).splitlines()
        return "\n".join(lines[:7] + lines[-2:]) if len(lines) > 9 else "\n".join(lines)

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


def told(
    start: dict[str, Any],
    event: dict[str, Any],
    seat: int | None,
    unicode: bool,
    names: Mapping[str, str] | None = None,
) -> str:
    """An event of the hand begun by ``start`` as ``seat`` may see it (None: everything);
    ``names``: the declarations' names by id, as ``narrate`` takes them."""
    kind = event["type"]
    if seat is not None and kind in _PRIVATE and event.get("seat") != seat:
        return f"{seat_name(event['seat'], (start['dealer'],))} draws"
    if seat is not None and kind == "flower" and event["seat"] != seat:
        event = {**event, "replacement": None}  # the flower is shown, its replacement is not
    if seat is not None and kind == "deal":
        hands = [h if i == seat else "" for i, h in enumerate(event["hands"])]
        event = {**event, "hands": hands}
    if seat is not None and kind == "exchange":
        gave = [g if i == seat else "?" for i, g in enumerate(event["gave"])]
        got = [r if i == seat else "?" for i, r in enumerate(event["received"])]
        lines = narrate([start, {**event, "gave": gave, "received": got}]).splitlines()[1:]
        return "\n".join(line for line in lines if "?" not in line)
    lines = narrate([start, event], unicode, names=names).splitlines()[1:]
    if kind == "deal":
        lines = [line for line in lines if not line.rstrip().endswith(":")]
    return "\n".join(lines)


def _meld_tiles(kind: str, tile: int) -> list[int]:
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if kind == "kong" else 3)


def _reader(stream: IO[str]) -> Callable[[], str]:
    def read() -> str:
        line = stream.readline()
        if not line:
            raise Quit("the input ended before the game did")
        return line

    return read
