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
        return ", ".join(_value(v) for v in value) if value else "(none)"
    return str(value)


# --- What a house file changes ------------------------------------------------------------------

_PROSE = ("source", "note")
"""Fields that explain a rule without being one: a difference there changes nothing."""


def explain_diff(ruleset: Ruleset, parent: Ruleset) -> str:
    """Only what ``ruleset`` changes compared with ``parent``: options, presets, and in each
    section the entries (hand types, payments ...) added, removed or changed, and the fields
    changed, each as ``old → new``.  Sources and notes are left out."""
    title = _text((ruleset.data.get("ruleset") or {}).get("title")) or ruleset.id
    lines = [f"# {title}  ({ruleset.id}) compared with {parent.id}", ""]
    body: list[str] = []
    _option_diff(body, ruleset, parent)
    for name, spec in STRUCTURE.fields.items():
        if name in _SKIP_TOP:
            continue
        found: list[str] = []
        _changes(found, spec, parent.data.get(name), ruleset.data.get(name), "")
        if found:
            heading = f"## {spec.zh} {name}".replace("  ", " ") if spec.zh else f"## {name}"
            body += [heading, "", *found, ""]
    if not body:
        body = [f"No rule differs from {parent.id}.", ""]
    return "\n".join(lines + body).rstrip() + "\n"


def _option_diff(lines: list[str], ruleset: Ruleset, parent: Ruleset) -> None:
    found = []
    for name in dict.fromkeys([*parent.options, *ruleset.options]):
        old, new = parent.options.get(name), ruleset.options.get(name)
        if new is None:
            found.append(f"- {name} removed")
        elif old is None:
            found.append(f"+ {name} added: default {_value(new.default)}{_doc(new.doc)}")
        else:
            for what in ("default", "allowed", "value"):
                before, after = getattr(old, what), getattr(new, what)
                if what == "value" and (before, after) == (old.default, new.default):
                    continue  # the value follows the default, already shown
                if before != after:
                    found.append(f"~ {name} {what}: {_value(before)} → {_value(after)}")
    for name in dict.fromkeys([*parent.presets, *ruleset.presets]):
        old, new = parent.presets.get(name), ruleset.presets.get(name)
        if old != new:
            shown = ", ".join(f"{k}={_value(v)}" for k, v in (new or {}).items())
            found.append(f"{'-' if new is None else '~' if old else '+'} preset {name}"
                         + (f": {shown}" if new else " removed"))  # fmt: skip
    if found:
        lines += ["## Options 选项", "", *found, ""]


def _changes(lines: list[str], spec: Field, old: Any, new: Any, indent: str) -> None:
    """The differences between two values of one field, as lines."""
    kind = spec.type
    if isinstance(kind, Entries):
        old, new = old or {}, new or {}
        for name in dict.fromkeys([*old, *new]):
            before, after = old.get(name), new.get(name)
            entry = after or before
            label = (
                f"{_text(entry.get('name')) or name} `{name}`" if entry.get("name") else f"`{name}`"
            )
            if after is None:
                lines.append(f"{indent}- {label} removed")
            elif before is None:
                lines.append(f"{indent}+ {label} added")
                _record_lines(lines, kind.entry, after, indent + "    ")
            elif _comparable(before) != _comparable(after):
                lines.append(f"{indent}~ {label}")
                _changes(lines, Field(name, kind.entry, ""), before, after, indent + "    ")
        return
    if isinstance(kind, Record):
        old, new = old or {}, new or {}
        for name, field in kind.fields.items():
            if name in _PROSE or name == "name":
                continue
            before, after = old.get(name), new.get(name)
            if _comparable(before) == _comparable(after):
                continue
            if isinstance(field.type, Record | Entries):
                lines.append(f"{indent}{_label(field)}:")
                _changes(lines, field, before, after, indent + "  ")
            else:
                lines.append(f"{indent}{_label(field)}: {_value(before)} → {_value(after)}")
        return
    if _comparable(old) != _comparable(new):
        lines.append(f"{indent}{_value(old)} → {_value(new)}")


def _record_lines(lines: list[str], record: Record, value: Mapping[str, Any], indent: str) -> None:
    """An added entry's rule fields, one per line, except those left at their default."""
    for name, field in record.fields.items():
        item = value.get(name)
        if name in (*_PROSE, "name") or item in (None, (), {}) or _is_default(field, item):
            continue
        if isinstance(field.type, Record | Entries):
            lines.append(f"{indent}{_label(field)}:")
            _changes(lines, field, None, item, indent + "  ")
        else:
            lines.append(f"{indent}{_label(field)}: {_value(item)}")


def _is_default(field: Field, value: Any) -> bool:
    """A literal left at its default (an expression, such as a value, is always shown)."""
    literal = not (hasattr(value, "text") and not isinstance(value, str))
    return literal and field.default is not None and value == field.default


def _comparable(value: Any) -> Any:
    """A value as plain data, expressions by their text, sources and notes left out."""
    if hasattr(value, "text") and not isinstance(value, str):
        return ("expression", " ".join(str(value.text).split()))
    if isinstance(value, Mapping):
        return {k: _comparable(v) for k, v in value.items() if k not in _PROSE}
    if isinstance(value, tuple | list):
        return tuple(_comparable(v) for v in value)
    return value
