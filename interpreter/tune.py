"""Per-ruleset tuning: a bot's documented parameters searched for the most points per hand.

Each trial is a candidate setting of every parameter the bot declares
(:data:`interpreter.agents.PARAMS`: numbers in ``low..high``, text among ``choices``),
chosen by Optuna's TPE sampler with a fixed seed, so that a run is reproducible.  The
candidate plays the same walls in every trial in duplicate format (:func:`play_walls`): on
each wall it takes each seat in turn, the field bot (the bot as given: defaults, or the
parameters loaded) the other seats, and the field plays the same seats too; the objective
is the candidate's mean points per hand minus the field's, paired by wall.  The first trial
is the field itself (gain 0, not played again), so the search starts from the current best.

The best candidate has been chosen for its luck on the tuning walls as much as for its
play, so its gain is measured again, with a 95% interval, on walls never tuned on (another
master seed), and that is the gain reported and written to the parameter file.  When that
gain is not positive the file keeps the field's parameters (``kept_field``), so a written
file never plays worse than the field by what was measured.  The field's parameters are
those it was given plus its in-range defaults; a default outside its search range (the
strategy bot's automatic ``hazard``, -1) is left out, so that loading the file plays the
bot's own default again.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from interpreter.compare import LOCAL, Estimate, Run, Setting, _changed, mean_effect
from interpreter.duplicate import DuplicateSpec, play_walls
from interpreter.summary import option_text, pad, text_width


class TuneUnavailable(ValueError):
    """Optuna, the optimiser, is not installed."""


def check_seed(seed: int) -> int:
    """The master seed of the check walls: a hash of the tuning seed, so that no small seed
    of a later tuning run deals them."""
    digest = hashlib.blake2b(f"mjrules/tune-check/{seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass
class Tuned:
    """The outcome of a tuning run: what the parameter file holds."""

    bot: str
    parameters: dict[str, Any]
    field: str
    about: dict[str, str]  # the ruleset's provenance (simulate's)
    changed: dict[str, Any]  # the options set away from the ruleset's defaults
    budget: int
    walls: int
    seed: int
    check_walls: int
    tuned_gain: float  # on the tuning walls: biased upward, the best of many
    gain: Estimate  # on the check walls
    best: dict[str, Any]  # the best trial's parameters, the ones measured on the check walls

    @property
    def kept_field(self) -> bool:
        """The best trial did not gain on the check walls: the field's parameters are kept."""
        return self.gain.diff <= 0

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "parameters": self.parameters,
            "kept_field": self.kept_field,
            "best_trial": self.best,
            "agent": agent_name(self.bot, self.parameters),
            "field": self.field,
            "ruleset": self.about["ruleset"],
            "ruleset_hash": self.about["ruleset_hash"],
            "options": json.loads(self.about["options"]),
            "changed": self.changed,
            "preset": self.about["preset"] or None,
            "budget": self.budget,
            "walls": self.walls,
            "seed": self.seed,
            "sampler_seed": self.seed,
            "check_walls": self.check_walls,
            "check_seed": check_seed(self.seed),
            "tuned_gain": round(self.tuned_gain, 6),
            "gain": round(self.gain.diff, 6),
            "ci95": [round(self.gain.low, 6), round(self.gain.high, 6)],
            "mjrules_version": self.about["mjrules_version"],
        }

    def to_text(self) -> str:
        g = self.gain
        lines = [
            f"tuned the {self.bot} bot on {self.about['ruleset']} against {self.field}: "
            f"{self.budget} trials on {self.walls:,} walls, seed {self.seed}",
            "best parameters:",
            *(f"  {k} = {v}" for k, v in self.best.items()),
            f"gain on the tuning walls: {self.tuned_gain:+.3f} points a hand (biased upward)",
        ]
        if self.best == self.parameters and self.kept_field:
            lines.append("no trial beat the field on the tuning walls: the file keeps the "
                         "field's parameters")  # fmt: skip
        else:
            lines.append(f"gain on {self.check_walls:,} new walls: {g.diff:+.3f} points a hand "
                         f"[95% CI {g.low:+.3f}, {g.high:+.3f}]" + _verdict(g))  # fmt: skip
        if self.kept_field and self.best != self.parameters:
            lines.append("the gain on the new walls is not positive: the file keeps the "
                         "field's parameters")  # fmt: skip
        lines.append(f"as an agent: --agents {agent_name(self.bot, self.parameters)}")
        return "\n".join(lines)


