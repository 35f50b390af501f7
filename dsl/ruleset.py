"""Load a ruleset: id or path → extends chain merged → options applied → structure checked →
expressions compiled → an immutable :class:`Ruleset`.

Merge rules for ``extends:`` (the extending file wins):

- mappings merge key by key, recursively;
- lists and plain values replace the inherited ones;
- a list may instead be changed with ``{add: [...], remove: [...]}``;
- a key set to ``~`` (null) removes the inherited value: a named entry (a hand type, a modifier
  ...) disappears, a field returns to its default;
- ``ruleset.abstract`` and ``ruleset.id`` are never inherited.

Every problem of every file in the chain is reported in one :class:`RulesetError`.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path as FilePath
from types import MappingProxyType
from typing import Any

from dsl import options as option_module
from dsl.options import Option
from dsl.problems import (
    ERROR,
    Location,
    Problem,
    Problems,
    RulesetError,
    make,
    nearest,
    sorted_problems,
)
from dsl.structure import MOMENTS, SECTIONS, Context, ExprSource, check
from dsl.types import BOOL, INT, SEAT, SUIT, TILE, collection
from dsl.yaml_source import Node, load_file, load_text
from handcore.tiles import EVERY, FLOWERS, HONOURS, STANDARD, TileError, TileSet

MAX_EXTENDS_DEPTH = 8
ROOT_ENV = "MJRULES_RULESETS"
_SUFFIXES = (".yaml", ".yml")


# --- Finding files ----------------------------------------------------------------------------

SHIPPED = FilePath(__file__).resolve().parents[1] / "rulesets"
MAX_ID_BYTES = 200
_ID_PART = re.compile(r"[^/\\\x00-\x1f:*?\"<>|]+")


@dataclass(frozen=True)
class Folder:
    """One folder of the ruleset search path and how a person would name it."""

    path: FilePath
    label: str


def search_path(root: str | os.PathLike[str] | None = None) -> tuple[Folder, ...]:
    """Where ruleset ids are looked up, first match first: ``./rulesets``, then each folder
    of $MJRULES_RULESETS (os.pathsep-separated), then the shipped rulesets.  A given ``root``
    is the whole path (tools and tests)."""
    if root is not None:
        return (Folder(FilePath(root), _display(FilePath(root))),)
    found = [Folder(FilePath.cwd() / "rulesets", "./rulesets")]
    found += [Folder(FilePath(p), p) for p in os.environ.get(ROOT_ENV, "").split(os.pathsep) if p]
    found.append(Folder(SHIPPED, "shipped"))
    out: dict[FilePath, Folder] = {}
    for folder in found:
        try:
            key = folder.path.resolve()
            if not key.is_dir():
                continue
        except OSError:
            continue
        label = "shipped" if key == SHIPPED else folder.label
        out.setdefault(key, Folder(folder.path, label))
    return tuple(out.values())


def default_root() -> FilePath:
    """The shipped rulesets folder."""
    return SHIPPED


def _ids_in(folder: FilePath) -> list[str]:
    return sorted(
        str(p.relative_to(folder).with_suffix("")).replace(os.sep, "/")
        for p in folder.rglob("*.yaml")
        if _inside(p, (folder,))
    )


def available_ids(root: str | os.PathLike[str] | None = None) -> list[str]:
    """Every ruleset id on the search path (or under ``root``), each once."""
    return _available(search_path(root))


def _available(folders: Iterable[Folder]) -> list[str]:
    return sorted({i for folder in folders for i in _ids_in(folder.path)})


def found_rulesets(root: str | os.PathLike[str] | None = None) -> list[tuple[str, Folder]]:
    """Each id on the search path with the folder it is read from (the first that has it)."""
    first: dict[str, Folder] = {}
    for folder in search_path(root):
        for the_id in _ids_in(folder.path):
            first.setdefault(the_id, folder)
    return sorted(first.items())


def id_problem(ref: str) -> str:
    """Why ``ref`` cannot be a ruleset id ('' if it can)."""
    if len(ref.encode("utf-8")) > MAX_ID_BYTES:
        return f"a ruleset id is at most {MAX_ID_BYTES} bytes long"
    parts = ref.split("/")
    if not all(_ID_PART.fullmatch(p) and p not in (".", "..") for p in parts):
        return "a ruleset id is names joined by '/', without '..', '\\' or a leading '/'"
    return ""


def _inside(path: FilePath, folders: Iterable[FilePath]) -> bool:
    try:
        real = path.resolve()
    except OSError:
        return False
    return any(real.is_relative_to(f.resolve()) for f in folders)


def _is_file(path: FilePath) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long, a loop of links ...
        return False


def _root_of(path: FilePath) -> FilePath | None:
    """The enclosing 'rulesets' directory of a file, if any (for the file's id)."""
    for parent in path.resolve().parents:
        if parent.name == "rulesets":
            return parent
    return None


def ruleset_id(path: FilePath, folders: Iterable[FilePath] = ()) -> str:
    """A file's id: its path under the search folder or 'rulesets' folder holding it."""
    for root in (*folders, _root_of(path)):
        if root is not None:
            try:
                rel = path.resolve().relative_to(root.resolve())
                return str(rel.with_suffix("")).replace(os.sep, "/")
            except ValueError:
                pass
    return path.stem


def is_path(ref: str) -> bool:
    """A reference to a file (it ends in .yaml), not an id."""
    return ref.endswith(_SUFFIXES)


def resolve(
    ref: str, folders: Iterable[FilePath], relative_to: FilePath | None = None
) -> FilePath | None:
    """The file of an id (inside the search folders only) or of a path (beside
    ``relative_to`` when given); None if there is none.  A file whose ``extends`` names
    its own id builds on the next file of that id on the search path (an overlay)."""
    if is_path(ref):
        candidate = FilePath(ref)
        if relative_to is not None:
            if candidate.is_absolute():
                return None
            candidate = relative_to.parent / candidate
        return candidate if _is_file(candidate) else None
    if id_problem(ref):
        return None
    for folder in folders:
        candidate = folder / f"{ref}.yaml"
        itself = relative_to is not None and candidate.resolve() == relative_to.resolve()
        if _is_file(candidate) and _inside(candidate, (folder,)) and not itself:
            return candidate
    return None


def _shorten(ref: str) -> str:
    return ref if len(ref) <= 80 else ref[:77] + "..."


def _missing(ref: str, relative_to: FilePath | None) -> str:
    """Why a path names no ruleset file."""
    path = FilePath(ref)
    if relative_to is not None:
        if path.is_absolute():
            return "a file names another by a relative path only"
        path = relative_to.parent / path
    try:
        return "a folder, not a file" if path.is_dir() else "no such file"
    except OSError as exc:
        return (exc.strerror or "cannot read").lower()


def _display(path: FilePath) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


_OWN_IDS = (
    " (put rulesets of your own in ./rulesets of the current folder or a folder named by "
    f"${ROOT_ENV})"
)
"""Where an id not found could be put: the search path that users extend."""


def _where_ids(folders: Iterable[Folder]) -> str:
    return "a ruleset id in " + ", ".join(f.label for f in folders) + " (mjrules list)"


# --- The result -------------------------------------------------------------------------------


class Frozen(Mapping[str, Any]):
    """A read-only mapping whose keys can also be read as attributes: ``rs.payment.base``."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __getattr__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a ruleset is immutable")

    def __repr__(self) -> str:
        return f"Frozen({self._data!r})"


@dataclass(frozen=True)
class Ruleset:
    """A checked, compiled ruleset.  Sections are read as ``rs.section`` or ``rs["section"]``.

    Expression fields hold compiled expressions (callables over a situation); literal fields
    hold their values, with options already applied.
    """

    id: str
    path: str
    files: tuple[str, ...]
    sha256: str  # of the text of every file in the extends chain: the rules' content
    given_path: str  # the file's absolute path when its id does not find it, else ''
    options: Mapping[str, Option]
    presets: Mapping[str, Mapping[str, Any]]
    data: Frozen
    warnings: tuple[Problem, ...] = ()
    locations: Mapping[tuple[Any, ...], Location] = field(default_factory=dict)
    option_refs: Mapping[tuple[Any, ...], str] = field(default_factory=dict)

    @property
    def tileset(self) -> TileSet:
        """The tiles in play, as the ``tiles`` section declares them (read once)."""
        found = self.__dict__.get("_tileset")
        if found is None:
            try:
                found = tileset_of(self.data.get("tiles") or {})
            except ValueError:  # an abstract ruleset's: checked leniently
                found = STANDARD
            object.__setattr__(self, "_tileset", found)
        return found

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "data")
        if name in data:
            return data[name]
        raise AttributeError(name)

    def __getitem__(self, name: str) -> Any:
        return self.data[name]

    def get(self, dotted: str, default: Any = None) -> Any:
        value: Any = self.data
        for part in dotted.split("."):
            if not isinstance(value, Mapping) or part not in value:
                return default
            value = value[part]
        return value

    @property
    def option_values(self) -> dict[str, Any]:
        return {name: option.value for name, option in self.options.items()}

    def unplayable(self) -> str | None:
        """Why this ruleset cannot be played or settled (an abstract base leaves rules to
        those that extend it, and its hands would fail midway), or None."""
        if not self.get("ruleset.abstract"):
            return None
        return (f"{self.id} is abstract (ruleset.abstract: true): a base that other rulesets "
                "extend, with rules left out; name a ruleset that extends it")  # fmt: skip


# --- Loading ----------------------------------------------------------------------------------


@dataclass
class Loaded:
    """The outcome of a check: the ruleset (None if there were errors) and every problem."""

    ruleset: Ruleset | None
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return self.ruleset is not None


def load(
    ref: str | os.PathLike[str],
    *,
    settings: Iterable[str] = (),
    preset: str | None = None,
    root: str | os.PathLike[str] | None = None,
    compile: bool = True,
    relative_to: str | os.PathLike[str] | None = None,
    named_at: Location | None = None,
    flags: tuple[str, str] = ("--set", "--preset"),
) -> Ruleset:
    """Load a ruleset by id or path; raise RulesetError listing every problem found."""
    loaded = check_ruleset(
        ref,
        settings=settings,
        preset=preset,
        root=root,
        compile=compile,
        relative_to=relative_to,
        flags=flags,
        named_at=named_at,
    )
    if loaded.ruleset is None:
        raise RulesetError(loaded.problems)
    return loaded.ruleset


def check_ruleset(
    ref: str | os.PathLike[str],
    *,
    settings: Iterable[str] = (),
    preset: str | None = None,
    root: str | os.PathLike[str] | None = None,
    compile: bool = True,
    relative_to: str | os.PathLike[str] | None = None,
    named_at: Location | None = None,
    flags: tuple[str, str] = ("--set", "--preset"),
) -> Loaded:
    """Like ``load`` but returns the problems (warnings too) instead of raising.

    ``ref`` is an id, looked up on the search path only, or a path ending in .yaml: as given
    (a file named on the command line), or relative to the file ``relative_to`` that names it
    (a scenario, a log), at ``named_at`` (where a ruleset not found is reported).  ``flags``
    are the command-line flags that problems with ``settings`` and ``preset`` quote
    (``--set-b``, ``--preset-b`` for one side of a pair)."""
    problems = Problems()
    folders = search_path(root)
    ref = str(ref)
    base = FilePath(relative_to) if relative_to is not None else None
    path = resolve(ref, [f.path for f in folders], relative_to=base)
    if path is None:
        shown = _shorten(ref)
        location = named_at or Location(shown, 0, 0)  # a name, not a place in a file
        if is_path(ref):
            problems.error(
                f"no ruleset file '{shown}': {_missing(ref, base)}",
                location,
                expected="a .yaml file" + (f" beside {_display(base)}" if base else ""),
            )
        else:
            why = id_problem(ref)
            problems.error(
                f"no ruleset '{shown}'" + (f": {why}" if why else ""),
                location,
                expected=_where_ids(folders)
                + " or a path to a .yaml file"
                + (f" relative to {_display(base)}" if base else "")
                + ("" if root is not None else _OWN_IDS),
                suggestion=nearest(shown, _available(folders)),
            )
        return Loaded(None, problems.items)
    try:
        merged, files, digest = _load_chain(path, folders, problems)
        ruleset = _build(
            merged, path, files, digest, folders, settings, preset, flags, problems, compile
        )
    except RulesetError as exc:
        problems.extend(p for p in exc.problems if p not in problems.items)
        ruleset = None
    if problems.has_errors:
        ruleset = None
    return Loaded(ruleset, sorted_problems(problems.items))


def _read(path: FilePath, folders: Sequence[Folder], problems: Problems) -> Node:
    """One file of a chain.  A file outside the search path that is not a ruleset is
    refused without a word of its content."""
    name = _display(path)
    inside = _inside(path, [f.path for f in folders])
    try:
        node = load_file(path, name)
    except RulesetError:
        if inside or _has_section_line(path):
            raise
        raise RulesetError([_not_a_ruleset(name)]) from None
    if not inside and not (node.kind == "map" and set(node.value) & set(SECTIONS)):
        raise RulesetError([_not_a_ruleset(name)])
    return _current_format(node, name, problems)


def _current_format(node: Node, name: str, problems: Problems) -> Node:
    """A file of an older format read as the current one: the steps of dsl/migrate.py applied
    in memory.  A file they leave alone is read as it is; one they change is read as
    rewritten, under the name ``NAME (as format N)``, with a warning naming
    ``mjrules migrate``."""
    from dsl.migrate import FORMAT, MigrationError, version

    given = node.value.get("format") if node.kind == "map" else None
    try:
        if given is None:
            found = 1
        else:
            found = version(given.plain(), given.location.line, given.location.col)
        if found == FORMAT:
            return node
        migrated = _migrated(node.source.text)
    except MigrationError as exc:
        where = Location(name, exc.line, exc.col)
        raise RulesetError([make(ERROR, exc.message, where, expected=exc.expected)]) from None
    if not migrated.changed:
        return node
    shown = f"{name} (as format {FORMAT})"
    problems.warning(
        f"format {found}: read as format {FORMAT} in memory (shown as '{shown}'); "
        f"'mjrules migrate {name} --write' rewrites the file",
        node.location,
        expected=f"format: {FORMAT}",
    )
    return load_text(migrated.text, shown)


@lru_cache(maxsize=128)
def _migrated(text: str) -> Any:
    from dsl.migrate import migrate_text

    return migrate_text(text)


def _has_section_line(path: FilePath) -> bool:
    try:
        with open(path, "rb") as handle:
            text = handle.read(65536).decode("utf-8", "replace")
    except OSError:
        return False
    return re.search(rf"^(?:{'|'.join(SECTIONS)})\s*:", text, re.M) is not None


def _not_a_ruleset(name: str) -> Problem:
    return Problem(
        ERROR,
        "not a ruleset (its content is not shown)",
        Location(name, 1, 1),
        expected="a YAML mapping of sections such as ruleset:, tiles:, hands:",
    )


def _load_chain(
    path: FilePath, folders: Sequence[Folder], problems: Problems
) -> tuple[Node, tuple[str, ...], str]:
    """Load a file and everything it extends, and merge them (base first).  Also returns a
    hash of the files' text, base first, that names this content wherever it lies."""
    chain: list[Node] = []
    seen: list[FilePath] = []
    current = path
    while True:
        node = _read(current, folders, problems)
        seen.append(current.resolve())
        chain.append(node)
        if node.kind != "map" or "extends" not in node.value:
            break
        target = node.value["extends"]
        ref = target.value if target.kind == "scalar" else None
        if not isinstance(ref, str) or not ref:
            problems.error(
                "'extends' names one ruleset",
                target.location,
                expected="an id like 'region/base' or a path ending in .yaml",
            )
            break
        following = resolve(ref, [f.path for f in folders], relative_to=current)
        if following is None:
            shown = _shorten(ref)
            why = _missing(ref, current) if is_path(ref) else id_problem(ref)
            problems.error(
                f"no ruleset '{shown}' to extend" + (f": {why}" if why else ""),
                target.location,
                expected=_where_ids(folders) + " or a relative path ending in .yaml",
                suggestion=nearest(shown, _available(folders)),
            )
            break
        if following.resolve() in seen:
            cycle = " -> ".join(_display(p) for p in [*seen, following.resolve()])
            problems.error(
                f"'extends' makes a cycle: {cycle}",
                target.location,
                expected="a chain of rulesets that ends in one without 'extends'",
            )
            break
        if len(chain) >= MAX_EXTENDS_DEPTH:
            problems.error(
                f"'extends' chain longer than {MAX_EXTENDS_DEPTH}",
                target.location,
                expected="a shorter chain of rulesets",
            )
            break
        current = following
    problems.raise_if_errors()
    merged = chain[-1]
    for child in reversed(chain[:-1]):
        merged = merge(merged, child, problems, top=True)
    files = tuple(n.source.name for n in reversed(chain))
    digest = hashlib.sha256()
    for node in reversed(chain):
        text = node.source.text.replace("\r\n", "\n").encode("utf-8")
        digest.update(b"%d\n" % len(text) + text)
    return merged, files, "sha256:" + digest.hexdigest()


def merge(base: Node, child: Node, problems: Problems, top: bool = False) -> Node:
    """The child's tree over the base's, by the merge rules in this module's docstring."""
    if base.kind != "map" or child.kind != "map":
        return child
    out = Node("map", dict(base.value), child.source, child.start, child.end)
    out.keys = dict(base.keys)
    if top:
        out.value.pop("extends", None)
        if "ruleset" in out.value and out.value["ruleset"].kind == "map":
            inherited = out.value["ruleset"]
            meta = Node(
                "map",
                {k: v for k, v in inherited.value.items() if k not in ("abstract", "id")},
                inherited.source,
                inherited.start,
                inherited.end,
            )
            meta.keys = {k: v for k, v in inherited.keys.items() if k in meta.value}
            out.value["ruleset"] = meta
    for key, value in child.value.items():
        if key == "extends" and top:
            continue
        old = out.value.get(key)
        if value.kind == "scalar" and value.value is None and old is not None:
            out.value.pop(key)
            out.keys.pop(key, None)
            continue
        # A null with nothing inherited to remove stays: the structure check says what it is
        # (a field at its default, or a slip such as a junk key in a name map).
        if old is not None and old.kind == "seq" and _is_list_change(value):
            out.value[key] = _change_list(old, value, problems)
        elif old is not None and old.kind == "map" and value.kind == "map":
            out.value[key] = merge(old, value, problems)
        else:
            out.value[key] = value
        out.keys[key] = child.keys[key]
    out.size = 1 + sum(v.size for v in out.value.values())
    return out


def _is_list_change(node: Node) -> bool:
    return node.kind == "map" and bool(node.value) and set(node.value) <= {"add", "remove"}


def _change_list(old: Node, change: Node, problems: Problems) -> Node:
    items = list(old.value)
    remove = change.value.get("remove")
    if remove is not None:
        if remove.kind != "seq":
            problems.error("'remove' takes a list", remove.location, expected="[item, ...]")
        else:
            for gone in remove.value:
                match = [i for i, item in enumerate(items) if item.plain() == gone.plain()]
                if not match:
                    problems.warning(
                        f"{gone.plain()!r} is not in the inherited list",
                        gone.location,
                        expected=", ".join(repr(i.plain()) for i in items),
                    )
                for i in reversed(match):
                    del items[i]
    add = change.value.get("add")
    if add is not None:
        if add.kind != "seq":
            problems.error("'add' takes a list", add.location, expected="[item, ...]")
        else:
            items.extend(add.value)
    out = Node("seq", items, change.source, change.start, change.end)
    out.size = 1 + sum(i.size for i in items)
    return out


def _build(
    merged: Node,
    path: FilePath,
    files: tuple[str, ...],
    digest: str,
    folders: Sequence[Folder],
    settings: Iterable[str],
    preset: str | None,
    flags: tuple[str, str],
    problems: Problems,
    compile: bool,
) -> Ruleset | None:
    if merged.kind != "map":
        problems.error(
            "a ruleset is a mapping of sections",
            merged.location,
            expected="sections such as 'ruleset:', 'tiles:', 'hands:'",
        )
        return None
    ctx = Context(problems)
    meta = merged.value.get("ruleset")
    abstract = (
        meta is not None and meta.kind == "map" and _scalar(meta.value.get("abstract")) is True
    )
    ctx.abstract = abstract
    declared = option_module.declare(merged.value.get("options"), ctx)
    preset_values = option_module.presets(merged.value.get("presets"), declared, ctx)
    options = option_module.apply(declared, preset_values, preset, settings, problems, flags)
    ctx.options = dict(options)
    body = Node(
        "map",
        {k: v for k, v in merged.value.items() if k not in ("options", "presets")},
        merged.source,
        merged.start,
        merged.end,
    )
    body.keys = merged.keys
    data = check(body, ctx)
    del data["format"]  # read before the checks (_current_format): every file is current now
    data["options"] = options
    data["presets"] = preset_values
    paths = [f.path for f in folders]
    the_id = ruleset_id(path, paths)
    by_id = resolve(the_id, paths)
    found = by_id is not None and by_id.resolve() == path.resolve()
    _cross_check(data, ctx, the_id, merged)
    tileset = _tileset(data.get("tiles") or {}, ctx, merged)
    # Expressions are compiled even after other errors, so that one run reports them all.
    compiled = _compile(ctx, options, data, tileset) if compile else {}
    if problems.has_errors:
        return None
    if compile:
        _audit_shapes(data, compiled, ctx, options, merged, tileset)
        if not ctx.abstract:
            _audit_classes(data, compiled, ctx, merged)
    frozen = _freeze(data, compiled, ())
    return Ruleset(
        id=the_id,
        path=str(path),
        files=files,
        sha256=digest,
        given_path="" if found else os.path.abspath(path),
        options=MappingProxyType(dict(options)),
        presets=MappingProxyType({k: MappingProxyType(v) for k, v in preset_values.items()}),
        data=frozen,
        warnings=tuple(p for p in problems.items if not p.is_error),
        locations=MappingProxyType({p: n.location for p, n in ctx.locations.items()}),
        option_refs=MappingProxyType(dict(ctx.option_refs)),
    )


def tileset_of(tiles: Mapping[str, Any]) -> TileSet:
    """The tile set a checked ``tiles`` section declares; a ValueError if there is none."""
    suits = tiles.get("suits")
    suits = [s.letter for s in STANDARD.suits] if suits is None else suits
    return TileSet(
        copies=tiles.get("copies") or 4,
        ranks=tiles.get("ranks") or 9,
        missing=tuple(i for i, s in enumerate(s.letter for s in STANDARD.suits) if s not in suits),
        honours=_numbers(tiles.get("honours"), HONOURS),
        flowers=_numbers(tiles.get("flowers"), FLOWERS),
        wilds=tuple(_wild_tile(name) for name in (tiles.get("wilds") or {}).get("tiles") or ()),
    )


def _wild_tile(name: str) -> int:
    """The tile a wild tile's name names; a ValueError when it is not one tile."""
    try:
        found = EVERY.parse(name)
    except TileError as error:
        raise ValueError(f"'{name}' is not a tile: {error}") from None
    if len(found) != 1:
        raise ValueError(f"'{name}' is {len(found)} tiles, not one")
    return found[0]


def _tileset(tiles: Mapping[str, Any], ctx: Context, root: Node) -> TileSet:
    """The tile set the ``tiles`` section declares (the standard one when it has errors)."""
    try:
        found = tileset_of({**tiles, "wilds": None})
    except ValueError as error:
        if not ctx.abstract:
            ctx.problems.error(
                f"no tile set: {error}", _where(ctx, ("tiles",), root), expected="a suit in play"
            )
        return STANDARD
    wilds = tiles.get("wilds") or {}
    chosen: list[int] = []
    for i, name in enumerate(wilds.get("tiles") or ()):
        if name is None:
            continue
        where = _where(ctx, ("tiles", "wilds", "tiles", i), root)
        try:
            tile = _wild_tile(name)
        except ValueError as error:
            ctx.problems.error(str(error), where, expected="one tile, such as 中, 5z or 1m")
            continue
        if tile not in found.in_play or found.is_flower(tile):
            ctx.problems.error(
                f"wild tile {EVERY.name(tile)} is "
                + (
                    "a flower: flowers are never wild"
                    if found.is_flower(tile)
                    else "not in this tile set"
                ),
                where,
                expected="a tile in play: " + found.format(found.in_play),
            )
        else:
            chosen.append(tile)
    if chosen and wilds.get("indicator", "none") != "none":
        ctx.problems.error(
            "wild tiles are either fixed (tiles) or chosen at the deal (indicator), not both",
            _where(ctx, ("tiles", "wilds", "indicator"), root),
            expected="indicator: none, or no tiles",
        )
    problem = _wild_stand_problem(found, wilds.get("stand_for", "any"), set(chosen))
    if problem and (chosen or wilds.get("indicator", "none") != "none"):
        ctx.problems.error(
            problem, _where(ctx, ("tiles", "wilds", "stand_for"), root),
            expected="stand_for: any with all seven honours or none; suited with wild honours only",
        )  # fmt: skip
    return replace(found, wilds=tuple(dict.fromkeys(chosen)))


def _wild_stand_problem(tileset: TileSet, stand_for: str, wild: set[int]) -> str | None:
    """Why the hand tables cannot read wilds standing for ``stand_for`` in ``tileset``
    (None: they can): they complete the honour block as a whole, or leave it out."""
    honours = {t for t in tileset.in_play if tileset.is_honour(t)}
    if stand_for == "suited" and not honours <= wild:
        return "wilds standing for suited tiles only need no honours in play but wild ones"
    if stand_for == "any" and honours and len(honours) != HONOURS.size:
        return (
            "wilds standing for any tile need all seven honours in play or none "
            f"(this set has {len(honours)}); with only wild honours write stand_for: suited"
        )
    return None


def _numbers(names: Any, block: Any) -> tuple[int, ...]:
    """Tile numbers (1 to the block's size) of tile names (``中`` or ``5z``, as checked)."""
    return tuple(
        sorted(
            {
                int(name[0]) if name[0].isdigit() else [c[0] for c in block.chars].index(name) + 1
                for name in names or ()
            }
        )
    )


def _scalar(node: Node | None) -> Any:
    return node.value if node is not None and node.kind == "scalar" else None


def _where(ctx: Context, path: tuple[Any, ...], fallback: Node) -> Location:
    node = ctx.keys.get(path) or ctx.locations.get(path)
    return (node or fallback).location


def _cross_check(data: dict[str, Any], ctx: Context, the_id: str, root: Node) -> None:
    """Checks that span fields: names that refer to other entries, ids, sources."""
    problems = ctx.problems
    meta = data.get("ruleset") or {}
    if meta.get("id") and meta["id"] != the_id:
        problems.warning(
            f"ruleset.id '{meta['id']}' differs from the file's id '{the_id}'",
            _where(ctx, ("ruleset", "id"), root),
            expected=the_id,
        )
    classes = (data.get("scoring") or {}).get("classes") or ()
    for section in ("hands", "modifiers"):
        for name, entry in (data.get(section) or {}).items():
            if not entry or not entry.get("class") or entry["class"] in classes:
                continue
            if (section, name, "class") in ctx.locations:
                problems.error(
                    f"class '{entry['class']}' is not declared",
                    _where(ctx, (section, name, "class"), root),
                    expected="one of scoring.classes: " + ", ".join(classes),
                    suggestion=nearest(entry["class"], classes),
                )
            else:  # no 'class:' given: the field's default
                problems.error(
                    f"the default class '{entry['class']}' is not declared",
                    _where(ctx, (section, name), root),
                    expected=f"'{entry['class']}' in scoring.classes, or 'class:' one of "
                    + ", ".join(classes),
                )
    for section, what in (("hands", "a hand type"), ("modifiers", "a modifier")):
        entries = data.get(section) or {}
        for name, entry in entries.items():
            for i, other in enumerate((entry or {}).get("replaces") or ()):
                if other is not None and other not in entries:
                    problems.error(
                        f"'{other}' is not {what}",
                        _where(ctx, (section, name, "replaces", i), root),
                        expected=f"a name under '{section}:'",
                        suggestion=nearest(other, entries),
                    )
    if not ctx.abstract:
        for section in ("hands", "modifiers", "payments"):
            for name, entry in (data.get(section) or {}).items():
                if entry and not entry.get("source"):
                    problems.warning(
                        f"{section}.{name} has no source",
                        _where(ctx, (section, name), root),
                        expected="source: '<seed file> <section>' or 'house rule'",
                    )
        for name, entry in ((data.get("opening_hands") or {}).get("hands") or {}).items():
            if entry and not entry.get("source"):
                problems.warning(
                    f"opening_hands.hands.{name} has no source",
                    _where(ctx, ("opening_hands", "hands", name), root),
                    expected="source: '<seed file> <section>' or 'house rule'",
                )


def _compile(
    ctx: Context, options: Mapping[str, Option], data: dict[str, Any], tileset: TileSet
) -> dict[tuple[Any, ...], Any]:
    """Compile every expression field with the expression language's compiler."""
    from dsl.expressions import ExpressionError, Scope, compile_expression

    scopes: dict[str, Any] = {}
    compiled: dict[tuple[Any, ...], Any] = {}
    kinds = {
        name: (list(o.allowed) if o.type == "choice" else o.type) for name, o in options.items()
    }
    classes: dict[str, str] = {}
    for section in ("hands", "modifiers"):
        for name, entry in (data.get(section) or {}).items():
            if entry and entry.get("class"):
                classes[name] = entry["class"]
    # The values and defaults of choices come first: they make choice.NAME(seat) elsewhere.
    first = [s for s in ctx.expressions if _choice_made(s)]
    choices: dict[str, Any] = {}
    for group in (first, [s for s in ctx.expressions if not _choice_made(s)]):
        for source in group:
            section = _section(source, data)
            scope = scopes.get(section)
            if scope is None:
                try:
                    scope = _scope(Scope, section, kinds, classes, choices, tileset)
                except (ExpressionError, ValueError, KeyError) as exc:
                    ctx.problems.error(
                        f"no expression scope '{section}': {exc}", source.node.location
                    )
                    scopes[section] = False
                    continue
                scopes[section] = scope
            if scope is False:
                continue
            try:
                expression = compile_expression(source.text, scope, expect=source.result or None)
                compiled[source.path] = replace(
                    expression, origin=partial(_expression_problem, source)
                )
            except ExpressionError as exc:
                ctx.problems.add(_expression_problem(source, exc))
        if group is first:
            choices = {
                name: (kind, compiled.get(("choices", name, "default")))
                for name, kind in choice_types(data, compiled, ctx).items()
            }
            scopes.clear()
    return compiled


_ENGINE_NAMES = (
    "discard", "win", "kong", "pung", "chow", "pass", "take",
    "deal", "turn", "claim", "kong_tiles", "last_offer", "last_turn", "over",
)  # fmt: skip
"""The engine's own action kinds and phases: a choice's action and phase are named after the
choice."""


_CHOOSABLE = (INT, BOOL, SEAT, SUIT, TILE)
"""What a choice of values may choose among."""


def _at(ctx: Context, path: tuple[Any, ...]) -> Location:
    """Where ``path`` is written, or the nearest entry around it."""
    while path:
        node = ctx.keys.get(path) or ctx.locations.get(path)
        if node is not None:
            return node.location
        path = path[:-1]
    return Location("<ruleset>", 1, 1)


def _choice_made(source: ExprSource) -> bool:
    """A choice's values or default: compiled before the fields that read choices."""
    return source.path[0] == "choices" and source.path[-1] in ("values", "default")


def choice_types(
    data: Mapping[str, Any], compiled: Mapping[tuple[Any, ...], Any], ctx: Context
) -> dict[str, Any]:
    """The type of each choice's value: a collection of tiles for a choice of tiles, else the
    element type of its values; what a choice's fields must agree on is checked here."""
    found: dict[str, Any] = {}
    for name, entry in (data.get("choices") or {}).items():
        if not entry:
            continue
        where = _at(ctx, ("choices", name))
        values = compiled.get(("choices", name, "values"))
        tiles = entry.get("tiles") or 0
        if name in _ENGINE_NAMES:
            ctx.problems.error(
                f"choice '{name}' has the name of one of the engine's actions or phases",
                where,
                expected="a name other than " + ", ".join(_ENGINE_NAMES),
            )
        if (values is None) == (not tiles) and not ctx.abstract:
            ctx.problems.error(
                f"choice '{name}' needs either values or tiles",
                where,
                expected="values: <collection> (a value), or tiles: N (a set of tiles)",
            )
            continue
        if tiles:
            kind = collection(TILE)
        elif values is None:
            continue
        elif not values.type.is_collection or values.type.element not in _CHOOSABLE:
            ctx.problems.error(
                f"choices.{name}.values gives {values.type}",
                _at(ctx, ("choices", name, "values")),
                expected="a collection of int, bool, seat, suit or tile",
            )
            continue
        else:
            kind = values.type.element
        effect = entry.get("effect")
        if (effect == "exchange" and not tiles) or (effect == "void" and kind != SUIT):
            ctx.problems.error(
                f"choice '{name}' has effect {effect}, which needs "
                + ("a choice of tiles" if effect == "exchange" else "suits as values"),
                _at(ctx, ("choices", name, "effect")),
                expected="tiles: N for exchange, suits for void",
            )
        default = compiled.get(("choices", name, "default"))
        asks = getattr(entry.get("when"), "text", "true")
        if default is None and asks != "true":
            ctx.problems.error(
                f"choice '{name}' does not ask every seat (when: {asks}) and has no default",
                _at(ctx, ("choices", name, "when")),
                expected="default: the value of a seat not asked",
            )
        if (
            default is not None
            and default.type != kind
            and not (kind.is_collection and default.type.is_collection)
        ):
            ctx.problems.error(
                f"choices.{name}.default gives {default.type}, the choice's values are {kind}",
                _at(ctx, ("choices", name, "default")),
                expected=str(kind),
            )
        found[name] = kind
    return found


def _section(source: ExprSource, data: Mapping[str, Any]) -> str:
    """The section ``source`` is compiled in: a payment rule's fields see its moment's names."""
    if source.path[0] == "payments" and len(source.path) > 2:
        at = ((data.get("payments") or {}).get(source.path[1]) or {}).get("at")
        if at in MOMENTS:
            return source.scope.replace("payments_kong", f"payments_{at}", 1)
    return source.scope


_VALUE_READERS = ("scoring", "payment", "birds", "payments", "adjustments")
"""The sections whose expressions turn the found hand types into what a hand is worth."""


def unread_classes(
    modifiers: Mapping[str, Any], expressions: Iterable[tuple[tuple[Any, ...], Any]]
) -> dict[str, tuple[str, ...]]:
    """The classes no expression of scoring or payment reads (through the class, ``hands``
    or a modifier's own name), each with its modifiers: those are listed but worth nothing.
    A hand type of such a class still makes the hand win (a payment may pay a plain win a
    constant), so only modifiers are counted.  ``expressions``: (path, compiled) pairs."""
    from dsl.syntax import mentions

    readers = [e for path, e in expressions if path[0] in _VALUE_READERS]
    if any(mentions(e, "hands") for e in readers):
        return {}
    unread: dict[str, tuple[str, ...]] = {}
    for name, entry in modifiers.items():
        kind = (entry or {}).get("class")
        if kind and not any(mentions(e, kind) or mentions(e, name) for e in readers):
            unread[kind] = (*unread.get(kind, ()), name)
    return unread


def unread_class_message(kind: str, modifiers: Mapping[str, Any], names: Sequence[str]) -> str:
    labels = ", ".join(f"{display_name(modifiers[n].get('name'), n)} ({n})" for n in names)
    return f"class '{kind}' of {labels} is read by no expression: its hand types add nothing"


def _audit_classes(
    data: dict[str, Any], compiled: Mapping[tuple[Any, ...], Any], ctx: Context, root: Node
) -> None:
    """Warn of the modifiers worth nothing (``unread_classes``): settling shows them at 0."""
    modifiers = data.get("modifiers") or {}
    for kind, names in unread_classes(modifiers, compiled.items()).items():
        at = ("modifiers", names[0], "class")
        ctx.problems.warning(
            unread_class_message(kind, modifiers, names),
            _where(ctx, at if at in ctx.locations else at[:2], root),
            expected=f"'{kind}' in scoring.value (e.g. sum({kind}, value)) or in a payment "
            "field that reads the classes",
        )


def display_name(name: Any, fallback: str) -> str:
    """A rule's name as players read it: the Chinese of a ``{zh:, en:}`` map, else its text,
    else ``fallback`` (the rule's id)."""
    if isinstance(name, Mapping):
        return str(name.get("zh") or name.get("en") or fallback)
    return str(name) if name else fallback


def _audit_shapes(
    data: dict[str, Any],
    compiled: Mapping[tuple[Any, ...], Any],
    ctx: Context,
    options: Mapping[str, Option],
    root: Node,
    tileset: TileSet,
) -> None:
    """Every hand type needs a winning shape unless it says ``shape: none`` (see shape_audit)."""
    from dsl.shape_audit import describe, needs_shape, witness

    values = {name: option.possible_values() for name, option in options.items()}
    players = (data.get("players") or {}).get("count") or 4
    for name, hand in (data.get("hands") or {}).items():
        when = compiled.get(("hands", name, "when"))
        if not hand or when is None:
            continue
        where = _where(ctx, ("hands", name, "when"), root)
        if hand.get("shape") == "none":
            if needs_shape(when.ast):
                ctx.problems.warning(
                    f"hands.{name} says shape: none, but its condition requires "
                    "standard() or seven_pairs()",
                    _where(ctx, ("hands", name, "shape"), root),
                    expected="shape: none only on a hand type that needs no shape",
                )
            continue
        if needs_shape(when.ast):
            continue
        found = witness(when, values, players, tileset)
        if found is not None:
            ctx.problems.error(
                f"hands.{name} holds on a hand with no winning shape, which it would make a "
                f"win: {describe(found)}",
                where,
                expected="a condition that requires standard() or seven_pairs(), or "
                "'shape: none' on a hand type meant to need no shape",
            )


def _scope(
    scope_type: Any,
    section: str,
    options: Mapping[str, Any],
    hands: Mapping[str, str],
    choices: Mapping[str, Any],
    tileset: TileSet,
) -> Any:
    return scope_type.for_section(
        section, options=options, hands=hands, choices=choices, tileset=tileset
    )


def _expression_problem(source: ExprSource, exc: Any) -> Problem:
    from dsl.problems import ERROR, make

    where = ".".join(str(p) for p in source.path)
    node = source.node
    if node.kind == "scalar":
        location = node.offset_location(max(0, exc.offset), max(1, exc.length))
        message = f"{where}: {exc.message}"
    else:  # a default expression: no text of its own in the file
        location = node.location
        message = f"{where} (default '{source.text}'): {exc.message}"
    return make(
        ERROR, message, location, expected=exc.expected or "", suggestion=exc.suggestion or ""
    )


def _freeze(value: Any, compiled: Mapping[tuple[Any, ...], Any], path: tuple[Any, ...]) -> Any:
    if isinstance(value, ExprSource):
        return compiled.get(value.path, value)
    if isinstance(value, Option):
        return value
    if isinstance(value, Mapping):
        return Frozen({k: _freeze(v, compiled, (*path, k)) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v, compiled, (*path, i)) for i, v in enumerate(value))
    return value
