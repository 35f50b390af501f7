"""Safe YAML loading that remembers where every value came from.

The YAML is read as a stream of parser events (never constructed into Python objects by PyYAML),
so only plain data can result: mappings, sequences, strings, numbers, booleans and null.  Every
node keeps its file, line and column; a scalar can also map a character offset inside its value
back to the file, so an expression error points at the exact character, in plain, quoted and block
scalars alike.

Untrusted input is bounded: file size, number of nodes (aliases count as the nodes they expand
to, so alias bombs are refused without being expanded), nesting depth and scalar length.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

import yaml

from dsl.problems import ERROR, Location, Problem, RulesetError, make, remember_source

MAX_FILE_CHARS = 1_000_000
MAX_NODES = 50_000
MAX_DEPTH = 40
MAX_SCALAR_CHARS = 20_000

_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_T = "tag:yaml.org,2002:"
_CONSTRUCTED = {_T + "int", _T + "float", _T + "bool", _T + "null"}
_EXPLICIT_OK = _CONSTRUCTED | {_T + "str", _T + "map", _T + "seq"}


@dataclass(frozen=True)
class Source:
    """The text of one file and where its lines start, to turn offsets into line and column."""

    name: str
    text: str
    line_starts: tuple[int, ...]

    @classmethod
    def of(cls, name: str, text: str) -> Source:
        starts = [0]
        starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
        remember_source(name, text)
        return cls(name, text, tuple(starts))

    def location(self, index: int, length: int = 1) -> Location:
        index = max(0, min(index, len(self.text)))
        line = bisect_right(self.line_starts, index) - 1
        return Location(self.name, line + 1, index - self.line_starts[line] + 1, max(1, length))


class Node:
    """A YAML node: ``kind`` is 'map', 'seq' or 'scalar'; ``value`` holds the plain data.

    For a map, ``value`` is a dict from key string to Node, and ``keys`` the key nodes (for the
    location of a key).  For a sequence, a list of Nodes.  For a scalar, a str, int, float, bool
    or None.  ``size`` is the number of nodes below and including this one.
    """

    __slots__ = ("end", "keys", "kind", "size", "source", "start", "style", "value")

    def __init__(
        self, kind: str, value: Any, source: Source, start: int, end: int, style: str | None = None
    ) -> None:
        self.kind = kind
        self.value = value
        self.source = source
        self.start = start
        self.end = end
        self.style = style
        self.keys: dict[str, Node] = {}
        self.size = 1

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.plain()!r} @ {self.location})"

    @property
    def location(self) -> Location:
        if self.kind == "scalar":
            length = max(1, len(self.source.text[self.start : self.end].split("\n", 1)[0]))
        else:
            length = 1
        return self.source.location(self.start, length)

    def plain(self) -> Any:
        """The node as plain Python data (shared aliases are copied; size is already bounded)."""
        if self.kind == "map":
            return {k: v.plain() for k, v in self.value.items()}
        if self.kind == "seq":
            return [v.plain() for v in self.value]
        return self.value

    def offset_location(self, offset: int, length: int = 1) -> Location:
        """The file location of character ``offset`` of this scalar's string value."""
        index = self._source_index(offset)
        return self.source.location(index, length)

    def _source_index(self, offset: int) -> int:
        text = self.source.text
        value = str(self.value) if self.value is not None else ""
        start = self.start
        if self.style in ('"', "'"):
            start += 1
        elif self.style in ("|", ">"):
            newline = text.find("\n", start, self.end)
            start = newline + 1 if newline >= 0 else start
        if text[start : start + len(value)] == value:
            return start + min(max(offset, 0), len(value))
        # The value was folded, unescaped or de-indented: align it with the source text.
        j = start
        for i, ch in enumerate(value):
            k = j
            while k < self.end and text[k] != ch:
                k += 1
            if k < self.end:
                j = k
            if i == offset:
                return j
            j += 1
        return min(j, self.end)


