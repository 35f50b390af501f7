"""Declared options, named presets and ``--set name=value``.

An option is a setting players choose before a game (birds, cap, play mode ...): typed
(``int``, ``bool`` or ``choice`` among named values), with a default and the values allowed.
A preset is a named set of option values.  The value of each option is, in order: its default,
then the chosen preset's value, then ``--set``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dsl.problems import Location, Problems, nearest, remember_source
from dsl.structure import OPTION, PRESET, Context, Entries
from dsl.yaml_source import Node

TYPES = ("int", "bool", "choice")
COMMAND_LINE = "<command line>"
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_INT = re.compile(r"[+-]?[0-9]{1,18}")


@dataclass(frozen=True)
class Option:
    """A declared option: ``type`` is 'int', 'bool' or 'choice'; ``value`` is its value now."""

    name: str
    type: str
    default: Any
    allowed: tuple[Any, ...]
    value: Any
    title: Mapping[str, str] | None = None
    doc: str = ""
    source: tuple[str, ...] = ()
    note: str = ""
    """Free text, as on any entry (``mjrules check`` reads its acceptances there)."""

    def possible_values(self) -> tuple[Any, ...]:
        if self.allowed:
            return self.allowed
        if self.type == "bool":
            return (False, True)
        return (self.value,)

    def fits(self, value: Any) -> bool:
        if self.type == "bool":
            ok = isinstance(value, bool)
        elif self.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str)
        return ok and (not self.allowed or value in self.allowed)

    def expected(self) -> str:
        if self.allowed:
            return "one of " + ", ".join(_show(v) for v in self.allowed)
        return {"bool": "true or false", "int": "a whole number"}.get(self.type, "a name")

    def parse(self, text: str) -> Any:
        """A command-line value as this option's type; raises ValueError with the reason."""
        text = text.strip()
        if self.type != "choice" and not text.isascii():  # int() takes full-width digits
            raise ValueError(text)
        if self.type == "bool":
            if text.lower() in _TRUE:
                value: Any = True
            elif text.lower() in _FALSE:
                value = False
            else:
                raise ValueError(text)
        elif self.type == "int":
            if not _INT.fullmatch(text):  # int() would also take '1_000' and ' 1'
                raise ValueError(text)
            value = int(text)
        else:
            value = text
        if not self.fits(value):
            raise ValueError(text)
        return value


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def declare(node: Node | None, ctx: Context) -> dict[str, Option]:
    """Check the 'options:' section and build the declared options with their defaults."""
    if node is None:
        return {}
    entries = Entries(OPTION, "option").check(node, ctx, ("options",)) or {}
    options: dict[str, Option] = {}
    for name, spec in entries.items():
        if spec is None or spec.get("type") not in TYPES:
            continue
        where = node.value[name]
        kind = spec["type"]
        allowed_node = where.value.get("allowed")
        allowed: tuple[Any, ...] = ()
        if spec.get("allowed") is not None:
            raw = spec["allowed"]
            if not isinstance(raw, list) or not raw:
                ctx.problems.error(
                    "'allowed' must be a non-empty list",
                    allowed_node.location,
                    expected="[value, value, ...]",
                )
            else:
                allowed = tuple(raw)
        elif kind == "choice":
            ctx.problems.error(
                f"option '{name}' of type choice needs 'allowed'",
                where.location,
                expected="allowed: [name, name, ...]",
            )
            continue
        probe = Option(name, kind, None, (), None)
        for i, value in enumerate(allowed):
            if not probe.fits(value):
                at = allowed_node.value[i] if allowed_node and allowed_node.kind == "seq" else where
                ctx.problems.error(
                    f"allowed value {_show(value)!r} is not of type {kind}",
                    at.location,
                    expected=_type_words(kind),
                )
        default = spec.get("default")
        option = Option(
            name,
            kind,
            default,
            allowed,
            default,
            spec.get("name"),
            spec.get("doc") or "",
            spec.get("source") or (),
            spec.get("note") or "",
        )
        default_node = where.value.get("default", where)
        if default is not None and not probe.fits(default):
            ctx.problems.error(
                f"default {_show(default)!r} of option '{name}' is not of type {kind}",
                default_node.location,
                expected=_type_words(kind),
            )
        elif default is not None and not option.fits(default):
            ctx.problems.error(
                f"default {_show(default)!r} of option '{name}' is not allowed",
                default_node.location,
                expected=option.expected(),
                suggestion=_suggest(default, option),
            )
        options[name] = option  # kept even when its default is wrong: no errors in its wake
    return options


def _type_words(kind: str) -> str:
    return {"int": "a whole number", "bool": "true or false", "choice": "a name"}[kind]


