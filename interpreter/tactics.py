"""Which playing policy pays under which rules: bot parameters compared in duplicate format.

A policy is a documented parameter of a bot (``kong_policy``, ``defence``, ``claim_margin``
…, :data:`interpreter.agents.PARAMS`) and its values.  On every wall (hand *i* dealt from
the master seed and *i*, as ``simulate`` deals it, so the walls are ``compare``'s too) each
value is played by one seat, in each seat in turn, the other seats by the field bot
(``--agents``, the policy's parameter at its default).  A value's result on a wall is its
seat's mean points per hand over the seats; so every value meets the same tiles, in every
seat, against the same opponents, and the luck of the wall cancels in the paired
differences between values (duplicate format, as ``bench/tournament.py`` plays bots
against each other, with :func:`interpreter.duplicate.play_seatings` its shared core).

Each value's points per hand get a normal 95% interval over the walls; each value's
difference from the policy's first value the paired interval and p-value of
:func:`interpreter.compare.mean_effect`, marked where it stays significant after Holm's
correction over every difference reported (all policies, all rulesets).
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from interpreter.compare import (
    ALPHA,
    Effect,
    Estimate,
    Metric,
    adjust,
    mean_effect,
    pyplot,
    show_effect,
)
from interpreter.duplicate import LOCAL, Run, Setting, duplicate_table
from interpreter.summary import option_text, pad, text_width

if TYPE_CHECKING:
    import pandas as pd


# --- policies: bot parameters and their values ----------------------------------------------


@dataclass(frozen=True)
class Policy:
    """A bot parameter and the values compared, the first being the reference."""

    name: str
    values: tuple[str, ...]

    def agent(self, field: str, value: str) -> str:
        """The field bot with this parameter set to ``value``: the field itself where that is
        the bot's default (so that its seatings, all alike, are played once a wall)."""
        from interpreter.agents import AGENTS, PARAMS

        base, _, spec = field.partition(":")
        params = {}
        for item in filter(None, spec.replace(";", ",").split(",")):
            key, _, text = item.partition("=")
            params[key.strip()] = text.strip()
        default = inspect.signature(AGENTS[base]).parameters[self.name].default
        if self.name not in params and PARAMS[base][self.name].check(self.name, value) == default:
            return field
        params[self.name] = value
        return f"{base}:" + ",".join(f"{k}={v}" for k, v in params.items())


def parse_policies(items: Sequence[str], field: str) -> list[Policy]:
    """``NAME=V1,V2,…`` items as policies of the ``field`` bot (a known one, checked by
    :func:`interpreter.simulate.split_agents`); raises ValueError naming a parameter it
    lacks (and the bots that have it) or a value out of its range."""
    from dsl.problems import nearest
    from interpreter.agents import PARAMS

    base = field.partition(":")[0]
    declared = PARAMS[base]
    out: list[Policy] = []
    for item in items:
        name, eq, values = (t.strip() for t in item.partition("="))
        if not eq or not name or not values:
            raise ValueError(f"--policy {item!r}: write NAME=V1,V2,… (a parameter of the bot)")
        if name not in declared:
            others = [b for b, ps in PARAMS.items() if name in ps]
            hint = nearest(name, declared)
            raise ValueError(
                f"--policy: the {base} bot has no parameter {name!r}"
                + (f"; did you mean {hint!r}?" if hint else "")
                + f" (its parameters: {', '.join(declared) or 'none'})"
                + (f"; {', '.join(others)} {'has' if len(others) == 1 else 'have'} it: "
                   f"--agents {others[0]}" if others else "")
            )  # fmt: skip
        vs = tuple(v.strip() for v in values.split(","))
        first: dict[Any, str] = {}  # each value as first written: 0.5 and 0.50 are one
        again = []
        for v in vs:
            try:
                value = declared[name].check(name, v)
            except ValueError as error:
                raise ValueError(f"--policy: {error}") from None
            if value in first:
                again.append(f"{v} is {first[value]} again" if v != first[value]
                             else f"{v} is given twice")  # fmt: skip
            first.setdefault(value, v)
        if len(first) < 2:
            raise ValueError(f"--policy {item!r}: give at least two different values")
        if again:  # it would be played twice and counted twice by Holm's correction
            raise ValueError(f"--policy {item!r}: {again[0]}; give each value once")
        if name in (p.name for p in out):
            raise ValueError(f"--policy: {name!r} is given twice")
        out.append(Policy(name, vs))
    if not out:
        raise ValueError("give at least one --policy NAME=V1,V2,…")
    return out


# --- one ruleset: the walls played and their statistics -----------------------------------


