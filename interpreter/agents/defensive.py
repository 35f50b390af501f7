"""The defensive bot: the efficiency bot's hand, but it avoids dealing into a ready opponent.

From what it can see only, it estimates how likely each opponent still in the hand is to
be ready (``threat``): exposed melds (each one brings a hand nearer), how late it is (the
wall left), and a discard pattern that leaves a suit alone while melds show it.  For
each tile it may discard it estimates the danger against that opponent:

- none for a tile that opponent has discarded itself (现物): with a missed-win lock it
  may not win on it, and a hand seldom waits on a tile it threw; none for a tile of its
  declared void suit, nor for a tile whose every copy is seen;
- less for a tile with no live copies left to pair with or run through (all other copies
  seen), for terminals, and for tiles whose 3-apart neighbours (筋) it has discarded;
- full otherwise.

Each discard's cost is its efficiency loss (shanten steps, fewer live accepted tiles)
plus ``defence`` × Σ threat × danger; with ``defence`` 0 it plays exactly as the efficiency
bot, with 1 it folds a far hand against a likely-ready opponent.  Claims that open the hand
are declined while a threat is high and the hand is far from ready.

Parameters: ``seed`` (no randomness is used), ``defence`` (0..1, default 0.7), and the
efficiency bot's ``kong_policy`` and ``kong_option``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dsl.ruleset import Ruleset
from interpreter.agents.efficiency import EfficiencyAgent, Seen
from interpreter.agents.reading import View
from interpreter.engine.actions import PASS, Action
from interpreter.suit_tables import RANKS
from interpreter.tiles import Tile

_MELD_THREAT = (0.05, 0.15, 0.35, 0.65, 0.95)


class DefensiveAgent(EfficiencyAgent):
    def __init__(
        self,
        seed: int = 0,
        defence: float = 0.7,
        kong_policy: str = "no_worse",
        kong_option: int = 0,
        ruleset: Ruleset | None = None,
    ) -> None:
        super().__init__(seed, kong_policy, kong_option, ruleset)
        if not 0.0 <= float(defence) <= 1.0:
            raise ValueError(f"defence {defence}: expected a number from 0 to 1")
        self.defence = float(defence)

    def threats(self, obs: dict[str, Any], view: View) -> dict[int, float]:
        """How likely each opponent still in the hand looks ready, from visible facts only."""
        out = {}
        total_wall = max(view.wall + sum(len(d) for d in obs["discards"]), 1)
        late = 1.0 - view.wall / total_wall
        for q in range(view.players):
            if q == view.seat or not view.in_game[q]:
                continue
            melds = obs["melds"][q]
            threat = _MELD_THREAT[min(len(melds), 4)]
            discards = obs["discards"][q]
            threat += 0.45 * max(0.0, late - 0.3)
            shown = {t // RANKS for _, t, _ in melds if t >= 0}
            if len(shown) == 1 and len(melds) >= 2:  # melds in one suit, which it keeps
                suit = next(iter(shown))
                if sum(t // RANKS == suit for t in discards) <= 1:
                    threat += 0.2
            out[q] = min(threat, 0.95)
        return out

    def danger(self, obs: dict[str, Any], view: View, q: int, tile: Tile) -> float:
        """How likely ``tile`` is to be one of opponent ``q``'s waits (0..1)."""
        if tile in obs["discards"][q]:
            return 0.0
        void = obs["void"][q]
        if void is not None and tile // RANKS == void:
            return 0.0
        rank = tile % RANKS
        seen = view.visible[tile] + view.counts[tile]
        danger = 1.0
        if seen >= 4:
            return 0.0
        if seen == 3:
            danger *= 0.4  # no pair wait on it; only runs through it
        if rank in (0, RANKS - 1):
            danger *= 0.6
        mine = obs["discards"][q]
        suji = [tile + d for d in (-3, 3) if 0 <= rank + d < RANKS]
        if suji and all(s in mine for s in suji):
            danger *= 0.35
        elif any(s in mine for s in suji):
            danger *= 0.7
        return danger

    def discard(self, seen: Seen, legal: Sequence[Action]) -> Action:
        obs, view, facts, void, visible = seen.obs, seen.view, seen.facts, seen.void, seen.visible
        threats = self.threats(obs, view) if self.defence > 0 else {}
        if not threats or max(threats.values()) < 0.2:
            return super().discard(seen, legal)
        allowed = {a.tile for a in legal if a.kind == "discard"}
        rows = [r for r in self.table(view, facts, visible) if r.discard in allowed]
        if void is not None and any(r.discard // RANKS == void for r in rows):
            rows = [r for r in rows if r.discard // RANKS == void]
        best_s = rows[0].shanten
        best_live = max(rows[0].live_total, 1)
        # A far hand is worth less to keep: efficiency weighs less the further it is.
        keep = 1.0 / (1 + max(best_s, 0))

        def cost(r: Any) -> tuple[float, int]:
            loss = (r.shanten - best_s) + 0.5 * (1 - r.live_total / best_live)
            risk = sum(w * self.danger(obs, view, q, r.discard) for q, w in threats.items())
            return keep * loss + self.defence * 2.0 * risk, r.discard

        return Action("discard", min(rows, key=cost).discard)

    def claim(self, seen: Seen, legal: Sequence[Action]) -> Action:
        view = seen.view
        threats = self.threats(seen.obs, view) if self.defence > 0 else {}
        if threats and max(threats.values()) * self.defence > 0.45:
            from interpreter import shapes

            m = len(view.melds)
            if shapes.shanten(view.keys, m, self.form(seen.facts, m)) >= 2:
                return PASS
        return super().claim(seen, legal)