def _verdict(gain: Estimate) -> str:
    """What the check walls say, in a player's words."""
    if gain.low > 0:
        return ": better than the field"
    if gain.high < 0:
        return ": worse than the field (tuned on too few walls? try more --games)"
    return ": no difference shown from the field"


def agent_name(bot: str, params: Mapping[str, Any]) -> str:
    from interpreter.agents import param_text

    if not params:
        return bot
    return f"{bot}:" + ",".join(f"{k}={param_text(v)}" for k, v in params.items())


def _current(field: str) -> dict[str, Any]:
    """The field bot's parameters that lie in their search ranges (an out-of-range default
    means "chosen by the bot", which the search cannot propose)."""
    from interpreter.agents import AGENTS, PARAMS

    base, _, spec = field.partition(":")
    values = {
        k: p.default
        for k, p in inspect.signature(AGENTS[base]).parameters.items()
        if k in PARAMS[base]
    }
    for item in filter(None, spec.replace(";", ",").split(",")):
        key, _, text = item.partition("=")
        values[key.strip()] = PARAMS[base][key.strip()].check(key.strip(), text.strip())
    out = {}
    for key, value in values.items():
        try:
            out[key] = PARAMS[base][key].check(key, value)
        except ValueError:
            continue
    return out


def _suggest(trial: Any, name: str, param: Any) -> Any:
    if param.choices:
        return trial.suggest_categorical(name, list(param.choices))
    if param.kind is int:
        return trial.suggest_int(name, int(param.low), int(param.high))
    return round(trial.suggest_float(name, param.low, param.high), 4)


def tune(
    setting: Setting,
    field: str,
    budget: int,
    walls: int,
    seed: int,
    check_walls: int,
    run: Run = LOCAL,
    report: Callable[[str], None] = lambda line: None,
) -> Tuned:
    """Search the parameters of the ``field`` bot for ``budget`` trials on ``walls`` walls
    of ``setting``, then measure the best on ``check_walls`` new walls."""
    try:
        import optuna
    except ImportError:
        raise TuneUnavailable(
            "mjrules tune needs Optuna: pip install 'mjrules[tune]' (or pip install optuna)"
        ) from None
    from interpreter import simulate as sim
    from interpreter.agents import PARAMS
    from interpreter.engine.rules import Rules

    if budget < 1:
        raise ValueError(f"--budget must be at least 1 trial, not {budget}")
    if walls < 2 or check_walls < 2:
        raise ValueError("--games and --check-games must be at least 2 walls")
    spec, loaded = sim.make_spec(setting.ruleset, seed, field, setting.settings, setting.preset)
    if len(set(spec.agents)) != 1:
        raise ValueError(f"--agents {field!r}: give one bot, the one tuned")
    asked, field = field, spec.agents[0]  # a parameter file read into its parameters
    bot = field.partition(":")[0]
    declared = PARAMS[bot]
    if not declared:
        tunable = ", ".join(b for b, ps in PARAMS.items() if ps)
        raise ValueError(f"the {bot} bot has no parameters to tune; bots that have: {tunable}")
    sim.note_untuned([loaded], asked)
    players = Rules(loaded).players

    def points(agent: str, master: int, count: int) -> np.ndarray:
        """The agent's points per hand by wall, in each seat in turn against the field."""
        duplicate = DuplicateSpec(spec.ruleset, spec.settings, spec.preset, master, field, (agent,))
        rows: list[dict[str, Any]] = []
        sim.run_to(duplicate, count, players, rows.extend, run.workers, run.scheduler, None,
                   False, run.chunk, play=play_walls)  # fmt: skip
        rows.sort(key=lambda r: r["index"])
        return np.array([r[agent] for r in rows], float)

    current = _current(field)

    def objective(trial: Any) -> float:
        if trial.number == 0:  # the field itself, already played: nothing suggested
            trial.set_user_attr("parameters", current)
            return 0.0
        params = {name: _suggest(trial, name, p) for name, p in declared.items()}
        trial.set_user_attr("parameters", params)
        return float(points(agent_name(bot, params), seed, walls).mean() - reference.mean())

    def progress(study: Any, trial: Any) -> None:
        best = study.best_trial
        report(f"trial {trial.number + 1}/{budget}: {trial.value:+.3f} points a hand "
               f"(best {best.value:+.3f}, trial {best.number + 1}) "
               f"{agent_name(bot, trial.user_attrs['parameters'])}")  # fmt: skip

    # ERROR: a trial stopped by Ctrl-C (or one that fails) is raised to the caller, who tells
    # it; Optuna's warning would print it again with a traceback
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    try:
        reference = points(field, seed, walls)  # the same in every trial: played once
        study.optimize(objective, n_trials=budget, callbacks=[progress])
        best = study.best_trial
        params = best.user_attrs["parameters"]
        if best.number == 0:  # no trial beat the field on the tuning walls: nothing to measure
            gain = Estimate(0.0, 0.0, 0.0, 0.0, 1.0)
        else:
            report(f"measuring {agent_name(bot, params)} on {check_walls:,} new walls")
            master = check_seed(seed)
            gain = mean_effect(points(field, master, check_walls),
                               points(agent_name(bot, params), master, check_walls))  # fmt: skip
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM and SIGHUP where the caller turns them so
        report(_stopped(study, bot, budget))
        raise
    kept = params if gain.diff > 0 else current
    about = dict(sim.spec_provenance(spec))
    return Tuned(bot, kept, field, about, _changed(loaded), budget, walls, seed, check_walls,
                 float(best.value), gain, params)  # fmt: skip