@dataclass
class Row:
    """One value of a policy: its points per hand, and its difference from the first value."""

    policy: str
    value: str
    reference: str  # the policy's first value
    points: Estimate
    effect: Effect | None  # None for the first value itself

    def to_json(self) -> dict[str, Any]:
        p = self.points
        out: dict[str, Any] = {
            "policy": self.policy, "value": self.value, "reference": self.effect is None,
            "points_per_hand": _num(p.b), "ci95": [_num(p.low), _num(p.high)],
        }  # fmt: skip
        if self.effect is not None:
            e = self.effect.to_json()
            out["difference"] = {k: e[k] for k in ("diff", "ci95", "p", "p_holm", "significant")}
        return out


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def policy_rows(table: pd.DataFrame, policies: Sequence[Policy], field: str) -> list[Row]:
    """Each value's points per hand and difference from its policy's first value, from the
    per-wall ``table`` (a column per agent), not yet Holm-adjusted."""
    out = []
    for policy in policies:
        first = table[policy.agent(field, policy.values[0])].to_numpy(float)
        for v in policy.values:
            x = table[policy.agent(field, v)].to_numpy(float)
            points = mean_effect(np.zeros_like(x), x)  # the mean as an effect against nothing
            if v == policy.values[0]:
                out.append(Row(policy.name, v, v, points, None))
                continue
            label = f"{policy.name}={v} − {policy.values[0]}"
            metric = Metric(label, label, label, "points", "mean", (policy.name,))
            effect = Effect(metric, mean_effect(first, x))
            out.append(Row(policy.name, v, policy.values[0], points, effect))
    return out


@dataclass
class RulesetResult:
    about: dict[str, str]  # the provenance of the field's hands (simulate's)
    changed: dict[str, Any]
    field: str  # the field bot as played here: BOT:tuned reads each ruleset's own parameters
    players: int  # each value plays a wall in every seat: walls × players hands
    rows: list[Row]

    def agent(self, row: Row) -> str:
        """The bot that played the value at its seat."""
        return Policy(row.policy, ()).agent(self.field, row.value)


def play_ruleset(
    setting: Setting,
    policies: Sequence[Policy],
    field: str,
    walls: int,
    seed: int,
    run: Run = LOCAL,
) -> RulesetResult:
    """Every value of every policy played on ``walls`` walls of one ruleset."""
    from interpreter.compare import _changed
    from interpreter.engine.rules import Rules

    agents = tuple(dict.fromkeys(p.agent(field, v) for p in policies for v in p.values))
    table, about, loaded = duplicate_table(setting, agents, field, walls, seed, run)
    rows = policy_rows(table, policies, field)
    return RulesetResult(about, _changed(loaded), field, Rules(loaded).players, rows)


# --- many rulesets: the report ---------------------------------------------------------------


@dataclass
class Tactics:
    policies: list[Policy]
    field: str  # as given to --agents; each ruleset's result has the field played there
    walls: int
    rulesets: list[RulesetResult]

    @property
    def effects(self) -> list[Effect]:
        return [r.effect for res in self.rulesets for r in res.rows if r.effect is not None]

    def to_json(self) -> dict[str, Any]:
        first = self.rulesets[0].about
        return {
            "field": self.field, "walls": self.walls, "master_seed": int(first["master_seed"]),
            "mjrules_version": first["mjrules_version"], "correction": "holm", "alpha": ALPHA,
            "policies": [{"name": p.name, "values": list(p.values), "reference": p.values[0]}
                         for p in self.policies],
            "rulesets": [
                {"ruleset": r.about["ruleset"], "ruleset_hash": r.about["ruleset_hash"],
                 "options": json.loads(r.about["options"]),
                 "preset": r.about["preset"] or None,
                 "field": r.field, "players": r.players,
                 "hands_per_value": self.walls * r.players,
                 "rows": [{**row.to_json(), "agent": r.agent(row)} for row in r.rows]}
                for r in self.rulesets
            ],
        }  # fmt: skip

    def to_text(self) -> str:
        from interpreter.compare import _side_text

        first = self.rulesets[0].about
        seats = sorted({res.players for res in self.rulesets}, reverse=True)
        if len(seats) == 1:
            against = f"{seats[0] - 1} {self.field} bots"
            hands = f"{self.walls * seats[0]:,} hands a value"
        else:  # rulesets of three and four seats: each value plays a wall in every seat
            against = f"{self.field} bots in the other seats"
            hands = ", ".join(f"{self.walls * n:,} hands a value with {n} seats" for n in seats)
        lines = [
            f"each value played by one seat against {against}, in every seat,",
            f"on the same {self.walls:,} walls ({hands}), "
            f"master seed {first['master_seed']}, mjrules {first['mjrules_version']}",
            f"bots: {self.field}, the policy's parameter changed at the seat played; the figures "
            "describe this field",
            "points: the seat's mean points per hand with its 95% CI; against the first value: "
            "the paired difference by wall;",
            f"* significant at 5% after Holm's correction for {len(self.effects)} differences",
        ]
        for res in self.rulesets:
            lines += ["", _side_text(res.about, res.changed)]
            if res.field != self.field:  # a parameter file or BOT:tuned, read for this ruleset
                lines.append(f"field played: {res.field} ({self.field} read for this ruleset)")
            lines += self._table(res)
        if len(self.rulesets) > 1:
            lines += ["", *self._grid()]
        return "\n".join(lines)

    def _table(self, res: RulesetResult) -> list[str]:
        names = [f"{r.policy}={r.value}" for r in res.rows]
        width = max(24, *(text_width(n) + 1 for n in names))
        lines = [f"{pad('policy', width)} {'points / hand [95% CI]':<26} against the first"]
        for name, r in zip(names, res.rows, strict=True):
            p = r.points
            points = f"{p.b:+.2f} [{p.low:+.2f}, {p.high:+.2f}]"
            if r.effect is None:
                versus = "(reference)"
            else:
                e = r.effect
                mark = " *" if e.significant else ""
                versus = f"{show_effect('points', e.estimate)}{mark}  {verdict(r, e)}"
            lines.append(f"{pad(name, width)} {points:<26} {versus}")
        return lines

    def _grid(self) -> list[str]:
        """The policy × ruleset table: each value's difference from its policy's first."""
        ids = [r.about["ruleset"] + _options_tag(r.changed) for r in self.rulesets]
        names = [f"{row.policy}={row.value}" for row in self.rulesets[0].rows]
        width = max(24, *(text_width(n) + 1 for n in names))
        col = max(24, *(len(i) + 2 for i in ids))
        lines = [
            "which policy pays under which rules: points per hand against the policy's first "
            "value [95% CI]",
            (pad("policy", width) + "".join(f"{i:<{col}}" for i in ids)).rstrip(),
        ]
        for k, name in enumerate(names):
            cells = []
            for res in self.rulesets:
                row = res.rows[k]
                if row.effect is None:
                    cells.append("(reference)")
                else:
                    mark = " *" if row.effect.significant else ""
                    cells.append(show_effect("points", row.effect.estimate) + mark)
            lines.append((pad(name, width) + "".join(f"{c:<{col}}" for c in cells)).rstrip())
        return lines


