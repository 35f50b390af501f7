"""A ruleset as readable rules text, section by section, with where each rule comes from.

The text follows the structure description (``dsl.structure``): each section in the order
players explain the game, each field with its meaning, Chinese term and value; expressions are
quoted as written; option-controlled values name their option; sources and notes follow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dsl.ruleset import Ruleset
from dsl.structure import STRUCTURE, Entries, Field, Record

_SKIP_TOP = ("format", "extends", "ruleset", "options", "presets")
"""Top-level fields that are no section of rules: the file's format version (read at load,
never kept), the parent (shown as "Builds on"), and those shown before the sections."""


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
        read = [f"option.{n}" for p, n in ruleset.option_refs.items() if p[:-1] == here]
        if read:  # a condition on several options
            shown += f" (from {', '.join(read)})"
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


# --- What a house file changes ------------------------------------------------------------------

_PROSE = ("source", "note")
"""Fields that explain a rule without being one: a difference there changes nothing."""


@dataclass(frozen=True)
class Change:
    """One difference: ``kind`` is ``added``, ``removed``, ``changed``, ``set`` (a field of
    an added entry) or a heading (``entry``: an entry whose fields follow, ``group``: a
    nested field whose own fields follow)."""

    kind: str
    path: tuple[str, ...]
    label: str
    old: Any = None
    new: Any = None
    indent: str = ""
    shown: str = ""
    """How the text shows the new value, where not as ``old → new``."""


def diff(ruleset: Ruleset, parent: Ruleset) -> list[Change]:
    """What ``ruleset`` changes compared with ``parent``, in the order ``explain`` shows the
    rules: options and presets, then section by section.  Sources and notes are left out."""
    found = _option_changes(ruleset, parent)
    for name, spec in STRUCTURE.fields.items():
        if name not in _SKIP_TOP:
            found += _changes(spec, parent.data.get(name), ruleset.data.get(name), (name,), "")
    return found


def explain_diff(ruleset: Ruleset, parent: Ruleset) -> str:
    """``diff`` as text: a heading per section, ``+`` added, ``-`` removed, ``~`` changed
    entries, and fields as ``old → new``."""
    title = _text((ruleset.data.get("ruleset") or {}).get("title")) or ruleset.id
    lines = [f"# {title}  ({ruleset.id}) compared with {parent.id}", ""]
    section = ""
    for change in diff(ruleset, parent):
        if change.path[0] != section and {change.path[0], section} != {"options", "presets"}:
            section = change.path[0]
            spec = STRUCTURE.fields[section] if section not in _SKIP_TOP else None
            heading = "Options 选项" if spec is None else f"{spec.zh} {section}".strip()
            lines += ["", f"## {heading}", ""] if len(lines) > 2 else [f"## {heading}", ""]
        lines.append(change.indent + _line(change))
    if len(lines) == 2:
        lines.append(f"No rule differs from {parent.id}.")
    return "\n".join(lines).rstrip() + "\n"


def diff_json(ruleset: Ruleset, parent: Ruleset) -> dict[str, Any]:
    """``diff`` as plain data: every addition, removal and change with its path."""
    return {
        "ruleset": ruleset.id,
        "parent": parent.id,
        "changes": [
            {
                "change": c.kind,
                "path": list(c.path),
                "from": _comparable(c.old),
                "to": _comparable(c.new),
            }
            for c in diff(ruleset, parent)
            if c.kind in ("added", "removed", "changed", "set")
        ],
    }


def _line(change: Change) -> str:
    kind, label = change.kind, change.label
    if kind == "removed":
        return f"- {label} removed"
    if kind == "added":
        return f"+ {label} added" + (f": {change.shown}" if change.shown else "")
    if change.shown:
        return f"~ {label}: {change.shown}"
    if kind == "entry":
        return f"~ {label}"
    if kind == "group":
        return f"{label}:"
    if kind == "set":
        return f"{label}: {_value(change.new)}"
    return f"{label}: {_value(change.old)} → {_value(change.new)}"


def _option_changes(ruleset: Ruleset, parent: Ruleset) -> list[Change]:
    found = []
    for name in dict.fromkeys([*parent.options, *ruleset.options]):
        old, new = parent.options.get(name), ruleset.options.get(name)
        path = ("options", name)
        if new is None:
            found.append(Change("removed", path, name))
        elif old is None:
            shown = f"default {_value(new.default)}{_doc(new.doc)}"
            found.append(Change("added", path, name, None, new.default, shown=shown))
        else:
            for what in ("default", "allowed", "value"):
                before, after = getattr(old, what), getattr(new, what)
                if what == "value" and (before, after) == (old.default, new.default):
                    continue  # the value follows the default, already shown
                if before != after:
                    found.append(
                        Change("changed", (*path, what), f"~ {name} {what}", before, after)
                    )
    for name in dict.fromkeys([*parent.presets, *ruleset.presets]):
        was, now = parent.presets.get(name), ruleset.presets.get(name)
        path, label = ("presets", name), f"preset {name}"
        if now is None:
            found.append(Change("removed", path, label))
        elif was != now:
            shown = ", ".join(f"{k}={_value(v)}" for k, v in now.items())
            kind = "added" if was is None else "changed"
            found.append(Change(kind, path, label, was and dict(was), dict(now), shown=shown))
    return found


def _changes(spec: Field, old: Any, new: Any, path: tuple[str, ...], indent: str) -> list[Change]:
    """The differences between two values of one field."""
    kind = spec.type
    found: list[Change] = []
    if isinstance(kind, Entries):
        old, new = old or {}, new or {}
        for name in dict.fromkeys([*old, *new]):
            before, after = old.get(name), new.get(name)
            entry = after or before
            label = (
                f"{_text(entry.get('name')) or name} `{name}`" if entry.get("name") else f"`{name}`"
            )
            here = (*path, name)
            if after is None:
                found.append(Change("removed", here, label, indent=indent))
            elif before is None:
                found.append(Change("added", here, label, indent=indent))
                found += _fields_of(kind.entry, after, here, indent + "    ")
            elif _comparable(before) != _comparable(after):
                found.append(Change("entry", here, label, indent=indent))
                found += _changes(Field(name, kind.entry, ""), before, after, here, indent + "    ")
        return found
    if isinstance(kind, Record):
        old, new = old or {}, new or {}
        for name, field in kind.fields.items():
            before, after = old.get(name), new.get(name)
            if name in (*_PROSE, "name") or _comparable(before) == _comparable(after):
                continue
            here = (*path, name)
            if isinstance(field.type, Record | Entries):
                found.append(Change("group", here, _label(field), indent=indent))
                found += _changes(field, before, after, here, indent + "  ")
            else:
                found.append(Change("changed", here, _label(field), before, after, indent))
        return found
    if _comparable(old) != _comparable(new):
        found.append(Change("changed", path, path[-1], old, new, indent))
    return found


def _fields_of(
    record: Record, value: Mapping[str, Any], path: tuple[str, ...], indent: str
) -> list[Change]:
    """An added entry's rule fields, except those left at their default."""
    found: list[Change] = []
    for name, field in record.fields.items():
        item = value.get(name)
        if name in (*_PROSE, "name") or item in (None, (), {}) or _is_default(field, item):
            continue
        here = (*path, name)
        if isinstance(field.type, Record | Entries):
            found.append(Change("group", here, _label(field), indent=indent))
            found += _changes(field, None, item, here, indent + "  ")
        else:
            found.append(Change("set", here, _label(field), None, item, indent))
    return found


def _is_default(field: Field, value: Any) -> bool:
    """A field left at its default: a literal by its value, an expression by its text (the
    loader fills a missing ``when`` in as the text ``true``)."""
    if field.default is None:
        return False
    if hasattr(value, "text") and not isinstance(value, str):
        return _comparable(value) == " ".join(str(field.default).split())
    return value == field.default


def _comparable(value: Any) -> Any:
    """A value as plain data (JSON's), expressions by their text with spacing evened out,
    sources and notes left out."""
    if hasattr(value, "text") and not isinstance(value, str):
        return " ".join(str(value.text).split())
    if isinstance(value, Mapping):
        return {str(k): _comparable(v) for k, v in value.items() if k not in _PROSE}
    if isinstance(value, tuple | list):
        return [_comparable(v) for v in value]
    return value
