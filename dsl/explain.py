"""A ruleset as readable rules text, section by section, with where each rule comes from.

The text follows the structure description (``dsl.structure``): each section in the order
players explain the game, each field with its meaning, Chinese term and value; expressions are
quoted as written; option-controlled values name their option; sources and notes follow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dsl.ruleset import Ruleset
from dsl.structure import STRUCTURE, Entries, Field, Record

_SKIP_TOP = ("extends", "ruleset", "options", "presets")


def explain(ruleset: Ruleset) -> str:
    """The whole ruleset as Markdown-like text."""
    meta = ruleset.data.get("ruleset") or {}
    title = meta.get("title") or {}
    lines = [f"# {_text(title)}  ({ruleset.id})", ""]
    for key, label in (("region", "Region"), ("version", "Version"), ("summary", "Summary")):
        if meta.get(key):
            lines.append(f"{label}: {meta[key]}")
    if len(ruleset.files) > 1:
        lines.append("Builds on: " + " <- ".join(ruleset.files))
    _sources(lines, meta, "")
    lines.append("")
    if ruleset.options:
        lines += ["## Options 选项", ""]
        for name, option in ruleset.options.items():
            shown = _value(option.value)
            extra = f"default {_value(option.default)}"
            if option.allowed:
                extra += "; one of " + ", ".join(_value(v) for v in option.allowed)
            label = f"{name} ({_text(option.title)})" if option.title else name
            lines.append(f"- {label} = {shown} ({extra}){_doc(option.doc)}")
            if option.source:
                lines.append(f"  source: {'; '.join(option.source)}")
        lines.append("")
    if ruleset.presets:
        lines += ["## Presets 预设", ""]
        for name, values in ruleset.presets.items():
            settings = ", ".join(f"{k}={_value(v)}" for k, v in values.items())
            lines.append(f"- {name}: {settings or '(defaults)'}")
        lines.append("")
    for name, spec in STRUCTURE.fields.items():
        if name in _SKIP_TOP:
            continue
        value = ruleset.data.get(name)
        heading = f"## {spec.zh} {name}".replace("  ", " ") if spec.zh else f"## {name}"
        lines += [heading, ""]
        _section(lines, spec, value, ruleset, (name,), "")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _section(
    lines: list[str], spec: Field, value: Any, ruleset: Ruleset, path: tuple[Any, ...], indent: str
) -> None:
    kind = spec.type
    if isinstance(kind, Entries):
        if not value:
            lines.append(f"{indent}(none)")
            return
        for name, entry in value.items():
            title = _text(entry.get("name")) if entry.get("name") else name
            lines.append(f"{indent}- {title} `{name}`")
            _record(lines, kind.entry, entry, ruleset, (*path, name), indent + "  ")
        return
    if isinstance(kind, Record):
        _record(lines, kind, value or {}, ruleset, path, indent)
        return
    lines.append(f"{indent}{_value(value)}")


def _record(
    lines: list[str],
    record: Record,
    value: Mapping[str, Any],
    ruleset: Ruleset,
    path: tuple[Any, ...],
    indent: str,
) -> None:
    for name, spec in record.fields.items():
        if name in ("source", "note", "name"):
            continue
        here = (*path, name)
        item = value.get(name)
        if isinstance(spec.type, Record | Entries):
            lines.append(f"{indent}{_label(spec)}:")
            _section(lines, spec, item, ruleset, here, indent + "  ")
            continue
        shown = _value(item)
        option = ruleset.option_refs.get(here)
        if option:
            shown += f" (option.{option})"
        lines.append(f"{indent}{_label(spec)}: {shown} — {spec.doc}")
    _sources(lines, value, indent)


def _sources(lines: list[str], value: Mapping[str, Any], indent: str) -> None:
    if value.get("note"):
        lines.append(f"{indent}note: {value['note']}")
    if value.get("source"):
        lines.append(f"{indent}source: {'; '.join(value['source'])}")


def _label(spec: Field) -> str:
    return f"{spec.name} {spec.zh}" if spec.zh else spec.name


def _doc(doc: str) -> str:
    return f" — {doc}" if doc else ""


def _text(value: Any) -> str:
    if isinstance(value, Mapping):
        zh, en = value.get("zh"), value.get("en")
        return zh if zh == en or not en else f"{zh} / {en}" if zh else en
    return str(value) if value is not None else ""


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if hasattr(value, "text") and not isinstance(value, str):
        return f"`{' '.join(str(value.text).split())}`"
    if isinstance(value, Mapping):
        return _text(value)
    if isinstance(value, tuple | list):
        return ", ".join(_item(v) for v in value) if value else "(none)"
    return str(value)


def _item(value: Any) -> str:
    """A list's item; a list within it (kinds of equal rank) in brackets."""
    return f"[{_value(value)}]" if isinstance(value, tuple | list) else _value(value)
