"""The tables, forest plots and prose of the two option-effects notebooks.

``option_effects_hunan.ipynb`` and ``option_effects_sichuan.ipynb`` sweep every option of
the rulesets of one family (``interpreter.compare.sweep``, as ``mjrules sweep RULESET --vary
all``); this module turns their sweeps into one table of effects and draws and describes it,
so that both notebooks show their results the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from dsl.ruleset import available_ids, default_root, load
from interpreter.compare import sweep_values
from interpreter.figures import label

METRICS = {  # id: (Chinese, English, unit label, scale)
    "points_moved_mean": ("每手流动分数", "points moved per hand", "points", 1),
    "wins_per_hand": ("每手和牌数 (和了率之和)", "wins per hand (summed win rate)", "per hand", 1),
    "no_winner": ("流局率", "no winner (draw)", "pp", 100),
    "self_draw_share": ("自摸占和牌", "self-drawn share of wins", "pp", 100),
    "dealer_edge": ("庄家优势", "dealer edge", "points", 1),
}


def rulesets(prefixes: Iterable[str]) -> list[str]:
    """The playable shipped rulesets (abstract bases left out) whose ids start with a prefix."""
    prefixes = tuple(prefixes)
    return [
        r
        for r in available_ids(default_root())
        if r.startswith(prefixes) and not load(r).get("ruleset").get("abstract")
    ]


def options_to_vary(names: Iterable[str], hands: int) -> dict[str, list[str]]:
    """``--vary`` of each ruleset: every option, or below 100 hands (the test suite's run) only
    the option with the fewest values, so that the notebook runs in seconds."""
    vary = {}
    for r in names:
        values = sweep_values(load(r), ["all"])
        if hands < 100:
            fewest = min(values, key=lambda name: len(values[name]))
            vary[r] = [f"{fewest}={','.join(values[fewest])}"]
        else:
            vary[r] = ["all"]
        others = sum(len(v) - 1 for v in values.values())
        print(f"{r}: {len(values)} options, {others} settings other than the defaults")
    return vary


def effects_table(sweeps: Mapping[str, object]) -> pd.DataFrame:
    """One row per ruleset, option value and measure: the paired effect and its Holm verdict."""
    rows = []
    for r, s in sweeps.items():
        for p in s.points:
            for e in p.effects:
                est = e.estimate
                rows.append(
                    {
                        "ruleset": r,
                        "option": p.option,
                        "value": p.value,
                        "metric": e.metric.id,
                        "default": est.a,
                        "with value": est.b,
                        "diff": est.diff,
                        "low": est.low,
                        "high": est.high,
                        "relative": est.diff / est.a if est.a else np.nan,
                        "p_holm": e.adjusted_p,
                        "significant": e.significant,
                    }
                )
    return pd.DataFrame(rows)


def forest_plot(effects: pd.DataFrame, ruleset: str, hands: int, bots: str) -> None:
    """A row per option value of one ruleset (the default is the zero line), a panel per
    measure; red and filled: significant after Holm."""
    t = effects[effects["ruleset"] == ruleset]
    settings = list(dict.fromkeys(zip(t["option"], t["value"], strict=True)))
    fig, axes = plt.subplots(
        1, len(METRICS), figsize=(3 * len(METRICS), 1.3 + 0.26 * len(settings)), sharey=True
    )
    ys = np.arange(len(settings))[::-1]
    for ax, (m, (zh, en, unit, scale)) in zip(axes, METRICS.items(), strict=True):
        for y, (option, value) in zip(ys, settings, strict=True):
            row = t[(t["option"] == option) & (t["value"] == value) & (t["metric"] == m)]
            if row.empty:  # undefined (e.g. no win on a side)
                continue
            row = row.iloc[0]
            colour = "C3" if row["significant"] else "C0"
            ax.errorbar(
                row["diff"] * scale,
                y,
                fmt="o",
                color=colour,
                mfc=colour if row["significant"] else "white",
                capsize=2,
                ms=4,
                xerr=[[(row["diff"] - row["low"]) * scale], [(row["high"] - row["diff"]) * scale]],
            )
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(label(zh, en), fontsize=9)
        ax.set_xlabel(label("选项值 − 默认, ", "value − default, ") + unit, fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0].set_yticks(ys, [f"{o}={v}" for o, v in settings], fontsize=7)
    fig.suptitle(
        f"{ruleset}: each option value against the defaults, {hands:,} hands each on the same "
        f"walls, {bots} bots; 95% CIs, filled red: significant after Holm",
        fontsize=9,
    )
    fig.tight_layout()
    plt.show()


def biggest_money_changes(effects: pd.DataFrame) -> pd.DataFrame:
    """Per ruleset, the option value that changes the points moved per hand the most, relative
    to the defaults' mean."""
    money = effects[effects["metric"] == "points_moved_mean"]
    return money.loc[money.groupby("ruleset")["relative"].apply(lambda s: s.abs().idxmax())]


def money_table(biggest: pd.DataFrame) -> pd.DataFrame:
    table = biggest.assign(
        setting=biggest["option"] + "=" + biggest["value"],
        change=[
            f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            for d, lo, hi in zip(biggest["diff"], biggest["low"], biggest["high"], strict=True)
        ],
        relative=[f"{x:+.0%}" for x in biggest["relative"]],
    )[["ruleset", "setting", "default", "change", "relative", "significant"]]
    return table.rename(
        columns={"default": "points moved at the defaults", "change": "value − default [95% CI]"}
    ).reset_index(drop=True)


def significant_counts(effects: pd.DataFrame) -> pd.DataFrame:
    """How many option values of each ruleset change each measure significantly."""
    counts = effects.pivot_table(
        index="ruleset", columns="metric", values="significant", aggfunc="sum"
    ).astype(int)
    return counts[list(METRICS)].rename(columns={m: v[1] for m, v in METRICS.items()})


def summary(effects: pd.DataFrame, biggest: pd.DataFrame, hands: int, bots: str) -> str:
    """The closing prose, computed from the effects."""

    def say(row):
        verdict = (
            "significant after Holm"
            if row["significant"]
            else "not significant at this number of hands"
        )
        return (
            f"{row['ruleset']}: {row['option']}={row['value']} changes it by "
            f"{row['relative']:+.0%} ({row['diff']:+.2f} points a hand, "
            f"95% CI {row['low']:+.2f} to {row['high']:+.2f}; {verdict})"
        )

    settings = effects.groupby(["ruleset", "option", "value"])
    moving = effects[effects["significant"]].groupby(["ruleset", "option", "value"]).ngroups
    quiet = [f"{r} {o}={v}" for (r, o, v), s in settings["significant"].any().items() if not s]
    n_rulesets = effects["ruleset"].nunique()
    return (
        f"""{settings.ngroups} option values of {n_rulesets} rulesets were each played on the same
{hands:,} walls as their defaults by {bots} bots (the figures describe these bots playing these
rules).  {moving} of them change at least one of the five measures significantly after Holm's
correction; the largest change in the money moved per hand, ruleset by ruleset:

"""
        + "\n".join(f"- {say(row)}" for _, row in biggest.iterrows())
        + f"""

{len(quiet)} option values show no significant change in any measure at this number of hands"""
        + (f" (e.g. {', '.join(quiet[:6])})." if quiet else ".")
    )