def _suggest(value: Any, option: Option) -> str:
    """The nearest allowed value, never the same word back (``low`` of an int option)."""
    shown = _show(value)
    return nearest(shown, [_show(v) for v in option.allowed if _show(v) != shown])


def presets(
    node: Node | None, options: Mapping[str, Option], ctx: Context
) -> dict[str, dict[str, Any]]:
    """Check the 'presets:' section: each preset's values, by option."""
    if node is None:
        return {}
    entries = Entries(PRESET, "preset").check(node, ctx, ("presets",)) or {}
    out: dict[str, dict[str, Any]] = {}
    for name, spec in entries.items():
        values: dict[str, Any] = {}
        set_node = node.value[name].value.get("set") if node.value[name].kind == "map" else None
        for key, value_node in ((spec or {}).get("set") or {}).items():
            option = options.get(key)
            key_node = set_node.keys[key] if set_node is not None else value_node
            if option is None:
                ctx.problems.error(
                    f"unknown option '{key}' in preset '{name}'",
                    key_node.location,
                    expected=_declared(options),
                    suggestion=nearest(key, options),
                )
                continue
            value = value_node.value if value_node.kind == "scalar" else None
            if not option.fits(value):
                ctx.problems.error(
                    f"{_show(value)!r} is not allowed for option '{key}'",
                    value_node.location,
                    expected=option.expected(),
                    suggestion=_suggest(value, option),
                )
                continue
            values[key] = value
        out[name] = values
    return out


def _declared(options: Iterable[str]) -> str:
    names = sorted(options)
    return "a declared option (" + ", ".join(names) + ")" if names else "a declared option"


def apply(
    options: Mapping[str, Option],
    preset_values: Mapping[str, Mapping[str, Any]],
    preset: str | None,
    settings: Iterable[str],
    problems: Problems,
    flags: tuple[str, str] = ("--set", "--preset"),
) -> dict[str, Option]:
    """Options with their values after the preset and ``--set name=value`` settings;
    problems quote them with ``flags`` (``--set-b``, ``--preset-b`` for one side of a
    comparison)."""
    set_flag, preset_flag = flags
    values = {name: option.value for name, option in options.items()}
    settings = list(settings)
    words = [f"{set_flag} {setting}" for setting in settings]
    if preset:
        words.append(f"{preset_flag} {preset}")
    line = " ".join(words)
    remember_source(COMMAND_LINE, line)
    if preset:
        if preset not in preset_values:
            problems.error(
                f"unknown preset '{preset}'",
                Location(COMMAND_LINE, 1, len(line) - len(preset) + 1, len(preset)),
                expected="a preset declared under 'presets:'"
                + (f" ({', '.join(sorted(preset_values))})" if preset_values else ""),
                suggestion=nearest(preset, preset_values),
            )
        else:
            values.update(preset_values[preset])
    column = 1
    for setting in settings:
        parsed = parse_setting(setting, options, problems, column + len(f"{set_flag} "))
        column += len(f"{set_flag} {setting} ")
        if parsed:
            values[parsed[0]] = parsed[1]
    return {name: _with_value(option, values[name]) for name, option in options.items()}


def _with_value(option: Option, value: Any) -> Option:
    return replace(option, value=value)


def parse_setting(
    setting: str,
    options: Mapping[str, Option],
    problems: Problems,
    offset: int | None = None,
    at: tuple[Location, Location] | None = None,
) -> tuple[str, Any] | None:
    """``name=value`` from the command line; problems point into the setting's text, which
    starts at column ``offset`` of the command line (remembered by the caller), or at the
    places of its name and value in a file (``at``: a scenario's ``options:``)."""
    file = COMMAND_LINE
    if offset is None and at is None:
        remember_source(file, f"--set {setting}")
        offset = len("--set ") + 1
    offset = offset or 1
    name, sep, raw = setting.partition("=")
    name = name.strip()
    if not sep or not name:
        problems.error(
            f"cannot read setting '{setting}'",
            Location(file, 1, offset, max(1, len(setting))),
            expected="name=value, e.g. birds=2",
        )
        return None
    option = options.get(name)
    if option is None:
        problems.error(
            f"unknown option '{name}'",
            at[0] if at else Location(file, 1, offset, len(name)),
            expected=_declared(options),
            suggestion=nearest(name, options),
        )
        return None
    try:
        return name, option.parse(raw)
    except ValueError:
        problems.error(
            f"'{raw}' is not allowed for option '{name}'",
            at[1] if at else Location(file, 1, offset + len(setting) - len(raw), max(1, len(raw))),
            expected=option.expected(),
            suggestion=_suggest(raw, option),
        )
        return None
