"""interpreter.simulate: determinism across workers and Dask, paired seeds, output files."""

from __future__ import annotations

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from interpreter.simulate import (
    MAX_GAMES,
    Chunks,
    SimulationError,
    hand_seed,
    iter_records,
    read_results,
    simulate,
)

SICHUAN, CHANGSHA = "sichuan/blog5", "changsha/qq2014"
N = 24


def run(ruleset=SICHUAN, games=N, **kw):
    kw.setdefault("agents", "random")
    kw.setdefault("progress", False)
    return simulate(ruleset, games, kw.pop("seed", 7), **kw)


@pytest.fixture(scope="module")
def reference():
    """The single-process run every other way of running must reproduce."""
    return run(workers=1, chunk=5)


def test_one_row_per_hand_in_index_order(reference):
    assert list(reference["index"]) == list(range(N))
    assert list(reference["dealer"]) == [i % 4 for i in range(N)]
    assert list(reference["seed"]) == [hand_seed(7, i) for i in range(N)]
    deltas = reference[[f"delta_{s}" for s in range(4)]]
    assert (deltas.sum(axis=1) == 0).all()  # money moves between seats
    assert (reference["n_wins"] == reference["winners"].map(len)).all()


def test_hand_seeds_depend_on_seed_and_index_only():
    assert hand_seed(1, 0) == hand_seed(1, 0)
    assert len({hand_seed(s, i) for s in range(5) for i in range(200)}) == 1000
    assert all(0 <= hand_seed(1, i) < 2**63 for i in range(100))


def test_two_workers_equal_one(reference):
    assert_frame_equal(run(workers=2, chunk=3), reference)


def test_streaming_equals_the_frame(reference):
    rows = list(iter_records(SICHUAN, N, 7, "random", workers=1))
    assert_frame_equal(pd.DataFrame(rows), reference)


def test_dask_cluster_equals_one_process(reference):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        by_address = run(scheduler=cluster.scheduler_address, chunk=4)
        by_client = run(scheduler=client, chunk=7)
    assert_frame_equal(by_address.sort_values("index").reset_index(drop=True), reference)
    assert_frame_equal(by_client, reference)


def test_paired_seeds_deal_the_same_hands_under_two_rulesets():
    a = run(SICHUAN, 8, workers=1)
    b = run(CHANGSHA, 8, workers=1)
    dealt = [f"dealt_{s}" for s in range(4)]
    assert_frame_equal(a[["seed", "dealer", *dealt]], b[["seed", "dealer", *dealt]])
    assert (a["ruleset"] != b["ruleset"]).all()
    other_seed = run(SICHUAN, 8, workers=1, seed=8)
    assert (other_seed["dealt_0"] != a["dealt_0"]).all()


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_output_files_read_back(tmp_path, reference, ext):
    path = tmp_path / f"results.{ext}"
    df = run(workers=1, out=path, chunk=5)
    assert_frame_equal(df, reference)
    back = read_results(path)
    assert len(back) == N
    assert list(back.columns) == list(reference.columns)
    for column in reference.columns:
        assert [_plain(v) for v in back[column]] == [_plain(v) for v in reference[column]], column


def _plain(value):
    return value.item() if hasattr(value, "item") else value


def test_bad_input_is_a_simulation_error(tmp_path):
    with pytest.raises(SimulationError, match="unknown agent 'nobody'"):
        run(agents="nobody")
    with pytest.raises(SimulationError, match="3 agents for 4 seats"):
        run(agents="random,random,simple")
    with pytest.raises(SimulationError, match=r"\.parquet, \.csv or \.jsonl"):
        run(out=tmp_path / "r.xlsx")
    with pytest.raises(SimulationError, match=r"--seed must be from .* \(64 bits\)"):
        run(seed=2**63, out=tmp_path / "r.parquet")  # a Parquet column of 64-bit integers


def test_the_seeds_at_the_ends_of_64_bits_are_kept(tmp_path):
    for seed in (-(2**63), 2**63 - 1):
        out = tmp_path / f"{seed}.parquet"
        run(games=2, seed=seed, workers=1, out=out)
        assert list(read_results(out)["master_seed"]) == [seed, seed]


def test_the_chunks_of_a_run_are_made_when_needed():
    """Ten billion hands are 200 million chunks: none is made before it is played."""
    everything = Chunks([(0, MAX_GAMES)], 50)
    assert len(everything) == 200_000_000 and len(everything.parts) == 1
    last = everything[len(everything) - 1]
    assert everything[0] == (0, 50) and last == (MAX_GAMES - 49, MAX_GAMES)
    gaps = Chunks([(0, 7), (9, 9), (12, 20)], 3)  # a resumed run: only the hands missing
    assert list(gaps) == [(0, 3), (3, 6), (6, 7), (12, 15), (15, 18), (18, 20)]
    with pytest.raises(IndexError):
        gaps[6]


def test_more_hands_than_a_run_can_number_is_an_error():
    with pytest.raises(SimulationError, match="--games must be at most 9,999,999,999"):
        run(games=10**23, workers=1)


def test_zero_games_is_an_empty_table():
    df = run(games=0, workers=1)
    assert len(df) == 0 and "delta_0" in df.columns
