"""The garbage collector is set for play in mjrules' own processes only: the pool's workers
and the command line, never in a process that calls the library."""

from __future__ import annotations

import gc
import sys

import pytest

from interpreter import cli
from interpreter import simulate as sim
from interpreter.workers import PLAY_COLLECTOR, Pool


@pytest.fixture
def thresholds():
    """The test process's thresholds, put back afterwards."""
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_a_pool_worker_plays_with_the_play_thresholds() -> None:
    pool = Pool(1, gc.get_threshold)
    try:
        pool.submit()
        assert pool.wait_one()[1] == PLAY_COLLECTOR
    finally:
        pool.close()


def test_the_command_line_sets_them_for_its_process(thresholds, monkeypatch, capsys) -> None:
    assert thresholds != PLAY_COLLECTOR
    monkeypatch.setattr(sys, "argv", ["mjrules", "--help"])
    cli.main()
    assert "simulate" in capsys.readouterr().out
    assert gc.get_threshold() == PLAY_COLLECTOR


def test_a_simulation_in_the_callers_process_leaves_them_alone(thresholds) -> None:
    rows = sim.simulate("sichuan/blog5", 2, seed=1, agents="efficiency", workers=1,
                        progress=False)  # fmt: skip
    assert len(rows) == 2
    assert gc.get_threshold() == thresholds
