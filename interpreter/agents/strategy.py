"""The strategy bot: the value bot's offence, with a defence priced in the ruleset's own points.

Everything it knows of the rules it learns from the ruleset (``reading.RuleFacts``): what a
win pays through the settlement (``RuleFacts.points``), whether the hand ends at the first
win, what a kong pays, what a win on a kong's discard pays.  No hand type is named:
a one-suit or seven-pairs or all-pungs hand is chased when, and as much as, this ruleset
pays for it (the value bot's shape targets, each settled).

- **Offence** is the value bot's (``value_threshold``, ``claim_margin``, ``self_draw_share``,
  ``hazard``): a hand's score is its chance to win times what the win is worth.  A win is
  worth what it pays plus what it spares (``escape``): a seat that has not won pays the
  others' wins (their self-draws, its own deal-ins), one win where the first win ends the
  hand, one per other seat still in where play goes on.  Counting that makes a fast hand
  worth more against a slow dear one: the value of a win at all.  ``value_threshold`` (a
  score this many times the efficiency choice's) guards the far hand's optimistic chance
  estimate only: between two ready hands the better score is taken.  The same guard holds
  for claims: a pung or chow that brings the hand nearer ready is passed only for a hand
  worth ``value_threshold`` times more without it.
- **Defence**: from visible information only it prices each discard's expected loss, the
  sum over opponents still in the hand of (chance the tile is its wait) × (what it would
  collect from this seat).  An opponent with four melds holds one tile and waits on its
  pair (单钓): the chance is spread over the tiles it may hold (copies unseen, tiles it threw
  much less likely) and each is priced by settling that very hand, melds as shown.  Any
  other opponent's chance is its readiness (``defensive.threats``: melds, the share of the
  wall drawn, the share of complete hands the ruleset accepts) × the tile's danger from its
  river (``defensive.danger``: 现物, declared void suit, 筋, copies seen) × ``wait_share``;
  where a win must lack a suit, a suit it threw ``3`` or more times and never melded is
  taken for its void (× ``shown_void``).  Its price is a plain hand settled with its melds
  (probe hands in two suits, the least of three orders of their sets, so that two melds in
  one suit do not make a one-suit hand; where a win must lack a suit, the probe lacks one
  the opponent has not melded).  Seats that have left the hand (winners, where play goes
  on) are no threat.
- **The discard** is the value bot's unless a safer tile is worth ``min_gain`` points more
  once risk is counted: each tile's worth is its score (never above the value bot's
  choice's) times the chance the hand goes on (where the first win ends it) minus
  ``defence`` × its expected loss.  A far hand's score is small, so against a likely-ready
  opponent it folds (throws the safest tiles); a near hand pushes while its score outweighs
  the loss.  No risk is priced while every opponent's readiness is below ``alert``.
- **The wall's end**: where payments fire then (unready seats paying ready ones), a ready
  hand's score adds ``ready_end`` × (1 − its chance to win) × what it would collect, ready,
  from seats far from ready (settled).
- **Kongs** (in turn, on a discard, again with a kong tile) and the replacement draw
  (补张 vs 开杠) as the value bot weighs them, less the extra loss of the discard that follows
  a kong: the safest discard's expected loss times what a win on a kong's discard pays
  over a plain one (settled).
- **The void suit** (declared, 定缺, or a suit a win must lack): the suit whose loss leaves
  the rest of the hand nearest a complete hand (tiles missing, ``shapes.shanten_standard``
  of the hand without it), then the suit held least.  **The exchange (换三张)**: the tiles
  whose loss leaves the rest nearest, given its best void suit, then the rest's shanten.
  **The last tile**: taken when ready on a wait that wins.
- **A win on a discard** is taken, except where another seat's win would not end the hand
  (the ruleset's ``game_end`` asked with the seats in): there it is passed when
  staying ready is worth more, the chance to win later × (what that win pays, self-drawn
  as often as the seat's own draws bring the wait, + what a win spares) against this win
  + what it spares (each at face value, without ``escape``).  A self-draw paid by every
  seat still in can be worth several discard wins.

Parameters (all in ``interpreter.agents.PARAMS``, with the ranges ``mjrules tune`` searches):
``value_threshold`` (3.0), ``claim_margin`` (0.6), ``self_draw_share`` (0.4), ``hazard``
(by the ruleset), ``defence`` (1.0), ``wait_share`` (0.12), ``shown_void`` (0.2),
``alert`` (0.05), ``min_gain`` (0.1), ``ready_end`` (1.0), ``escape`` (3.0); docs/AGENTS.md
gives their ranges.  :meth:`StrategyAgent.deal_in` tells a tile's risk as the bot weighs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from dsl.ruleset import Ruleset
from dsl.situation import HandMeld
from handcore import shapes
from handcore.discards import DiscardOption
from handcore.shapes import Keys
from handcore.suit_tables import RANKS
from handcore.tiles import STANDARD, Tile
from interpreter.agents import reading
from interpreter.agents.defensive import danger, rivers, threats
from interpreter.agents.reading import RuleFacts, View
from interpreter.agents.value import (
    PROBES,
    ValueAgent,
    _Ctx,
    plain_value,
    probe_keys,
    probe_value,
)
from interpreter.context import build_situation
from interpreter.engine.actions import PASS, Action
from interpreter.engine.rules import _NOWHERE
from interpreter.hand_record import HandRecord, Unfinished
from interpreter.settle import SettlementError, settle

_SHOWN_VOID_THROWS = 3
"""Tiles of a suit an opponent threw (and never melded) before it counts as a shown void."""
_THREW_OWN = 0.15
"""A four-meld hand's wait on a tile it threw itself, against one it did not."""


