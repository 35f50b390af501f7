"""The import graph has floors (DESIGN.md, "Layers and data flow"): the hand core at the
ground, the rules language above it, the interpreter (engine, settlement, agents,
simulation, analysis) above that, the command line on top.  An import may point down or
sideways, never up — not even one made late inside a function or for types only — and the
modules import each other in no circle.

The graph is read from the source with ``ast``, so a test can also feed it made-up modules
and see that a violation is caught.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("handcore", "dsl", "interpreter")
COMMAND_LINE = frozenset(
    {
        "interpreter.cli",  # the `mjrules` group and most commands
        "interpreter.check_cli",  # check, diff
        "interpreter.ruleset_cli",  # list, validate, schema, explain
        "interpreter.human",  # a person at the terminal (`play --human`)
        "interpreter.view",  # `mjrules view`: a game log as a page
    }
)
FLOORS = ("the hand core", "the rules language", "the interpreter", "the command line")


def floor(module: str) -> int:
    if module in COMMAND_LINE or any(module.startswith(f"{m}.") for m in COMMAND_LINE):
        return 3
    return PACKAGES.index(module.split(".")[0])


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool
    """Made when the function runs, not when the module is imported."""
    type_only: bool
    """Under ``if TYPE_CHECKING:``: read by type checkers, never run."""


def modules_on_disk() -> dict[str, str]:
    """Every module of the project's packages: dotted name -> source text."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path.read_text(encoding="utf-8")
    return found


def imports(sources: Mapping[str, str]) -> Iterator[Import]:
    """Every import of one of the packages, wherever it is written.

    ``from a import b`` names module ``a.b`` when there is one, else ``a``."""
    packages = {name.rpartition(".")[0] for name in sources}

    def resolve(source: str, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        here = source if source in packages else source.rpartition(".")[0]
        base = here.rsplit(".", node.level - 1)[0]
        return f"{base}.{node.module}" if node.module else base

    def walk(source: str, body: list[ast.stmt], late: bool, typing: bool) -> Iterator[Import]:
        for node in body:
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = resolve(source, node)
                targets = [
                    f"{module}.{a.name}" if f"{module}.{a.name}" in sources else module
                    for a in node.names
                ]
            for target in targets:
                if target.split(".")[0] in PACKAGES:
                    yield Import(source, target, node.lineno, late, typing)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                yield from walk(source, node.body, late, True)
                yield from walk(source, node.orelse, late, typing)
                continue
            inner = late or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    yield from walk(source, block, inner, typing)

    for name, text in sources.items():
        yield from walk(name, _parse(text).body, False, False)


_parse = functools.cache(ast.parse)


def upward(sources: Mapping[str, str]) -> list[str]:
    """The imports that reach a floor above their module's."""
    return [
        f"{i.source}:{i.line} imports {i.target}: {FLOORS[floor(i.target)]} is above "
        f"{FLOORS[floor(i.source)]}"
        for i in imports(sources)
        if floor(i.target) > floor(i.source)
    ]


def circles(sources: Mapping[str, str], type_only: bool = False) -> list[list[str]]:
    """Modules that import each other at module level (with ``type_only``, the imports for
    types count too), each circle as a closed path ``[a, b, ..., a]``.  Importing a module
    runs the packages it sits in first: they count as imported too."""
    graph: dict[str, set[str]] = {name: set() for name in sources}
    for i in imports(sources):
        if not i.in_function and (type_only or not i.type_only):
            parts = i.target.split(".")
            for n in range(1, len(parts) + 1):  # the target and the packages it sits in
                target = ".".join(parts[:n])
                inside = i.source == target or i.source.startswith(f"{target}.")
                if target in graph and not inside:
                    graph[i.source].add(target)
    found: list[list[str]] = []
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> None:  # depth-first: an edge back into the path closes a circle
        state[module] = "on the path"
        path.append(module)
        for step in sorted(graph[module]):
            if state.get(step) == "on the path":
                found.append([*path[path.index(step) :], step])
            elif step not in state:
                visit(step)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


# --- the project ------------------------------------------------------------------------------

SOURCES = modules_on_disk()


def test_the_walk_sees_every_floor_and_the_imports():
    floors = {floor(name) for name in SOURCES}
    assert floors == {0, 1, 2, 3}
    assert SOURCES.keys() >= COMMAND_LINE  # a command module renamed must be named again here
    found = {(i.source, i.target) for i in imports(SOURCES)}
    assert ("dsl.situation", "handcore.tiles") in found
    assert ("interpreter.cli", "interpreter.ruleset_cli") in found
    assert ("interpreter.engine.match", "interpreter.agents") in found  # inside a function


def test_no_import_reaches_a_floor_above():
    assert upward(SOURCES) == []


def test_no_circle_at_module_level():
    assert circles(SOURCES) == []


def test_no_circle_even_through_imports_for_types():
    assert circles(SOURCES, type_only=True) == []


def test_only_the_command_line_reads_scenario_files():
    """Settlement, the engine and the bots share the hand record; the file format is an input."""
    readers = {i.source for i in imports(SOURCES) if i.target == "interpreter.scenario"}
    assert readers and readers <= COMMAND_LINE


# --- made-up modules: the checks catch what they should -----------------------------------------


def test_an_import_up_is_caught_wherever_it_is_written():
    sources = {
        "handcore.tiles": "from dsl import syntax\n",
        "dsl.syntax": "def f():\n    from interpreter.check import check\n",
        "interpreter.check": "",
        "interpreter.settle": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from interpreter import cli\n"
        ),
        "interpreter.engine": "",
        "interpreter.engine.game": "from .. import cli\n",
        "interpreter.cli": "import handcore.tiles\nfrom interpreter import settle\n",
    }
    assert upward(sources) == [
        "handcore.tiles:1 imports dsl.syntax: the rules language is above the hand core",
        "dsl.syntax:2 imports interpreter.check: the interpreter is above the rules language",
        "interpreter.settle:3 imports interpreter.cli: the command line is above the interpreter",
        "interpreter.engine.game:1 imports interpreter.cli: the command line is above the "
        "interpreter",
    ]


def test_a_circle_is_caught_at_module_level_only():
    sources = {
        "interpreter.a": "import interpreter.b\n",
        "interpreter.b": "from interpreter.c import thing\n",
        "interpreter.c": "from interpreter import a\n",
    }
    assert circles(sources) == [
        ["interpreter.a", "interpreter.b", "interpreter.c", "interpreter.a"]
    ]
    lazy = {**sources, "interpreter.c": "def f():\n    from interpreter import a\n"}
    assert circles(lazy) == []
    typed = {**sources, "interpreter.c": "if TYPE_CHECKING:\n    from interpreter import a\n"}
    assert circles(typed) == []
    assert circles(typed, type_only=True) != []


def test_a_circle_through_a_package_init_is_caught():
    # Importing interpreter.engine.actions runs interpreter/engine/__init__.py first.
    sources = {
        "interpreter.engine": "from interpreter.engine.game import Game\n",
        "interpreter.engine.actions": "",
        "interpreter.engine.game": "from interpreter.agents.bot import Bot\n",
        "interpreter.agents": "",
        "interpreter.agents.bot": "from interpreter.engine.actions import Action\n",
    }
    assert circles(sources) == [
        [
            "interpreter.agents.bot",
            "interpreter.engine",
            "interpreter.engine.game",
            "interpreter.agents.bot",
        ]
    ]
