"""Whoever installs the ``notebooks`` extra can open and re-run every notebook: each
third-party module the notebooks need belongs to a core dependency or to the extra.

A notebook needs what its code cells and ``notebooks/*.py`` import, and what the project
modules they import import at module level (``interpreter.env`` needs PettingZoo); an import
inside a project function serves an optional command (``mjrules tune``) and is left out.
"""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import nbformat
from IPython.core.inputtransformer2 import TransformerManager

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
OWN = {"handcore", "dsl", "interpreter", "rulesets"}
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def normalised(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def names(requirements: list[str]) -> set[str]:
    return {normalised(re.match(r"[A-Za-z0-9._-]+", r)[0]) for r in requirements}


def parse(path: Path) -> ast.Module:
    if path.suffix != ".ipynb":
        return ast.parse(path.read_text(encoding="utf-8"))
    cells = nbformat.read(path, as_version=4).cells
    to_python = TransformerManager().transform_cell  # %magics and !commands as Python
    return ast.parse("\n".join(to_python(c.source) for c in cells if c.cell_type == "code"))


def imported(tree: ast.Module, everywhere: bool) -> set[str]:
    """The modules a file imports, anywhere in it or at module level only; ``from M import N``
    counts M and M.N, which may be a submodule."""
    found = set()
    for node in ast.walk(tree) if everywhere else tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return found


def project_file(module: str) -> Path | None:
    base = REPO.joinpath(*module.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def needed() -> dict[str, str]:
    """Each third-party top-level module the notebooks need, with a file that imports it."""
    helpers = sorted(NOTEBOOKS.glob("*.py"))
    local = {p.stem for p in helpers}
    to_read = [(p, True) for p in sorted(NOTEBOOKS.glob("*.ipynb")) + helpers]
    read: set[Path] = set()
    found: dict[str, str] = {}
    while to_read:
        path, everywhere = to_read.pop()
        for module in imported(parse(path), everywhere):
            parts = module.split(".")
            if parts[0] in OWN:  # importing a.b.c runs a, a.b and a.b.c
                files = {project_file(".".join(parts[:i])) for i in range(1, len(parts) + 1)}
                to_read += [(f, False) for f in files - read - {None}]
                read |= files
            elif parts[0] not in sys.stdlib_module_names and parts[0] not in local:
                found.setdefault(parts[0], path.relative_to(REPO).as_posix())
    return found


def test_every_module_the_notebooks_need_is_declared():
    declared = names(PROJECT["dependencies"] + PROJECT["optional-dependencies"]["notebooks"])
    # A module no installed distribution provides (a package of the extra missing from this
    # environment) is taken to come from the distribution of its own name, as most do.
    providers = packages_distributions()
    undeclared = {
        module: where
        for module, where in needed().items()
        if not names(providers.get(module, [module])) & declared
    }
    assert undeclared == {}, "imported by the notebooks but in neither the core nor the extra"


def test_the_collector_follows_cells_helpers_and_project_modules():
    found = needed()
    assert {"IPython", "matplotlib", "nbclient"} <= set(found)
    assert found["pettingzoo"] == "interpreter/env.py"  # imported by learning_agent.ipynb


def test_the_extra_brings_jupyter():
    assert "jupyter" in names(PROJECT["optional-dependencies"]["notebooks"])
