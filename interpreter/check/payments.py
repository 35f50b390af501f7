"""Payments under every role: scenarios settled by the real settlement, and what they show.

For a few winning hands (the cheapest and the dearest of each hand type sampled), every role
combination is settled with ``interpreter.settle.settle``: the dealer or not as winner, a
self-draw or a discard by the dealer or by another seat, birds on the winner and on the payer
(none, one, all, one each), and two winners on one discard where the claims allow it.  Each
settlement must balance (zero-sum), pay no negative amount, keep every payment within its
cap, and not make a winner lose; a cap below what a single hand type pays before birds
flattens values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dsl.errors import EvaluationError
from dsl.ruleset import Ruleset
from dsl.shape_audit import describe
from dsl.situation import NOBODY
from handcore.tiles import RANKS, STANDARD
from interpreter.check.findings import ERROR, WARNING, Finding
from interpreter.check.hands import Tried, where
from interpreter.check.samples import NOWHERE
from interpreter.context import build_situation
from interpreter.hand_record import HandRecord, Kong, Unfinished, Win
from interpreter.settle import Payment, Settlement, SettlementError, display_name, settle

NEGATIVE = re.compile(r"'(base|dealer bonus|self-draw bonus|fixed bonus) -\d")
"""The part of a payment (as settlement names it) that went below zero."""
DRAW_ONLY = frozenset({"kong_draw"})
DISCARD_ONLY = frozenset({"kong_discard", "robbing_kong"})
"""Circumstances a hand keeps only when it is won by self-draw, or only on a discard."""
ROLES = (
    ("dealer wins, self-drawn", True, None),
    ("dealer wins on a discard", True, "other"),
    ("another wins, self-drawn", False, None),
    ("another wins on the dealer's discard", False, "dealer"),
    ("another wins on another's discard", False, "other"),
)


@dataclass(frozen=True)
class Row:
    """One settled role combination: each seat's net change (+ receives, − pays)."""

    hand: str
    role: str
    spread: tuple[int, int]
    """Birds on the winner and on the payer (the others point at a third seat)."""
    birds: str
    deltas: tuple[int, ...]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "role": self.role,
            "birds": self.birds,
            "deltas": list(self.deltas),
            "value": self.total,
        }


def representatives(tried: Iterable[Tried], ruleset: Ruleset, limit: int = 6) -> list[Tried]:
    """The hands to pay: per hand type, the cheapest hand where it is the only one, then
    the dearest hand overall; at most ``limit``."""
    single: dict[str, Tried] = {}
    dearest: Tried | None = None
    for t in tried:
        if t.result is None:
            continue
        if len(t.result.hands) == 1:
            name = t.result.hands[0].id
            if name not in single or t.result.total < single[name].result.total:  # type: ignore[union-attr]
                single[name] = t
        if dearest is None or t.result.total > dearest.result.total:  # type: ignore[union-attr]
            dearest = t
    chosen = sorted(single.values(), key=lambda t: t.result.total)[: limit - 1]  # type: ignore[union-attr]
    if dearest is not None and dearest not in chosen:
        chosen.append(dearest)
    return chosen


def _bird_count(ruleset: Ruleset, players: int, win_tile: int) -> int:
    birds = ruleset.get("birds") or {}
    if not birds:
        return 0
    table = build_situation(players=players, options=ruleset.option_values, win_tile=win_tile)
    return int(birds["count"](table))


def _bird_tile(
    ruleset: Ruleset, target: int, dealer: int, winner: int, players: int, win_tile: int
) -> int | None:
    """A bird tile that points at ``target``, by the ruleset's own seat rule."""
    seat = (ruleset.get("birds") or {})["seat"]
    for tile in range(RANKS):
        s = build_situation(
            dealer=dealer,
            winner=winner,
            players=players,
            tile=tile,
            options=ruleset.option_values,
            win_tile=win_tile,
        )
        if int(seat(s)) == target:
            return tile
    return None


