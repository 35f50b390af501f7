"""The defensive bot: the efficiency bot's hand, but it avoids dealing into a ready opponent.

From what it can see only, it estimates how likely each opponent still in the hand is to
be ready to win (``threat``): first how likely its hand is ready in shape, from its
exposed melds and how late it is (the share of the wall drawn), plus a little when its
melds are all in one suit it keeps; then times the share of complete hands the ruleset
accepts (``RuleFacts.win_share``: where a plain win needs a 2/5/8 pair, a hand ready in
shape is often not ready to win).  Early melds say little: in rulesets where everyone
claims, two or three melds are common long before a hand is ready.

For each tile it may discard it estimates the danger against that opponent (1 = as likely
a wait as any tile), from its river (``rivers``: its discards, those claimed included):

- none for a tile of its declared void suit;
- much less for a tile it threw itself (现物: a hand seldom waits on a tile it threw,
  though in a suit it melds in it may have changed its mind), and for a suit it throws
  freely and does not meld in;
- less for a tile with three or four copies seen (no pair wait on it), for terminals, and
  for tiles whose 3-apart neighbours (筋) it threw.

Each discard's cost is its efficiency loss (shanten steps, fewer live accepted tiles; less
the further the hand is from ready) plus ``defence`` × ``_RISK`` × Σ threat × danger.  With
``defence`` 0 it plays exactly as the efficiency bot; at 1 it folds a far hand against a
likely-ready opponent.  It plays as the efficiency bot while no opponent's threat reaches
``_ALERT``, and while its own hand is fewer than ``push`` tiles from ready (shanten).
``push`` defaults to 2: a near hand is the best defence (winning ends the danger, and a
dodged discard often only leaves the ready player to draw its tile).  Where play goes on
after a win, ``push`` 0 folds near hands too and stays in play to the end, which pays only
while someone at the table is left to pay at the wall's end (a seat not ready) (docs/AGENTS.md).
Claims that open the hand are declined while a threat is high and the hand is two or more
tiles from ready.

Parameters: ``seed`` (no randomness is used), ``defence`` (0..1, default 0.7), ``push``
(default 2), and the efficiency bot's ``kong_policy`` and
``kong_option``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dsl.ruleset import Ruleset
from handcore import shapes
from handcore.suit_tables import RANKS
from handcore.tiles import Tile
from interpreter.agents.efficiency import EfficiencyAgent, Seen
from interpreter.agents.reading import View
from interpreter.engine.actions import PASS, Action

# Chance a hand is ready in shape, by its exposed melds: early (no wall drawn) and how
# much more once the wall is ``_LATE`` drawn.  Measured on bot play in both regions.
_READY_EARLY = (0.0, 0.03, 0.13, 0.28, 1.0)
_READY_GAIN = (0.13, 0.16, 0.15, 0.2, 0.0)
_LATE = 0.6
_ONE_SUIT = 0.1
"""Added when two or more melds share one suit it hardly throws (a one-suit hand)."""
_ALERT = 0.06
"""While every opponent's threat is below this, it plays as the efficiency bot."""
_RISK = 4.0
"""The weight of Σ threat × danger (times ``defence``) against a discard's efficiency loss."""
_CLAIM_THREAT = 0.3
"""Above this threat × ``defence``, a hand two or more tiles from ready declines claims."""


