"""Games and settlements told as people at the table tell them.

Seats are named by their place at the table: 东 is seat 0, then 南 1, 西 2, 北 3 in turn
order, whoever deals (a seat keeps its name for a whole match); the dealer is marked 庄.
A payment says where the payee sits from the payer's seat: 下家 (plays after the payer),
对家 (opposite), 上家 (plays before).  Options are printed as a user sets them
(``name=value``), only those that differ from the ruleset's defaults.  Lines worth nothing
(a hand type of value 0, a payment of 0) are left out; the JSON forms keep every hand type.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from handcore import shapes
from handcore.tiles import EVERY, STANDARD

if TYPE_CHECKING:
    from interpreter.settle import Settlement

WINDS = "东南西北"
SUIT_NAMES = {suit.letter: suit.names[0] for suit in STANDARD.suits}
LEAVING = {"escape": "leaves the hand", "false_win": "claims a win its hand does not make"}
"""The actions outside the legal ones (``penalties``), told as they happen."""


def seat_name(seat: int, dealers: Collection[int] = ()) -> str:
    """``南1``: the seat's wind and number; ``东0庄`` for a dealer."""
    return f"{WINDS[seat]}{seat}" + ("庄" if seat in dealers else "")


def relation(payer: int, payee: int, players: int) -> str:
    """Where ``payee`` sits from ``payer``'s seat: 下家, 对家 or 上家."""
    step = (payee - payer) % players
    if players > 2 and step == 1:
        return "下家"
    if players > 2 and step == players - 1:
        return "上家"
    return "对家"


def payment_line(
    payer: int,
    payee: int | str,
    amount: int,
    reasons: Iterable[str],
    players: int,
    dealers: Collection[int],
) -> str:
    """``东0庄 pays 下家 南1 28  (reasons)``; ``payee`` may be ``"pot"``."""
    to = (
        "the pot"
        if payee == "pot"
        else f"{relation(payer, int(payee), players)} {seat_name(int(payee), dealers)}"
    )
    return f"  {seat_name(payer, dealers)} pays {to} {amount}  ({'; '.join(reasons)})"


def chosen_options(options: Mapping[str, Any], defaults: Mapping[str, Any] | None) -> str:
    """`` (birds=4, dingque=true)``: the options that differ from ``defaults`` (all of them
    when the defaults are unknown), as ``--set`` takes them; empty when none."""
    shown = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in options.items()
        if defaults is None or name not in defaults or defaults[name] != value
    ]
    return f" ({', '.join(shown)})" if shown else ""


def hand_list(hands: Iterable[Mapping[str, Any]]) -> str:
    """The hand types worth something, ``name value`` each."""
    return ", ".join(f"{h['name']} {h['value']}" for h in hands if h["value"]) or "—"


def winning_hand(win: Mapping[str, Any], tiles: Callable[[str], str]) -> str:
    """``hand 123s 234s 456s 789s 55s, pung 999s``: the concealed tiles with the winning
    tile, in melds and a pair (or pairs) where they split so, then the declared melds."""
    melds = "".join(f", {m.rsplit(' ', 1)[0]} {tiles(m.rsplit(' ', 1)[1])}" for m in win["melds"])
    return f"hand {' '.join(tiles(g) for g in _groups(win['hand']))}{melds}"


def _groups(text: str) -> list[str]:
    """The tiles split into melds and a pair, or into pairs, else as they are."""
    hand = EVERY.parse(text, check_copies=False)
    keys = shapes.keys_of(EVERY.counts(hand))
    split = shapes.decompositions(keys)
    if split:
        pair, melds = split[0].pair, split[0].melds
        parts = [[m.tile] * 3 if m.kind == "pung" else [m.tile + i for i in range(3)]
                 for m in sorted(melds)]  # fmt: skip
        return [EVERY.format(p) for p in (*parts, [pair, pair])]
    pairs = shapes.seven_pairs(keys)
    if pairs is not None:
        return [EVERY.format([t, t]) for t in pairs.pairs]
    return [EVERY.format(hand)]