def scenarios(
    ruleset: Ruleset, hand: Tried, table: bool = False
) -> Iterator[tuple[str, tuple[int, int], str, HandRecord]]:
    """Every role combination for one hand: (role, birds on the winner and on the payer, the
    seats the birds point at, scenario).  Birds not on those two point at a third seat.
    ``table`` keeps to none, one on the winner and one on the payer."""
    players = hand.situation.players
    win_tile = hand.win.win_tiles[0]
    n = _bird_count(ruleset, players, win_tile)
    dealer = 0
    for role, dealer_wins, discard in ROLES:
        winner = dealer if dealer_wins else 1
        other = next(s for s in range(players) if s not in (dealer, winner))
        discarder = None if discard is None else (dealer if discard == "dealer" else other)
        payer = discarder if discarder is not None else (1 if dealer_wins else dealer)
        spreads = [(0, 0)]
        if n:  # one bird and all birds on the winner, on the payer; one on each
            ends = [(1, 0), (0, 1)] if table else [(1, 0), (n, 0), (0, 1), (0, n), (1, 1)]
            spreads += [s for s in dict.fromkeys(ends) if sum(s) <= n]
        for on_winner, on_payer in spreads:
            found = _birds(
                ruleset, n, on_winner, on_payer, dealer, winner, payer, players, win_tile
            )
            if found is None:
                continue
            birds, seats = found
            win = replace(
                hand.win,
                seat=winner,
                discarder=discarder,
                context=hand.win.context - (DRAW_ONLY if discard else DISCARD_ONLY),
            )
            label = (
                "birds on "
                + ", ".join(
                    ("nobody" if s == NOBODY else f"seat {s}")
                    + (f" ×{seats.count(s)}" if seats.count(s) > 1 else "")
                    for s in sorted(set(seats))
                )
                if n
                else "no birds"
            )
            spread = (on_winner, on_payer)
            yield role, spread, label, _record(players, dealer, (win,), birds)
            more = [s for s in range(players) if s not in (winner, discarder)]
            if (
                discarder is not None
                and more
                and not table
                and ((ruleset.get("claims") or {}).get("multiple_winners", "all") == "all")
            ):
                second = replace(win, seat=more[0])
                yield (
                    f"{role}, and a second winner",
                    spread,
                    label,
                    _record(players, dealer, (win, second), birds),
                )


def _birds(
    ruleset: Ruleset,
    n: int,
    on_winner: int,
    on_payer: int,
    dealer: int,
    winner: int,
    payer: int,
    players: int,
    win_tile: int,
) -> tuple[tuple[int, ...], list[int]] | None:
    """Bird tiles with that many on the winner and on the payer, the rest on another seat;
    and the seats they point at."""
    if not n:
        return (), []
    w, p = (_bird_tile(ruleset, s, dealer, winner, players, win_tile) for s in (winner, payer))
    others = [*(s for s in range(players) if s not in (winner, payer)), NOBODY]
    rest = next(
        (
            (s, t)
            for s in others
            if (t := _bird_tile(ruleset, s, dealer, winner, players, win_tile)) is not None
        ),
        None,
    )
    if (on_winner and w is None) or (on_payer and p is None) or rest is None:
        return None
    left = n - on_winner - on_payer
    tiles = [w] * on_winner + [p] * on_payer + [rest[1]] * left
    return tuple(tiles), [winner] * on_winner + [payer] * on_payer + [rest[0]] * left


def other_payments(ruleset: Ruleset, hand: Tried) -> Iterator[tuple[str, HandRecord]]:
    """Money not paid for a win: each kind of kong (seat 1, the direct one on seat 2's
    discard), and the wall running out with seat 0 ready (holding ``hand`` less its winning
    tile), seat 1 far from ready in two suits and seat 2 holding every suit."""
    players = hand.situation.players
    for kind in ("direct", "added", "concealed"):
        kong = Kong(1, kind, 2 if kind == "direct" else None)
        yield f"a {kind} kong by seat 1", _record(players, 0, kongs=(kong,))
    far = STANDARD.parse("1469m 1469p 258m 25p")
    pig = STANDARD.parse("1469m 1469p 258s 25p")
    hands = [(hand.win.concealed, hand.win.melds), (tuple(far), ()), (tuple(pig), ())]
    unfinished = tuple(
        Unfinished(seat, tiles, melds, NOWHERE)
        for seat, (tiles, melds) in enumerate(hands[:players])
    )
    yield "the wall runs out", _record(players, 0, unfinished=unfinished)


def _record(
    players: int,
    dealer: int,
    wins: Sequence[Win] = (),
    birds: Sequence[int] = (),
    kongs: tuple[Kong, ...] = (),
    unfinished: tuple[Unfinished, ...] = (),
) -> HandRecord:
    """A hand with every seat still in."""
    every = frozenset(range(players))
    return HandRecord(
        players, dealer, every, tuple(wins), tuple(birds), kongs=kongs, unfinished=unfinished
    )