class DefensiveAgent(EfficiencyAgent):
    def __init__(
        self,
        seed: int = 0,
        defence: float = 0.7,
        push: int = 2,
        kong_policy: str = "no_worse",
        kong_option: int = 0,
        ruleset: Ruleset | None = None,
        claims: str = "helps",
    ) -> None:
        super().__init__(seed, kong_policy, kong_option, ruleset, claims)
        if not 0.0 <= float(defence) <= 1.0:
            raise ValueError(f"defence {defence}: expected a number from 0 to 1")
        self.defence = float(defence)
        self.push = int(push)

    def threats(self, obs: dict[str, Any], view: View, facts: Any) -> dict[int, float]:
        """How likely each opponent still in the hand is ready to win (:func:`threats`)."""
        return threats(obs, view, facts)

    def danger(self, obs: dict[str, Any], view: View, q: int, tile: Tile) -> float:
        """How likely ``tile`` is one of opponent ``q``'s waits (:func:`danger`)."""
        return danger(obs, view, q, tile)

    def discard(self, seen: Seen, legal: Sequence[Action]) -> Action:
        obs, view, facts, void, visible = seen.obs, seen.view, seen.facts, seen.void, seen.visible
        threats = self.threats(obs, view, facts) if self.defence > 0 else {}
        if not threats or max(threats.values()) < _ALERT:
            return super().discard(seen, legal)
        allowed = {a.tile for a in legal if a.kind == "discard"}
        table = self.table(view, facts, visible, self.void_first(seen, legal))
        rows = [r for r in table if r.discard in allowed]
        if void is not None and any(r.discard // RANKS == void for r in rows):
            rows = [r for r in rows if r.discard // RANKS == void]
        best_s = rows[0].shanten
        if best_s < self.push:
            return self.first_discard(seen, legal, table)
        best_live = max(rows[0].live_total, 1)
        # A far hand is worth less to keep: efficiency weighs less the further it is.
        keep = 1.0 / (1 + max(best_s, 0))

        def cost(r: Any) -> tuple[float, int]:
            loss = (r.shanten - best_s) + 0.5 * (1 - r.live_total / best_live)
            risk = sum(w * self.danger(obs, view, q, r.discard) for q, w in threats.items())
            return keep * loss + self.defence * _RISK * risk, r.discard

        return Action("discard", min(rows, key=cost).discard)

    def claim(self, seen: Seen, legal: Sequence[Action]) -> Action:
        view = seen.view
        threats = self.threats(seen.obs, view, seen.facts) if self.defence > 0 else {}
        if threats and max(threats.values()) * self.defence > _CLAIM_THREAT:
            m = len(view.melds)
            if shapes.shanten(view.keys, m, self.form(seen.facts, m), view.wilds) >= 2:
                return PASS
        return super().claim(seen, legal)


def threats(obs: dict[str, Any], view: View, facts: Any) -> dict[int, float]:
    """How likely each opponent still in the hand is ready to win, from visible facts."""
    out = {}
    drawn = sum(len(r) for r in rivers(obs))
    late = min(1.0, (1.0 - view.wall / max(view.wall + drawn, 1)) / _LATE)
    share = facts.win_share if facts is not None else 1.0
    for q in range(view.players):
        if q == view.seat or not view.in_game[q]:
            continue
        melds = obs["melds"][q]
        m = min(len(melds), 4)
        if m == 4:  # a lone tile left: ready, whatever the ruleset pays for it
            out[q] = 0.95
            continue
        ready = _READY_EARLY[m] + _READY_GAIN[m] * late
        shown = {t // RANKS for _, t, _ in melds if t >= 0}
        if len(shown) == 1 and m >= 2:
            suit = next(iter(shown))
            if sum(t // RANKS == suit for t, _ in rivers(obs)[q]) <= 1:
                ready += _ONE_SUIT
        out[q] = min(ready, 0.95) * share
    return out


def danger(obs: dict[str, Any], view: View, q: int, tile: Tile) -> float:
    """How likely ``tile`` is one of opponent ``q``'s waits, against any tile (0..1)."""
    suit, rank = divmod(tile, RANKS)
    if obs["void"][q] == suit:
        return 0.0
    river = [t for t, _ in rivers(obs)[q]]
    melded = any(t >= 0 and t // RANKS == suit for _, t, _ in obs["melds"][q])
    danger = 1.0
    if tile in river:
        danger *= 0.4 if melded else 0.15
    elif (
        not melded and len(river) >= 4 and 2 * sum(t // RANKS == suit for t in river) >= len(river)
    ):
        danger *= 0.4  # a suit it throws freely
    seen = view.visible[tile] + view.counts[tile]
    if seen >= 4:
        danger *= 0.4
    elif seen == 3:
        danger *= 0.75
    if rank in (0, RANKS - 1):
        danger *= 0.65
    suji = [tile + d for d in (-3, 3) if 0 <= rank + d < RANKS]
    thrown = sum(s in river for s in suji)
    if suji and thrown == len(suji):
        danger *= 0.6
    elif thrown:
        danger *= 0.85
    return danger


def rivers(obs: dict[str, Any]) -> Any:
    """Each seat's river as ``(tile, taker)`` pairs; an observation without the field
    (built by hand) gives its ``discards``, none taken."""
    found = obs.get("rivers")
    if found is None:
        return tuple(tuple((t, None) for t in d) for d in obs["discards"])
    return found
