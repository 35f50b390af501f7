"""Settlement from the table: the scenario ``interpreter.settle`` prices, and the one place
its payments are recorded (each seat's running total and a ``payment`` event each)."""

from __future__ import annotations

from interpreter.engine import events
from interpreter.engine.state import Table
from interpreter.scenario import Kong, Scenario, Unfinished, Win
from interpreter.settle import Settlement
from interpreter.tiles import Tile


def scenario(
    t: Table, wins: tuple[Win, ...], birds: tuple[Tile, ...], kongs: tuple[Kong, ...] = (),
    unfinished: tuple[Unfinished, ...] = (), paid_kongs: tuple[Kong, ...] = (),
) -> Scenario:  # fmt: skip
    """What ``settle`` prices: the hand as it stands, with these wins, kongs or unfinished
    hands."""
    return Scenario(
        path="<engine>", ruleset=t.ruleset.id, options={}, players=t.n, dealer=t.dealer,
        wins=wins, birds=birds, bird_dice=(), kongs=kongs, in_game=t.in_game_seats,
        unfinished=unfinished, raw={}, paid_kongs=paid_kongs,
    )  # fmt: skip


def record(t: Table, settlement: Settlement) -> None:
    t.settlements.append(settlement)
    deltas = t.deltas
    append = t.events.append
    for pay in settlement.payments:
        deltas[pay.payer] -= pay.amount
        deltas[pay.payee] += pay.amount
        append(events.payment(pay.amount, pay.reasons, pay.payer, pay.payee))