_PROBE_ORDERS = (
    PROBES,
    tuple(f"234m678p456m345p{pair}" for pair in ("55p", "22p", "88p")),
    tuple(f"678p234m345p456m{pair}" for pair in ("55p", "22p", "88p")),
)
"""The probe hands' sets in three orders: melds that replace the first sets of one order
(two melds in the probe's second suit make ``PROBES`` a one-suit hand) leave sets of both
suits in another (``value.plain_value``)."""


class StrategyAgent(ValueAgent):
    probe_orders = _PROBE_ORDERS

    def __init__(
        self,
        seed: int = 0,
        value_threshold: float = 3.0,
        self_draw_share: float = 0.4,
        claim_margin: float = 0.6,
        hazard: float = -1.0,
        defence: float = 1.0,
        wait_share: float = 0.12,
        shown_void: float = 0.2,
        alert: float = 0.05,
        min_gain: float = 0.1,
        ready_end: float = 1.0,
        escape: float = 3.0,
        ruleset: Ruleset | None = None,
    ) -> None:
        super().__init__(seed, value_threshold, self_draw_share, claim_margin, hazard, ruleset)
        self.defence = float(defence)
        self.wait_share = float(wait_share)
        self.shown_void = float(shown_void)
        self.alert = float(alert)
        self.min_gain = float(min_gain)
        self.ready_end = float(ready_end)
        self.escape = float(escape)
        self._last: tuple[_Ctx | None, _Risk | None] = (None, None)

    def act(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        kinds = reading.by_kind(legal)
        if "win" in kinds and "pass" in kinds and obs.get("claim"):
            ctx = self._context(obs)
            if self._waits_for_self_draw(ctx, kinds["win"][0], obs["claim"]):
                return PASS
        return super().act(obs, legal)

    def _context_type(self) -> type[_Ctx]:
        return _EscapeCtx if self.escape > 0 else _Ctx

    def _threshold(self, top: DiscardOption, fast: DiscardOption) -> float:
        """``value_threshold`` guards against the far hand's optimistic chance estimates;
        between two ready hands, whose chances count their live waits, the better score wins."""
        return 1.0 if top.shanten == 0 and fast.shanten == 0 else self.value_threshold

    # --- choices: the void suit and the exchange ------------------------------------------------

    def _choice(
        self, obs: dict[str, Any], legal: Sequence[Action], view: View, f: RuleFacts
    ) -> Action:
        pending = obs["choice"]
        m = len(view.melds)
        if pending["effect"] == "void":

            def void_cost(a: Action) -> tuple[int, int, str]:
                s = reading.SUIT_LETTERS.index(a.option)
                return _without_suit(view.counts, s, m), _held(view.counts, s), a.option

            return min(legal, key=void_cost)
        if pending["tiles"]:

            def exchange_cost(a: Action) -> tuple[int, int, int, str]:
                given = STANDARD.parse(a.option, check_copies=False)
                rest = list(view.counts)
                for t in given:
                    rest[t] -= 1
                best = min(_without_suit(rest, s, m) for s in f.suits)
                kept = shapes.shanten(shapes.keys_of(rest), m, f.form)
                return best, kept, max(_held(view.counts, t // RANKS) for t in given), a.option

            return min(legal, key=exchange_cost)
        return super()._choice(obs, legal, view, f)

    def _void(self, view: View, f: RuleFacts) -> int | None:
        """Where a win must lack a suit and none is declared: the suit whose loss leaves the
        rest nearest a complete hand, never one with a declared meld."""
        if view.void is not None or not f.void_suit:
            return super()._void(view, f)
        m = len(view.melds)
        melded = {x.tile // RANKS for x in view.melds}
        free = [s for s in f.suits if s not in melded] or list(f.suits)
        return min(
            free, key=lambda s: (_without_suit(view.counts, s, m), _held(view.counts, s), -s)
        )

    def _claim(self, ctx: _Ctx, claim: dict[str, Any], legal: Sequence[Action]) -> Action:
        """The value bot's claim; but a pung or chow that brings the hand nearer ready (the
        efficiency choice) is passed only for a hand worth ``value_threshold`` times more,
        the guard the discard has against the far hand's optimistic chance estimate."""
        choice = super()._claim(ctx, claim, legal)
        view = ctx.view
        if choice.kind != "pass" or claim["from"] == view.seat:
            return choice
        m = len(view.melds)
        near = shapes.shanten(view.keys, m, ctx.form(m), view.wilds)
        floor = ctx.hand_score(view.keys, view.melds) / self.value_threshold
        for a in legal:
            tile = reading.claimed_tile(a, claim) if a.kind in ("pung", "chow") else -1
            if tile < 0 or (ctx.void is not None and tile // RANKS == ctx.void):
                continue
            keys, meld = reading.claim_keys(view.keys, a, tile)
            melds = (*view.melds, meld)
            rows = ctx.table(keys, m + 1)
            if not rows or rows[0].shanten >= near:
                continue
            allowed = {t for t, n in enumerate(shapes.counts_of(keys)) if n}
            score = self._best_discard(ctx, keys, melds, allowed)[1]
            if score >= floor:
                floor, choice = score, a
        return choice

    def _waits_for_self_draw(self, ctx: _Ctx, win: Action, claim: dict[str, Any]) -> bool:
        """Where another seat's win would not end the hand (play goes on after a win and
        enough seats are in), a win on a discard is passed when staying ready is worth
        more: the chance to win later (``_Ctx.chance``: the live waits, the draws left,
        ``hazard``) × (what a later win pays, self-drawn as often as the seat's own draws
        bring the wait against every source, + what a win spares), against what this win
        pays + what it spares.  A win spares its face value here (``_paid_while_in``): two
        outcomes are compared, not two hands' scores."""
        f, view = ctx.f, ctx.view
        if _another_win_ends(ctx):
            return False
        tile = reading.claimed_tile(win, claim)
        now = f.points(view, shapes.add_tile(view.keys, tile), view.melds, tile, False,
                       discarder=claim["from"])  # fmt: skip
        live = own = other = 0.0
        for t in shapes.waits(view.keys, ctx.form(len(view.melds)), f.copies, wilds=view.wilds):
            n = ctx.live(view.keys, t)
            if n:
                keys = shapes.add_tile(view.keys, t)
                live += n
                own += n * f.points(view, keys, view.melds, t, True)
                other += n * f.points(view, keys, view.melds, t, False)
        if not live or now <= 0:
            return False
        q = min(live / ctx.unseen, 0.95)
        drawn = q / (1 - (1 - q) ** ctx.sources)  # the share of later wins self-drawn
        later = (drawn * own + (1 - drawn) * other) / live
        spared = _paid_while_in(self, ctx)
        return ctx.chance(0, int(live), live) * (later + spared) > now + spared

    # --- the discard, with risk -----------------------------------------------------------------

    def _discard(self, ctx: _Ctx, legal: Sequence[Action]) -> tuple[float, Action]:
        score, action = super()._discard(ctx, legal)
        risk = self._risk(ctx)
        if risk is None:
            return score, action
        view = ctx.view
        allowed = {a.tile for a in legal if a.kind == "discard"}
        if ctx.void is not None and any(t // RANKS == ctx.void for t in allowed):
            allowed = {t for t in allowed if t // RANKS == ctx.void}
        first_win_ends = ctx.f.rules.first_win

        def worth(tile: Tile, s: float) -> float:
            ends, loss = risk.of(tile)
            return s * (1 - ends if first_win_ends else 1) - self.defence * loss

        own = worth(action.tile, score)
        if self.defence * risk.of(action.tile)[1] <= self.min_gain:
            return own, action  # no safer tile could save enough
        best = (own + self.min_gain, action)
        targets = ctx.targets(view.keys, view.melds)
        for r in ctx.table(view.keys, len(view.melds)):
            if r.discard not in allowed or r.discard == action.tile:
                continue
            s = ctx.discard_score(view.keys, view.melds, r, targets)
            w = worth(r.discard, min(s, score))
            if w > best[0]:
                best = (w, Action("discard", r.discard))
        return (own, action) if best[1] == action else best

    def deal_in(self, obs: dict[str, Any], tile: Tile) -> tuple[float, float]:
        """(chance a discard of ``tile`` is won on, expected points it loses) as the bot
        weighs them for the observation ``obs``; (0, 0) while no threat reaches ``alert``."""
        risk = self._risk(self._context(obs))
        return risk.of(tile) if risk is not None else (0.0, 0.0)

    def _kong_cost(self, ctx: _Ctx, a: Action, kind: str) -> float:
        """The extra loss of the discard after a kong: the safest discard's expected loss
        times the share more a win on a kong's discard pays."""
        risk = self._risk(ctx)
        if risk is None:
            return 0.0
        extra = _kong_discard_extra(self, ctx)
        if extra <= 0:
            return 0.0
        held = [t for t, n in enumerate(ctx.view.counts) if n]
        return self.defence * extra * min((risk.of(t)[1] for t in held), default=0.0)

    def _end_value(
        self, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...], chance: float
    ) -> float:
        """Where payments fire when the wall runs out: ``ready_end`` × the chance the hand
        gets there unwon × what being ready then is worth (:func:`_ready_swing`)."""
        if self.ready_end <= 0 or not ctx.f.rules.end_checks:
            return 0.0
        return self.ready_end * (1 - chance) * _ready_swing(self, ctx, keys, melds)

    def _risk(self, ctx: _Ctx) -> _Risk | None:
        """The decision's risk, or None when no opponent's threat reaches ``alert``."""
        if self.defence <= 0:
            return None
        if self._last[0] is not ctx:
            threat = threats(ctx.obs, ctx.view, ctx.f)
            alert = threat and max(threat.values()) >= self.alert
            self._last = (ctx, _Risk(self, ctx, threat) if alert else None)
        return self._last[1]


class _EscapeCtx(_Ctx):
    """A decision's state where a win is worth what it pays plus what it spares: the
    payments the seat would make, still in the hand, to the others' wins."""

    def win_value(
        self,
        keys: Keys,
        melds: tuple[HandMeld, ...],
        t: Tile,
        context: frozenset[str] = frozenset(),
    ) -> float:
        value = super().win_value(keys, melds, t, context)
        return value + _spared(self.agent, self) if value > 0 else value


def _spared(agent: StrategyAgent, ctx: _Ctx) -> float:
    """``escape`` × what the seat expects to pay to the others' wins while it stays in the
    hand (:func:`_paid_while_in`)."""
    return agent.escape * _paid_while_in(agent, ctx)


def _paid_while_in(agent: StrategyAgent, ctx: _Ctx) -> float:
    """What the seat expects to pay to the others' wins while it stays in the hand: per win,
    its share of a plain probe hand's self-draw (× ``self_draw_share``) or the whole win on
    its own discard (one discarder among the winner's payers); one win where the first win
    ends the hand, one per other seat still in where play goes on (settled; learned once
    per standing)."""
    view = ctx.view
    memo = ("spared", view.seat, view.dealer, view.in_game, ctx.void, ctx.f.ruleset.id)
    found = agent.worth.get(memo)
    if found is None:
        others = [q for q in range(view.players) if view.in_game[q] and q != view.seat]
        share = agent.self_draw_share
        paid = sum(share * _paid_to(ctx, q, True) + (1 - share) * _paid_to(ctx, q, False)
                   for q in others)  # fmt: skip
        wins = 1 if ctx.f.rules.first_win else len(others)
        found = wins * paid / len(others) ** 2 if others else 0.0
        agent.worth[memo] = found
    return found


def _another_win_ends(ctx: _Ctx) -> bool:
    """Whether a win of another seat still in would end the hand now (the ruleset's
    ``game_end`` asked with the seats in the hand)."""
    view = ctx.view
    seats = frozenset(q for q in range(view.players) if view.in_game[q])
    other = next((q for q in seats if q != view.seat), None)
    if other is None:
        return True
    situation = build_situation(
        dealer=view.dealer, players=view.players, options=ctx.f.rules.options, winner=other,
        winners=frozenset((other,)), players_in_game=seats,
    )  # fmt: skip
    return ctx.f.rules.after_win(situation)[1]


def _paid_to(ctx: _Ctx, q: int, self_draw: bool) -> float:
    """What opponent ``q`` collects winning a plain probe hand by self-draw, or on this
    seat's discard (settled)."""
    seat_view = replace(ctx.view, seat=q, void=ctx.obs["void"][q])
    return probe_value(
        (), seat_view.void, ctx.f.rules.tileset,
        lambda keys, tile: ctx.f.points(seat_view, keys, (), tile, self_draw,
                                        discarder=ctx.view.seat),
    )  # fmt: skip


class _Risk:
    """For one decision: each tile's chance to end the hand on a discard and its expected
    loss, from visible information only."""

    def __init__(self, agent: StrategyAgent, ctx: _Ctx, threat: dict[int, float]) -> None:
        self.agent = agent
        self.ctx = ctx
        self.threat = threat
        self._single: dict[int, tuple[dict[Tile, float], dict[Tile, float]]] = {}
        self._loss: dict[int, float] = {}
        self._memo: dict[Tile, tuple[float, float]] = {}

    def of(self, tile: Tile) -> tuple[float, float]:
        """(chance a discard of ``tile`` is won on, expected points lost by it)."""
        found = self._memo.get(tile)
        if found is None:
            ends = loss = 0.0
            for q, ready in self.threat.items():
                single = self.single(q)
                if single is not None:
                    p, price = single[0].get(tile, 0.0) * ready, single[1].get(tile, 0.0)
                else:
                    p, price = ready * self.chance(q, tile), self.loss(q)
                ends += p
                loss += p * price
            found = self._memo[tile] = (min(ends, 1.0), loss)
        return found

    def chance(self, q: int, tile: Tile) -> float:
        """How likely ``tile`` is a wait of opponent ``q``, should it be ready."""
        ctx, agent = self.ctx, self.agent
        p = danger(ctx.obs, ctx.view, q, tile) * agent.wait_share
        if ctx.f.void_suit and ctx.obs["void"][q] is None:
            suit = tile // RANKS
            thrown = sum(t // RANKS == suit for t, _ in rivers(ctx.obs)[q])
            melded = any(t >= 0 and t // RANKS == suit for _, t, _ in ctx.obs["melds"][q])
            if thrown >= _SHOWN_VOID_THROWS and not melded:
                p *= agent.shown_void
        return min(p, 1.0)

    def _seat_view(self, q: int) -> View:
        view = self.ctx.view
        return replace(view, seat=q, void=self.ctx.obs["void"][q])

    def _melds(self, q: int) -> tuple[HandMeld, ...]:
        return tuple(HandMeld(k, t, c) for k, t, c in self.ctx.obs["melds"][q] if t >= 0)

    def single(self, q: int) -> tuple[dict[Tile, float], dict[Tile, float]] | None:
        """For an opponent with four melds shown: each tile's chance to be its single wait
        and what winning on it would pay, settled with its melds; None for other hands."""
        if q in self._single:
            return self._single[q]
        melds = self._melds(q)
        found = None
        if len(melds) >= 4:
            ctx = self.ctx
            seat_view = self._seat_view(q)
            river = {t for t, _ in rivers(ctx.obs)[q]}
            weights: dict[Tile, float] = {}
            prices: dict[Tile, float] = {}
            for t in range(len(ctx.view.counts)):
                if t // RANKS not in ctx.f.suits or ctx.view.unseen(t) == 0:
                    continue
                keys = shapes.keys_of([2 if i == t else 0 for i in range(len(ctx.view.counts))])
                price = ctx.f.points(seat_view, keys, melds, t, False, discarder=ctx.view.seat)
                if price > 0:
                    weights[t] = ctx.view.unseen(t) * (_THREW_OWN if t in river else 1.0)
                    prices[t] = price
            total = sum(weights.values())
            found = ({t: w / total for t, w in weights.items()}, prices) if total else ({}, {})
        self._single[q] = found
        return found

    def loss(self, q: int) -> float:
        """What opponent ``q`` would collect by winning on this seat's discard: a plain hand
        with its melds as shown, settled (the seat's own plain win when none is accepted;
        the settled value learned once per opponent's melds and standing)."""
        found = self._loss.get(q)
        if found is None:
            ctx = self.ctx
            melds = self._melds(q)
            seat_view = self._seat_view(q)
            view = ctx.view
            void = self._probe_void(q, melds)
            memo = ("loss", q, view.seat, melds, void, view.dealer, view.in_game,
                    ctx.f.ruleset.id)  # fmt: skip
            found = self.agent.worth.get(memo)
            if found is None:
                found = plain_value(
                    melds, void, ctx.f.rules.tileset,
                    lambda keys, tile: ctx.f.points(
                        seat_view, keys, melds, tile, False, discarder=view.seat
                    ), self.agent.probe_orders,
                )  # fmt: skip
                self.agent.worth[memo] = found
            if found <= 0:  # the seat's own plain win: what it pays, not what it spares
                found = ctx._base(ctx.view.melds)
                if found > 0 and isinstance(ctx, _EscapeCtx):
                    found -= _spared(self.agent, ctx)
            self._loss[q] = found
        return found

    def _probe_void(self, q: int, melds: tuple[HandMeld, ...]) -> int | None:
        """The suit opponent ``q``'s probe hand lacks: its declared void; where a win must
        lack a suit and none is declared, a suit it has not melded (the one it threw most),
        so that a probe in the other two suits can join melds in any suit."""
        void = self.ctx.obs["void"][q]
        if void is not None or not self.ctx.f.void_suit:
            return void
        melded = {m.tile // RANKS for m in melds}
        free = [s for s in self.ctx.f.suits if s not in melded]
        if not free:
            return None
        thrown = [t // RANKS for t, _ in rivers(self.ctx.obs)[q]]
        return max(free, key=lambda s: (thrown.count(s), -s))


_UNREADY = "1469m 1469p 28m 57p"
"""A hand far from ready in two suits: the other seats at the wall's end."""


def _ready_swing(agent: StrategyAgent, ctx: _Ctx, keys: Keys, melds: tuple[HandMeld, ...]) -> float:
    """What the seat collects at the wall's end, ready with ``keys`` and ``melds``, from the
    seats still in, each far from ready (settled; learned once per hand and standing)."""
    view = ctx.view
    memo = ("end", keys, melds, view.seat, view.dealer, view.in_game, ctx.f.ruleset.id)
    found = agent.worth.get(memo)
    if found is None:
        seats = [q for q in range(view.players) if view.in_game[q]]
        # The other seats lack this seat's void suit too.
        unready = reading.on_table(_UNREADY, ctx.f.rules.tileset, ctx.void)
        concealed = tuple(STANDARD.tiles_of(shapes.counts_of(keys)))
        unfinished = tuple(
            Unfinished(q, concealed if q == view.seat else unready,
                       melds if q == view.seat else (), _NOWHERE)
            for q in seats
        )  # fmt: skip
        record = HandRecord(view.players, view.dealer, frozenset(seats), unfinished=unfinished)
        try:
            payments = settle(ctx.f.ruleset, record).payments
        except (SettlementError, ValueError):
            payments = ()
        found = float(sum(p.amount for p in payments if p.payee == view.seat))
        found -= sum(p.amount for p in payments if p.payer == view.seat)
        agent.worth[memo] = found
    return found


def _kong_discard_extra(agent: StrategyAgent, ctx: _Ctx) -> float:
    """How much more a win on a kong's discard pays than one on a plain discard, less one:
    a plain probe hand settled both ways, learned once per ruleset and standing."""
    view = ctx.view
    memo = ("kong_discard", view.seat, view.dealer, view.in_game, ctx.f.ruleset.id)
    found = agent.worth.get(memo)
    if found is None:
        found = 0.0
        for probe in PROBES:
            done = probe_keys(probe, (), ctx.void, ctx.f.rules.tileset)
            if done is None:
                continue
            plain = ctx.f.points(view, done[0], (), done[1], False)
            if plain > 0:
                context = frozenset(("kong_discard",))
                found = ctx.f.points(view, done[0], (), done[1], False, context)
                found = max(found / plain - 1.0, 0.0)
                break
        agent.worth[memo] = found
    return found


def _held(counts: Sequence[int], suit: int) -> int:
    return sum(counts[suit * RANKS : suit * RANKS + RANKS])


def _without_suit(counts: Sequence[int], suit: int, melds: int) -> int:
    """Shanten of the hand with every tile of ``suit`` gone (tiles missing, less one)."""
    rest = [0 if t // RANKS == suit else n for t, n in enumerate(counts)]
    return shapes.shanten_standard(shapes.keys_of(rest), melds)
