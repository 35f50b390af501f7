"""Agents: given only their observation and the legal actions, they choose one.

The contract (as in PettingZoo's classic games): ``act(observation, legal) -> Action``,
where ``legal`` is never empty and the answer must be one of its elements.  Bots and their
parameters are listed in docs/AGENTS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.agents.defensive import DefensiveAgent
from interpreter.agents.efficiency import CLAIM_POLICIES, KONG_POLICIES, EfficiencyAgent
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.search import GUARDS, SearchAgent
from interpreter.agents.simple import SimpleAgent
from interpreter.agents.strategy import StrategyAgent
from interpreter.agents.value import ValueAgent

if TYPE_CHECKING:
    from dsl.ruleset import Ruleset

AGENTS = {
    "random": RandomAgent,
    "simple": SimpleAgent,
    "efficiency": EfficiencyAgent,
    "value": ValueAgent,
    "defensive": DefensiveAgent,
    "strategy": StrategyAgent,
    "search": SearchAgent,
}


@dataclass(frozen=True)
class Param:
    """A bot parameter's declared type and range: numbers in ``low..high``, text in ``choices``."""

    kind: type
    low: float = 0.0
    high: float = 0.0
    choices: tuple[str, ...] = ()

    def check(self, name: str, value: Any) -> Any:
        """``value`` (text from a name, or a number from code) as this parameter, in range."""
        given = value
        if not isinstance(value, str | int | float):  # a list or mapping from a file: not shown
            raise ValueError(f"{name} is a {type(value).__name__}: expected {self.words()}")
        if isinstance(value, str):
            value = self._parse(name, value)
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{name}={given}: expected {self.words()}")
            return value
        number = isinstance(value, int | float) and not isinstance(value, bool)
        in_range = number and self.low <= value <= self.high  # NaN fails the comparison too
        if not in_range or (self.kind is int and value != int(value)):
            raise ValueError(f"{name}={given}: expected {self.words()}")
        return self.kind(value)

    def words(self) -> str:
        if self.choices:
            return f"one of {', '.join(self.choices)}"
        kind = "a whole number" if self.kind is int else "a number"
        return f"{kind} from {self.low:g} to {self.high:g}"

    def _parse(self, name: str, text: str) -> Any:
        if self.choices:
            return text
        pattern = _INT if self.kind is int else _NUMBER
        if not pattern.fullmatch(text):  # ASCII digits only: no 'nan', 'inf', '１', '1_0'
            raise ValueError(f"{name}={text}: expected {self.words()}")
        return self.kind(text)


_INT = re.compile(r"[+-]?[0-9]{1,9}")
_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")
_EFFICIENCY = {
    "kong_policy": Param(str, choices=KONG_POLICIES),
    "kong_option": Param(int, 0, 8),
    "claims": Param(str, choices=CLAIM_POLICIES),
}
_STRATEGY = {
    "value_threshold": Param(float, 1, 10),
    "self_draw_share": Param(float, 0, 1),
    "claim_margin": Param(float, 0.2, 3),
    "hazard": Param(float, 0, 0.5),
    "defence": Param(float, 0, 3),
    "wait_share": Param(float, 0, 0.5),
    "shown_void": Param(float, 0, 1),
    "alert": Param(float, 0, 1),
    "min_gain": Param(float, 0, 5),
    "ready_end": Param(float, 0, 2),
    "escape": Param(float, 0, 4),
}
PARAMS: dict[str, dict[str, Param]] = {
    "random": {},
    "simple": {},
    "efficiency": _EFFICIENCY,
    "value": {
        "value_threshold": Param(float, 0, 100),
        "self_draw_share": Param(float, 0, 1),
        "claim_margin": Param(float, 0, 10),
        "hazard": Param(float, 0, 1),
    },
    "defensive": {"defence": Param(float, 0, 1), "push": Param(int, 0, 8), **_EFFICIENCY},
    "strategy": _STRATEGY,
    "search": {
        "budget": Param(int, 0, 1000),
        "width": Param(int, 1, 8),
        "near": Param(int, 0, 8),
        "confidence": Param(float, 0, 5),
        "progress": Param(float, 0, 16),
        "guard": Param(str, choices=GUARDS),
        **_STRATEGY,
    },
}
"""Each bot's parameters with their ranges (docs/AGENTS.md says what they do)."""


def expand_agent(name: str, ruleset: Ruleset | None = None) -> str:
    """``BOT:FILE`` as ``BOT:name=value,…`` with the parameters of FILE, a parameter file
    written by ``mjrules tune``; ``name=value`` items after the file override it.
    ``BOT:tuned`` reads the shipped file of ``ruleset`` (:func:`shipped_params`).  Agent
    names are expanded here once, so that runs record the parameters played, not a file
    name, and written one way, ``BOT`` or ``BOT:name=value,…`` (``value:`` is ``value``), so
    that the same bots are one input to the results cache."""
    base, _, spec = name.partition(":")
    items = [t.strip() for t in spec.replace(";", ",").split(",") if t.strip()]
    files = [t for t in items if "=" not in t]
    if not files:
        return f"{base}:" + ",".join(items) if items else base
    if len(files) > 1:
        raise ValueError(f"agent {name!r}: one parameter file at most, not {', '.join(files)}")
    if files[0] == SHIPPED_NAME:
        if ruleset is None:
            raise ValueError(f"agent {name!r}: {SHIPPED_NAME!r} reads the shipped parameters of "
                             "the ruleset played, and none is known here; give a parameter "
                             "file (mjrules tune writes one)")  # fmt: skip
        loaded = shipped_params(base, ruleset) or {}
    else:
        loaded = read_params(files[0], base)
    params = [*(f"{k}={v}" for k, v in loaded.items()), *(t for t in items if "=" in t)]
    return f"{base}:" + ",".join(params) if params else base


