"""Settlement from the table: the hand record ``interpreter.settle`` prices, and the one place
its payments are recorded (each seat's running total and a ``payment`` event each)."""

from __future__ import annotations

from typing import Any

from dsl.situation import POT
from handcore.tiles import Tile
from interpreter.engine import events
from interpreter.engine.state import Table
from interpreter.hand_record import HandRecord, Kong, Unfinished, Win
from interpreter.settle import Settlement, payee_json


def hand_record(
    t: Table, wins: tuple[Win, ...], birds: tuple[Tile, ...], kongs: tuple[Kong, ...] = (),
    unfinished: tuple[Unfinished, ...] = (), paid_kongs: tuple[Kong, ...] = (),
    seen: tuple[Tile, ...] = (), **penalties: Any,
) -> HandRecord:  # fmt: skip
    """What ``settle`` prices: the hand as it stands, with these wins, kongs or unfinished
    hands; ``seen``: the tiles face up, as the wins see them; ``penalties``: a false win
    claim or a seat leaving (``false_wins``, ``leaver``, ``wall_left``)."""
    return HandRecord(
        players=t.n, dealer=t.dealer, dealers=t.dealers, in_game=t.in_game_seats, wins=wins,
        birds=birds, kongs=kongs, unfinished=unfinished, paid_kongs=paid_kongs, visible=seen,
        choices=t.chosen, wilds=t.chosen_wilds, **t.facts.seats(), **penalties,
    )  # fmt: skip


def record(t: Table, settlement: Settlement) -> None:
    t.settlements.append(settlement)
    deltas = t.deltas
    append = t.events.append
    for pay in settlement.payments:
        deltas[pay.payer] -= pay.amount
        if pay.payee != POT:
            deltas[pay.payee] += pay.amount
        append(events.payment(pay.amount, pay.reasons, pay.payer, payee_json(pay.payee)))
