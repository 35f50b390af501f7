"""Two actions outside the legal ones, which no bot takes and a person may: a seat leaving
the hand before its end (``escape``) and a seat claiming a win its hand does not make
(``false_win``).  The engine carries them out; what each costs, and to whom, is the ruleset's
payment rules at ``escape`` and ``false_win`` (a payee may be the pot).

A seat that leaves ends the hand (reason ``escape``); the rules at ``escape`` see the hands
of the seats still in besides it.  A false claim changes nothing on the table: its rules
are paid (they may take up what the claimer received at kongs) and the seat decides again."""

from __future__ import annotations

from interpreter.engine.actions import Action
from interpreter.engine.flow import end
from interpreter.engine.payments import hand_record, record
from interpreter.engine.rules import _NOWHERE
from interpreter.engine.state import Table
from interpreter.hand_record import Unfinished
from interpreter.settle import fires, settle

ACTIONS = ("escape", "false_win")
"""The kinds of these actions: never among ``legal_actions``, accepted by ``apply``."""


def refusal(t: Table, action: Action, legal: list[Action]) -> str | None:
    """Why the seat to move may not take ``action`` now (None: it may)."""
    if action != Action(action.kind):
        return f"{action.kind} takes no tile or option"
    if action.kind == "false_win":
        if t.choosing is not None:
            return "no win can be claimed while choosing"
        if any(a.kind == "win" for a in legal):
            return "its hand wins: the win is among its legal actions"
    return None


def carry_out(t: Table, seat: int, action: Action) -> None:
    if action.kind == "escape":
        _escape(t, seat)
    else:
        _false_win(t, seat)


def _false_win(t: Table, seat: int) -> None:
    """The rules at ``false_win`` are paid; the kongs whose payments they take up are no
    longer held."""
    settlement = settle(t.ruleset, hand_record(t, (), (), paid_kongs=tuple(t.kongs),
                                               false_wins=(seat,)))  # fmt: skip
    if settlement.taken_kongs:
        gone = {id(k) for k in settlement.taken_kongs}
        t.kongs = [k for k in t.kongs if id(k) not in gone]
    record(t, settlement)


def _escape(t: Table, seat: int) -> None:
    """``seat`` leaves: the rules at ``escape`` are paid, and the hand ends.  They see the
    hands of the others still in that wait for a tile (none before the deal, nor a dealer's
    14 tiles while choosing)."""
    if fires(t.ruleset, "escape"):
        waiting = [p for p in sorted(t.in_game_seats - {seat}) if _waits(t, p)]
        unfinished = tuple(
            Unfinished(s, tuple(t.players[s].hand()), t.players[s].melds, _NOWHERE) for s in waiting
        )
        kongs = tuple(k for k in t.kongs if k.seat in t.in_game_seats)
        hand = hand_record(t, (), (), (), unfinished, kongs, leaver=seat,
                           wall_left=t.wall.drawable)  # fmt: skip
        record(t, settle(t.ruleset, hand))
    end(t, "escape")


def _waits(t: Table, seat: int) -> bool:
    p = t.players[seat]
    return sum(p.counts) + 3 * len(p.melds) == 13