def settle_all(
    ruleset: Ruleset, hands: Sequence[Tried], table: bool = False
) -> tuple[list[Row], list[Finding]]:
    """Settle every scenario of every hand: the table rows and the findings."""
    rows: list[Row] = []
    found: list[Finding] = []
    for hand in hands:
        label = ", ".join(h.name for h in hand.result.hands) if hand.result else "?"
        more = (
            []
            if table or hand is not hands[0]
            else [(r, (0, 0), "", s) for r, s in other_payments(ruleset, hand)]
        )
        for role, spread, birds, scenario in [*scenarios(ruleset, hand, table), *more]:
            witness = "; ".join(w for w in (describe(hand.situation), role, birds) if w)
            try:
                result = settle(ruleset, scenario)
            except SettlementError as exc:
                if "pay -" in str(exc):
                    culprit = NEGATIVE.search(str(exc))
                    name = (
                        culprit.group(1).replace(" ", "_").replace("-", "_") if culprit else "base"
                    )
                    found.append(
                        Finding(
                            "payments",
                            ERROR,
                            "a payer would pay a negative amount",
                            where(ruleset, "payment", name),
                            ("payment", name),
                            f"{witness}: {exc}",
                        )
                    )
                continue
            except EvaluationError as exc:
                placed = exc.problem  # the expression's own place, in whichever file
                found.append(
                    Finding(
                        "static",
                        ERROR,
                        f"payment cannot be evaluated: {exc if placed is None else placed.message}",
                        where(ruleset, "payment") if placed is None else placed.location,
                        ("payment",),
                        witness,
                    )
                )
                continue
            found += _judge(ruleset, result, hand, role, birds, witness)
            rows.append(
                Row(
                    label,
                    role,
                    spread,
                    birds,
                    tuple(result.deltas),
                    result.wins[0].total if result.wins else 0,
                )
            )
    return rows, found


def _judge(
    ruleset: Ruleset, result: Settlement, hand: Tried, role: str, birds: str, witness: str
) -> list[Finding]:
    found = []
    deltas = result.deltas
    if sum(deltas) + result.pot != 0:  # what the pot takes leaves the players
        found.append(
            Finding(
                "payments",
                ERROR,
                f"payments do not balance: net {deltas}",
                where(ruleset, "payment"),
                ("payment",),
                witness,
            )
        )
    for p in result.payments:
        if p.amount < 0:
            path = _rule_of(ruleset, p, result)
            found.append(
                Finding(
                    "payments",
                    ERROR,
                    f"a negative payment ({p.amount}: {'; '.join(p.reasons)})",
                    where(ruleset, *path),
                    path,
                    witness,
                )
            )
        if p.cap and p.amount > p.cap:
            found.append(
                Finding(
                    "payments",
                    ERROR,
                    f"a payment of {p.amount} exceeds its cap {p.cap}",
                    where(ruleset, "payment", "cap"),
                    ("payment", "cap"),
                    witness,
                )
            )
        win = next((w for w in result.wins if w.seat == p.payee), None)  # a payee may not win
        no_birds = not any(r.startswith("birds") for r in p.reasons)
        if win and len(win.hands) == 1 and no_birds and any("capped" in r for r in p.reasons):
            found.append(
                Finding(
                    "payments",
                    WARNING,
                    "the cap is below what a single hand type pays before birds",
                    where(ruleset, "payment", "cap"),
                    ("payment", "cap"),
                    f"{witness}: {win.hands[0].name} alone, {'; '.join(p.reasons)}",
                )
            )
    for w in result.wins:
        if deltas[w.seat] < 0:
            found.append(
                Finding(
                    "payments",
                    ERROR,
                    f"a winner loses {-deltas[w.seat]}",
                    where(ruleset, "payment"),
                    ("payment",),
                    witness,
                )
            )
    return found


def _rule_of(ruleset: Ruleset, p: Payment, result: Settlement) -> tuple[str, ...]:
    """The rule that made a payment: the payment rule whose reason the payment carries
    first, else a win's ``payment``."""
    for name, spec in (ruleset.get("payments") or {}).items():
        if p.reasons and p.reasons[0] == (
            spec.get("reason") or display_name(spec.get("name"), name)
        ):
            return ("payments", name, "amount")
    return ("payment",) if result.wins else ("payments",)


def table_text(rows: Sequence[Row], players: int) -> str:
    """The payment table as text, hand by hand: each seat's net change (+ receives), seat 0
    the dealer, seat 1 the winner when the dealer does not win."""
    head = f"  {'role':<40} {'birds':<30}" + "".join(
        f"{'seat ' + str(s):>8}" for s in range(players)
    )
    lines: list[str] = []
    for r in rows:
        title = f"{r.hand} (value {r.total})"
        if not lines or lines[-1 - _since_title(lines)] != title:
            lines += ["", title, head] if lines else [title, head]
        lines.append(f"  {r.role:<40} {r.birds:<30}" + "".join(f"{d:>+8d}" for d in r.deltas))
    return "\n".join(lines) + "\n"


def _since_title(lines: Sequence[str]) -> int:
    """How many lines were written since the current hand's title."""
    n = 0
    while not lines[-1 - n] or lines[-1 - n].startswith(" "):
        n += 1
    return n