def narrate(
    events: Iterable[dict[str, Any]],
    unicode: bool = False,
    defaults: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
) -> str:
    """The events as text; with ``unicode``, tiles as tile characters instead of notation;
    ``defaults``: the ruleset's option defaults, so that only options changed are shown;
    ``names``: the declarations' names by id (``choices.declaration_names``), else their ids."""

    def tiles(text: str) -> str:
        if not unicode or not text:
            return text
        return EVERY.format_unicode(EVERY.parse(text, check_copies=False), sort=False)

    lines: list[str] = []
    dealers: tuple[int, ...] = ()
    players = 4
    for event in events:
        kind = event["type"]
        seat = event.get("seat")
        name = seat_name(seat, dealers) if isinstance(seat, int) else ""
        if kind == "start":
            dealers, players = (event["dealer"],), event["players"]
            lines.append(
                f"== hand {event['hand'] + 1}: {event['ruleset']}"
                f"{chosen_options(event['options'], defaults)}; "
                f"庄 {seat_name(event['dealer'])}"
            )
        elif kind == "deal":
            lines.append(f"dice {event['dice'][0]}+{event['dice'][1]}, {event['wall']} tiles left")
            lines.extend(
                f"  {seat_name(i, dealers)}: {tiles(h)}" for i, h in enumerate(event["hands"])
            )
            if event.get("wilds"):
                turned = f"{tiles(event['indicator'])} turned up: " if "indicator" in event else ""
                lines.append(f"  {turned}wild {' '.join(tiles(t) for t in event['wilds'])}")
        elif kind == "opening":
            found = ", ".join(h["name"] for h in event["hands"])
            birds = [tiles(t) for t in event["birds"]] + [f"die {d}" for d in event["dice"]]
            lines.append(
                f"{name} holds an opening hand: {found}"
                + (f"; birds {' '.join(birds)}: {_hits(event['hits'], dealers)}" if birds else "")
                + ("; paid at the end" if event["settle"] == "at_end" else "")
            )
        elif kind == "exchange":
            die = f" (die {event['dice'][0]})" if event.get("dice") else ""
            lines.append(f"exchange {event['direction']}{die}:")
            lines.extend(
                f"  {seat_name(i, dealers)} gives {tiles(g)}, receives {tiles(r)}"
                for i, (g, r) in enumerate(zip(event["gave"], event["received"], strict=True))
            )
        elif kind == "void":
            voids = enumerate(event["suits"])
            lines.append(
                "void suits: "
                + ", ".join(f"{seat_name(i, dealers)} no {SUIT_NAMES[s]}" for i, s in voids)
            )
        elif kind == "choice":
            chosen = enumerate(event["values"])
            lines.append(
                f"{event['name']}: "
                + ", ".join(f"{seat_name(i, dealers)} {'-' if v is None else v}" for i, v in chosen)
            )
        elif kind == "act" and event["action"]["kind"] in LEAVING:
            lines.append(f"{name} {LEAVING[event['action']['kind']]}")
        elif kind == "declaration":
            declared = (names or {}).get(event["name"], event["name"])
            lines.append(f"{name} declares {declared} with {tiles(event['tile'])}")
        elif kind == "draw":
            last = " (last tile)" if event.get("last_tile") else ""
            lines.append(f"{name} draws {tiles(event['tile'])}{last}")
        elif kind == "discard":
            shown = " (shown)" if event.get("exposed") else ""
            lines.append(f"{name} discards {tiles(event['tile'])}{shown}")
        elif kind == "claim":
            lines.append(
                f"{name} {event['kind']}s {tiles(event['tile'])} "
                f"from {seat_name(event['from'], dealers)}"
            )
        elif kind == "kong":
            tile = tiles(event["tile"]) if event.get("tile") else "(face down)"
            article = "an" if event["kind"][0] in "aeiou" else "a"
            lines.append(f"{name} declares {article} {event['kind']} kong of {tile}")
        elif kind == "replacement":
            dice = f" (dice {'+'.join(map(str, event['dice']))})" if event.get("dice") else ""
            drawn = " ".join(tiles(t) for t in event["tiles"])
            lines.append(f"{name} draws {drawn} by {event['method']}{dice}")
        elif kind == "flower":
            drawn = event["replacement"]  # None: none left, or hidden from the reader
            then = f", draws {tiles(drawn)} from the tail" if drawn else ""
            lines.append(f"{name} sets aside the flower {tiles(event['tile'])}{then}")
        elif kind == "win":
            lines.extend(_win_lines(event, tiles, dealers))
        elif kind == "bird":
            lines.append(
                f"birds {' '.join(tiles(t) for t in event['tiles'])}: "
                f"{_hits(event['hits'], dealers)}"
            )
        elif kind == "payment" and event["amount"]:
            lines.append(
                payment_line(
                    event["from"], event["to"], event["amount"], event["reasons"], players, dealers
                )
            )
        elif kind == "end":
            lines.append(
                f"end ({event['reason']}): {_net(event['deltas'], dealers)}; "
                f"next 庄 {seat_name(event['next_dealer'], ())}"
            )
    return "\n".join(lines)