def _stopped(study: Any, bot: str, budget: int) -> str:
    """What a stopped tuning run leaves: the trials done and the best of them, not measured
    on new walls, and no parameter file."""
    import optuna

    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if not done:
        return f"stopped before the first of {budget} trials ended: no parameter file written"
    best = study.best_trial
    return (f"stopped after {len(done)} of {budget} trials: no parameter file written; the best "
            f"so far, trial {best.number + 1}, {best.value:+.3f} points a hand on the tuning "
            f"walls (not measured on new walls): --agents "
            f"{agent_name(bot, best.user_attrs['parameters'])}")  # fmt: skip


def write(tuned: Tuned, path: str, load: str = "") -> None:
    """The parameter file: YAML, read back by ``--agents BOT:FILE`` (or ``load``, the
    agent name that loads it when it is shipped)."""
    import yaml

    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# mjrules tune: load with --agents {load or f'{tuned.bot}:{path}'}\n")
        yaml.safe_dump(tuned.to_json(), f, allow_unicode=True, sort_keys=False)


_YES_NO = {True: "yes", False: "no"}


def side_by_side(files: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """Parameter files in columns: the tactics each ruleset rewards, parameter by parameter
    (— where a file leaves a parameter to the bot's default), and the best trial's gain on the
    check walls (the file kept the field's parameters when it was not positive)."""
    heads = [
        str(d.get("ruleset", path))
        + "".join(f" {k}={option_text(v)}" for k, v in (d.get("changed") or {}).items())
        for path, d in files
    ]
    names = list(dict.fromkeys(k for _, d in files for k in d["parameters"]))

    def gain(d: Mapping[str, Any]) -> str:
        low, high = d.get("ci95") or (math.nan, math.nan)
        return f"{d.get('gain', math.nan):+.3f} [{low:+.3f}, {high:+.3f}]"

    rows = [
        ("file", [path for path, _ in files]),
        ("bot", [str(d["bot"]) for _, d in files]),
        *((n, [str(d["parameters"].get(n, "—")) for _, d in files]) for n in names),
        ("gain / hand [95% CI]", [gain(d) for _, d in files]),
        ("kept the field", [_YES_NO.get(d.get("kept_field"), "?") for _, d in files]),
        ("against", [str(d.get("field", "?")) for _, d in files]),
        ("trials × walls", [f"{d.get('budget', '?')} × {d.get('walls', '?')}" for _, d in files]),
    ]
    width = max(text_width(r[0]) for r in rows) + 2
    cols = [max(text_width(h), *(text_width(r[1][j]) for r in rows)) + 2
            for j, h in enumerate(heads)]  # fmt: skip
    lines = [pad("", width) + "".join(pad(h, c) for h, c in zip(heads, cols, strict=True))]
    for label, cells in rows:
        line = pad(label, width) + "".join(pad(x, c) for x, c in zip(cells, cols, strict=True))
        lines.append(line.rstrip())
    return "\n".join(line.rstrip() for line in lines)
