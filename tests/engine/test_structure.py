"""The engine's modules stand in layers: each imports only modules below it, so no import
circle can form (the parts call down; what happens next is a phase in the table or a
round's ``after``), and no phase is dispatched by attribute name."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "interpreter" / "engine"
ORDER = (
    "game", "turn", "claims", "kongs", "wall_end", "rounds", "deal", "choices", "legal", "wins",
    "flow", "declarations", "payments", "state", "facts", "rules", "events", "wall", "actions",
)  # fmt: skip
"""From the top: the order the module docstring of ``game`` gives."""


def engine_imports(module: str) -> set[str]:
    """The engine modules ``module`` imports, wherever the import stands (type-checking
    blocks and functions included)."""
    found = set()
    for node in ast.walk(ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "interpreter.engine":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("interpreter.engine."):
                found.add(node.module.removeprefix("interpreter.engine.").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("interpreter.engine."):
                    found.add(alias.name.removeprefix("interpreter.engine.").split(".")[0])
    return found - {module}


def test_each_layer_imports_only_the_layers_below_it() -> None:
    for i, module in enumerate(ORDER):
        above = set(ORDER[: i + 1]) & engine_imports(module)
        assert not above, f"{module} imports {sorted(above)}, which stand above it"


def test_no_import_circle_among_the_engine_modules() -> None:
    modules = {p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    graph = {m: engine_imports(m) & modules for m in modules}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " → ".join((*path[path.index(module) :], module))
        if module in done:
            return
        for dependency in sorted(graph[module]):
            visit(dependency, (*path, module))
        done.add(module)

    for module in sorted(modules):
        visit(module, ())


def test_no_phase_is_dispatched_by_attribute_name() -> None:
    """No ``getattr`` with a name worked out at run time (``"_do_" + phase``)."""
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr":
                name = node.args[1]
                assert isinstance(name, ast.Constant), f"{path.name}:{node.lineno}"
