"""Every analysis test keeps its results in its own folder, never in the user's cache."""

import pytest


@pytest.fixture(autouse=True)
def results_folder(tmp_path, monkeypatch):
    folder = tmp_path / "results"
    monkeypatch.setenv("MJRULES_RESULTS", str(folder))  # read by the commands' --cache
    return folder
