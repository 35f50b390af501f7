"""Hands declared during play (the ruleset's ``declarations``, e.g. a concealed four of a kind):
looked for after each draw and kong, declared at once (a ``declaration`` event) and paid by
the payers the ruleset names, adjusted like every payment (``adjustments`` at
``declaration``), then the payment rules at ``declaration``."""

from __future__ import annotations

from dataclasses import replace

from handcore.tiles import Tile
from interpreter import choices
from interpreter.engine import events
from interpreter.engine.payments import record
from interpreter.engine.state import Table
from interpreter.settle import Payment, Settlement, adjust, display_name, fire


def declare(t: Table, seat: int, tile: Tile, moment: str) -> None:
    """After ``seat`` drew or konged ``tile`` (``moment``: ``draw``, ``kong``): each
    declaration looked for then whose condition holds is declared and paid."""
    found = t.rules.declarations.get(moment)
    if not found:
        return
    p = t.players[seat]
    for name, spec in found:
        if spec.get("once") and (seat, name) in t.declared:
            continue
        base = choices.situation(t.ruleset, seat, t.dealer, t.n, p.keys, t.chosen)
        here = replace(base, melds=p.melds, tile=tile, players_in_game=t.in_game_seats)
        if not spec["when"](here):
            continue
        t.declared.add((seat, name))
        title = display_name(spec.get("name"), name)
        payments = []
        for payer in sorted(spec["payers"](here)):
            if payer == seat:
                continue
            amount = int(spec["amount"](replace(here, payer=payer)))
            if amount:
                payments.append(Payment(payer, seat, amount, (f"{title} (seat {seat})",)))
        t.events.append(events.declaration(seat, name, tile))
        made = [*adjust(t.ruleset, "declaration", here, payments),
                *fire(t.ruleset, "declaration", here)]  # fmt: skip
        record(t, Settlement(t.n, (), tuple(made)))