def verdict(row: Row, effect: Effect) -> str:
    """The difference in players' words."""
    d, first = effect.estimate.diff, f"{row.policy}={row.reference}"
    if not effect.significant:
        return f"no difference shown from {first}"
    return f"pays {abs(d):.2f} points a hand {'more' if d > 0 else 'less'} than {first}"


def _options_tag(changed: Mapping[str, Any]) -> str:
    return "".join(f" {k}={option_text(v)}" for k, v in changed.items())


def tactics(
    settings: Sequence[Setting],
    policies: Sequence[str],
    field: str,
    walls: int,
    seed: int,
    run: Run = LOCAL,
) -> Tactics:
    """Every value of every ``--policy`` played in duplicate format under each ruleset of
    ``settings`` on ``walls`` walls; Holm's correction over every difference.  Values are
    compared within a ruleset, so rulesets of different seats or tiles sit side by side.
    ``field``: one bot; ``BOT:tuned`` plays each ruleset with the parameters shipped for it,
    the policy's values set on top of them."""
    from dsl.ruleset import load
    from interpreter import simulate as sim

    if walls < 2:
        raise ValueError(f"--games must be at least 2 walls to compare, not {walls}")
    loaded, fields = [], []  # every input checked before a wall is played
    for s in settings:
        ruleset = load(s.ruleset, settings=s.settings, preset=s.preset)
        # a parameter file read into its parameters; BOT:tuned, those shipped for the ruleset
        names = sim.split_agents(field, ruleset)
        if len(names) != 1:
            raise ValueError(
                f"--agents {field!r}: give one bot, the field every value plays against"
            )
        sim.make_spec(ruleset, seed, names[0])
        loaded.append(ruleset)
        fields.append(names[0])
    parsed = parse_policies(policies, fields[0])  # the same bot on every ruleset
    sim.note_untuned(loaded, field)
    results = [
        play_ruleset(s, parsed, f, walls, seed, run) for s, f in zip(settings, fields, strict=True)
    ]
    out = Tactics(parsed, field.strip(), walls, results)
    adjust(out.effects)
    return out


def plot_tactics(result: Tactics, path: str, title: str) -> None:
    """Each value's difference from its policy's first value with its 95% CI, a marker per
    ruleset; filled where significant after Holm's correction."""
    plt = pyplot()
    names = [f"{r.policy}={r.value}" for r in result.rulesets[0].rows]
    k = len(result.rulesets)
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.35 * len(names) * max(1, k / 2)))
    for j, res in enumerate(result.rulesets):
        colour = f"C{j}"
        for y, row in enumerate(res.rows):
            at = len(names) - 1 - y + (j - (k - 1) / 2) * 0.8 / max(1, k)
            if row.effect is None:
                ax.plot(0, at, "|", color=colour, ms=10)
                continue
            e = row.effect.estimate
            ax.errorbar(
                e.diff, at, xerr=[[e.diff - e.low], [e.high - e.diff]], fmt="o", color=colour,
                mfc=colour if row.effect.significant else "white", capsize=3,
                label=res.about["ruleset"] + _options_tag(res.changed) if y == 1 else None,
            )  # fmt: skip
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(names))[::-1], names, fontsize=8)
    ax.set_xlabel("points per hand against the policy's first value (its mark at 0)")
    if k > 1:
        ax.legend(fontsize=8)
    fig.suptitle(f"{title}\n95% CIs, paired by wall; filled: significant after Holm's "
                 "correction", fontsize=9)  # fmt: skip
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
