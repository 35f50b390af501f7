"""Synthetic paired hands for the statistics of ``interpreter.compare``: rows shaped like
``simulate``'s, drawn so that the truth is known."""

from __future__ import annotations

from typing import Any

import numpy as np

PLAYERS = 4


def rows(
    rng: np.random.Generator, shared: np.ndarray, self_draw: float = 0.3, stake: float = 1.0
) -> list[dict[str, Any]]:
    """One row per hand.  ``shared`` holds each hand's common random numbers (its wall): a
    side's outcome depends on them and on its own noise, so two sides drawn from the same
    ``shared`` with the same parameters are exchangeable pairs (no effect), and correlated
    like hands played on the same walls."""
    out = []
    for i, (u, k, h) in enumerate(shared):
        own = rng.random(4)
        wall = u if own[0] < 0.7 else rng.random()  # mostly the wall decides
        n_wins = 0 if wall < 0.2 else 1 + (wall > 0.85)
        winners = sorted(int(w) for w in rng.permutation(PLAYERS)[:n_wins])
        win_from = [-1 if own[1] < self_draw else int((w + 1 + k) % PLAYERS) for w in winners]
        values = [int(1 + stake * (h + own[2]) * 4) for _ in winners]
        deltas = [0] * PLAYERS
        for w, f, v in zip(winners, win_from, values, strict=True):
            payers = [s for s in range(PLAYERS) if s != w] if f < 0 else [f]
            for s in payers:
                deltas[s] -= v
                deltas[w] += v
        out.append({
            "dealer": i % PLAYERS, "winners": winners, "win_from": win_from, "n_wins": n_wins,
            "self_draws": win_from.count(-1), "multi_win": False,
            "win_hands": [["a", "b"] if own[3] < 0.3 else ["a"] for _ in winners],
            "first_win_turn": int(3 + 10 * wall) if winners else 0, "claims": int(6 * h),
            "discards": 40, "kongs": int(k > 2), "bird_hits": 0, "opening_seats": [],
            "points_moved": sum(d for d in deltas if d > 0),
            **{f"delta_{s}": d for s, d in enumerate(deltas)},
        })  # fmt: skip
    return out


def walls(rng: np.random.Generator, n: int) -> np.ndarray:
    """Each hand's common random numbers."""
    return np.column_stack([rng.random(n), rng.integers(0, 4, n), rng.random(n)])