TUNED = Path(__file__).resolve().parent / "tuned"
"""The shipped parameter files, ``tuned/BOT/REGION/VERSION.yaml``: package data, outside
the ruleset search path, written by ``bench/tune_all.py``."""
SHIPPED_NAME = "tuned"
"""The file name that reads the shipped parameters: ``--agents strategy:tuned``."""


def shipped_rulesets() -> list[str]:
    """The ids of the shipped rulesets one can play (abstract bases left out)."""
    from dsl.ruleset import SHIPPED, found_rulesets, load

    ids = [i for i, folder in found_rulesets() if folder.path == SHIPPED]
    return [i for i in ids if not load(i, compile=False).get("ruleset.abstract")]


def tuned_file(bot: str, ruleset: str) -> Path:
    """Where the shipped parameters of ``bot`` for the ruleset id ``ruleset`` are (or go)."""
    return TUNED / bot / f"{ruleset}.yaml"


def shipped_params(bot: str, ruleset: Ruleset) -> dict[str, str] | None:
    """The parameters shipped for ``bot`` on ``ruleset`` (a shipped ruleset found by its
    id), or None when there are none: a ruleset of one's own, read from a path or with an
    id of its own, has no shipped file and its bot plays its defaults."""
    path = tuned_file(bot, ruleset.id)
    if ruleset.given_path or not path.is_file():
        return None
    return read_params(str(path), bot)


def read_params(path: str, bot: str) -> dict[str, str]:
    """The parameters of ``bot`` in the parameter file ``path``, as text; raises ValueError
    naming the file when it holds another bot's."""
    data = param_file(path)
    if data["bot"] != bot:
        raise ValueError(f"{path}: the parameters of the {data['bot']} bot, not of {bot!r}")
    return {k: param_text(v) for k, v in data["parameters"].items()}


def param_file(path: str) -> dict[str, Any]:
    """A parameter file written by ``mjrules tune`` (YAML or JSON: a mapping with ``bot`` and
    ``parameters``), its parameters checked against ``PARAMS``; raises ValueError naming the
    file and what is wrong in it."""
    from dsl.problems import RulesetError
    from dsl.yaml_source import load_file

    try:  # a name read as a file (value:hazard) is told as one
        open(path, "rb").close()
    except OSError as error:
        raise ValueError(f"{path}: cannot read the parameter file: {error.strerror}") from None
    try:  # the rulesets' loader: size, UTF-8, nesting and aliases bounded before use
        data = load_file(path).plain()
    except RulesetError as error:
        first = error.errors[0]
        hint = f"; expected {first.expected}" if first.expected else ""
        raise ValueError(f"{first.location}: {first.message}{hint}") from None
    if not isinstance(data, dict) or not isinstance(data.get("parameters"), dict):
        raise ValueError(f"{path}: expected a mapping with 'bot' and 'parameters'")
    bot = data.get("bot")
    if bot not in PARAMS:
        raise ValueError(f"{path}: bot: no agent {bot!r}; expected one of {', '.join(AGENTS)}")
    checked = {}
    for key, value in data["parameters"].items():
        if key not in PARAMS[bot]:
            known = ", ".join(PARAMS[bot]) or "none"
            raise ValueError(f"{path}: parameters: the {bot} bot has no parameter {key!r} "
                             f"(parameters: {known})")  # fmt: skip
        try:
            checked[key] = PARAMS[bot][key].check(key, value)
        except ValueError as error:
            raise ValueError(f"{path}: parameters: {error}") from None
    return {**data, "parameters": checked}


def param_text(value: Any) -> str:
    """A parameter value as an agent name writes it (no exponent: ``Param`` reads decimals)."""
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") or "0"
    return str(value)


def make_agent(name: str, seed: int = 0, **params: Any) -> Any:
    """An agent by name, with its own seeded randomness and keyword parameters.

    ``name`` may carry parameters after a colon: ``"defensive:defence=0.5"``,
    ``"value:value_threshold=1.5;claim_margin=1"`` (parameters apart by ``,`` or ``;``), or
    a parameter file: ``"value:tuned.yaml"``, or the shipped one of the ``ruleset`` given:
    ``"strategy:tuned"`` (:func:`expand_agent`).
    Every parameter is checked against its declared type and range (``PARAMS``).
    """
    base, _, spec = expand_agent(name, params.get("ruleset")).partition(":")
    for item in filter(None, spec.replace(";", ",").split(",")):
        key, _, text = item.partition("=")  # every item has one: a file was read above
        params[key.strip()] = text.strip()
    try:
        cls = AGENTS[base]
    except KeyError:
        raise ValueError(f"no agent {base!r}; expected one of {', '.join(AGENTS)}") from None
    declared = PARAMS[base]
    for key, value in params.items():
        if key in declared:
            try:
                params[key] = declared[key].check(key, value)
            except ValueError as error:
                raise ValueError(f"agent {base!r}: {error}") from None
        elif key != "ruleset":
            known = ", ".join(declared) or "none"
            raise ValueError(f"agent {base!r}: no parameter {key!r} (parameters: {known})")
    try:
        return cls(seed, **params)
    except TypeError as error:
        raise ValueError(f"agent {base!r}: {error}") from None


__all__ = [
    "AGENTS", "PARAMS", "DefensiveAgent", "EfficiencyAgent", "RandomAgent", "SearchAgent",
    "SimpleAgent", "StrategyAgent", "ValueAgent", "expand_agent", "make_agent", "param_file",
    "param_text", "read_params", "shipped_params",
]  # fmt: skip
