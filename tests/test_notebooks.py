"""Every notebook runs top to bottom (with few hands: MJRULES_NOTEBOOK_HANDS), and one that
plays through ``Run`` keeps its hands in the folder MJRULES_NOTEBOOK_RESULTS names."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch, tmp_path):
    monkeypatch.setenv("MJRULES_NOTEBOOK_HANDS", "40")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("MJRULES_NOTEBOOK_RESULTS", str(tmp_path / "results"))
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={
        "metadata": {"path": str(path.parent)}
    }).execute()  # fmt: skip
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert errors == []
    if "Run(" in path.read_text(encoding="utf-8"):
        assert list((tmp_path / "results").glob("*.parquet")), "no hands kept for reuse"


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebook found under notebooks/"