def load_file(path: str | os.PathLike[str], display_name: str | None = None) -> Node:
    """Read and parse one YAML file; raise RulesetError (with a location) on any problem."""
    name = display_name or str(path)
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise RulesetError([_plain_error(name, f"cannot read file: {exc.strerror}")]) from None
    if size > MAX_FILE_CHARS * 4:
        raise RulesetError(
            [_plain_error(name, f"file too large ({size} bytes); the limit is {MAX_FILE_CHARS}")]
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_CHARS * 4 + 1)
    except OSError as exc:
        raise RulesetError([_plain_error(name, f"cannot read file: {exc.strerror}")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8", "replace")
        source = Source.of(name, good)
        raise RulesetError(
            [
                make(
                    ERROR,
                    "file is not valid UTF-8",
                    source.location(len(good)),
                    expected="a UTF-8 text file",
                )
            ]
        ) from None
    return load_text(text, name)


def load_text(text: str, name: str = "<string>") -> Node:
    """Parse YAML text into a Node tree; raise RulesetError on any problem."""
    if text.startswith("\ufeff"):
        text = text[1:]
    source = Source.of(name, text)
    if len(text) > MAX_FILE_CHARS:
        raise RulesetError(
            [
                make(
                    ERROR,
                    f"file too large ({len(text)} characters); the limit is {MAX_FILE_CHARS}",
                    source.location(0),
                )
            ]
        )
    builder = _Builder(source)
    try:
        builder.run()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        index = _mark_index(source, mark) if mark else 0
        message = f"YAML syntax: {exc.problem or exc.context}"
        if exc.context and exc.problem:
            message = f"YAML syntax: {exc.problem} ({exc.context})"
        hint = ""
        if source.text[index : index + 1] == "\t":
            hint = "spaces for indentation (YAML never indents with tabs)"
        elif "mapping values are not allowed" in message and _bare_key(source, index):
            hint = "the indentation of its siblings (a key indented deeper reads as text)"
        elif "mapping values are not allowed" in message:
            hint = (
                "text with ': ' inside (a named argument) in quotes, e.g. "
                'when: "standard(pair: rank in {2, 5, 8})"'
            )
        elif "did not find expected key" in message and _indents(source, index):
            hint = "the indentation of its siblings (the keys of one mapping start in one column)"
        builder.problems.append(make(ERROR, message, source.location(index), expected=hint))
    except yaml.YAMLError as exc:
        builder.problems.append(make(ERROR, f"YAML: {exc}", source.location(0)))
    except _Stop:
        pass
    except (RecursionError, MemoryError):
        builder.problems.append(make(ERROR, "input too complex", source.location(0)))
    if builder.problems:
        raise RulesetError(builder.problems)
    if builder.root is None:
        return Node("map", {}, source, 0, 0)
    return builder.root


def _line_before(source: Source, index: int) -> str:
    """The text of ``index``'s line before it."""
    return source.text[source.text.rfind("\n", 0, index) + 1 : index]


def _indents(source: Source, index: int) -> bool:
    """Whether only spaces come before ``index`` on its line (else the culprit is not the
    line's indentation but text after a value, such as ``when: "a" and b``)."""
    return _line_before(source, index).strip(" ") == ""


def _bare_key(source: Source, index: int) -> bool:
    """Whether a lone key (``doc``) and spaces come before the ``:`` at ``index`` on its
    line: a key indented deeper than its sibling, read as the text of the value above."""
    return re.fullmatch(r" *[A-Za-z_][\w-]*", _line_before(source, index)) is not None


class _Stop(Exception):
    """A bound was exceeded: stop reading at once."""


def _plain_error(name: str, message: str) -> Problem:
    return Problem(ERROR, message, Location(name, 1, 1))


def _mark_index(source: Source, mark: Any) -> int:
    line = min(max(mark.line, 0), len(source.line_starts) - 1)
    return source.line_starts[line] + max(mark.column, 0)


class _Builder:
    """Builds Nodes from parser events, without recursion and within the bounds."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self.root: Node | None = None
        self.anchors: dict[str, Node] = {}
        self.nodes = 0
        self.documents = 0

    def fail(self, message: str, index: int, **hints: str) -> None:
        self.problems.append(make(ERROR, message, self.source.location(index), **hints))
        raise _Stop

    def index(self, mark: Any) -> int:
        return _mark_index(self.source, mark)

    def count(self, node: Node, index: int) -> None:
        self.nodes += node.size
        if self.nodes > MAX_NODES:
            self.fail(
                f"too many values ({MAX_NODES} at most, aliases counted as what they expand to)",
                index,
            )

    def run(self) -> None:
        # Each stack frame: [node, pending key node or None]
        stack: list[list[Any]] = []
        for event in yaml.parse(self.source.text, Loader=_Parser):
            if isinstance(event, yaml.DocumentStartEvent):
                self.documents += 1
                if self.documents > 1:
                    self.fail(
                        "a ruleset file holds one YAML document; found a second",
                        self.index(event.start_mark),
                    )
                continue
            if isinstance(
                event, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)
            ):
                continue
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = stack.pop()
                node = frame[0]
                node.end = self.index(event.end_mark)
                self._finish(node, frame[2])
                self._attach(stack, node)
                continue
            start = self.index(event.start_mark)
            if isinstance(event, yaml.AliasEvent):
                target = self.anchors.get(event.anchor)
                if target is None:
                    self.fail(
                        f"unknown alias '*{event.anchor}'",
                        start,
                        expected="an anchor (&name) defined earlier in the file",
                    )
                self.count(target, start)
                self._attach(stack, target)
                continue
            tag = getattr(event, "tag", None)
            if tag and tag != "!" and tag not in _EXPLICIT_OK:
                self.fail(f"YAML tag '{tag}' is not allowed", start, expected="plain data: no tags")
            if isinstance(event, yaml.ScalarEvent):
                node = self._scalar(event, start)
                self._finish(node, event)
                self._attach(stack, node)
                continue
            if len(stack) >= MAX_DEPTH:
                self.fail(f"nesting too deep ({MAX_DEPTH} levels at most)", start)
            kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
            node = Node(kind, {} if kind == "map" else [], self.source, start, start)
            stack.append([node, None, event])

    def _finish(self, node: Node, event: Any) -> None:
        if node.kind != "scalar":
            node.size = 1 + (
                sum(v.size for v in node.value.values())
                if node.kind == "map"
                else sum(v.size for v in node.value)
            )
        else:
            self.count(node, node.start)
        anchor = getattr(event, "anchor", None)
        if anchor:
            self.anchors[anchor] = node

    def _attach(self, stack: list[list[Any]], node: Node) -> None:
        if not stack:
            self.root = node
            return
        frame = stack[-1]
        parent: Node = frame[0]
        if node.kind != "scalar":
            self.nodes += 1
        if parent.kind == "seq":
            parent.value.append(node)
            return
        if frame[1] is None:
            if node.kind != "scalar":
                self.fail(
                    "a mapping key must be a plain name",
                    node.start,
                    expected="a name such as 'hands'",
                )
            frame[1] = node
            return
        key_node: Node = frame[1]
        frame[1] = None
        key = "" if key_node.value is None else str(key_node.value)
        if key == "<<" and key_node.style is None:
            self.problems.append(
                make(
                    ERROR,
                    "YAML merge keys (<<) are not supported",
                    key_node.location,
                    expected="'extends:' to build on another ruleset, or an alias (*name)",
                )
            )
            return
        if key in parent.value:
            first = parent.keys[key].location
            self.problems.append(
                make(
                    ERROR,
                    f"duplicate key '{key}' (first defined at line {first.line})",
                    key_node.location,
                    expected="each key once per mapping",
                )
            )
            return
        parent.value[key] = node
        parent.keys[key] = key_node

    def _scalar(self, event: Any, start: int) -> Node:
        end = self.index(event.end_mark)
        text = event.value
        if len(text) > MAX_SCALAR_CHARS:
            self.fail(f"value too long ({len(text)} characters; {MAX_SCALAR_CHARS} at most)", start)
        style = event.style or None
        tag = event.tag if event.tag and event.tag != "!" else None
        if tag is None:
            tag = _RESOLVER.resolve(yaml.ScalarNode, text, event.implicit)
        value: Any = text
        if tag in _CONSTRUCTED:
            try:
                value = _CONSTRUCTOR.construct_object(
                    yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, style)
                )
            except (yaml.YAMLError, ValueError, OverflowError):
                self.problems.append(
                    make(ERROR, f"cannot read value '{text[:40]}'", self.source.location(start))
                )
                value = text
            if isinstance(value, float) and value != value:  # NaN is never a rule value
                value = text
        return Node("scalar", value, self.source, start, end, style)