def _hits(hits: Mapping[str, int], dealers: Collection[int]) -> str:
    return ", ".join(f"{seat_name(int(s), dealers)} ×{n}" for s, n in hits.items()) or "no hits"


def _net(deltas: Iterable[int], dealers: Collection[int]) -> str:
    return "  ".join(f"{seat_name(i, dealers)} {d:+d}" for i, d in enumerate(deltas))


def _win_lines(
    event: dict[str, Any], tiles: Callable[[str], str], dealers: Collection[int]
) -> list[str]:
    discarder = event.get("from")
    how = "self-drawn" if discarder is None else f"on {seat_name(discarder, dealers)}'s tile"
    context = f" [{', '.join(event['context'])}]" if event.get("context") else ""
    lines = []
    for win in event["hands"]:
        lines.append(
            f"{seat_name(win['seat'], dealers)} wins {how} {tiles(win['win_tile'])}{context}: "
            f"{hand_list(win['hands'])}; total {win['total']}"
        )
        if "hand" in win:
            lines.append(f"  {winning_hand(win, tiles)}")
    return lines


def settlement_text(
    settlement: Settlement,
    ruleset_id: str,
    options: str,
    dealers: Collection[int],
    discarders: Mapping[int, int | None],
) -> str:
    """A settled scenario as people read it (``mjrules settle``); ``options`` as
    ``chosen_options`` writes them, ``discarders``: each winner's discarder (None: self-drawn)."""
    data = settlement.to_json()
    lines = [f"ruleset   {ruleset_id}{options}"]
    for found in data["opening_hands"]:
        birds = f"; birds {_hits(found['birds'], dealers)}" if found["birds"] else ""
        lines.append(
            f"opening   {seat_name(found['seat'], dealers)}: {hand_list(found['hands'])}{birds}"
        )
    for win in data["wins"]:
        seat = win["seat"]
        discarder = discarders.get(seat)
        how = "self-drawn" if discarder is None else f"from {seat_name(discarder, dealers)}"
        lines.append(
            f"win       {seat_name(seat, dealers)} on {win['win_tile']} {how}: "
            f"{hand_list(win['hands'])}; total {win['total']}"
        )
        lines.append(f"          {winning_hand(win, str)}")
    if data["birds"]:
        lines.append(f"birds     {_hits(data['birds'], dealers)}")
    lines.append("payments")
    lines.extend(
        payment_line(p["from"], p["to"], p["amount"], p["reasons"], settlement.players, dealers)
        for p in data["payments"]
        if p["amount"]
    )
    lines.append(f"net       {_net(data['deltas'], dealers)}")
    if settlement.pot:
        lines.append(f"pot       +{settlement.pot} (paid to no seat)")
    return "\n".join(lines)
